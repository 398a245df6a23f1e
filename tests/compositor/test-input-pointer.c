/* SPDX-License-Identifier: MIT */
/*
 * test-input-pointer - wl_pointer against a headless compositor whose
 * input device is a FIFO (--input, evdev-fifo.h): enter, motion, leave
 * and buttons at surface-local positions, input regions, subsurfaces,
 * the wheel, click-to-focus, and the interactive move and resize that
 * a press on a window grants.
 *
 * Usage: test-input-pointer TEST (TAP output).
 */
#include <linux/input.h>
#include <string.h>

#include "input-client.h"

/*
 * Surface-local positions, enter and leave between two windows, an
 * input region, buttons, click-to-focus, the wheel, frames, a
 * subsurface.
 */
static void test_pointer(void)
{
	static struct sc sc;
	struct win a, b;
	struct wl_subsurface *ss;
	struct wl_surface *sub;
	struct wl_region *r;
	int ax, ay, bx, by;

	sc_start(&sc, 8);
	sc_keyboard(&sc);
	sc_pointer(&sc);
	sc_window(&sc, &a, 0, 40, RED, &ax, &ay);
	/* B takes input only on its left half. */
	win_create(&sc.t, &b);
	sc.named[1] = b.s;
	r = wl_compositor_create_region(sc.t.compositor);
	wl_region_add(r, 0, 0, 20, 40);
	wl_surface_set_input_region(b.s, r);
	wl_region_destroy(r);
	win_initial_commit(&b);
	win_draw(&b, 40, 40, GREEN);
	wait_mapped(&sc.t, &bx, &by, "B");
	check(bx >= ax + 40 || by >= ay + 40, "A at %d,%d and B at %d,%d apart",
	      ax, ay, bx, by);
	expect(&sc, "kb-enter", "kb-enter A keys");
	expect(&sc, "kb-", "kb-leave A");
	expect(&sc, "kb-", "kb-enter B keys");

	fifo_move(&sc.f, ax + 10, ay + 20);
	expect(&sc, "ptr-", "ptr-enter A 10.00 20.00");
	expect(&sc, "ptr-", "ptr-frame");
	fifo_move(&sc.f, ax + 18, ay + 29);
	expect(&sc, "ptr-", "ptr-motion 18.00 29.00");
	expect(&sc, "ptr-", "ptr-frame");
	/* B's right half: outside its input region, nobody's. */
	fifo_move(&sc.f, bx + 30, by + 10);
	expect(&sc, "ptr-", "ptr-leave A");
	expect(&sc, "ptr-", "ptr-frame");
	fifo_move(&sc.f, bx + 5, by + 10);
	expect(&sc, "ptr-", "ptr-enter B 5.00 10.00");
	expect(&sc, "ptr-", "ptr-frame");

	fifo_key(&sc.f, BTN_LEFT, 1);
	fifo_key(&sc.f, BTN_LEFT, 0);
	expect(&sc, "ptr-", "ptr-button 272 pressed");
	expect(&sc, "ptr-", "ptr-frame");
	expect(&sc, "ptr-", "ptr-button 272 released");
	expect(&sc, "ptr-", "ptr-frame");

	/* Click on A: it gets the keyboard before the button. */
	fifo_move(&sc.f, ax + 1, ay + 2);
	expect(&sc, "ptr-", "ptr-leave B");
	expect(&sc, "ptr-", "ptr-enter A 1.00 2.00");
	expect(&sc, "ptr-", "ptr-frame");
	fifo_key(&sc.f, BTN_RIGHT, 1);
	expect(&sc, "kb-", "kb-leave B");
	expect(&sc, "kb-", "kb-enter A keys");
	expect(&sc, "ptr-", "ptr-button 273 pressed");
	check(strstr(sc.log, "kb-enter A keys\nmods 0 0 0 0\nptr-button 273") != NULL,
	      "the keyboard enter came before the button");
	expect_activated(&sc, &a, true, "A, clicked");
	fifo_key(&sc.f, BTN_RIGHT, 0);
	expect(&sc, "ptr-", "ptr-frame");
	expect(&sc, "ptr-", "ptr-button 273 released");

	/* One wheel click away from the user: scroll up. */
	fifo_event(&sc.f, EV_REL, REL_WHEEL, 1);
	fifo_syn(&sc.f);
	expect(&sc, "ptr-", "ptr-frame");
	expect(&sc, "ptr-", "ptr-axis-source 0");
	expect(&sc, "ptr-", "ptr-axis-value120 0 -120");
	expect(&sc, "ptr-", "ptr-axis 0 -10.00");
	expect(&sc, "ptr-", "ptr-frame");

	/* A subsurface C of A, reaching out of A: the pointer finds it
	 * over A and outside A; a click on it focuses A, its root. */
	sub = surface(&sc.t);
	sc.named[2] = sub;
	if (!sc.t.subcompositor)
		fail("no wl_subcompositor");
	ss = wl_subcompositor_get_subsurface(sc.t.subcompositor, sub, a.s);
	wl_subsurface_set_position(ss, 30, 30);
	show(&sc.t, sub, 20, 20, BLUE);
	wl_surface_commit(a.s);
	if (wl_display_roundtrip(sc.t.display) < 0)
		fail("subsurface: %s", last_client_log);
	fifo_move(&sc.f, bx + 5, by + 5);
	fifo_key(&sc.f, BTN_LEFT, 1);
	fifo_key(&sc.f, BTN_LEFT, 0);
	expect(&sc, "kb-", "kb-leave A");
	expect(&sc, "kb-", "kb-enter B keys");
	fifo_move(&sc.f, ax + 35, ay + 36);
	expect(&sc, "ptr-enter", "ptr-enter C 5.00 6.00");
	fifo_move(&sc.f, ax + 45, ay + 47);
	expect(&sc, "ptr-motion", "ptr-motion 15.00 17.00");
	fifo_key(&sc.f, BTN_LEFT, 1);
	fifo_key(&sc.f, BTN_LEFT, 0);
	expect(&sc, "kb-", "kb-leave B");
	expect(&sc, "kb-", "kb-enter A keys");
	fifo_move(&sc.f, ax + 1, ay + 2);
	expect(&sc, "ptr-leave", "ptr-leave C");
	expect(&sc, "ptr-enter", "ptr-enter A 1.00 2.00");
	wl_subsurface_destroy(ss);
	wl_surface_destroy(sub);

	/* A goes from under the cursor. Its xdg_toplevel goes first, which
	 * unmaps it: leave comes then, for a wl_surface that this client
	 * has destroyed too by the time it reads them. B, the topmost
	 * left, gets the keyboard. */
	xdg_toplevel_destroy(a.tl);
	xdg_surface_destroy(a.xs);
	wl_surface_destroy(a.s);
	expect(&sc, "kb-", "kb-leave (destroyed)");
	expect(&sc, "kb-", "kb-enter B keys");
	expect(&sc, "ptr-", "ptr-leave (destroyed)");
	expect(&sc, "ptr-", "ptr-frame");
	fifo_move(&sc.f, bx + 2, by + 3);
	expect(&sc, "ptr-", "ptr-enter B 2.00 3.00");
	sc_stop(&sc);
}

