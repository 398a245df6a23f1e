/* SPDX-License-Identifier: MIT */
/*
 * test-popup-place - where xdg_positioner puts an xdg_popup on a
 * headless compositor (320x240): anchor, gravity and offset, and the
 * constraint adjustments that keep it on the output (flip, slide,
 * resize), in configures and in screenshots above its parent;
 * reposition and its token; a popup mapped by its first commit
 * (--xdg-early-buffer=map).
 *
 * Usage: test-popup-place TEST (TAP output).
 */
#include "popup.h"

/* The configure a positioner gets on @parent, the popup destroyed
 * again before it is mapped. */
static void expect_placed(struct t *t, struct xdg_surface *parent,
			  struct xdg_positioner *pos, int x, int y, int w,
			  int h, const char *what)
{
	struct pop p;

	pop_create(t, &p, "P", parent, pos);
	pop_initial_commit(&p);
	pop_expect_configure(&p, x, y, w, h, what);
	pop_destroy(&p);
}

/*
 * Anchor, gravity and offset, relative to the parent's window geometry;
 * on screen, above the parent, at that place.
 */
static void test_position(void)
{
	static struct t t;
	struct win w;
	struct pop p;
	int x, y;

	t_start(&t);
	/* A 120x100 surface whose window is 100x80 at 10,10: the window's
	 * origin goes to the cascade slot, the surface to 22,22. */
	win_create(&t, &w);
	xdg_surface_set_window_geometry(w.xs, 10, 10, 100, 80);
	win_initial_commit(&w);
	win_draw(&w, 120, 100, RED);
	wait_mapped(&t, &x, &y, "toplevel");
	check(x == 22 && y == 22, "the toplevel's surface at 22,22 (%d,%d)", x, y);

	/* Anchor point: the rectangle's bottom right corner, 50,30; the
	 * popup below and right of it, moved by the offset. */
	pop_create(&t, &p, "P", w.xs,
		   positioner(&t, 40, 30, 20, 10, 30, 20, A(BOTTOM_RIGHT),
			      G(BOTTOM_RIGHT), 0, 5, 3));
	pop_initial_commit(&p);
	pop_expect_configure(&p, 55, 33, 40, 30,
			     "bottom_right anchor and gravity, offset 5,3");
	pop_draw(&p, GREEN);
	screenshot(&t);
	/* Parent window origin 32,32 + 55,33. */
	t.ox = 32 + 55;
	t.oy = 32 + 33;
	expect_rect(&t, 0, 0, 40, 30, GREEN, "the popup, above its parent");
	expect_rect(&t, -2, 0, 2, 30, RED, "the parent left of it");
	t.ox = t.oy = 0;

	/* The other directions, each in the parent's window coordinates. */
	expect_placed(&t, w.xs, positioner(&t, 40, 30, 20, 10, 30, 20, A(NONE),
					   G(NONE), 0, 0, 0),
		      15, 5, 40, 30, "centred on the rectangle's centre");
	expect_placed(&t, w.xs, positioner(&t, 40, 30, 20, 10, 30, 20, A(TOP_LEFT),
					   G(TOP_LEFT), 0, 0, 0),
		      -20, -20, 40, 30, "above and left of the top left corner");
	expect_placed(&t, w.xs, positioner(&t, 40, 30, 20, 10, 30, 20, A(BOTTOM),
					   G(BOTTOM), 0, -1, 2),
		      14, 32, 40, 30, "under the bottom edge's middle");
	expect_placed(&t, w.xs, positioner(&t, 40, 30, 20, 10, 30, 20, A(RIGHT),
					   G(TOP_RIGHT), 0, 0, 0),
		      50, -10, 40, 30, "right edge's middle, towards top right");
	t_stop(&t);
}

/* flip_y: a popup under the parent's bottom edge that would leave the
 * output opens upwards instead; without flip_y it stays put. */
