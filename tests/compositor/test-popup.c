/* SPDX-License-Identifier: MIT */
/*
 * test-popup - the life of xdg_popups on a headless compositor
 * (320x240): grabs (the keyboard to the topmost grabbing popup, a
 * click outside dismisses the chain top-down and gives the keyboard
 * back), nested popups destroyed top-down, popups dismissed with their
 * parent, and the protocol errors for misuse. test-popup-place tests
 * where popups go.
 *
 * Usage: test-popup TEST (TAP output).
 */
#include <linux/input.h>
#include <string.h>

#include "popup.h"

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
	pop_expect_configure(&q, 40, 0, 30, 30,
			     "the submenu right of the menu");
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

static const struct harness_test tests[] = {
	{ "popup-errors", test_errors },
	{ "popup-destroy-order", test_destroy_order },
	{ "popup-grab", test_grab },
	{ "popup-parent-unmap", test_parent_unmap },
};

int main(int argc, char **argv)
{
	return harness_main("test-popup", tests,
			    sizeof(tests) / sizeof(tests[0]), argc, argv);
}
