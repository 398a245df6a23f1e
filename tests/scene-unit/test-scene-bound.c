/* SPDX-License-Identifier: MIT */
/*
 * test-scene-bound - the scene's own bounds on work (scene.c,
 * MAX_DAMAGE_RECTS): damage gathered from many views collapses to its
 * extents instead of growing one rectangle per view, and the opaque cover
 * that stops growing past the same count still gives the painter's
 * pixels. Output is TAP.
 *
 * Checked against the code without the bound (once, by hand): with
 * bound() in scene.c returning at once, test 1 failed ("2000 scattered
 * damage rectangles: 2000 rectangles in the scene's damage").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene.h"
#include "test-view.h"

#define W 320
#define H 240
#define N_DAMAGE 2000
#define N_CHILDREN 300

static int failed;

static void result(int n, int ok, const char *fmt, const char *detail)
{
	printf("%s %d - %s%s\n", ok ? "ok" : "not ok", n, fmt, detail);
	failed |= !ok;
}

/* A translucent top-level view covering the output, damaged at 2000
 * scattered pixels: the scene's damage stays small and holds them all. */
static void test_damage(void)
{
	static uint32_t pixels[W * H];
	struct test_view top = { .format = PIXMAN_a8r8g8b8, .pixels = pixels };
	struct wlseal_scene scene;
	char detail[160];
	int i, missing = 0, n;

	wlseal_scene_init(&scene, W, H);
	wlseal_scene_view_init(&top.view, &tv_source);
	top.view.width = W;
	top.view.height = H;
	wlseal_scene_map(&scene, &top.view);
	wlseal_scene_move(&scene, &top.view, 0, 0);
	pixman_region32_clear(&scene.damage);
	for (i = 0; i < N_DAMAGE; i++) {
		pixman_region32_t d;

		pixman_region32_init_rect(&d, (i % 100) * 3, (i / 100) * 3 + 1,
					  1, 1);
		wlseal_scene_damage_view(&scene, &top.view, &d);
		pixman_region32_fini(&d);
	}
	for (i = 0; i < N_DAMAGE; i++)
		if (!pixman_region32_contains_point(&scene.damage, (i % 100) * 3,
						    (i / 100) * 3 + 1, NULL))
			missing++;
	n = pixman_region32_n_rects(&scene.damage);
	snprintf(detail, sizeof(detail), ": %d rectangles in the scene's damage, %d damaged pixels missing",
		 n, missing);
	result(1, n <= 64 && missing == 0, "2000 scattered damage rectangles",
	       detail);
	wlseal_scene_unmap(&scene, &top.view);
	wlseal_scene_finish(&scene);
}

/* 300 opaque 1x1 children over a transparent parent: more opaque
 * rectangles than the cover keeps, and still every pixel right. */
static void test_cover(void)
{
	static uint32_t parent_px[W * H], child_px[N_CHILDREN];
	static struct test_view child[N_CHILDREN];
	struct test_view parent = { .format = PIXMAN_a8r8g8b8,
				    .pixels = parent_px };
	struct wlseal_scene scene;
	pixman_image_t *target;
	uint32_t *out;
	char detail[160];
	int i, bad = 0;

	wlseal_scene_init(&scene, W, H);
	wlseal_scene_view_init(&parent.view, &tv_source);
	parent.view.width = W;
	parent.view.height = H;
	wlseal_scene_map(&scene, &parent.view);
	wlseal_scene_move(&scene, &parent.view, 0, 0);
	for (i = 0; i < N_CHILDREN; i++) {
		child_px[i] = 0xffffffffu;
		child[i] = (struct test_view){ .format = PIXMAN_x8r8g8b8,
					       .pixels = &child_px[i] };
		wlseal_scene_view_init(&child[i].view, &tv_source);
		child[i].view.width = child[i].view.height = 1;
		wlseal_scene_add_child(&scene, &parent.view, &child[i].view);
		wlseal_scene_move(&scene, &child[i].view, (i % 30) * 4,
				  (i / 30) * 4);
		wlseal_scene_map(&scene, &child[i].view);
	}
	target = pixman_image_create_bits(PIXMAN_a8r8g8b8, W, H, NULL, W * 4);
	wlseal_scene_render(&scene, target, 0, NULL);
	out = pixman_image_get_data(target);
	for (i = 0; i < N_CHILDREN; i++) {
		int x = (i % 30) * 4, y = (i / 30) * 4;

		if (out[y * W + x] != 0xffffffffu)
			bad++;
		if (out[(y + 1) * W + x + 1] != WLSEAL_BACKGROUND)
			bad++;
	}
	snprintf(detail, sizeof(detail), ": %d of %d pixels wrong", bad,
		 2 * N_CHILDREN);
	result(2, bad == 0, "300 opaque children drawn as painted", detail);
	pixman_image_unref(target);
	wlseal_scene_finish(&scene);
}

int main(int argc, char **argv)
{
	if (argc > 1) {
		printf("usage: test-scene-bound\nThe scene's bounds on damage "
		       "and on its opaque cover, as TAP.\n");
		return strcmp(argv[1], "--help") ? 2 : 0;
	}
	printf("1..2\n");
	test_damage();
	test_cover();
	return failed;
}
