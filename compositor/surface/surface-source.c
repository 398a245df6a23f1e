/* SPDX-License-Identifier: MIT */
/*
 * surface-source.c - a surface's view as the scene's source of pixels:
 * the committed buffer wrapped for pixman at each repaint (no copy), the
 * buffer as it lies in its file for direct scanout, and the residency
 * check (may the view be drawn now: shm/resident.c), which draws the
 * view again once the pages it waited for are in.
 */
#include <stdint.h>

#include <pixman.h>
#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "surface-impl.h"

/* The scene reads the committed buffer whenever it repaints. */
static pixman_image_t *surface_source_begin(struct wlseal_scene_view *view)
{
	struct wlseal_surface *s = wl_container_of(view, s, view);
	struct wlseal_pixels *px = &s->reading;
	pixman_format_code_t fmt;
	pixman_image_t *image;

	if (!s->buffer || !wlseal_buffer_begin(s->buffer, px))
		return NULL;
	fmt = px->format == WL_SHM_FORMAT_ARGB8888 ? PIXMAN_a8r8g8b8
						   : PIXMAN_x8r8g8b8;
	/* Wraps the client's pages, no copy; pixman only reads them. */
	image = pixman_image_create_bits_no_clear(fmt, px->width, px->height,
						  px->data, px->stride);
	if (!image)
		wlseal_buffer_end(px);
	return image;
}

static void surface_source_end(struct wlseal_scene_view *view)
{
	struct wlseal_surface *s = wl_container_of(view, s, view);

	wlseal_buffer_end(&s->reading);
}

/* Direct scanout (scene.c asks, for the topmost full-output view): the
 * committed buffer as it lies in its file, when nothing about the
 * surface changes its pixels on the way (the scene checked that the
 * view is the buffer at 1:1). */
static bool surface_source_scanout(struct wlseal_scene_view *view,
				   struct wlseal_scene_scanout *out,
				   char *why, size_t why_len)
{
	struct wlseal_surface *s = wl_container_of(view, s, view);

	if (!s->buffer || s->buffer_info.copied)
		return false;
	return wlseal_scanout_describe(s->buffer, out, why, why_len);
}

/* What the scene's @part of the view samples of the buffer. */
static void surface_sampling(const struct wlseal_surface *s,
			     const struct wlseal_scene_box *part,
			     struct wlseal_sampling *out)
{
	/* The part lies within the view, whose size is an int32_t. */
	*out = (struct wlseal_sampling){
		.x1 = (int32_t)part->x1, .y1 = (int32_t)part->y1,
		.x2 = (int32_t)part->x2, .y2 = (int32_t)part->y2,
		.transformed = s->view.transform != NULL,
		.bilinear = s->view.filter != PIXMAN_FILTER_NEAREST &&
			    s->view.filter != PIXMAN_FILTER_FAST,
	};
	if (s->view.transform)
		for (int r = 0; r < 2; r++)
			for (int c = 0; c < 3; c++)
				out->m[r][c] = s->view.transform->matrix[r][c];
}

/* A pool's pages the view samples are in memory (shm/resident.c). */
static bool surface_source_ready(struct wlseal_scene_view *view,
				 const struct wlseal_scene_box *part)
{
	struct wlseal_surface *s = wl_container_of(view, s, view);
	struct wlseal_sampling sampling;

	surface_sampling(s, part, &sampling);
	return wlseal_buffer_resident(s->buffer, &sampling, &s->resident);
}

static uint64_t surface_source_ready_cost_ns(struct wlseal_scene_view *view,
					     const struct wlseal_scene_box *part)
{
	struct wlseal_surface *s = wl_container_of(view, s, view);
	struct wlseal_sampling sampling;

	surface_sampling(s, part, &sampling);
	return wlseal_buffer_sample_cost_ns(s->buffer, &sampling);
}

/* The pages it waited for are in (or a populate slot of its client came
 * free): drawn again, all of it, with the next frame. */
static void surface_populated(struct wlseal_resident_waiter *w)
{
	struct wlseal_surface *s = wl_container_of(w, s, resident);

	if (!wlseal_scene_view_visible(&s->view))
		return;
	wlseal_scene_damage_view(&s->server->scene, &s->view, NULL);
	wlseal_scene_request_frame(&s->server->scene);
}

static const struct wlseal_scene_source surface_source = {
	.begin = surface_source_begin,
	.end = surface_source_end,
	.scanout = surface_source_scanout,
	.ready = surface_source_ready,
	.ready_cost_ns = surface_source_ready_cost_ns,
};

void wlseal_surface_source_init(struct wlseal_surface *s)
{
	wlseal_scene_view_init(&s->view, &surface_source);
	wlseal_resident_waiter_init(&s->resident, surface_populated);
}
