/* SPDX-License-Identifier: MIT */
/*
 * test-scene-damage - damage and regions with extents up to INT32_MAX, on
 * views whose origin is not the output's: the scene's translation from
 * view to output coordinates must neither wrap around int32_t (the
 * damage was lost) nor let damage grow past the view (a window at a
 * negative origin repainted the whole output). Mesa damages
 * (0, 0, INT32_MAX, INT32_MAX) on every EGL or Vulkan swap, and GTK 4
 * places its windows at a negative origin (the shadow of its
 * client-side decorations). Output is TAP.
 *
 * Checked against the scene before the 64-bit clipping (once, by
 * hand): tests 1-4, 6 and 8-10 failed (the damage at 50,40 was empty,
 * the one at -30,-20 the whole output, a child past INT32_MAX wrapped
 * onto the screen, the opaque region at 50,40 was lost). Tests 5 and 7
 * expect a subtree's box since the scene damages boxes (scene.c).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene.h"
#include "test-view.h"

#define W 320
#define H 240

static int failed, n_test;

static void result(int ok, const char *what, const char *detail)
{
	printf("%s %d - %s%s\n", ok ? "ok" : "not ok", ++n_test, what, detail);
	failed |= !ok;
}

/* "x1,y1-x2,y2 (n rects)" of @r, or "empty". */
static const char *describe(pixman_region32_t *r)
{
	static char buf[96];
	const pixman_box32_t *e = pixman_region32_extents(r);

	if (!pixman_region32_not_empty(r))
		return "empty";
	snprintf(buf, sizeof(buf), "%d,%d-%d,%d (%d rects)", e->x1, e->y1,
		 e->x2, e->y2, pixman_region32_n_rects(r));
	return buf;
}

/* The scene's damage is exactly the rectangle (x1, y1)-(x2, y2), or
 * nothing when x1 == x2. */
static void expect_damage(struct wlseal_scene *scene, int x1, int y1, int x2,
			  int y2, const char *what)
{
	pixman_region32_t want;
	char detail[200];

	pixman_region32_init(&want);
	if (x1 < x2 && y1 < y2)
		pixman_region32_union_rect(&want, &want, x1, y1,
					   (unsigned)(x2 - x1),
					   (unsigned)(y2 - y1));
	snprintf(detail, sizeof(detail), ": damage %s, want %d,%d-%d,%d",
		 describe(&scene->damage), x1, y1, x2, y2);
	result(pixman_region32_equal(&scene->damage, &want), what, detail);
	pixman_region32_fini(&want);
}

static uint32_t pixels[3][100 * 80];

/* A 100x80 top-level view at (@x, @y), the damage cleared. */
static void place(struct wlseal_scene *scene, struct test_view *t, int i,
		  int32_t x, int32_t y)
{
	*t = (struct test_view){ .format = PIXMAN_x8r8g8b8, .pixels = pixels[i] };
	wlseal_scene_view_init(&t->view, &tv_source);
	t->view.width = 100;
	t->view.height = 80;
	wlseal_scene_map(scene, &t->view);
	wlseal_scene_move(scene, &t->view, x, y);
	pixman_region32_clear(&scene->damage);
}

/* Damage (@x, @y) to (INT32_MAX, INT32_MAX), view coordinates. */
static void damage_max(struct wlseal_scene *scene, struct test_view *t,
		       int32_t x, int32_t y)
{
	pixman_region32_t d;

	pixman_region32_init_rect(&d, x, y, (unsigned)(INT32_MAX - x),
				  (unsigned)(INT32_MAX - y));
	wlseal_scene_damage_view(scene, &t->view, &d);
	pixman_region32_fini(&d);
}

static void test_damage(void)
{
	struct wlseal_scene scene;
	struct test_view t;

	wlseal_scene_init(&scene, W, H);
	place(&scene, &t, 0, 50, 40);
	damage_max(&scene, &t, 0, 0);
	expect_damage(&scene, 50, 40, 150, 120,
		      "INT32_MAX damage at 50,40 is the view");
	pixman_region32_clear(&scene.damage);
	damage_max(&scene, &t, 10, 20);
	expect_damage(&scene, 60, 60, 150, 120,
		      "damage from 10,20 to INT32_MAX at 50,40");
	wlseal_scene_unmap(&scene, &t.view);

	place(&scene, &t, 0, -30, -20);
	damage_max(&scene, &t, 0, 0);
	expect_damage(&scene, 0, 0, 70, 60,
		      "INT32_MAX damage at -30,-20 is the view's visible part");
	wlseal_scene_unmap(&scene, &t.view);

	place(&scene, &t, 0, 250, 200);
	damage_max(&scene, &t, 0, 0);
	expect_damage(&scene, 250, 200, W, H,
		      "INT32_MAX damage at 250,200 stops at the output's edge");
	wlseal_scene_unmap(&scene, &t.view);
	wlseal_scene_finish(&scene);
}

/* Children at offsets whose sums leave int32_t: off screen they damage
 * nothing, back on screen (offsets that cancel) they do. A map or a
 * move damages the subtree's box (scene.c): from the grandchild back on
 * screen to beyond the output's far edge, where the child is. */
