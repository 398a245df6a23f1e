/* SPDX-License-Identifier: MIT */
/*
 * test-xdg-configure - the life of an xdg_toplevel around its
 * configures on the headless backend: buffers before the first
 * configure (errors, or with --xdg-early-buffer=map a window mapped at
 * once), configures acked late, out of order or never, and unmapping
 * and mapping again.
 *
 * Usage: test-xdg-configure TEST. A raw client (toplevel.h) maps
 * toplevels of single colours and checks them in the compositor's
 * screenshots.
 */
#include <wayland-client.h>

#include "toplevel.h"

/*
 * Buffers before the first configure: "Creating an xdg_surface from a
 * wl_surface which has a buffer attached or committed is a client
 * error, and any attempts by a client to attach or manipulate a buffer
 * prior to the first xdg_surface.configure call must also be treated as
 * errors." After that configure (before its ack) an attach is fine, and
 * the buffer waits for the ack.
 */
static void test_buffer_errors(void)
{
	static struct t t;
	struct wl_surface *s;
	struct win w;

	t_start(&t);
	win_create(&t, &w);
	wl_surface_attach(w.s, solid(&t, 10, 10, RED), 0, 0);
	expect_error(&t, "a buffer attached before the initial commit",
		     "xdg_surface", XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER);

	s = surface(&t);
	xdg_wm_base_get_xdg_surface(t.wm_base, s);
	wl_surface_attach(s, solid(&t, 10, 10, RED), 0, 0);
	expect_error(&t, "a buffer attached to an xdg_surface without a role",
		     "xdg_surface", XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER);

	s = surface(&t);
	wl_surface_attach(s, solid(&t, 10, 10, RED), 0, 0);
	xdg_wm_base_get_xdg_surface(t.wm_base, s);
	expect_error(&t, "an xdg_surface for a surface with a buffer attached",
		     "xdg_wm_base", XDG_WM_BASE_ERROR_INVALID_SURFACE_STATE);

	s = surface(&t);
	show(&t, s, 10, 10, RED);
	xdg_wm_base_get_xdg_surface(t.wm_base, s);
	expect_error(&t, "an xdg_surface for a surface with a buffer committed",
		     "xdg_wm_base", XDG_WM_BASE_ERROR_INVALID_SURFACE_STATE);

	/* A NULL attach is no buffer. */
	win_create(&t, &w);
	wl_surface_attach(w.s, NULL, 0, 0);
	win_initial_commit(&w);
	/* Attached after the configure, before the ack: no error, not
	 * shown until acked. */
	show(&t, w.s, 100, 80, RED);
	screenshot(&t);
	expect_rect(&t, 0, 0, OUT_W, OUT_H, BACKGROUND, "not shown before the ack");
	win_draw(&w, 100, 80, RED);
	expect_mapped_at(&t, CASCADE_X0, CASCADE_Y0, "shown once acked");
	t_stop(&t);
}

/*
 * --xdg-early-buffer=map: the toplevel's first configure comes with the
 * role, before any commit; a buffer committed before any ack maps the
 * window at its slot, and a later ack of that configure is no error.
 * After an initial commit whose configure is never acked, a buffer maps
 * the window too. A state asked for before the initial commit comes in
 * a configure of its own. An xdg_surface without a role still gets
 * unconfigured_buffer.
 */
