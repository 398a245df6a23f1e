/* SPDX-License-Identifier: MIT */
/*
 * test-scene - the scene's occlusion and damage against a painter's
 * algorithm.
 *
 * scene.c skips pixels under opaque views, writes opaque views with SRC
 * and repaints only the damage. Whatever it skips, the result must be
 * what the plain painter's algorithm gives: background everywhere, then
 * every view whole, bottom-up, OVER, alpha ignored where the format is
 * x8r8g8b8 or the view's opaque region says so. This test builds random
 * scenes (fixed seeds) of translucent and opaque, a8r8g8b8 and x8r8g8b8
 * views with opaque regions, renders a first full frame and then damaged
 * frames after random pixel changes, and compares every pixel with that
 * reference. Output is TAP.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene.h"

#define W 160
#define H 120
#define MAX_VIEWS 40

struct test_view {
	struct wlseal_scene_view view;
	pixman_format_code_t format;
	uint32_t *pixels;
	pixman_region32_t opaque;
	int begun;
};

static unsigned int seed;

static uint32_t rnd(uint32_t n)
{
	seed = seed * 1103515245u + 12345u;
	return (seed >> 8) % n;
}

static pixman_image_t *tv_begin(struct wlseal_scene_view *v)
{
	struct test_view *t = wl_container_of(v, t, view);

	t->begun++;
	return pixman_image_create_bits_no_clear(t->format, v->width, v->height,
						 t->pixels, v->width * 4);
}

static void tv_end(struct wlseal_scene_view *v)
{
	struct test_view *t = wl_container_of(v, t, view);

	t->begun--;
}

static const struct wlseal_scene_source tv_source = {
	.begin = tv_begin, .end = tv_end,
};

/* A premultiplied pixel: opaque, transparent or in between. */
static uint32_t random_pixel(void)
{
	uint32_t a = rnd(3) == 0 ? 0xff : rnd(3) == 0 ? 0 : rnd(256);
	uint32_t r = a ? rnd(a + 1) : 0, g = a ? rnd(a + 1) : 0,
		 b = a ? rnd(a + 1) : 0;

	return a << 24 | r << 16 | g << 8 | b;
}

static void scribble(struct test_view *t, int *x, int *y, int *w, int *h)
{
	int i, j;

	*w = 1 + (int)rnd((uint32_t)t->view.width);
	*h = 1 + (int)rnd((uint32_t)t->view.height);
	*x = (int)rnd((uint32_t)(t->view.width - *w + 1));
	*y = (int)rnd((uint32_t)(t->view.height - *h + 1));
	for (j = *y; j < *y + *h; j++)
		for (i = *x; i < *x + *w; i++)
			t->pixels[j * t->view.width + i] = random_pixel();
}

/* The painter's algorithm, every pixel of every view. */
static void reference(struct test_view *tv, int n, pixman_image_t *ref)
{
	pixman_color_t bg = {
		((WLSEAL_BACKGROUND >> 16) & 0xff) * 0x101,
		((WLSEAL_BACKGROUND >> 8) & 0xff) * 0x101,
		(WLSEAL_BACKGROUND & 0xff) * 0x101, 0xffff,
	};
	pixman_box32_t all = { 0, 0, W, H };
	int i;

	pixman_image_fill_boxes(PIXMAN_OP_SRC, ref, &bg, 1, &all);
	for (i = 0; i < n; i++) {
		struct wlseal_scene_view *v = &tv[i].view;
		pixman_image_t *src = tv_begin(v);
		pixman_image_t *x8 = pixman_image_create_bits_no_clear(
			PIXMAN_x8r8g8b8, v->width, v->height, tv[i].pixels,
			v->width * 4);
		pixman_region32_t o;

		pixman_image_composite32(PIXMAN_OP_OVER, src, NULL, ref, 0, 0, 0, 0,
					 v->x, v->y, v->width, v->height);
		/* Inside the opaque region the pixel is taken as opaque. */
		pixman_region32_init(&o);
		pixman_region32_copy(&o, &tv[i].opaque);
		pixman_region32_translate(&o, v->x, v->y);
		pixman_image_set_clip_region32(ref, &o);
		pixman_image_composite32(PIXMAN_OP_OVER, x8, NULL, ref, 0, 0, 0, 0,
					 v->x, v->y, v->width, v->height);
		pixman_image_set_clip_region32(ref, NULL);
		pixman_region32_fini(&o);
		pixman_image_unref(x8);
		pixman_image_unref(src);
		tv_end(v);
	}
}