static void test_offsets(void)
{
	struct wlseal_scene scene;
	struct test_view top, child, grand;

	wlseal_scene_init(&scene, W, H);
	place(&scene, &top, 0, 50, 40);
	child = (struct test_view){ .format = PIXMAN_x8r8g8b8,
				    .pixels = pixels[1] };
	grand = (struct test_view){ .format = PIXMAN_x8r8g8b8,
				    .pixels = pixels[2] };
	wlseal_scene_view_init(&child.view, &tv_source);
	wlseal_scene_view_init(&grand.view, &tv_source);
	child.view.width = grand.view.width = 100;
	child.view.height = grand.view.height = 80;
	wlseal_scene_add_child(&scene, &top.view, &child.view);
	wlseal_scene_add_child(&scene, &child.view, &grand.view);
	wlseal_scene_move(&scene, &child.view, INT32_MAX - 20, INT32_MAX);
	wlseal_scene_move(&scene, &grand.view, INT32_MIN, INT32_MIN);
	wlseal_scene_map(&scene, &grand.view);
	pixman_region32_clear(&scene.damage);
	wlseal_scene_map(&scene, &child.view);
	/* child at 50 + INT32_MAX - 20, off screen; grand at 50 - 21,
	 * 40 - 1. */
	expect_damage(&scene, 29, 39, W, H,
		      "mapping a child off screen damages its subtree's box, its child back on screen");
	pixman_region32_clear(&scene.damage);
	damage_max(&scene, &child, 0, 0);
	expect_damage(&scene, 0, 0, 0, 0,
		      "INT32_MAX damage on a child past INT32_MAX damages nothing");
	pixman_region32_clear(&scene.damage);
	wlseal_scene_move(&scene, &child.view, -200, -100);
	/* The old box and the new (child at -150,-60, off screen; grand
	 * at -150 + INT32_MIN...: off screen). */
	expect_damage(&scene, 29, 39, W, H,
		      "moving a child tree damages its old box, the new one is off screen");
	wlseal_scene_remove_child(&scene, &grand.view);
	wlseal_scene_remove_child(&scene, &child.view);
	wlseal_scene_finish(&scene);
}

/* Rendered: the new content shows in the view's area, and the repaint
 * covers exactly that. An opaque region up to INT32_MAX makes the
 * view opaque, wherever it is. */
static void test_render(void)
{
	static const int32_t at[2][2] = { { 50, 40 }, { -30, -20 } };
	struct wlseal_scene scene;
	pixman_image_t *target;
	pixman_region32_t drawn, opaque;
	struct test_view t;
	uint32_t *out;
	char detail[200];

	target = pixman_image_create_bits(PIXMAN_a8r8g8b8, W, H, NULL, W * 4);
	out = pixman_image_get_data(target);
	pixman_region32_init_rect(&opaque, 0, 0, INT32_MAX, INT32_MAX);
	for (int i = 0; i < 2; i++) {
		int x1 = at[i][0] < 0 ? 0 : at[i][0];
		int y1 = at[i][1] < 0 ? 0 : at[i][1];
		int x2 = at[i][0] + 100, y2 = at[i][1] + 80, bad = 0;
		uint64_t area;

		wlseal_scene_init(&scene, W, H);
		place(&scene, &t, 0, at[i][0], at[i][1]);
		for (int p = 0; p < 100 * 80; p++)
			pixels[0][p] = 0xffff0000u;
		wlseal_scene_render(&scene, target, 0, NULL);
		for (int p = 0; p < 100 * 80; p++)
			pixels[0][p] = 0xff00ff00u;
		damage_max(&scene, &t, 0, 0);
		pixman_region32_init(&drawn);
		area = wlseal_scene_render(&scene, target, 1, &drawn);
		for (int y = y1; y < y2; y++)
			for (int x = x1; x < x2; x++)
				bad += out[y * W + x] != 0xff00ff00u;
		snprintf(detail, sizeof(detail),
			 ": at %d,%d: %d pixels not green, repainted %llu pixels (%s), want %d",
			 at[i][0], at[i][1], bad, (unsigned long long)area,
			 describe(&drawn), (x2 - x1) * (y2 - y1));
		result(bad == 0 && area == (uint64_t)(x2 - x1) * (y2 - y1),
		       "new content after INT32_MAX damage shows, and only the view is repainted",
		       detail);
		pixman_region32_fini(&drawn);

		/* Translucent pixels, declared opaque: drawn as if
		 * x8r8g8b8, whatever the background. */
		t.format = PIXMAN_a8r8g8b8;
		t.view.opaque = &opaque;
		for (int p = 0; p < 100 * 80; p++)
			pixels[0][p] = 0x00000080u;
		wlseal_scene_damage_view(&scene, &t.view, NULL);
		wlseal_scene_render(&scene, target, 1, NULL);
		bad = 0;
		for (int y = y1; y < y2; y++)
			for (int x = x1; x < x2; x++)
				bad += out[y * W + x] != 0xff000080u;
		snprintf(detail, sizeof(detail), ": at %d,%d: %d pixels not 0xff000080",
			 at[i][0], at[i][1], bad);
		result(bad == 0, "an opaque region up to INT32_MAX is opaque",
		       detail);
		wlseal_scene_unmap(&scene, &t.view);
		wlseal_scene_finish(&scene);
	}
	pixman_region32_fini(&opaque);
	pixman_image_unref(target);
}

int main(int argc, char **argv)
{
	if (argc > 1) {
		printf("usage: test-scene-damage\nDamage and regions up to "
		       "INT32_MAX on views away from the origin, as TAP.\n");
		return strcmp(argv[1], "--help") ? 2 : 0;
	}
	printf("1..11\n");
	test_damage();
	test_offsets();
	test_render();
	return failed;
}
