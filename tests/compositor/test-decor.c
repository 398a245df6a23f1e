/* SPDX-License-Identifier: MIT */
/*
 * test-decor - server-side decorations (compositor/shell/decor.c and
 * xdg-decoration.c) on the headless backend: the mode each request
 * gets (each followed by an xdg_surface.configure) and the protocol's
 * errors, the frame drawn around the window in screenshots (title bar,
 * title text, close button, border), configures that leave room for it,
 * and, with a FIFO input device (input-client.h), a click on the close
 * button that sends xdg_toplevel.close and a drag of the title bar that
 * moves the window, neither seen by the client as pointer events, and
 * a press on the title bar that gives the window the keyboard focus.
 *
 * Usage: test-decor TEST (TAP output). WLSEAL_DECOR_SHOT=PATH keeps a
 * copy of decor-frame's first screenshot there, to look at.
 */
#include <linux/input-event-codes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input-client.h"

/* Must match compositor/shell/decor.c (the cascade and the output's size
 * are toplevel.h's). */
#define TITLE_H 24
#define BORDER 2
#define CLOSE_SIZE 16
#define CLOSE_MARGIN 4
#define TEXT_X 8
#define TEXT_H 16
#define FRAME_ACTIVE 0xff2e5a88u
#define FRAME_INACTIVE 0xff5a5a5au
#define TEXT_INACTIVE 0xffd0d0d0u
#define CLOSE_BG 0xffc83c3cu
#define CLOSE_FG 0xffffffffu

/* The 100x80 windows of these tests, framed at the first slot: the
 * window geometry's corner, the close button's. */
#define WIN_W 100
#define WIN_H 80
#define WX (CASCADE_X0 + BORDER)
#define WY (CASCADE_Y0 + TITLE_H)
#define CLOSE_X (WX + WIN_W + BORDER - CLOSE_MARGIN - CLOSE_SIZE)
#define CLOSE_Y (CASCADE_Y0 + (TITLE_H - CLOSE_SIZE) / 2)

/* A toplevel decoration and the last mode it was told. */
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
	if (!t->deco)
		fail("no zxdg_decoration_manager_v1");
	memset(dc, 0, sizeof(*dc));
	dc->d = zxdg_decoration_manager_v1_get_toplevel_decoration(t->deco,
								   w->tl);
	zxdg_toplevel_decoration_v1_add_listener(dc->d, &deco_listener, dc);
}

static const char *mode_name(uint32_t mode)
{
	return mode == ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE ? "server_side" :
	       mode == ZXDG_TOPLEVEL_DECORATION_V1_MODE_CLIENT_SIDE ? "client_side" :
	       "none";
}

static void expect_mode(struct t *t, struct deco *dc, uint32_t mode,
			const char *what)
{
	int n = dc->configures;

	if (wl_display_roundtrip(t->display) < 0)
		fail("%s: connection lost (%s)", what, last_client_log);
	check(dc->configures > n, "%s: a decoration configure (%d)", what,
	      dc->configures - n);
	check(dc->mode == mode, "%s: mode %s (want %s)", what,
	      mode_name(dc->mode), mode_name(mode));
}

/* Pixels of @color in the rectangle (output coordinates). */
static int count(struct t *t, int x, int y, int w, int h, uint32_t color)
{
	int n = 0;

	for (int j = y; j < y + h; j++)
		for (int i = x; i < x + w; i++)
			n += at(t, i, j) == color;
	return n;
}

/* The frame around a window geometry whose corner is at (@x, @y). */
static void expect_frame(struct t *t, int x, int y, int w, int h,
			 uint32_t frame, const char *what)
{
	char msg[160];

	snprintf(msg, sizeof(msg), "%s: title bar above the title", what);
	expect_rect(t, x - BORDER, y - TITLE_H, w + 2 * BORDER,
		    (TITLE_H - TEXT_H) / 2, frame, msg);
	snprintf(msg, sizeof(msg), "%s: title bar left of the title", what);
	expect_rect(t, x - BORDER, y - TITLE_H, BORDER + TEXT_X, TITLE_H, frame,
		    msg);
	snprintf(msg, sizeof(msg), "%s: left border", what);
	expect_rect(t, x - BORDER, y, BORDER, h, frame, msg);
	snprintf(msg, sizeof(msg), "%s: right border", what);
	expect_rect(t, x + w, y, BORDER, h, frame, msg);
	snprintf(msg, sizeof(msg), "%s: bottom border", what);
	expect_rect(t, x - BORDER, y + h, w + 2 * BORDER, BORDER, frame, msg);
}

