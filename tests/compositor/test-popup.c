/* SPDX-License-Identifier: MIT */
/*
 * test-popup - xdg_popup and xdg_positioner against a headless
 * compositor (320x240): where the positioner puts a popup (anchor,
 * gravity, offset), the constraint adjustments that keep it on the
 * output (flip, slide, resize), the view on screen above its parent,
 * reposition and its token, grabs (the keyboard to the topmost grabbing
 * popup, a click outside dismisses the chain top-down and gives the
 * keyboard back), and the protocol errors for misuse.
 *
 * Usage: test-popup TEST (TAP output).
 */
#include <linux/input.h>
#include <stdio.h>
#include <string.h>

#include "input-client.h"

#define A(n) XDG_POSITIONER_ANCHOR_##n
#define G(n) XDG_POSITIONER_GRAVITY_##n
#define C(n) XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_##n

/* One popup and what it was told. */
struct pop {
	struct t *t;
	struct sc *sc;			/* events noted in its log, or NULL */
	const char *name;
	struct wl_surface *s;
	struct xdg_surface *xs;
	struct xdg_popup *p;
	int configures;			/* xdg_surface.configure events */
	uint32_t serial;
	int32_t x, y, w, h;		/* the last xdg_popup.configure */
	bool done;			/* popup_done came */
	bool has_token;
	uint32_t token;			/* the last repositioned */
};

static void pop_xs_configure(void *data, struct xdg_surface *xs, uint32_t serial)
{
	struct pop *p = data;

	p->configures++;
	p->serial = serial;
}

static const struct xdg_surface_listener pop_xs_listener = {
	.configure = pop_xs_configure,
};

static void pop_configure(void *data, struct xdg_popup *xp, int32_t x,
			  int32_t y, int32_t w, int32_t h)
{
	struct pop *p = data;

	p->x = x;
	p->y = y;
	p->w = w;
	p->h = h;
	if (p->sc)
		note(p->sc, "popup-configure %s %d %d %d %d", p->name, x, y, w, h);
}

static void pop_done(void *data, struct xdg_popup *xp)
{
	struct pop *p = data;

	p->done = true;
	if (p->sc)
		note(p->sc, "popup-done %s", p->name);
}

static void pop_repositioned(void *data, struct xdg_popup *xp, uint32_t token)
{
	struct pop *p = data;

	p->has_token = true;
	p->token = token;
	if (p->sc)
		note(p->sc, "popup-repositioned %s %u", p->name, token);
}

static const struct xdg_popup_listener pop_listener = {
	.configure = pop_configure,
	.popup_done = pop_done,
	.repositioned = pop_repositioned,
};

/* A complete positioner: size @w x @h, the anchor rectangle, anchor,
 * gravity, constraint adjustments and offset. */
static struct xdg_positioner *positioner(struct t *t, int w, int h, int rx,
					 int ry, int rw, int rh, uint32_t anchor,
					 uint32_t gravity, uint32_t adjust,
					 int ox, int oy)
{
	struct xdg_positioner *pos = xdg_wm_base_create_positioner(t->wm_base);

	xdg_positioner_set_size(pos, w, h);
	xdg_positioner_set_anchor_rect(pos, rx, ry, rw, rh);
	xdg_positioner_set_anchor(pos, anchor);
	xdg_positioner_set_gravity(pos, gravity);
	xdg_positioner_set_constraint_adjustment(pos, adjust);
	xdg_positioner_set_offset(pos, ox, oy);
	return pos;
}

/* A popup on @parent placed by @pos (destroyed here), not committed. */
static void pop_create(struct t *t, struct pop *p, const char *name,
		       struct xdg_surface *parent, struct xdg_positioner *pos)
{
	memset(p, 0, sizeof(*p));
	p->t = t;
	p->name = name;
	p->s = wl_compositor_create_surface(t->compositor);
	p->xs = xdg_wm_base_get_xdg_surface(t->wm_base, p->s);
	p->p = xdg_surface_get_popup(p->xs, parent, pos);
	xdg_surface_add_listener(p->xs, &pop_xs_listener, p);
	xdg_popup_add_listener(p->p, &pop_listener, p);
	xdg_positioner_destroy(pos);
}

