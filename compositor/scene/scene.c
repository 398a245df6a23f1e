/* SPDX-License-Identifier: MIT */
/*
 * scene.c - where views are on the output, and drawing them with pixman.
 *
 * Rendering is damage-tracked: the scene accumulates, in output
 * coordinates, every area that changed since the last repaint, and a
 * repaint touches only those pixels (plus what the target image missed
 * while it was off screen, see wlseal_scene_render). A client that
 * changes a 64x64 square costs a 64x64 copy.
 */
#include "scene.h"

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

void wlseal_scene_view_init(struct wlseal_scene_view *view,
			    const struct wlseal_scene_source *source)
{
	*view = (struct wlseal_scene_view){ .source = source };
	wl_list_init(&view->link);
}

bool wlseal_scene_has_damage(struct wlseal_scene *scene)
{
	return pixman_region32_not_empty(&scene->damage);
}

void wlseal_scene_damage_view(struct wlseal_scene *scene,
			      struct wlseal_scene_view *v,
			      pixman_region32_t *damage)
{
	pixman_region32_t d;

	pixman_region32_init_rect(&d, 0, 0, v->width, v->height);
	if (damage) {
		/* Damage outside the view is meaningless; a view
		 * that shrank passes its old outline here explicitly. */
		if (damage->extents.x2 > v->width ||
		    damage->extents.y2 > v->height)
			pixman_region32_copy(&d, damage);
		else
			pixman_region32_intersect(&d, &d, damage);
	}
	pixman_region32_translate(&d, v->x, v->y);
	pixman_region32_intersect_rect(&d, &d, 0, 0, scene->width,
				       scene->height);
	pixman_region32_union(&scene->damage, &scene->damage, &d);
	pixman_region32_fini(&d);
}

void wlseal_scene_map(struct wlseal_scene *scene, struct wlseal_scene_view *v)
{
	/* A cascade: each new window a step down and right of the last,
	 * wrapping after a few, so that several are visible at once. */
	unsigned int slot = scene->cascade_next++ % WLSEAL_CASCADE_SLOTS;

	v->x = WLSEAL_CASCADE_X0 + (int32_t)slot * WLSEAL_CASCADE_STEP;
	v->y = WLSEAL_CASCADE_Y0 + (int32_t)slot * WLSEAL_CASCADE_STEP;
	v->mapped = true;
	wl_list_insert(scene->views.prev, &v->link);	/* on top */
	wlseal_scene_damage_view(scene, v, NULL);
}

void wlseal_scene_unmap(struct wlseal_scene *scene,
			struct wlseal_scene_view *v)
{
	wlseal_scene_damage_view(scene, v, NULL);
	v->mapped = false;
	wl_list_remove(&v->link);
	wl_list_init(&v->link);
}

static void draw_view(struct wlseal_scene_view *v, pixman_image_t *target)
{
	pixman_image_t *src = v->source->begin(v);

	if (!src)
		return;
	pixman_image_composite32(PIXMAN_OP_OVER, src, NULL, target,
				 0, 0, 0, 0, v->x, v->y,
				 pixman_image_get_width(src),
				 pixman_image_get_height(src));
	pixman_image_unref(src);
	v->source->end(v);
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
	struct wlseal_scene_view *v;
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
	wl_list_for_each(v, &scene->views, link)
		draw_view(v, target);
	pixman_image_set_clip_region32(target, NULL);

	for (i = 0; i < n; i++)
		area += (uint64_t)(boxes[i].x2 - boxes[i].x1) *
			(uint64_t)(boxes[i].y2 - boxes[i].y1);

	pixman_region32_copy(&scene->prev_damage, &scene->damage);
	pixman_region32_clear(&scene->damage);
	pixman_region32_fini(&region);
	return area;
}