static void keep_screenshot(struct t *t)
{
	const char *path = getenv("WLSEAL_DECOR_SHOT");
	char cmd[512];

	if (!path)
		return;
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", t->c.shot, path);
	check(system(cmd) == 0, "screenshot kept as %s", path);
}

/*
 * set_mode(server_side) before the initial commit: server_side, and a
 * frame drawn around the window: the window geometry at the slot plus
 * the frame's corner, the title bar with the title and a close button,
 * the border. Maximized: the configure leaves room for the frame, which
 * starts at 0,0. Fullscreen: the whole output, no frame.
 */
static void test_frame(void)
{
	/* static: the harness cleans up through pointers at exit */
	static struct t t;
	static struct win w;
	static struct deco dc;
	int text_w = 6 * 12;	/* "wlseal": six cells of 12 pixels */
	int before;

	t_start(&t);
	win_create(&t, &w);
	xdg_toplevel_set_title(w.tl, "wlseal");
	deco_create(&t, &dc, &w);
	zxdg_toplevel_decoration_v1_set_mode(dc.d,
		ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE);
	expect_mode(&t, &dc, ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE,
		    "set_mode(server_side)");
	win_initial_commit(&w);
	check(w.w == 0 && w.h == 0, "floating: configure 0x0 (%dx%d)", w.w, w.h);
	win_draw(&w, WIN_W, WIN_H, RED);
	expect_mapped_at(&t, WX, WY, "the window, inside its frame at the slot");
	screenshot(&t);
	keep_screenshot(&t);
	expect_rect(&t, WX, WY, WIN_W, WIN_H, RED, "the window as committed");
	expect_frame(&t, WX, WY, WIN_W, WIN_H, FRAME_INACTIVE, "frame");
	check(count(&t, WX + TEXT_X, CLOSE_Y, text_w, TEXT_H, TEXT_INACTIVE) > 40,
	      "the title drawn in the bar (%d text pixels)",
	      count(&t, WX + TEXT_X, CLOSE_Y, text_w, TEXT_H, TEXT_INACTIVE));
	check(count(&t, WX + TEXT_X + text_w, CLOSE_Y, 4, TEXT_H,
		    TEXT_INACTIVE) == 0, "nothing right of the title");
	check(at(&t, CLOSE_X, CLOSE_Y) == CLOSE_BG &&
	      at(&t, CLOSE_X + CLOSE_SIZE - 1, CLOSE_Y + CLOSE_SIZE - 1) ==
	      CLOSE_BG, "close button's corners (%08x, %08x)",
	      at(&t, CLOSE_X, CLOSE_Y),
	      at(&t, CLOSE_X + CLOSE_SIZE - 1, CLOSE_Y + CLOSE_SIZE - 1));
	check(at(&t, CLOSE_X + CLOSE_SIZE / 2, CLOSE_Y + CLOSE_SIZE / 2) ==
	      CLOSE_FG, "close button's cross (%08x)",
	      at(&t, CLOSE_X + CLOSE_SIZE / 2, CLOSE_Y + CLOSE_SIZE / 2));
	expect_rect(&t, 0, 0, OUT_W, CASCADE_Y0, BACKGROUND, "background above");
	expect_rect(&t, 0, 0, CASCADE_X0, OUT_H, BACKGROUND, "background left");
	expect_rect(&t, WX + WIN_W + BORDER, 0, OUT_W - (WX + WIN_W + BORDER),
		    OUT_H, BACKGROUND, "background right");
	expect_rect(&t, 0, WY + WIN_H + BORDER, OUT_W,
		    OUT_H - (WY + WIN_H + BORDER), BACKGROUND, "background below");

	/* A new title as wide as the old one: redrawn all the same. */
	before = count(&t, WX + TEXT_X, CLOSE_Y, text_w, TEXT_H, TEXT_INACTIVE);
	xdg_toplevel_set_title(w.tl, "WWWWWW");
	screenshot(&t);
	check(count(&t, WX + TEXT_X, CLOSE_Y, text_w, TEXT_H, TEXT_INACTIVE) >
	      before, "a new title of the same width drawn (%d text pixels, "
	      "%d before)", count(&t, WX + TEXT_X, CLOSE_Y, text_w, TEXT_H,
				  TEXT_INACTIVE), before);
	expect_rect(&t, WX, WY, WIN_W, WIN_H, RED, "the window untouched");

	win_request(&w, xdg_toplevel_set_maximized, "set_maximized");
	check(w.maximized && w.w == OUT_W - 2 * BORDER &&
	      w.h == OUT_H - TITLE_H - BORDER,
	      "maximized: the output less the frame (%dx%d)", w.w, w.h);
	win_draw(&w, w.w, w.h, GREEN);
	screenshot(&t);
	expect_rect(&t, BORDER, TITLE_H, OUT_W - 2 * BORDER,
		    OUT_H - TITLE_H - BORDER, GREEN, "maximized window");
	expect_frame(&t, BORDER, TITLE_H, OUT_W - 2 * BORDER,
		     OUT_H - TITLE_H - BORDER, FRAME_INACTIVE,
		     "maximized frame from 0,0");

	win_request(&w, set_fullscreen, "set_fullscreen");
	check(w.fullscreen && w.w == OUT_W && w.h == OUT_H,
	      "fullscreen: the whole output (%dx%d)", w.w, w.h);
	win_draw(&w, OUT_W, OUT_H, BLUE);
	screenshot(&t);
	expect_rect(&t, 0, 0, OUT_W, OUT_H, BLUE, "fullscreen: no frame");

	win_request(&w, xdg_toplevel_unset_fullscreen, "unset_fullscreen");
	win_request(&w, xdg_toplevel_unset_maximized, "unset_maximized");
	check(w.w == 0 && w.h == 0, "floating again: 0x0 (%dx%d)", w.w, w.h);
	win_draw(&w, WIN_W, WIN_H, RED);
	screenshot(&t);
	expect_rect(&t, WX, WY, WIN_W, WIN_H, RED, "back at the slot");
	expect_frame(&t, WX, WY, WIN_W, WIN_H, FRAME_INACTIVE, "frame again");
	t_stop(&t);
}