static void pop_wait_configure(struct pop *p, int n, const char *what)
{
	while (p->configures <= n)
		if (wl_display_dispatch(p->t->display) < 0)
			fail("%s: no configure (%s)", what, last_client_log);
}

/* The initial commit and its configure. */
static void pop_initial_commit(struct pop *p)
{
	int n = p->configures;

	wl_surface_commit(p->s);
	pop_wait_configure(p, n, "popup initial commit");
}

/* Acks the last configure and commits a buffer of the configured size. */
static void pop_draw(struct pop *p, uint32_t color)
{
	xdg_surface_ack_configure(p->xs, p->serial);
	show(p->t, p->s, p->w, p->h, color);
	if (wl_display_roundtrip(p->t->display) < 0)
		fail("connection lost after a popup commit: %s", last_client_log);
}

static void pop_destroy(struct pop *p)
{
	xdg_popup_destroy(p->p);
	xdg_surface_destroy(p->xs);
	wl_surface_destroy(p->s);
}

static void expect_configure(struct pop *p, int x, int y, int w, int h,
			     const char *what)
{
	check(p->x == x && p->y == y && p->w == w && p->h == h,
	      "%s: configure %d,%d %dx%d (expected %d,%d %dx%d)", what, p->x,
	      p->y, p->w, p->h, x, y, w, h);
}

/* The configure a positioner gets on @parent, the popup destroyed
 * again before it is mapped. */
static void expect_placed(struct t *t, struct xdg_surface *parent,
			  struct xdg_positioner *pos, int x, int y, int w,
			  int h, const char *what)
{
	struct pop p;

	pop_create(t, &p, "P", parent, pos);
	pop_initial_commit(&p);
	expect_configure(&p, x, y, w, h, what);
	pop_destroy(&p);
}

/* A mapped @width x @height toplevel; *@x, *@y: where it went. */
static void toplevel(struct t *t, struct win *w, int width, int height,
		     int *x, int *y)
{
	win_create(t, w);
	win_initial_commit(w);
	win_draw(w, width, height, RED);
	wait_mapped(t, x, y, "toplevel");
}

/* The same, at the first cascade slot, 32,32. */
static void toplevel_at_32(struct t *t, struct win *w, int width, int height)
{
	int x, y;

	toplevel(t, w, width, height, &x, &y);
	check(x == 32 && y == 32, "the toplevel at 32,32 (%d,%d)", x, y);
}

static void seat_global(void *data, struct wl_registry *r, uint32_t name,
			const char *iface, uint32_t version)
{
	struct wl_seat **seat = data;

	if (!strcmp(iface, "wl_seat") && !*seat)
		*seat = wl_registry_bind(r, name, &wl_seat_interface, 1);
}

static void seat_global_remove(void *data, struct wl_registry *r, uint32_t name)
{
}

static const struct wl_registry_listener seat_registry_listener = {
	.global = seat_global, .global_remove = seat_global_remove,
};

/* A wl_seat of @t's connection (a grab names one). */
static struct wl_seat *bind_seat(struct t *t)
{
	struct wl_registry *r = wl_display_get_registry(t->display);
	struct wl_seat *seat = NULL;

	wl_registry_add_listener(r, &seat_registry_listener, &seat);
	if (wl_display_roundtrip(t->display) < 0 || !seat)
		fail("no wl_seat");
	return seat;
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
	expect_configure(&p, 55, 33, 40, 30, "bottom_right anchor and gravity, offset 5,3");
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
	expect_configure(&p, 10, 10, 30, 20, "first place");
	pop_draw(&p, GREEN);
	check(!p.has_token, "no repositioned before a reposition");

