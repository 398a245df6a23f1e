/* SPDX-License-Identifier: MIT */
/*
 * test-xdg-place - where the headless backend puts xdg toplevels: by
 * their window geometry, at the cascade's slots and back inside the
 * output, an output-sized window at the origin, and a dialog above the
 * parent it names (set_parent, whose loops are errors), checked in the
 * compositor's screenshots.
 *
 * Usage: test-xdg-place TEST. A raw client (toplevel.h) maps toplevels
 * of single colours and reads the screenshots' pixels back in output
 * coordinates.
 */
#include <wayland-client.h>

#include "toplevel.h"

/*
 * set_window_geometry: the geometry's origin goes to the cascade slot
 * (fullscreen: to 0,0), not the surface's. A 100x80 surface whose window
 * starts at 10,20 (as if a shadow were around it) shows its 10,20 pixel
 * at the slot.
 */
static void test_geometry(void)
{
	/* static: the harness cleans up through pointers at exit */
	static struct t t;
	static struct win w;

	t_start(&t);
	win_create(&t, &w);
	xdg_surface_set_window_geometry(w.xs, 10, 20, 80, 50);
	win_initial_commit(&w);
	win_draw(&w, 100, 80, RED);
	expect_mapped_at(&t, CASCADE_X0 - 10, CASCADE_Y0 - 20,
			 "surface placed by its window geometry");
	screenshot(&t);
	expect_rect(&t, CASCADE_X0 - 10, CASCADE_Y0 - 20, 100, 80, RED,
		    "the whole surface drawn");
	expect_rect(&t, 0, 0, CASCADE_X0 - 10, OUT_H, BACKGROUND,
		    "background left of it");

	/* A negative origin: a title bar above the surface (foot). */
	xdg_surface_set_window_geometry(w.xs, 0, -26, 100, 106);
	wl_surface_commit(w.s);
	screenshot(&t);
	expect_rect(&t, CASCADE_X0, CASCADE_Y0 + 26, 100, 80, RED,
		    "geometry at 0,-26: the surface 26 rows below the slot");
	expect_rect(&t, CASCADE_X0, CASCADE_Y0, 100, 26, BACKGROUND,
		    "old place repainted");

	win_request(&w, set_fullscreen, "set_fullscreen");
	xdg_surface_set_window_geometry(w.xs, 10, 20, OUT_W, OUT_H);
	win_draw(&w, OUT_W + 20, OUT_H + 40, GREEN);
	screenshot(&t);
	expect_rect(&t, 0, 0, OUT_W, OUT_H, GREEN,
		    "fullscreen: the geometry covers the output from 0,0");

	xdg_surface_set_window_geometry(w.xs, 0, 0, 0, 10);
	expect_error(&t, "an empty window geometry", "xdg_surface",
		     XDG_SURFACE_ERROR_INVALID_SIZE);
	t_stop(&t);
}

/*
 * A window as large as the output is placed at its origin, whole: the
 * cascade slot would cut off its right and bottom edges. A larger one
 * too, keeping its size.
 */
static void test_place_output_sized(void)
{
	/* static: the harness cleans up through pointers at exit */
	static struct t t;
	static struct win w, w2;

	t_start(&t);
	win_create(&t, &w);
	win_initial_commit(&w);
	win_draw(&w, OUT_W, OUT_H, GREEN);
	expect_mapped_at(&t, 0, 0, "an output-sized window");
	screenshot(&t);
	expect_rect(&t, 0, 0, OUT_W, OUT_H, GREEN,
		    "the output-sized window fully visible");

	win_create(&t, &w2);
	win_initial_commit(&w2);
	win_draw(&w2, OUT_W + 40, OUT_H + 30, BLUE);
	expect_mapped_at(&t, 0, 0, "a window larger than the output");
	screenshot(&t);
	expect_rect(&t, 0, 0, OUT_W, OUT_H, BLUE,
		    "the larger window from the origin, at its size");
	t_stop(&t);
}

/*
 * New windows cascade within the output: each at the next slot, moved
 * back as far as it then fits; none reaches past the output's edges,
 * and no two land on the same spot.
 */
static void test_place_cascade(void)
{
	static const struct {
		int w, h;
		uint32_t color;
	} wins[] = {
		{ 100, 80, RED }, { 100, 80, GREEN }, { 220, 150, BLUE },
	};
	/* static: the harness cleans up through pointers at exit */
	static struct t t;
	static struct win w[3];
	int x[3], y[3];

	t_start(&t);
	for (int i = 0; i < 3; i++) {
		win_create(&t, &w[i]);
		win_initial_commit(&w[i]);
		win_draw(&w[i], wins[i].w, wins[i].h, wins[i].color);
		wait_mapped(&t, &x[i], &y[i], "cascaded window");
		check(x[i] >= 0 && y[i] >= 0 && x[i] + wins[i].w <= OUT_W &&
		      y[i] + wins[i].h <= OUT_H,
		      "window %d (%dx%d) inside the output at %d,%d", i,
		      wins[i].w, wins[i].h, x[i], y[i]);
		for (int j = 0; j < i; j++)
			check(x[i] != x[j] || y[i] != y[j],
			      "windows %d and %d at different places (%d,%d)", j,
			      i, x[i], y[i]);
	}
	check(x[0] == CASCADE_X0 && y[0] == CASCADE_Y0 &&
	      x[1] == CASCADE_X0 + CASCADE_STEP && y[1] == CASCADE_Y0 + CASCADE_STEP,
	      "the first two at the first two slots (%d,%d and %d,%d)", x[0],
	      y[0], x[1], y[1]);
	check(x[2] == OUT_W - 220 && y[2] == OUT_H - 150,
	      "the third, too large for its slot, moved back to fit (%d,%d)",
	      x[2], y[2]);
	screenshot(&t);
	expect_rect(&t, x[2], y[2], 220, 150, BLUE, "the third whole on top");
	expect_rect(&t, x[0], y[0], CASCADE_STEP, CASCADE_STEP, RED,
		    "the first where no other covers it");
	t_stop(&t);
}