/*
 * xdg_toplevel.move: granted with the serial of the press that is
 * held on the window; the window is left, follows the cursor, and at the
 * release takes the pointer where the cursor is. A move with another
 * serial, or with no button held, is ignored.
 */
static void test_move(void)
{
	static struct sc sc;
	struct win a;
	int ax, ay;

	sc_start(&sc, 8);
	sc_pointer(&sc);
	sc_window(&sc, &a, 0, 40, RED, &ax, &ay);
	fifo_move(&sc.f, ax + 10, ay + 10);
	expect(&sc, "ptr-", "ptr-enter A 10.00 10.00");
	expect(&sc, "ptr-", "ptr-frame");

	/* No button held: ignored. */
	xdg_toplevel_move(a.tl, sc.seat, sc.button_serial);
	wl_display_roundtrip(sc.t.display);
	if (!proc_wait(&sc.t.c.p, &sc.t.log_from, "move ignored", TIMEOUT_MS,
		       NULL, 0))
		fail("a move without a button held was not ignored");
	fifo_key(&sc.f, BTN_LEFT, 1);
	expect(&sc, "ptr-", "ptr-button 272 pressed");
	expect(&sc, "ptr-", "ptr-frame");
	/* Another serial: ignored. */
	xdg_toplevel_move(a.tl, sc.seat, sc.button_serial + 1);
	wl_display_roundtrip(sc.t.display);
	if (!proc_wait(&sc.t.c.p, &sc.t.log_from, "move ignored", TIMEOUT_MS,
		       NULL, 0))
		fail("a move with another serial was not ignored");

	xdg_toplevel_move(a.tl, sc.seat, sc.button_serial);
	wl_display_flush(sc.t.display);
	expect(&sc, "ptr-", "ptr-leave A");
	expect(&sc, "ptr-", "ptr-frame");
	fifo_move(&sc.f, ax + 10 + 30, ay + 10 + 20);
	expect_placed_at(&sc.t, ax + 30, ay + 20, "moved with the cursor");
	fifo_move(&sc.f, ax + 10 + 50, ay + 10 + 5);
	expect_placed_at(&sc.t, ax + 50, ay + 5, "and on");
	fifo_key(&sc.f, BTN_LEFT, 0);
	/* The release goes to no client; the window is under the cursor
	 * at the same spot on it. */
	expect(&sc, "ptr-", "ptr-enter A 10.00 10.00");
	check(!strstr(sc.log, "ptr-button 272 released"),
	      "no client saw the release that ended the move");
	screenshot(&sc.t);
	expect_rect(&sc.t, ax + 50, ay + 5, 40, 40, RED, "the window at its new place");
	sc_stop(&sc);
}