static void test_early_buffer(void)
{
	static const char *const opts[] = { "--xdg-early-buffer=map", NULL };
	/* static: the harness cleans up through pointers at exit */
	static struct t t;
	static struct win w, w2, w3;
	struct wl_surface *s;

	t_start_args(&t, opts);
	win_create(&t, &w);
	if (wl_display_roundtrip(t.display) < 0)
		fail("connection lost after get_toplevel: %s", last_client_log);
	check(w.configures == 1,
	      "one configure with the role, before any commit (%d)",
	      w.configures);
	expect_configure(&w, false, false, 0, 0, "the first configure");
	show(&t, w.s, 100, 80, RED);
	wl_display_flush(t.display);
	expect_mapped_at(&t, CASCADE_X0, CASCADE_Y0, "a buffer before any ack");
	screenshot(&t);
	expect_rect(&t, CASCADE_X0, CASCADE_Y0, 100, 80, RED,
		    "the window shown without an ack");
	xdg_surface_ack_configure(w.xs, w.serial);
	wl_surface_commit(w.s);
	check(wl_display_roundtrip(t.display) >= 0,
	      "a late ack of the first configure (%s)", last_client_log);

	win_create(&t, &w2);
	win_initial_commit(&w2);
	show(&t, w2.s, 60, 50, GREEN);
	wl_display_flush(t.display);
	expect_mapped_at(&t, CASCADE_X0 + CASCADE_STEP, CASCADE_Y0 + CASCADE_STEP,
			 "a buffer after the initial commit, never acked");
	screenshot(&t);
	expect_rect(&t, CASCADE_X0 + CASCADE_STEP, CASCADE_Y0 + CASCADE_STEP,
		    60, 50, GREEN, "the second window shown");

	/* set_fullscreen before the initial commit: a second configure,
	 * fullscreen; a buffer before its ack maps the window in it. */
	win_create(&t, &w3);
	xdg_toplevel_set_fullscreen(w3.tl, NULL);
	wl_surface_commit(w3.s);
	wait_configure(&w3, 1, "the fullscreen configure");
	expect_configure(&w3, false, true, OUT_W, OUT_H, "the fullscreen configure");
	show(&t, w3.s, OUT_W, OUT_H, BLUE);
	wl_display_flush(t.display);
	expect_mapped_at(&t, 0, 0, "fullscreen before any ack");

	s = surface(&t);
	xdg_wm_base_get_xdg_surface(t.wm_base, s);
	wl_surface_attach(s, solid(&t, 10, 10, RED), 0, 0);
	expect_error(&t, "a buffer attached to an xdg_surface without a role",
		     "xdg_surface", XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER);
	t_stop(&t);
}

/*
 * Configures the client has not acked yet: acking an older one is fine
 * (and drops those before it), the newest one decides; a serial never
 * sent is an error. A client that never acks gets only a few.
 */
static void test_serials(void)
{
	/* static: the harness cleans up through pointers at exit */
	static struct t t;
	static struct win w;
	uint32_t first;
	int n;

	t_start(&t);
	win_create(&t, &w);
	map_floating(&t, &w);

	win_request(&w, xdg_toplevel_set_maximized, "set_maximized");
	first = w.serial;
	win_request(&w, xdg_toplevel_unset_maximized, "unset_maximized");
	xdg_surface_ack_configure(w.xs, first);
	wl_surface_commit(w.s);
	last_client_log[0] = 0;
	check(wl_display_roundtrip(t.display) >= 0,
	      "an older configure acked (%s)", last_client_log);
	screenshot(&t);
	expect_rect(&t, 0, 0, 100, 80, RED,
		    "the acked (maximized) configure placed it at 0,0");
	xdg_surface_ack_configure(w.xs, w.serial);
	wl_surface_commit(w.s);
	screenshot(&t);
	expect_rect(&t, CASCADE_X0, CASCADE_Y0, 100, 80, RED,
		    "the newest (floating) one back at the cascade");
	expect_rect(&t, 0, 0, CASCADE_X0, CASCADE_Y0, BACKGROUND,
		    "and 0,0 repainted");

	/* Twenty requests unacked: a few configures, not twenty. */
	n = w.configures;
	for (int i = 0; i < 10; i++) {
		xdg_toplevel_set_fullscreen(w.tl, NULL);
		xdg_toplevel_unset_fullscreen(w.tl);
	}
	wl_display_roundtrip(t.display);
	check(w.configures - n >= 1 && w.configures - n <= 4,
	      "unacked configures bounded (%d sent)", w.configures - n);
	/* Acking the last one sends what was asked meanwhile: floating. */
	n = w.configures;
	xdg_surface_ack_configure(w.xs, w.serial);
	wait_configure(&w, n, "the held-back request");
	expect_configure(&w, false, false, 0, 0, "the held-back request");

	xdg_surface_ack_configure(w.xs, w.serial + 1000);
	expect_error(&t, "ack of a serial never sent", "xdg_surface",
		     XDG_SURFACE_ERROR_INVALID_SERIAL);
	t_stop(&t);
}