static void test_flip(void)
{
	static struct t t;
	struct win w;
	struct pop p;

	t_start(&t);
	toplevel_at_32(&t, &w, 100, 160);	/* 32..192 of 240 */
	/* Under the rectangle (0,150 100x10): 160..240 from y 32 is
	 * 192..272, past 240. Flipped: 70..150, 102..182 on the output. */
	expect_placed(&t, w.xs, positioner(&t, 60, 80, 0, 150, 100, 10, A(BOTTOM),
					   G(BOTTOM), 0, 0, 0),
		      20, 160, 60, 80, "no adjustment: left where it is");
	expect_placed(&t, w.xs, positioner(&t, 60, 80, 0, 150, 100, 10, A(BOTTOM),
					   G(BOTTOM), C(FLIP_Y), 0, 0),
		      20, 70, 60, 80, "flip_y: above the rectangle");
	/* flip_x does nothing on the y axis. */
	expect_placed(&t, w.xs, positioner(&t, 60, 80, 0, 150, 100, 10, A(BOTTOM),
					   G(BOTTOM), C(FLIP_X), 0, 0),
		      20, 160, 60, 80, "flip_x: the y axis untouched");
	/* A flip that is constrained too is not taken: 200 high fits
	 * neither under (192..392) nor over (-18..182) the rectangle. */
	expect_placed(&t, w.xs, positioner(&t, 60, 200, 0, 150, 100, 10, A(BOTTOM),
					   G(BOTTOM), C(FLIP_Y), 0, 0),
		      20, 160, 60, 200, "flip_y constrained either way: kept");

	/* And on screen: the flipped popup is drawn where it was told. */
	pop_create(&t, &p, "P", w.xs,
		   positioner(&t, 60, 80, 0, 150, 100, 10, A(BOTTOM), G(BOTTOM),
			      C(FLIP_Y), 0, 0));
	pop_initial_commit(&p);
	pop_draw(&p, GREEN);
	screenshot(&t);
	t.ox = 32 + 20;
	t.oy = 32 + 70;
	expect_rect(&t, 0, 0, 60, 80, GREEN, "the flipped popup on screen");
	t_stop(&t);
}

/* slide_x: moved along x until it is inside, towards the output's
 * right edge or its left one. */
static void test_slide(void)
{
	static struct t t;
	struct win w;

	t_start(&t);
	toplevel_at_32(&t, &w, 100, 80);
	/* Right of the top right corner, 250 wide: 132..382 on the
	 * output; slid left by 62 to end at 320. */
	expect_placed(&t, w.xs, positioner(&t, 250, 40, 90, 0, 10, 10, A(TOP_RIGHT),
					   G(BOTTOM_RIGHT), C(SLIDE_X), 0, 0),
		      38, 0, 250, 40, "slid left to the output's right edge");
	expect_placed(&t, w.xs, positioner(&t, 250, 40, 90, 0, 10, 10, A(TOP_RIGHT),
					   G(BOTTOM_RIGHT), 0, 0, 0),
		      100, 0, 250, 40, "without slide_x: past the edge");
	/* Left of the top left corner, 100 wide: -68..32; slid right by
	 * 68 to start at 0. */
	expect_placed(&t, w.xs, positioner(&t, 100, 40, 0, 0, 10, 10, A(TOP_LEFT),
					   G(BOTTOM_LEFT), C(SLIDE_X), 0, 0),
		      -32, 0, 100, 40, "slid right to the output's left edge");
	/* slide_y leaves x alone. */
	expect_placed(&t, w.xs, positioner(&t, 250, 40, 90, 0, 10, 10, A(TOP_RIGHT),
					   G(BOTTOM_RIGHT), C(SLIDE_Y), 0, 0),
		      100, 0, 250, 40, "slide_y: the x axis untouched");
	/* Wider than the output: its left edge on the output's. */
	expect_placed(&t, w.xs, positioner(&t, 400, 40, 90, 0, 10, 10, A(TOP_RIGHT),
					   G(BOTTOM_RIGHT), C(SLIDE_X), 0, 0),
		      -32, 0, 400, 40, "wider than the output: at its left edge");
	/* flip comes first: flipped to the left it fits, no slide. */
	expect_placed(&t, w.xs, positioner(&t, 250, 40, 90, 0, 10, 10, A(TOP_RIGHT),
					   G(BOTTOM_RIGHT), C(SLIDE_X) | C(FLIP_X), 0, 0),
		      38, 0, 250, 40, "flip_x constrained too (-128): slid instead");
	expect_placed(&t, w.xs, positioner(&t, 80, 40, 90, 0, 10, 10, A(TOP_RIGHT),
					   G(BOTTOM_RIGHT), 0, 200, 0),
		      300, 0, 80, 40, "an offset past the edge, not adjusted");
	expect_placed(&t, w.xs, positioner(&t, 80, 40, 90, 0, 10, 10, A(TOP_RIGHT),
					   G(BOTTOM_RIGHT), C(SLIDE_X) | C(FLIP_X), 200, 0),
		      208, 0, 80, 40, "an offset past the edge, slid back");
	t_stop(&t);
}

