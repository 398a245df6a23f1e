/* SPDX-License-Identifier: MIT */
/*
 * test-xdg - xdg_toplevel states (fullscreen, maximized), window
 * geometry and placement on the headless backend, checked in the
 * compositor's screenshots.
 *
 * Usage: test-xdg TEST. A raw client (toplevel.h) maps toplevels of
 * single colours; after each step it waits for a frame, asks for a
 * screenshot and reads pixels back in output coordinates.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <wayland-client.h>

#include "toplevel.h"

static void expect_configure(struct win *w, bool maximized, bool fullscreen,
			     int32_t width, int32_t height, const char *what)
{
	check(w->maximized == maximized && w->fullscreen == fullscreen &&
	      !w->other_state && w->w == width && w->h == height,
	      "%s: configure %dx%d%s%s%s (want %dx%d%s%s)", what, w->w, w->h,
	      w->maximized ? " maximized" : "", w->fullscreen ? " fullscreen" : "",
	      w->other_state ? " +other states" : "", width, height,
	      maximized ? " maximized" : "", fullscreen ? " fullscreen" : "");
}

/* A floating 100x80 red window: at the first cascade slot. */
static void map_floating(struct t *t, struct win *w)
{
	win_initial_commit(w);
	expect_configure(w, false, false, 0, 0, "initial configure");
	win_draw(w, 100, 80, RED);
	expect_mapped_at(t, CASCADE_X0, CASCADE_Y0, "floating window");
	screenshot(t);
	expect_rect(t, CASCADE_X0, CASCADE_Y0, 100, 80, RED, "at the cascade");
	expect_rect(t, 0, 0, OUT_W, CASCADE_Y0, BACKGROUND, "background above");
}

/* Back to floating: 0x0, no states, the cascade slot again. */
static void expect_unset(struct t *t, struct win *w, const char *what)
{
	char msg[128];

	snprintf(msg, sizeof(msg), "%s: configure", what);
	expect_configure(w, false, false, 0, 0, msg);
	win_draw(w, 100, 80, BLUE);
	screenshot(t);
	snprintf(msg, sizeof(msg), "%s: back at the cascade slot", what);
	expect_rect(t, CASCADE_X0, CASCADE_Y0, 100, 80, BLUE, msg);
	snprintf(msg, sizeof(msg), "%s: background at 0,0 again", what);
	expect_rect(t, 0, 0, OUT_W, CASCADE_Y0, BACKGROUND, msg);
	expect_rect(t, CASCADE_X0 + 100, CASCADE_Y0, OUT_W - CASCADE_X0 - 100,
		    OUT_H - CASCADE_Y0, BACKGROUND, msg);
}

/*
 * set_fullscreen before the initial commit (as mpv --fs does): the first
 * configure is fullscreen at the output's size, and a buffer of that
 * size covers the output from 0,0. unset_fullscreen: 0x0 and the cascade.
 */
static void test_fullscreen(void)
{
	/* static: the harness cleans up through pointers at exit */
	static struct t t;
	static struct win w;

	t_start(&t);
	win_create(&t, &w);
	xdg_toplevel_set_fullscreen(w.tl, NULL);
	win_initial_commit(&w);
	expect_configure(&w, false, true, OUT_W, OUT_H, "initial configure");
	win_draw(&w, OUT_W, OUT_H, GREEN);
	expect_mapped_at(&t, 0, 0, "fullscreen window");
	screenshot(&t);
	expect_rect(&t, 0, 0, OUT_W, OUT_H, GREEN, "fullscreen covers the output");

	win_request(&w, xdg_toplevel_unset_fullscreen, "unset_fullscreen");
	expect_unset(&t, &w, "unset_fullscreen");
	t_stop(&t);
}