/*
 * Who decides: no set_mode and unset_mode leave it to the compositor
 * (server_side); client_side is granted and nothing is drawn; the mode
 * changes on a mapped window, and destroying the decoration object
 * takes the frame away.
 */
static void test_modes(void)
{
	/* static: the harness cleans up through pointers at exit */
	static struct t t;
	static struct win w, w2;
	static struct deco dc, dc2;
	int n;

	t_start(&t);
	win_create(&t, &w2);
	deco_create(&t, &dc2, &w2);
	expect_mode(&t, &dc2, ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE,
		    "no set_mode: the compositor's preference");
	zxdg_toplevel_decoration_v1_destroy(dc2.d);
	xdg_toplevel_destroy(w2.tl);

	win_create(&t, &w);
	deco_create(&t, &dc, &w);
	zxdg_toplevel_decoration_v1_set_mode(dc.d,
		ZXDG_TOPLEVEL_DECORATION_V1_MODE_CLIENT_SIDE);
	expect_mode(&t, &dc, ZXDG_TOPLEVEL_DECORATION_V1_MODE_CLIENT_SIDE,
		    "set_mode(client_side)");
	win_initial_commit(&w);
	win_draw(&w, WIN_W, WIN_H, RED);
	expect_mapped_at(&t, CASCADE_X0, CASCADE_Y0, "client_side window");
	screenshot(&t);
	expect_rect(&t, CASCADE_X0, CASCADE_Y0, WIN_W, WIN_H, RED,
		    "client_side: the window at the slot");
	expect_rect(&t, 0, 0, OUT_W, CASCADE_Y0, BACKGROUND,
		    "client_side: no title bar");
	expect_rect(&t, CASCADE_X0 + WIN_W, 0, OUT_W - CASCADE_X0 - WIN_W, OUT_H,
		    BACKGROUND, "client_side: no border right");
	expect_rect(&t, 0, CASCADE_Y0 + WIN_H, OUT_W, OUT_H - CASCADE_Y0 - WIN_H,
		    BACKGROUND, "client_side: no border below");

	n = w.configures;
	zxdg_toplevel_decoration_v1_unset_mode(dc.d);
	expect_mode(&t, &dc, ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE,
		    "unset_mode on a mapped window");
	wait_configure(&w, n, "unset_mode: an xdg_surface.configure");
	win_draw(&w, WIN_W, WIN_H, GREEN);
	screenshot(&t);
	expect_rect(&t, WX, WY, WIN_W, WIN_H, GREEN,
		    "server_side now: moved into its frame");
	expect_frame(&t, WX, WY, WIN_W, WIN_H, FRAME_INACTIVE,
		     "server_side now");

	zxdg_toplevel_decoration_v1_destroy(dc.d);
	if (wl_display_roundtrip(t.display) < 0)
		fail("decoration destroyed: %s", last_client_log);
	screenshot(&t);
	expect_rect(&t, CASCADE_X0, CASCADE_Y0, WIN_W, WIN_H, GREEN,
		    "decoration gone: the window back at the slot");
	expect_rect(&t, 0, 0, OUT_W, CASCADE_Y0, BACKGROUND,
		    "decoration gone: no title bar");
	expect_rect(&t, CASCADE_X0 + WIN_W, 0, OUT_W - CASCADE_X0 - WIN_W, OUT_H,
		    BACKGROUND, "decoration gone: no border");
	t_stop(&t);
}

