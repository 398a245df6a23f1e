/* SPDX-License-Identifier: MIT */
/*
 * test-view.h - a scene view over a plain pixel array, for the scene's
 * tests that need no more (test-scene-bound.c, test-overdraw.c).
 */
#ifndef WLSEAL_TEST_VIEW_H
#define WLSEAL_TEST_VIEW_H

#include "scene.h"

struct test_view {
	struct wlseal_scene_view view;
	pixman_format_code_t format;
	uint32_t *pixels;	/* width x height, stride width * 4 */
};

static inline pixman_image_t *tv_begin(struct wlseal_scene_view *v)
{
	struct test_view *t = wl_container_of(v, t, view);

	return pixman_image_create_bits_no_clear(t->format, v->width, v->height,
						 t->pixels, v->width * 4);
}

static inline void tv_end(struct wlseal_scene_view *v)
{
}

static const struct wlseal_scene_source tv_source = {
	.begin = tv_begin, .end = tv_end,
};

#endif