/* A configure of @w after the @n-th: @width x @height, resizing or not
 * (the last one, once it came). */
static void expect_resize_configure(struct win *w, int n, int32_t width,
				    int32_t height, bool resizing,
				    const char *what)
{
	wait_configure(w, n, what);
	check(w->w == width && w->h == height && w->resizing == resizing,
	      "%s: configure %dx%d%s (want %dx%d%s)", what, w->w, w->h,
	      w->resizing ? " resizing" : "", width, height,
	      resizing ? " resizing" : "");
}

/*
 * xdg_toplevel.resize: granted like a move; the window is left, the
 * cursor drags the edges: configures with the resizing state and the
 * dragged size, the top left corner moved at once so that the bottom
 * right one stays where it was. The release takes the pointer where
 * the cursor is and ends the resizing state; the size stays. An edge
 * that is no edge (top and bottom) is an error.
 */
static void test_resize(void)
{
	static struct sc sc;
	struct win a;
	int ax, ay, n;

	sc_start(&sc, 8);
	sc_pointer(&sc);
	sc_window(&sc, &a, 0, 40, RED, &ax, &ay);
	fifo_move(&sc.f, ax + 10, ay + 10);
	expect(&sc, "ptr-", "ptr-enter A 10.00 10.00");
	expect(&sc, "ptr-", "ptr-frame");
	fifo_key(&sc.f, BTN_LEFT, 1);
	expect(&sc, "ptr-", "ptr-button 272 pressed");
	expect(&sc, "ptr-", "ptr-frame");

	n = a.configures;
	xdg_toplevel_resize(a.tl, sc.seat, sc.button_serial,
			    XDG_TOPLEVEL_RESIZE_EDGE_TOP_LEFT);
	wl_display_flush(sc.t.display);
	expect(&sc, "ptr-", "ptr-leave A");
	expect(&sc, "ptr-", "ptr-frame");
	expect_resize_configure(&a, n, 40, 40, true, "the resize began");
	n = a.configures;
	fifo_move(&sc.f, ax + 10 - 10, ay + 10 - 20);
	expect_placed_at(&sc.t, ax - 10, ay - 20, "the top left corner dragged");
	expect_resize_configure(&a, n, 50, 60, true, "dragged by -10,-20");
	win_draw(&a, 50, 60, GREEN);
	n = a.configures;
	fifo_key(&sc.f, BTN_LEFT, 0);
	expect(&sc, "ptr-", "ptr-enter A 10.00 10.00");
	expect_resize_configure(&a, n, 50, 60, false, "the resize ended");
	check(!strstr(sc.log, "ptr-button 272 released"),
	      "no client saw the release that ended the resize");
	win_draw(&a, 50, 60, GREEN);
	screenshot(&sc.t);
	expect_rect(&sc.t, ax - 10, ay - 20, 50, 60, GREEN,
		    "the window resized, its bottom right corner in place");

	xdg_toplevel_resize(a.tl, sc.seat, sc.button_serial, 3);
	expect_error(&sc.t, "resize edge top and bottom", "xdg_toplevel",
		     XDG_TOPLEVEL_ERROR_INVALID_RESIZE_EDGE);
	sc_stop(&sc);
}

static const struct harness_test tests[] = {
	{ "input-pointer", test_pointer },
	{ "input-move", test_move },
	{ "input-resize", test_resize },
};

int main(int argc, char **argv)
{
	return harness_main("test-input-pointer", tests,
			    sizeof(tests) / sizeof(tests[0]), argc, argv);
}