	n = p.configures;
	xdg_popup_reposition(p.p, positioner(&t, 30, 20, 50, 40, 10, 10,
					     A(TOP_LEFT), G(BOTTOM_RIGHT), 0, 0, 0),
			     0xc0ffee);
	pop_wait_configure(&p, n, "reposition");
	check(p.has_token && p.token == 0xc0ffee,
	      "repositioned with the token (%x)", p.token);
	expect_configure(&p, 50, 40, 30, 20, "the new place");
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

/* Misuse is a protocol error. */
static void test_errors(void)
{
	static struct t t;
	struct xdg_positioner *pos;
	struct win w;
	struct pop p;
	struct wl_surface *s;
	struct xdg_surface *xs;

	t_start(&t);
	toplevel_at_32(&t, &w, 100, 80);
	/* No anchor rectangle: incomplete. */
	pos = xdg_wm_base_create_positioner(t.wm_base);
	xdg_positioner_set_size(pos, 10, 10);
	s = surface(&t);
	xs = xdg_wm_base_get_xdg_surface(t.wm_base, s);
	xdg_surface_get_popup(xs, w.xs, pos);
	expect_error(&t, "get_popup with an incomplete positioner",
		     "xdg_wm_base", XDG_WM_BASE_ERROR_INVALID_POSITIONER);

	pos = xdg_wm_base_create_positioner(t.wm_base);
	xdg_positioner_set_size(pos, 0, 10);
	expect_error(&t, "set_size 0x10", "xdg_positioner",
		     XDG_POSITIONER_ERROR_INVALID_INPUT);
	pos = xdg_wm_base_create_positioner(t.wm_base);
	xdg_positioner_set_anchor_rect(pos, 0, 0, -1, 5);
	expect_error(&t, "a negative anchor rectangle", "xdg_positioner",
		     XDG_POSITIONER_ERROR_INVALID_INPUT);
	pos = xdg_wm_base_create_positioner(t.wm_base);
	xdg_positioner_set_gravity(pos, 9);
	expect_error(&t, "gravity 9", "xdg_positioner",
		     XDG_POSITIONER_ERROR_INVALID_INPUT);

	/* A parent without a role. */
	s = surface(&t);
	xs = xdg_wm_base_get_xdg_surface(t.wm_base, s);
	pop_create(&t, &p, "P", xs, positioner(&t, 10, 10, 0, 0, 1, 1, 0, 0, 0, 0, 0));
	expect_error(&t, "a parent without a role", "xdg_wm_base",
		     XDG_WM_BASE_ERROR_INVALID_POPUP_PARENT);
	t_stop(&t);
}

/* A mapped 40x40 popup on @parent at 10,10 of its window. */
static void menu(struct t *t, struct pop *p, const char *name,
		 struct xdg_surface *parent, uint32_t color)
{
	pop_create(t, p, name, parent,
		   positioner(t, 40, 40, 0, 0, 10, 10, A(BOTTOM_RIGHT),
			      G(BOTTOM_RIGHT), 0, 0, 0));
	pop_initial_commit(p);
	pop_draw(p, color);
}

/* Nested popups go top-down; grabs come before the initial commit and
 * on a grabbing parent. */
static void test_destroy_order(void)
{
	static struct t t;
	struct wl_seat *seat;
	struct win w;
	struct pop p, q;
	int x, y;

	t_start(&t);
	seat = bind_seat(&t);
	toplevel(&t, &w, 100, 100, &x, &y);
	menu(&t, &p, "P", w.xs, GREEN);
	menu(&t, &q, "Q", p.xs, BLUE);
	pop_destroy(&q);
	pop_destroy(&p);
	if (wl_display_roundtrip(t.display) < 0)
		fail("top-down destroy refused: %s", last_client_log);
	tap_ok("nested popups destroyed top-down");

	/* A grab whose parent popup took none. */
	menu(&t, &p, "P", w.xs, GREEN);
	pop_create(&t, &q, "Q", p.xs,
		   positioner(&t, 20, 20, 0, 0, 10, 10, A(BOTTOM_RIGHT),
			      G(BOTTOM_RIGHT), 0, 0, 0));
	xdg_popup_grab(q.p, seat, 0);
	expect_error(&t, "a grab on a popup whose parent took none",
		     "xdg_popup", XDG_POPUP_ERROR_INVALID_GRAB);

	/* The lower popup destroyed first. */
	toplevel(&t, &w, 100, 100, &x, &y);
	menu(&t, &p, "P", w.xs, GREEN);
	menu(&t, &q, "Q", p.xs, BLUE);
	xdg_popup_destroy(p.p);
	expect_error(&t, "the lower popup destroyed first", "xdg_wm_base",
		     XDG_WM_BASE_ERROR_NOT_THE_TOPMOST_POPUP);

	/* Not yet mapped, a child still counts as on top. */
	toplevel(&t, &w, 100, 100, &x, &y);
	menu(&t, &p, "P", w.xs, GREEN);
	pop_create(&t, &q, "Q", p.xs,
		   positioner(&t, 20, 20, 0, 0, 10, 10, A(BOTTOM_RIGHT),
			      G(BOTTOM_RIGHT), 0, 0, 0));
	xdg_popup_destroy(p.p);
	expect_error(&t, "a popup destroyed under an unmapped one",
		     "xdg_wm_base", XDG_WM_BASE_ERROR_NOT_THE_TOPMOST_POPUP);

	/* A grab after the initial commit. */
	seat = bind_seat(&t);
	toplevel(&t, &w, 100, 100, &x, &y);
	pop_create(&t, &p, "P", w.xs,
		   positioner(&t, 20, 20, 0, 0, 10, 10, A(BOTTOM_RIGHT),
			      G(BOTTOM_RIGHT), 0, 0, 0));
	pop_initial_commit(&p);
	xdg_popup_grab(p.p, seat, 0);
	expect_error(&t, "a grab after the initial commit", "xdg_popup",
		     XDG_POPUP_ERROR_INVALID_GRAB);
	t_stop(&t);
}

/*
 * A grab chain: the keyboard goes to the topmost grabbing popup, a
 * click on the chain keeps it, and so does a click on the popup
 * client's own window (the button goes to it); a click outside the
 * client's surfaces dismisses the chain top-down and the keyboard
 * returns to the toplevel. A new toplevel mapped breaks a grab too.
 */
static void test_grab(void)
{
	static struct sc sc;
	struct win w, w2;
	struct pop p, q;
	int x, y;

	sc_start(&sc, 7);
	sc_keyboard(&sc);
	sc_pointer(&sc);
	sc_window(&sc, &w, 0, 100, RED, &x, &y);
	expect(&sc, "kb-", "kb-enter A keys");
	expect_activated(&sc, &w, true, "A, the newest toplevel");

	/* A click on the window: its serial is the grab's. */
	fifo_move(&sc.f, x + 10, y + 10);
	expect(&sc, "ptr-enter", "ptr-enter A 10.00 10.00");
	fifo_key(&sc.f, BTN_LEFT, 1);
	fifo_key(&sc.f, BTN_LEFT, 0);
	expect(&sc, "ptr-button", "ptr-button 272 pressed");
	expect(&sc, "ptr-button", "ptr-button 272 released");

	/* The menu at 20,20 of the window, 40x40; a submenu at its right
	 * edge, 30x30. */
	pop_create(&sc.t, &p, "B", w.xs,
		   positioner(&sc.t, 40, 40, 10, 10, 10, 10, A(BOTTOM_RIGHT),
			      G(BOTTOM_RIGHT), 0, 0, 0));
	p.sc = &sc;
	sc.named[1] = p.s;
	xdg_popup_grab(p.p, sc.seat, sc.last_serial);
	pop_initial_commit(&p);
	pop_draw(&p, GREEN);
	expect(&sc, "kb-", "kb-leave A");
	expect(&sc, "kb-", "kb-enter B keys");

	pop_create(&sc.t, &q, "C", p.xs,
		   positioner(&sc.t, 30, 30, 40, 0, 0, 10, A(TOP_RIGHT),
			      G(BOTTOM_RIGHT), 0, 0, 0));
	q.sc = &sc;
	sc.named[2] = q.s;
	xdg_popup_grab(q.p, sc.seat, sc.last_serial);
	pop_initial_commit(&q);
	expect_configure(&q, 40, 0, 30, 30, "the submenu right of the menu");
	pop_draw(&q, BLUE);
	expect(&sc, "kb-", "kb-leave B");
	expect(&sc, "kb-", "kb-enter C keys");
	/* Keys go to the topmost grabbing popup. */
	fifo_key(&sc.f, KEY_A, 1);
	fifo_key(&sc.f, KEY_A, 0);
	expect(&sc, "key", "key 30 pressed");
	expect(&sc, "key", "key 30 released");

	/* A click on the menu (window 20,20 + 5,5): no dismissal, the
	 * button goes to it, the keyboard stays with C. */
	fifo_move(&sc.f, x + 25, y + 25);
	expect(&sc, "ptr-", "ptr-leave A");
	expect(&sc, "ptr-", "ptr-enter B 5.00 5.00");
	fifo_key(&sc.f, BTN_LEFT, 1);
	fifo_key(&sc.f, BTN_LEFT, 0);
	expect(&sc, "ptr-button", "ptr-button 272 pressed");
	expect(&sc, "ptr-button", "ptr-button 272 released");
	check(!p.done && !q.done, "a click on the chain dismisses nothing");

	/* A click on the window under the chain, the client's own: the
	 * button goes to it, nothing is dismissed, the keyboard stays. */
	fifo_move(&sc.f, x + 80, y + 80);
	expect(&sc, "ptr-leave", "ptr-leave B");
	expect(&sc, "ptr-enter", "ptr-enter A 80.00 80.00");
	fifo_key(&sc.f, BTN_LEFT, 1);
	fifo_key(&sc.f, BTN_LEFT, 0);
	expect(&sc, "ptr-button", "ptr-button 272 pressed");
	expect(&sc, "ptr-button", "ptr-button 272 released");
	if (wl_display_roundtrip(sc.t.display) < 0)
		fail("after a click on the window: %s", last_client_log);
	check(!p.done && !q.done,
	      "a click on the popup client's window dismisses nothing");

	/* A click outside every window: the chain goes, top-down; the
	 * keyboard returns to A. */
	fifo_move(&sc.f, 300, 220);
	expect(&sc, "ptr-leave", "ptr-leave A");
	fifo_key(&sc.f, BTN_LEFT, 1);
	fifo_key(&sc.f, BTN_LEFT, 0);
	expect(&sc, "kb-", "kb-leave C");
	expect(&sc, "kb-", "kb-enter A keys");
	expect(&sc, "popup-done", "popup-done C");
	expect(&sc, "popup-done", "popup-done B");
	fifo_key(&sc.f, KEY_B, 1);
	fifo_key(&sc.f, KEY_B, 0);
	expect(&sc, "key", "key 48 pressed");
	screenshot(&sc.t);
	sc.t.ox = x + 20;
	sc.t.oy = y + 20;
	expect_rect(&sc.t, 0, 0, 40, 40, RED, "the menu is gone from the screen");

	/* Destroyed top-down as the client should: no error. */
	pop_destroy(&q);
	pop_destroy(&p);
	if (wl_display_roundtrip(sc.t.display) < 0)
		fail("destroying the dismissed popups: %s", last_client_log);
	tap_ok("the dismissed chain destroyed");

	/* A grabbing popup destroyed by its client: the keyboard returns. */
	pop_create(&sc.t, &p, "B", w.xs,
		   positioner(&sc.t, 40, 40, 10, 10, 10, 10, A(BOTTOM_RIGHT),
			      G(BOTTOM_RIGHT), 0, 0, 0));
	p.sc = &sc;
	sc.named[1] = p.s;
	xdg_popup_grab(p.p, sc.seat, sc.last_serial);
	pop_initial_commit(&p);
	pop_draw(&p, GREEN);
	expect(&sc, "kb-", "kb-leave A");
	expect(&sc, "kb-", "kb-enter B keys");
	xdg_popup_destroy(p.p);
	expect(&sc, "kb-", "kb-leave B");
	expect(&sc, "kb-", "kb-enter A keys");
	xdg_surface_destroy(p.xs);
	wl_surface_destroy(p.s);
	check(!p.done, "no popup_done for a popup its client destroyed");

	/* A new toplevel mapped while a popup grabs: it takes the
	 * keyboard, the popup is dismissed. */
	pop_create(&sc.t, &p, "B", w.xs,
		   positioner(&sc.t, 40, 40, 10, 10, 10, 10, A(BOTTOM_RIGHT),
			      G(BOTTOM_RIGHT), 0, 0, 0));
	p.sc = &sc;
	sc.named[1] = p.s;
	xdg_popup_grab(p.p, sc.seat, sc.last_serial);
	pop_initial_commit(&p);
	pop_draw(&p, GREEN);
	expect(&sc, "kb-", "kb-leave A");
	expect(&sc, "kb-", "kb-enter B keys");
	sc_window(&sc, &w2, 3, 50, BLUE, &x, &y);
	expect(&sc, "kb-", "kb-leave B");
	expect(&sc, "kb-", "kb-enter D keys");
	expect(&sc, "popup-done", "popup-done B");
	sc_stop(&sc);
}

/* A popup goes with its parent: the parent unmapped dismisses it. */
static void test_parent_unmap(void)
{
	static struct t t;
	struct win w;
	struct pop p, q;
	int x, y;

	t_start(&t);
	toplevel_at_32(&t, &w, 100, 80);
	pop_create(&t, &p, "P", w.xs,
		   positioner(&t, 40, 40, 0, 0, 10, 10, A(BOTTOM_RIGHT),
			      G(BOTTOM_RIGHT), 0, 0, 0));
	pop_initial_commit(&p);
	pop_draw(&p, GREEN);
	pop_create(&t, &q, "Q", p.xs,
		   positioner(&t, 20, 20, 0, 0, 10, 10, A(BOTTOM_RIGHT),
			      G(BOTTOM_RIGHT), 0, 0, 0));
	pop_initial_commit(&q);
	pop_draw(&q, BLUE);
	wl_surface_attach(w.s, NULL, 0, 0);
	wl_surface_commit(w.s);
	while (!p.done || !q.done)
		if (wl_display_dispatch(t.display) < 0)
			fail("connection lost: %s", last_client_log);
	tap_ok("both popups dismissed with their parent");
	screenshot(&t);
	t.ox = 32;
	t.oy = 32;
	expect_rect(&t, 0, 0, 100, 80, BACKGROUND, "nothing left on screen");
	/* The toplevel goes first, then its popups: no error, no crash. */
	xdg_toplevel_destroy(w.tl);
	xdg_surface_destroy(w.xs);
	wl_surface_destroy(w.s);
	pop_destroy(&q);
	pop_destroy(&p);
	if (wl_display_roundtrip(t.display) < 0)
		fail("destroying in any order after the dismissal: %s",
		     last_client_log);
	tap_ok("parent destroyed before its dismissed popups");

	/* The xdg_toplevel destroyed while its popup shows, its
	 * xdg_surface kept: the popup goes with it. */
	toplevel(&t, &w, 100, 80, &x, &y);
	pop_create(&t, &p, "P", w.xs,
		   positioner(&t, 40, 40, 0, 0, 10, 10, A(BOTTOM_RIGHT),
			      G(BOTTOM_RIGHT), 0, 0, 0));
	pop_initial_commit(&p);
	pop_draw(&p, GREEN);
	xdg_toplevel_destroy(w.tl);
	while (!p.done)
		if (wl_display_dispatch(t.display) < 0)
			fail("connection lost: %s", last_client_log);
	tap_ok("the popup dismissed with its xdg_toplevel");
	pop_destroy(&p);
	xdg_surface_destroy(w.xs);
	wl_surface_destroy(w.s);
	if (wl_display_roundtrip(t.display) < 0)
		fail("destroying the rest: %s", last_client_log);
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
	expect_configure(&p, 50, 30, 40, 30, "the popup's configure");
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
	{ "popup-errors", test_errors },
	{ "popup-destroy-order", test_destroy_order },
	{ "popup-grab", test_grab },
	{ "popup-parent-unmap", test_parent_unmap },
	{ "popup-early-buffer", test_early_buffer },
};

int main(int argc, char **argv)
{
	return harness_main("test-popup", tests, sizeof(tests) / sizeof(tests[0]),
			    argc, argv);
}