/*
 * zxdg_decoration_manager_v1: each mode as asked (server_side when the
 * client leaves it to the compositor), each time with an
 * xdg_surface.configure after it (once the toplevel had its initial
 * commit), and the protocol's errors. decor-frame checks the frame.
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

/* A decorated 100x80 window named A for the seat's log, at the slot. */
static void decorated_window(struct sc *sc, struct win *w, struct deco *dc)
{
	win_create(&sc->t, w);
	sc->named[0] = w->s;
	xdg_toplevel_set_title(w->tl, "A");
	deco_create(&sc->t, dc, w);
	win_initial_commit(w);
	win_draw(w, WIN_W, WIN_H, RED);
	expect_mapped_at(&sc->t, WX, WY, "decorated window");
	check(dc->mode == ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE,
	      "server_side (%s)", mode_name(dc->mode));
}

static void wait_closes(struct sc *sc, struct win *w, int n, const char *what)
{
	long long deadline = ms_now() + TIMEOUT_MS;

	while (w->closes < n) {
		if (ms_now() >= deadline)
			fail("%s: no xdg_toplevel.close", what);
		if (!dispatch_for(sc->t.display, (int)(deadline - ms_now())))
			fail("connection lost: %s", last_client_log);
	}
	tap_ok("%s: xdg_toplevel.close", what);
}

/*
 * A left click on the close button sends xdg_toplevel.close; the client
 * sees neither the cursor nor the button: the frame is the
 * compositor's. A press on the button released elsewhere closes
 * nothing, and neither does a click on the title bar.
 */
static void test_close(void)
{
	static struct sc sc;
	static struct win w;
	static struct deco dc;

	sc_start(&sc, 8);
	sc_pointer(&sc);
	decorated_window(&sc, &w, &dc);

	fifo_move(&sc.f, CLOSE_X + 8, CLOSE_Y + 8);
	fifo_key(&sc.f, BTN_LEFT, 1);
	fifo_key(&sc.f, BTN_LEFT, 0);
	wait_closes(&sc, &w, 1, "click on the close button");

	/* Pressed on the button, released over the title bar. */
	fifo_key(&sc.f, BTN_LEFT, 1);
	fifo_move(&sc.f, WX + 40, CASCADE_Y0 + 10);
	fifo_key(&sc.f, BTN_LEFT, 0);
	/* A click on the title bar. */
	fifo_key(&sc.f, BTN_LEFT, 1);
	fifo_key(&sc.f, BTN_LEFT, 0);
	/* The seat reads its input in order: once the window itself is
	 * entered, all of the above was handled. */
	fifo_move(&sc.f, WX + 5, WY + 6);
	expect(&sc, "ptr-", "ptr-enter A 5.00 6.00");
	expect(&sc, "ptr-", "ptr-frame");
	check(w.closes == 1, "no close from a press released elsewhere or "
	      "the title bar (%d closes)", w.closes);
	check(!strstr(sc.log, "ptr-button"), "no button reached the client");
	fifo_key(&sc.f, BTN_LEFT, 1);
	expect(&sc, "ptr-", "ptr-button 272 pressed");
	expect(&sc, "ptr-", "ptr-frame");
	fifo_key(&sc.f, BTN_LEFT, 0);
	expect(&sc, "ptr-", "ptr-button 272 released");
	sc_stop(&sc);
}