/* resize_x, resize_y: cut to what is inside the output. */
static void test_resize(void)
{
	static struct t t;
	struct win w;
	struct pop p;

	t_start(&t);
	toplevel_at_32(&t, &w, 100, 80);
	/* At 100,80 of the window, 132,112 on the output: 188x128 left. */
	expect_placed(&t, w.xs, positioner(&t, 400, 300, 0, 0, 100, 80,
					   A(BOTTOM_RIGHT), G(BOTTOM_RIGHT),
					   C(RESIZE_X) | C(RESIZE_Y), 0, 0),
		      100, 80, 188, 128, "resized to the output");
	expect_placed(&t, w.xs, positioner(&t, 400, 300, 0, 0, 100, 80,
					   A(BOTTOM_RIGHT), G(BOTTOM_RIGHT),
					   C(RESIZE_X), 0, 0),
		      100, 80, 188, 300, "resize_x only");
	/* Slide comes before resize: slid, it fits, nothing to resize. */
	expect_placed(&t, w.xs, positioner(&t, 200, 100, 0, 0, 100, 80,
					   A(BOTTOM_RIGHT), G(BOTTOM_RIGHT),
					   C(SLIDE_X) | C(RESIZE_X), 0, 0),
		      88, 80, 200, 100, "slid before it is resized");

	pop_create(&t, &p, "P", w.xs,
		   positioner(&t, 400, 300, 0, 0, 100, 80, A(BOTTOM_RIGHT),
			      G(BOTTOM_RIGHT), C(RESIZE_X) | C(RESIZE_Y), 0, 0));
	pop_initial_commit(&p);
	pop_draw(&p, GREEN);
	screenshot(&t);
	t.ox = 132;
	t.oy = 112;
	expect_rect(&t, 0, 0, 188, 128, GREEN, "the resized popup fills the corner");
	t_stop(&t);
}

/* reposition: repositioned with the token, a new configure, the new
 * place once acked and committed. */
static void test_reposition(void)
{
	static struct t t;
	struct win w;
	struct pop p;
	int n;

	t_start(&t);
	toplevel_at_32(&t, &w, 100, 80);
	pop_create(&t, &p, "P", w.xs,
		   positioner(&t, 30, 20, 0, 0, 10, 10, A(BOTTOM_RIGHT),
			      G(BOTTOM_RIGHT), 0, 0, 0));
	pop_initial_commit(&p);
	pop_expect_configure(&p, 10, 10, 30, 20, "first place");
	pop_draw(&p, GREEN);
	check(!p.has_token, "no repositioned before a reposition");

	n = p.configures;
	xdg_popup_reposition(p.p, positioner(&t, 30, 20, 50, 40, 10, 10,
					     A(TOP_LEFT), G(BOTTOM_RIGHT), 0, 0, 0),
			     0xc0ffee);
	pop_wait_configure(&p, n, "reposition");
	check(p.has_token && p.token == 0xc0ffee,
	      "repositioned with the token (%x)", p.token);
	pop_expect_configure(&p, 50, 40, 30, 20, "the new place");
	/* Not acked yet: still at the old place. */
	screenshot(&t);
	t.ox = 32 + 10;
	t.oy = 32 + 10;
	expect_rect(&t, 0, 0, 30, 20, GREEN, "before the ack: the old place");
	pop_draw(&p, BLUE);
	screenshot(&t);
	t.ox = 32 + 50;
	t.oy = 32 + 40;
	expect_rect(&t, 0, 0, 30, 20, BLUE, "after ack and commit: the new place");
	t.ox = 32 + 10;
	t.oy = 32 + 10;
	expect_rect(&t, 0, 0, 30, 20, RED, "the parent where it was");
	t_stop(&t);
}

/*
 * --xdg-early-buffer=map: a popup whose first commit carries a buffer
 * gets its configure and shows at once at the configured place.
 */
static void test_early_buffer(void)
{
	static const char *const opts[] = { "--xdg-early-buffer=map", NULL };
	static struct t t;
	struct win w;
	struct pop p;

	t_start_args(&t, opts);
	toplevel_at_32(&t, &w, 200, 150);
	pop_create(&t, &p, "P", w.xs,
		   positioner(&t, 40, 30, 20, 10, 30, 20, A(BOTTOM_RIGHT),
			      G(BOTTOM_RIGHT), 0, 0, 0));
	check(wl_display_roundtrip(t.display) >= 0 && p.configures == 0,
	      "no popup configure before its initial commit (%d)", p.configures);
	show(&t, p.s, 40, 30, GREEN);
	pop_wait_configure(&p, 0, "popup committed with a buffer");
	pop_expect_configure(&p, 50, 30, 40, 30, "the popup's configure");
	screenshot(&t);
	t.ox = 32 + 50;
	t.oy = 32 + 30;
	expect_rect(&t, 0, 0, 40, 30, GREEN, "the popup shown without an ack");
	expect_rect(&t, -2, 0, 2, 30, RED, "its parent left of it");
	t.ox = t.oy = 0;
	t_stop(&t);
}

static const struct harness_test tests[] = {
	{ "popup-position", test_position },
	{ "popup-flip", test_flip },
	{ "popup-slide", test_slide },
	{ "popup-resize", test_resize },
	{ "popup-reposition", test_reposition },
	{ "popup-early-buffer", test_early_buffer },
};

int main(int argc, char **argv)
{
	return harness_main("test-popup-place", tests,
			    sizeof(tests) / sizeof(tests[0]), argc, argv);
}