static int differ(pixman_image_t *a, pixman_image_t *b)
{
	uint32_t *pa = pixman_image_get_data(a), *pb = pixman_image_get_data(b);
	int i, bad = 0;

	for (i = 0; i < W * H; i++)
		bad += pa[i] != pb[i];
	return bad;
}

static int run_scene(unsigned int s, int *tests)
{
	static struct test_view tv[MAX_VIEWS];
	struct wlseal_scene scene;
	pixman_image_t *target, *ref;
	int n, i, frame, failed = 0;

	seed = s;
	n = 1 + (int)rnd(s % 4 == 0 ? MAX_VIEWS : 6);
	wlseal_scene_init(&scene, W, H);
	target = pixman_image_create_bits(PIXMAN_a8r8g8b8, W, H, NULL, W * 4);
	ref = pixman_image_create_bits(PIXMAN_a8r8g8b8, W, H, NULL, W * 4);
	for (i = 0; i < n; i++) {
		struct test_view *t = &tv[i];
		int x, y, w, h;

		wlseal_scene_view_init(&t->view, &tv_source);
		t->format = rnd(2) ? PIXMAN_a8r8g8b8 : PIXMAN_x8r8g8b8;
		t->view.width = 1 + (int)rnd(W);
		t->view.height = 1 + (int)rnd(H);
		t->pixels = malloc((size_t)t->view.width * t->view.height * 4);
		scribble(t, &x, &y, &w, &h);
		pixman_region32_init(&t->opaque);
		if (rnd(2)) {
			/* Up to two rectangles, one possibly past the edge. */
			pixman_region32_union_rect(&t->opaque, &t->opaque,
				(int)rnd(t->view.width), (int)rnd(t->view.height),
				1 + rnd(t->view.width), 1 + rnd(t->view.height));
			pixman_region32_union_rect(&t->opaque, &t->opaque,
				(int)rnd(t->view.width), (int)rnd(t->view.height),
				1 + rnd(2 * t->view.width), 1 + rnd(t->view.height));
			pixman_region32_intersect_rect(&t->opaque, &t->opaque, 0, 0,
						       t->view.width, t->view.height);
		}
		t->view.opaque = rnd(4) ? &t->opaque : NULL;
		if (!t->view.opaque)
			pixman_region32_clear(&t->opaque);
		t->begun = 0;
		wlseal_scene_map(&scene, &t->view);
		/* Anywhere, partly off the output too. */
		t->view.x = (int)rnd(W + 40) - 40;
		t->view.y = (int)rnd(H + 40) - 40;
	}
	wlseal_scene_damage_view(&scene, &tv[0].view, NULL);

	for (frame = 0; frame < 6; frame++) {
		int bad, begun = 0;

		wlseal_scene_render(&scene, target, frame == 0 ? 0 : 1, NULL);
		reference(tv, n, ref);
		bad = differ(target, ref);
		for (i = 0; i < n; i++)
			begun += tv[i].begun;
		++*tests;
		if (bad || begun) {
			printf("not ok %d - seed %u, %d views, frame %d: %d pixels differ, %d begin() without end()\n",
			       *tests, s, n, frame, bad, begun);
			failed = 1;
		} else {
			printf("ok %d - seed %u, %d views, frame %d: all %dx%d pixels as painted\n",
			       *tests, s, n, frame, W, H);
		}
		/* Change some pixels of a few views and damage just those. */
		for (i = 0; i < 1 + (int)rnd(3); i++) {
			struct test_view *t = &tv[rnd((uint32_t)n)];
			pixman_region32_t d;
			int x, y, w, h;

			scribble(t, &x, &y, &w, &h);
			pixman_region32_init_rect(&d, x, y, (unsigned int)w, (unsigned int)h);
			wlseal_scene_damage_view(&scene, &t->view, &d);
			pixman_region32_fini(&d);
		}
	}
	for (i = 0; i < n; i++) {
		free(tv[i].pixels);
		pixman_region32_fini(&tv[i].opaque);
	}
	pixman_image_unref(target);
	pixman_image_unref(ref);
	wlseal_scene_finish(&scene);
	return failed;
}

int main(int argc, char **argv)
{
	int tests = 0, failed = 0;
	unsigned int s;

	if (argc > 1) {
		printf("usage: test-scene\nRender random scenes with damage and "
		       "compare with the painter's algorithm (TAP).\n");
		return strcmp(argv[1], "--help") ? 2 : 0;
	}
	for (s = 1; s <= 60; s++)
		failed |= run_scene(s, &tests);
	printf("1..%d\n", tests);
	return failed;
}
