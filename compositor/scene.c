/* SPDX-License-Identifier: MIT */
/*
 * scene.c - where surfaces are on the output, and drawing them with pixman.
 *
 * Rendering is damage-tracked: the scene accumulates, in output
 * coordinates, every area that changed since the last repaint, and a
 * repaint touches only those pixels (plus what the target image missed
 * while it was off screen, see wlseal_scene_render). A client that
 * changes a 64x64 square costs a 64x64 copy.
 */
#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "compositor.h"

void wlseal_scene_init(struct wlseal_scene *scene, int width, int height)
{
	scene->width = width;
	scene->height = height;
	wl_list_init(&scene->views);
	pixman_region32_init_rect(&scene->damage, 0, 0, width, height);
	pixman_region32_init(&scene->prev_damage);
	scene->cascade_next = 0;
}

void wlseal_scene_finish(struct wlseal_scene *scene)
{
	pixman_region32_fini(&scene->damage);
	pixman_region32_fini(&scene->prev_damage);
}

void wlseal_scene_damage_all(struct wlseal_scene *scene)
{
	pixman_region32_union_rect(&scene->damage, &scene->damage, 0, 0,
				   scene->width, scene->height);
}

bool wlseal_scene_has_damage(struct wlseal_scene *scene)
{
	return pixman_region32_not_empty(&scene->damage);
}

/* @surface_damage in surface coordinates; NULL means the whole surface. */
void wlseal_scene_damage_surface(struct wlseal_scene *scene,
				 struct wlseal_surface *s,
				 pixman_region32_t *surface_damage)
{
	pixman_region32_t d;

	pixman_region32_init_rect(&d, 0, 0, s->width, s->height);
	if (surface_damage) {
		/* Damage outside the surface is meaningless; a surface
		 * that shrank passes its old outline here explicitly. */
		if (surface_damage->extents.x2 > s->width ||
		    surface_damage->extents.y2 > s->height)
			pixman_region32_copy(&d, surface_damage);
		else
			pixman_region32_intersect(&d, &d, surface_damage);
	}
	pixman_region32_translate(&d, s->x, s->y);
	pixman_region32_intersect_rect(&d, &d, 0, 0, scene->width,
				       scene->height);
	pixman_region32_union(&scene->damage, &scene->damage, &d);
	pixman_region32_fini(&d);
}

void wlseal_scene_map(struct wlseal_scene *scene, struct wlseal_surface *s)
{
	/* A cascade: each new window a step down and right of the last,
	 * wrapping after a few, so that several are visible at once. */
	unsigned int slot = scene->cascade_next++ % WLSEAL_CASCADE_SLOTS;

	s->x = WLSEAL_CASCADE_X0 + (int32_t)slot * WLSEAL_CASCADE_STEP;
	s->y = WLSEAL_CASCADE_Y0 + (int32_t)slot * WLSEAL_CASCADE_STEP;
	s->mapped = true;
	wl_list_insert(scene->views.prev, &s->view_link);	/* on top */
	wlseal_scene_damage_surface(scene, s, NULL);
}

void wlseal_scene_unmap(struct wlseal_scene *scene, struct wlseal_surface *s)
{
	wlseal_scene_damage_surface(scene, s, NULL);
	s->mapped = false;
	wl_list_remove(&s->view_link);
	wl_list_init(&s->view_link);
}

static void draw_surface(struct wlseal_surface *s, pixman_image_t *target)
{
	struct wlseal_pixels px;
	pixman_image_t *src;
	pixman_format_code_t fmt;

	if (!s->buffer || !wlseal_buffer_begin(s->buffer, &px))
		return;
	fmt = px.format == WL_SHM_FORMAT_ARGB8888 ? PIXMAN_a8r8g8b8
						  : PIXMAN_x8r8g8b8;
	/* Wraps the client's pages, no copy; pixman only reads them. */
	src = pixman_image_create_bits_no_clear(fmt, px.width, px.height,
						px.data, px.stride);
	if (src) {
		pixman_image_composite32(PIXMAN_OP_OVER, src, NULL, target,
					 0, 0, 0, 0, s->x, s->y,
					 px.width, px.height);
		pixman_image_unref(src);
	}
	wlseal_buffer_end(&px);
}

uint64_t wlseal_scene_render(struct wlseal_scene *scene,
			     pixman_image_t *target, int age)
{
	static const pixman_color_t bg = {
		.red = ((WLSEAL_BACKGROUND >> 16) & 0xff) * 0x101,
		.green = ((WLSEAL_BACKGROUND >> 8) & 0xff) * 0x101,
		.blue = (WLSEAL_BACKGROUND & 0xff) * 0x101,
		.alpha = 0xffff,
	};
	struct wlseal_surface *s;
	pixman_region32_t region;
	pixman_box32_t *boxes;
	uint64_t area = 0;
	int n, i;

	/*
	 * What to redraw depends on how stale the target is: a single
	 * buffer (age 1) missed only the new damage; the back buffer of a
	 * double-buffered output (age 2) also missed what the previous
	 * frame drew into the other buffer; unknown content (age 0) is
	 * redrawn entirely.
	 */
	pixman_region32_init(&region);
	pixman_region32_copy(&region, &scene->damage);
	if (age == 2)
		pixman_region32_union(&region, &region, &scene->prev_damage);
	else if (age != 1)
		pixman_region32_union_rect(&region, &region, 0, 0,
					   scene->width, scene->height);

	/* Clip every operation to the region: the cost follows damage. */
	pixman_image_set_clip_region32(target, &region);
	boxes = pixman_region32_rectangles(&region, &n);
	pixman_image_fill_boxes(PIXMAN_OP_SRC, target, &bg, n, boxes);
	wl_list_for_each(s, &scene->views, view_link)
		draw_surface(s, target);
	pixman_image_set_clip_region32(target, NULL);

	for (i = 0; i < n; i++)
		area += (uint64_t)(boxes[i].x2 - boxes[i].x1) *
			(uint64_t)(boxes[i].y2 - boxes[i].y1);

	pixman_region32_copy(&scene->prev_damage, &scene->damage);
	pixman_region32_clear(&scene->damage);
	pixman_region32_fini(&region);
	return area;
}