/*
 * Unmapping is a committed NULL attach and nothing else. A client that
 * destroys its shown buffer keeps a mapped window (Mir #2643): it is
 * still configured and shows the next buffer where it was. A client that
 * unmaps with a configure on its way may ack that configure before it
 * sees the unmap land: no error, and the window starts over.
 */
static void test_unmap(void)
{
	/* static: the harness cleans up through pointers at exit */
	static struct t t;
	static struct win w;
	struct wl_buffer *b;
	int n;

	t_start(&t);
	win_create(&t, &w);
	map_floating(&t, &w);

	b = solid(&t, 100, 80, GREEN);
	wl_surface_attach(w.s, b, 0, 0);
	wl_surface_damage(w.s, 0, 0, 100, 80);
	wl_surface_commit(w.s);
	screenshot(&t);
	expect_rect(&t, CASCADE_X0, CASCADE_Y0, 100, 80, GREEN, "new buffer");
	wl_buffer_destroy(b);
	wl_surface_damage(w.s, 0, 0, 100, 80);
	wl_surface_commit(w.s);
	check(wl_display_roundtrip(t.display) >= 0,
	      "commit after the shown buffer was destroyed (%s)",
	      last_client_log);
	win_request(&w, xdg_toplevel_set_maximized,
		    "set_maximized after the shown buffer was destroyed");
	expect_configure(&w, true, false, OUT_W, OUT_H, "still configured");
	win_draw(&w, OUT_W, OUT_H, BLUE);
	screenshot(&t);
	expect_rect(&t, 0, 0, OUT_W, OUT_H, BLUE, "the next buffer, maximized");

	/* A configure on its way; the client unmaps, then acks it. */
	n = w.configures;
	xdg_toplevel_unset_maximized(w.tl);
	wait_configure(&w, n, "unset_maximized");
	wl_surface_attach(w.s, NULL, 0, 0);
	wl_surface_commit(w.s);
	xdg_surface_ack_configure(w.xs, w.serial);
	last_client_log[0] = 0;
	check(wl_display_roundtrip(t.display) >= 0,
	      "ack of a configure sent before the unmap (%s)", last_client_log);
	screenshot(&t);
	expect_rect(&t, 0, 0, OUT_W, OUT_H, BACKGROUND, "unmapped");
	win_initial_commit(&w);
	expect_configure(&w, false, false, 0, 0, "the new initial configure");
	win_draw(&w, 100, 80, YELLOW);
	/* A new mapping: the cascade's next slot, one step on. */
	expect_mapped_at(&t, CASCADE_X0 + CASCADE_STEP, CASCADE_Y0 + CASCADE_STEP,
			 "mapped again");
	screenshot(&t);
	expect_rect(&t, CASCADE_X0 + CASCADE_STEP, CASCADE_Y0 + CASCADE_STEP,
		    100, 80, YELLOW, "mapped again");
	t_stop(&t);
}

static const struct harness_test tests[] = {
	{ "xdg-serials", test_serials },
	{ "xdg-buffer-errors", test_buffer_errors },
	{ "xdg-early-buffer", test_early_buffer },
	{ "xdg-unmap", test_unmap },
};

int main(int argc, char **argv)
{
	return harness_main("test-xdg-configure", tests,
			    sizeof(tests) / sizeof(tests[0]), argc, argv);
}