/* A mapped floating window goes fullscreen and back. */
static void test_fullscreen_mapped(void)
{
	/* static: the harness cleans up through pointers at exit */
	static struct t t;
	static struct win w;

	t_start(&t);
	win_create(&t, &w);
	map_floating(&t, &w);

	win_request(&w, set_fullscreen, "set_fullscreen");
	expect_configure(&w, false, true, OUT_W, OUT_H, "set_fullscreen");
	screenshot(&t);
	expect_rect(&t, CASCADE_X0, CASCADE_Y0, 100, 80, RED,
		    "stays put until acked and committed");
	win_draw(&w, OUT_W, OUT_H, GREEN);
	screenshot(&t);
	expect_rect(&t, 0, 0, OUT_W, OUT_H, GREEN, "fullscreen covers the output");

	win_request(&w, xdg_toplevel_unset_fullscreen, "unset_fullscreen");
	expect_unset(&t, &w, "unset_fullscreen");
	t_stop(&t);
}

/* Maximized: the whole output too (no panels), the state MAXIMIZED. */
static void test_maximized(void)
{
	/* static: the harness cleans up through pointers at exit */
	static struct t t;
	static struct win w;

	t_start(&t);
	win_create(&t, &w);
	map_floating(&t, &w);

	win_request(&w, xdg_toplevel_set_maximized, "set_maximized");
	expect_configure(&w, true, false, OUT_W, OUT_H, "set_maximized");
	win_draw(&w, OUT_W, OUT_H, GREEN);
	screenshot(&t);
	expect_rect(&t, 0, 0, OUT_W, OUT_H, GREEN, "maximized covers the output");

	/* Fullscreen over maximized keeps both; unset_fullscreen keeps
	 * the window maximized. */
	win_request(&w, set_fullscreen, "set_fullscreen while maximized");
	expect_configure(&w, true, true, OUT_W, OUT_H,
			 "set_fullscreen while maximized");
	win_request(&w, xdg_toplevel_unset_fullscreen,
		    "unset_fullscreen while maximized");
	expect_configure(&w, true, false, OUT_W, OUT_H,
			 "unset_fullscreen while maximized");
	win_draw(&w, OUT_W, OUT_H, GREEN);
	screenshot(&t);
	expect_rect(&t, 0, 0, OUT_W, OUT_H, GREEN, "still maximized at 0,0");

	win_request(&w, xdg_toplevel_unset_maximized, "unset_maximized");
	expect_unset(&t, &w, "unset_maximized");
	t_stop(&t);
}

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

/* wl_output, bound at the version advertised. */
struct out {
	uint32_t version;
	struct wl_output *o;
	char name[64], description[128];
	int w, h;
	bool named_before_done, done;
};

static void out_geometry(void *data, struct wl_output *o, int32_t x, int32_t y,
			 int32_t pw, int32_t ph, int32_t subpixel,
			 const char *make, const char *model, int32_t transform)
{
}

static void out_mode(void *data, struct wl_output *o, uint32_t flags,
		     int32_t w, int32_t h, int32_t refresh)
{
	struct out *out = data;

	if (flags & WL_OUTPUT_MODE_CURRENT) {
		out->w = w;
		out->h = h;
	}
}

static void out_done(void *data, struct wl_output *o)
{
	struct out *out = data;

	out->named_before_done = out->name[0] && out->description[0];
	out->done = true;
}

static void out_scale(void *data, struct wl_output *o, int32_t factor)
{
}

static void out_name(void *data, struct wl_output *o, const char *name)
{
	struct out *out = data;

	snprintf(out->name, sizeof(out->name), "%s", name);
}

static void out_description(void *data, struct wl_output *o, const char *d)
{
	struct out *out = data;

	snprintf(out->description, sizeof(out->description), "%s", d);
}

static const struct wl_output_listener out_listener = {
	.geometry = out_geometry,
	.mode = out_mode,
	.done = out_done,
	.scale = out_scale,
	.name = out_name,
	.description = out_description,
};

static void out_global(void *data, struct wl_registry *r, uint32_t name,
		       const char *iface, uint32_t version)
{
	struct out *out = data;

	if (strcmp(iface, "wl_output"))
		return;
	out->version = version;
	out->o = wl_registry_bind(r, name, &wl_output_interface,
				  version < 4 ? version : 4);
	wl_output_add_listener(out->o, &out_listener, out);
}