/*
 * set_parent: a dialog whose parent was set before either window mapped
 * (as GTK does), and which maps first, still ends above its parent when
 * the parent maps after it (the cascade puts the parent one slot down
 * and right, over the dialog's lower right corner: without set_parent
 * the parent covers it there). A window of another family maps on top
 * of both. The parent goes while the dialog lives; a loop is an error.
 */
#define CHAIN 66

static void test_parent(void)
{
	/* static: the harness cleans up through pointers at exit */
	static struct t t;
	static struct win parent, dialog, other, a, b, chain[CHAIN];
	const int x0 = CASCADE_X0, x1 = CASCADE_X0 + CASCADE_STEP;
	int x, y;

	t_start(&t);
	win_create(&t, &parent);
	win_create(&t, &dialog);
	xdg_toplevel_set_parent(dialog.tl, parent.tl);
	win_initial_commit(&parent);
	win_initial_commit(&dialog);
	win_draw(&dialog, 100, 80, GREEN);
	expect_mapped_at(&t, x0, x0, "the dialog, first");
	win_draw(&parent, 100, 80, RED);
	expect_mapped_at(&t, x1, x1, "its parent, after it");
	screenshot(&t);
	expect_rect(&t, x1, x1, x0 + 100 - x1, x0 + 80 - x1, GREEN,
		    "the dialog above its parent where they overlap");
	expect_rect(&t, x0 + 100, x1, x1 + 100 - (x0 + 100), 80, RED,
		    "the parent beside the dialog");
	expect_rect(&t, x0, x0, 100, x1 - x0, GREEN, "the dialog's top");

	/* Another window (no parent) goes on top of both. */
	win_create(&t, &other);
	win_initial_commit(&other);
	win_draw(&other, 100, 80, BLUE);
	wait_mapped(&t, &x, &y, "a third window");
	screenshot(&t);
	expect_rect(&t, x, y, 100, 80, BLUE, "the third window on top");
	expect_rect(&t, x1, x1, x0 + 100 - x1, x0 + 80 - x1, GREEN,
		    "the dialog still above its parent");

	/* The parent goes; its dialog lives on, and is redrawn. */
	xdg_toplevel_destroy(parent.tl);
	parent.tl = NULL;
	show(&t, dialog.s, 100, 80, YELLOW);
	check(wl_display_roundtrip(t.display) >= 0,
	      "the dialog's commit after its parent went (%s)", last_client_log);
	screenshot(&t);
	expect_rect(&t, x0, x0, 100, x1 - x0, YELLOW,
		    "the dialog after its parent went");
	xdg_toplevel_set_parent(dialog.tl, NULL);
	check(wl_display_roundtrip(t.display) >= 0,
	      "set_parent(NULL) after the parent went (%s)", last_client_log);

	/* b's parent is a; a's parent b would be a loop. */
	win_create(&t, &a);
	win_create(&t, &b);
	xdg_toplevel_set_parent(b.tl, a.tl);
	xdg_toplevel_set_parent(a.tl, b.tl);
	expect_error(&t, "a loop of parents", "xdg_toplevel",
		     XDG_TOPLEVEL_ERROR_INVALID_PARENT);
	win_create(&t, &a);
	xdg_toplevel_set_parent(a.tl, a.tl);
	expect_error(&t, "a toplevel its own parent", "xdg_toplevel",
		     XDG_TOPLEVEL_ERROR_INVALID_PARENT);

	/* A chain: chain[i]'s parent is chain[i - 1]. The walks stop at
	 * 64 windows: a parent with 65 ancestors is not linked (the loop
	 * it would close is never made), one with 64 is checked whole. */
	for (int i = 0; i < CHAIN; i++) {
		win_create(&t, &chain[i]);
		if (i > 0)
			xdg_toplevel_set_parent(chain[i].tl, chain[i - 1].tl);
	}
	xdg_toplevel_set_parent(chain[0].tl, chain[CHAIN - 1].tl);
	last_client_log[0] = 0;
	check(wl_display_roundtrip(t.display) >= 0,
	      "a parent with %d ancestors: no error (%s)", CHAIN - 1,
	      last_client_log);
	check(proc_wait(&t.c.p, &t.log_from, "ancestors, not linked", TIMEOUT_MS,
			NULL, 0),
	      "a parent with %d ancestors: not linked (the compositor says so)",
	      CHAIN - 1);
	xdg_toplevel_set_parent(chain[0].tl, chain[CHAIN - 2].tl);
	expect_error(&t, "a loop through 65 windows", "xdg_toplevel",
		     XDG_TOPLEVEL_ERROR_INVALID_PARENT);
	t_stop(&t);
}

static const struct harness_test tests[] = {
	{ "xdg-geometry", test_geometry },
	{ "xdg-place-output-sized", test_place_output_sized },
	{ "xdg-place-cascade", test_place_cascade },
	{ "xdg-parent", test_parent },
};

int main(int argc, char **argv)
{
	return harness_main("test-xdg-place", tests,
			    sizeof(tests) / sizeof(tests[0]), argc, argv);
}