/*
 * A left press on the title bar, the cursor moved by (40, 30), a
 * release: the window and its frame moved by as much, the client saw
 * no pointer event meanwhile, and the window takes the pointer at its
 * new place.
 */
static void test_drag(void)
{
	static struct sc sc;
	static struct win w;
	static struct deco dc;
	const int dx = 40, dy = 30;

	sc_start(&sc, 8);
	sc_pointer(&sc);
	decorated_window(&sc, &w, &dc);

	fifo_move(&sc.f, WX + 60, CASCADE_Y0 + 12);
	fifo_key(&sc.f, BTN_LEFT, 1);
	fifo_move(&sc.f, WX + 60 + dx / 2, CASCADE_Y0 + 12 + dy / 2);
	expect_placed_at(&sc.t, WX + dx / 2, WY + dy / 2, "halfway");
	fifo_move(&sc.f, WX + 60 + dx, CASCADE_Y0 + 12 + dy);
	expect_placed_at(&sc.t, WX + dx, WY + dy, "dragged");
	fifo_key(&sc.f, BTN_LEFT, 0);
	screenshot(&sc.t);
	expect_rect(&sc.t, WX + dx, WY + dy, WIN_W, WIN_H, RED,
		    "the window at its new place");
	expect_frame(&sc.t, WX + dx, WY + dy, WIN_W, WIN_H, FRAME_ACTIVE,
		     "its frame with it (focused)");
	expect_rect(&sc.t, CASCADE_X0, CASCADE_Y0, WIN_W, dy, BACKGROUND,
		    "the old place repainted");
	check(!strstr(sc.log, "ptr-"), "no pointer event reached the client "
	      "during the drag");
	fifo_move(&sc.f, WX + dx + 6, WY + dy + 14);
	expect(&sc, "ptr-", "ptr-enter A 6.00 14.00");
	sc_stop(&sc);
}

/*
 * A press on a window's title bar gives it the keyboard focus, as a
 * press on the window would: the newer window B had it, A gets it.
 */
static void test_focus(void)
{
	static struct sc sc;
	static struct win a, b;
	static struct deco da, db;
	int bx, by;

	sc_start(&sc, 8);
	sc_pointer(&sc);
	decorated_window(&sc, &a, &da);
	win_create(&sc.t, &b);
	sc.named[1] = b.s;
	deco_create(&sc.t, &db, &b);
	win_initial_commit(&b);
	win_draw(&b, WIN_W, WIN_H, GREEN);
	wait_mapped(&sc.t, &bx, &by, "B");
	expect_activated(&sc, &b, true, "B, the newest");
	expect_activated(&sc, &a, false, "A, once B mapped");
	/* A's title bar, left of its title: B's frame starts lower. */
	check(by - TITLE_H > CASCADE_Y0 + TITLE_H, "B (at %d,%d) below A's "
	      "title bar", bx, by);
	fifo_move(&sc.f, CASCADE_X0 + 4, CASCADE_Y0 + 4);
	fifo_key(&sc.f, BTN_LEFT, 1);
	fifo_key(&sc.f, BTN_LEFT, 0);
	expect_activated(&sc, &a, true, "A, its title bar pressed");
	expect_activated(&sc, &b, false, "B, A's title bar pressed");
	check(!strstr(sc.log, "ptr-"), "no pointer event reached the client");
	sc_stop(&sc);
}

static const struct harness_test tests[] = {
	{ "decor-frame", test_frame },
	{ "decor-modes", test_modes },
	{ "xdg-decoration", test_decoration },
	{ "decor-close", test_close },
	{ "decor-drag", test_drag },
	{ "decor-focus", test_focus },
};

int main(int argc, char **argv)
{
	return harness_main("test-decor", tests, sizeof(tests) / sizeof(tests[0]),
			    argc, argv);
}