static void out_global_remove(void *data, struct wl_registry *r, uint32_t name)
{
}

static const struct wl_registry_listener out_reg_listener = {
	.global = out_global,
	.global_remove = out_global_remove,
};

/* wl_output version 4: name and description, then done. */
static void test_output(void)
{
	/* static: the harness cleans up through pointers at exit */
	static struct t t;
	static struct out out;
	struct wl_registry *r;

	t_start(&t);
	r = wl_display_get_registry(t.display);
	wl_registry_add_listener(r, &out_reg_listener, &out);
	wl_display_roundtrip(t.display);
	check(out.version == 4, "wl_output advertised at version %u (want 4)",
	      out.version);
	if (!out.o)
		fail("no wl_output");
	wl_display_roundtrip(t.display);
	check(out.done, "wl_output.done received");
	check(!strcmp(out.name, "HEADLESS-1"), "name \"%s\" (want HEADLESS-1)",
	      out.name);
	check(strstr(out.description, "HEADLESS-1") &&
	      strstr(out.description, "320x240"),
	      "description \"%s\" names the output and its size",
	      out.description);
	check(out.named_before_done, "name and description came before done");
	check(out.w == OUT_W && out.h == OUT_H, "current mode %dx%d", out.w,
	      out.h);
	wl_output_release(out.o);
	wl_registry_destroy(r);
	t_stop(&t);
}

/* A toplevel decoration and the modes it was told. */
struct deco {
	struct zxdg_toplevel_decoration_v1 *d;
	int configures;
	uint32_t mode;
};

static void deco_configure(void *data, struct zxdg_toplevel_decoration_v1 *d,
			   uint32_t mode)
{
	struct deco *dc = data;

	dc->configures++;
	dc->mode = mode;
}

static const struct zxdg_toplevel_decoration_v1_listener deco_listener = {
	.configure = deco_configure,
};

static void deco_create(struct t *t, struct deco *dc, struct win *w)
{
	memset(dc, 0, sizeof(*dc));
	dc->d = zxdg_decoration_manager_v1_get_toplevel_decoration(t->deco,
								   w->tl);
	zxdg_toplevel_decoration_v1_add_listener(dc->d, &deco_listener, dc);
}

/*
 * zxdg_decoration_manager_v1: each mode as asked (server_side when the
 * client leaves it to the compositor), each time with an
 * xdg_surface.configure after it (once the toplevel had its initial
 * commit), and the protocol's errors. test-decor checks the frame.
 */
static void test_decoration(void)
{
	/* static: the harness cleans up through pointers at exit */
	static struct t t;
	static struct win w, w2;
	static struct deco dc, dc2;
	int n;

	t_start(&t);
	if (!t.deco)
		fail("no zxdg_decoration_manager_v1");
	win_create(&t, &w);
	deco_create(&t, &dc, &w);
	zxdg_toplevel_decoration_v1_set_mode(dc.d,
		ZXDG_TOPLEVEL_DECORATION_V1_MODE_CLIENT_SIDE);
	wl_display_roundtrip(t.display);
	check(dc.configures >= 1 &&
	      dc.mode == ZXDG_TOPLEVEL_DECORATION_V1_MODE_CLIENT_SIDE,
	      "before the initial commit: client_side (%d configures, mode %u)",
	      dc.configures, dc.mode);
	check(w.configures == 0, "no xdg_surface.configure before the initial commit");
	win_initial_commit(&w);
	win_draw(&w, 100, 80, RED);
	expect_mapped_at(&t, CASCADE_X0, CASCADE_Y0, "client-side decorated window");

	n = dc.configures;
	zxdg_toplevel_decoration_v1_set_mode(dc.d,
		ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE);
	wait_configure(&w, w.configures, "set_mode(server_side)");
	check(dc.configures == n + 1 &&
	      dc.mode == ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE,
	      "set_mode(server_side) answered server_side, then xdg_surface.configure");
	n = dc.configures;
	zxdg_toplevel_decoration_v1_set_mode(dc.d,
		ZXDG_TOPLEVEL_DECORATION_V1_MODE_CLIENT_SIDE);
	wait_configure(&w, w.configures, "set_mode(client_side)");
	check(dc.configures == n + 1 &&
	      dc.mode == ZXDG_TOPLEVEL_DECORATION_V1_MODE_CLIENT_SIDE,
	      "set_mode(client_side) answered client_side, then xdg_surface.configure");
	n = dc.configures;
	zxdg_toplevel_decoration_v1_unset_mode(dc.d);
	wait_configure(&w, w.configures, "unset_mode");
	check(dc.configures == n + 1 &&
	      dc.mode == ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE,
	      "unset_mode answered server_side, then xdg_surface.configure");
	zxdg_toplevel_decoration_v1_set_mode(dc.d,
		ZXDG_TOPLEVEL_DECORATION_V1_MODE_CLIENT_SIDE);
	wait_configure(&w, w.configures, "set_mode(client_side) again");
	win_draw(&w, 100, 80, BLUE);
	screenshot(&t);
	expect_rect(&t, CASCADE_X0, CASCADE_Y0, 100, 80, BLUE,
		    "client_side: no decorations drawn, the window as committed");
	expect_rect(&t, 0, 0, OUT_W, CASCADE_Y0, BACKGROUND,
		    "client_side: nothing above the window");
	/* Destroying the decoration, then the toplevel, is the right order. */
	zxdg_toplevel_decoration_v1_destroy(dc.d);
	xdg_toplevel_destroy(w.tl);
	last_client_log[0] = 0;
	check(wl_display_roundtrip(t.display) >= 0,
	      "decoration destroyed before its toplevel (%s)", last_client_log);

	win_create(&t, &w2);
	deco_create(&t, &dc, &w2);
	deco_create(&t, &dc2, &w2);
	expect_error(&t, "a second decoration for a toplevel",
		     "zxdg_toplevel_decoration_v1",
		     ZXDG_TOPLEVEL_DECORATION_V1_ERROR_ALREADY_CONSTRUCTED);

	win_create(&t, &w2);
	deco_create(&t, &dc, &w2);
	xdg_toplevel_destroy(w2.tl);
	expect_error(&t, "the toplevel destroyed before its decoration",
		     "zxdg_toplevel_decoration_v1",
		     ZXDG_TOPLEVEL_DECORATION_V1_ERROR_ORPHANED);

	/* Attached after the first configure (before that the attach
	 * itself is an xdg_surface error), not yet acked nor committed. */
	win_create(&t, &w2);
	win_initial_commit(&w2);
	wl_surface_attach(w2.s, solid(&t, 10, 10, RED), 0, 0);
	deco_create(&t, &dc, &w2);
	expect_error(&t, "a decoration for a toplevel with a buffer attached",
		     "zxdg_toplevel_decoration_v1",
		     ZXDG_TOPLEVEL_DECORATION_V1_ERROR_UNCONFIGURED_BUFFER);
	t_stop(&t);
}

/* @prog's path from $PATH (what `command -v` finds), or NULL. */
static const char *find_program(const char *prog)
{
	static char path[512];
	const char *p = getenv("PATH");

	while (p && *p) {
		size_t n = strcspn(p, ":");

		snprintf(path, sizeof(path), "%.*s/%s", (int)n, p, prog);
		if (n && access(path, X_OK) == 0)
			return path;
		p += n + (p[n] == ':');
	}
	return NULL;
}

/*
 * mpv --fs on an output of the video's size, drawing with wl_shm
 * (--vo=wlshm): the whole output is video, from 0,0 to the far corner.
 * lavfi's testsrc is black at its top-left and white at its bottom-right,
 * so neither is the background. Skipped (TAP) without mpv.
 */
static void test_mpv_fullscreen(void)
{
	static const char *const args[] = { "--size=1024x768", "--verbose",
					    "--print-frames", NULL };
	/* static: the harness cleans up through pointers at exit */
	static struct t t;
	static struct proc mpv;
	char *argv[] = { NULL, "--no-config", "--vo=wlshm", "--fs", "--ao=null",
			 "--loop=inf", "--really-quiet",
			 "av://lavfi:testsrc=size=1024x768:rate=30", NULL };
	const char *prog = find_program("mpv");
	char needle[64], line[256];
	int i;

	if (!prog) {
		printf("1..0 # SKIP mpv is not installed\n");
		return;
	}
	argv[0] = (char *)prog;
	memset(&t, 0, sizeof(t));
	comp_start(&t.c, args);
	proc_spawn(&mpv, argv);
	snprintf(needle, sizeof(needle), "mapped pid=%d toplevel", (int)mpv.pid);
	if (!proc_wait(&t.c.p, &t.log_from, needle, TIMEOUT_MS, line,
		       sizeof(line)))
		fail("mpv never mapped a toplevel");
	/* mpv maps before it acks the fullscreen configure it asked for
	 * after its initial commit: a later commit places it at 0,0. */
	if (!strstr(line, " at 0,0 ")) {
		snprintf(needle, sizeof(needle), "placed pid=%d toplevel",
			 (int)mpv.pid);
		if (!proc_wait(&t.c.p, &t.log_from, needle, TIMEOUT_MS, line,
			       sizeof(line)))
			fail("mpv's window was never placed anew");
	}
	check(strstr(line, " at 0,0") != NULL, "mpv's window at 0,0 (%s)",
	      strtok(line, "\n"));
	for (i = 0; i < 3; i++)
		if (!proc_wait(&t.c.p, &t.log_from, "WLSEAL-FRAME ", TIMEOUT_MS,
			       NULL, 0))
			fail("only %d frames after mpv went fullscreen", i);
	/* No client of our own: the screenshot is of the next frame. */
	comp_screenshot(&t.c, &t.log_from, &t.rgb, &t.shot_w, &t.shot_h);
	check(t.shot_w == 1024 && t.shot_h == 768, "screenshot %ux%u",
	      t.shot_w, t.shot_h);
	check(at(&t, 0, 0) != BACKGROUND, "video at 0,0 (%08x)", at(&t, 0, 0));
	check(at(&t, 1023, 767) != BACKGROUND, "video at 1023,767 (%08x)",
	      at(&t, 1023, 767));
	check(at(&t, 1023, 0) != BACKGROUND && at(&t, 0, 767) != BACKGROUND,
	      "video at the other corners (%08x, %08x)", at(&t, 1023, 0),
	      at(&t, 0, 767));
	check(!proc_contains(&t.c.p, "refused"), "compositor refused nothing");
	proc_kill(&mpv, SIGTERM);
	if (!proc_wait_exit(&mpv, TIMEOUT_MS))
		fail("mpv ignores SIGTERM");
	free(t.rgb);
	comp_stop(&t.c);
}

static const struct harness_test tests[] = {
	{ "xdg-fullscreen", test_fullscreen },
	{ "xdg-fullscreen-mapped", test_fullscreen_mapped },
	{ "xdg-maximized", test_maximized },
	{ "xdg-serials", test_serials },
	{ "xdg-buffer-errors", test_buffer_errors },
	{ "xdg-early-buffer", test_early_buffer },
	{ "xdg-unmap", test_unmap },
	{ "xdg-geometry", test_geometry },
	{ "xdg-place-output-sized", test_place_output_sized },
	{ "xdg-place-cascade", test_place_cascade },
	{ "xdg-parent", test_parent },
	{ "output-v4", test_output },
	{ "xdg-decoration", test_decoration },
	{ "app-mpv-fullscreen", test_mpv_fullscreen },
};

int main(int argc, char **argv)
{
	return harness_main("test-xdg", tests, sizeof(tests) / sizeof(tests[0]),
			    argc, argv);
}
