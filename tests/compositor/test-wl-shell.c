/* SPDX-License-Identifier: MIT */
/*
 * test-wl-shell - wl_shell and wl_shell_surface (compositor/shell/
 * wl-shell.c) on the headless backend: mapping and placement in
 * screenshots, ping and pong, the fullscreen and maximized configures,
 * transients on their parent, role errors, and the object budget.
 *
 * Usage: test-wl-shell TEST. A raw client (toplevel.h) binds wl_shell
 * from a registry of its own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wayland-client.h>

#include "toplevel.h"

/* What this test binds besides toplevel.h's globals. */
struct globals {
	struct wl_shell *shell;
	struct wl_seat *seat;
};

static struct wl_seat *the_seat;

/* The wl_shell global of @t's connection (and its wl_seat, for
 * popups). */
static struct wl_shell *bind_shell(struct t *t)
{
	struct globals g = { 0 };
	const struct global_want want[] = {
		{ "wl_shell", &wl_shell_interface, 1, (void **)&g.shell },
		{ "wl_seat", &wl_seat_interface, 1, (void **)&g.seat },
	};

	bind_globals(t->display, want, 2);
	the_seat = g.seat;
	return g.shell;
}

/* A shell surface and what it was sent. */
struct sw {
	struct wl_surface *s;
	struct wl_shell_surface *ss;
	int pings, configures, popup_dones;
	uint32_t ping_serial;
	int32_t w, h;
	uint32_t edges;
};

static void on_ping(void *data, struct wl_shell_surface *ss, uint32_t serial)
{
	struct sw *w = data;

	w->pings++;
	w->ping_serial = serial;
}

static void on_configure(void *data, struct wl_shell_surface *ss,
			 uint32_t edges, int32_t width, int32_t height)
{
	struct sw *w = data;

	w->configures++;
	w->edges = edges;
	w->w = width;
	w->h = height;
}

static void on_popup_done(void *data, struct wl_shell_surface *ss)
{
	((struct sw *)data)->popup_dones++;
}

static const struct wl_shell_surface_listener sw_listener = {
	.ping = on_ping,
	.configure = on_configure,
	.popup_done = on_popup_done,
};

static void sw_create(struct t *t, struct wl_shell *shell, struct sw *w)
{
	memset(w, 0, sizeof(*w));
	w->s = surface(t);
	w->ss = wl_shell_get_shell_surface(shell, w->s);
	wl_shell_surface_add_listener(w->ss, &sw_listener, w);
}

/* A wl_shell surface has no configure to wait for: the roundtrip
 * takes its requests to the compositor, and a protocol error fails the
 * test as such rather than as a window never mapped. */
static void shell_mapped_at(struct t *t, int x, int y, const char *what)
{
	if (wl_display_roundtrip(t->display) < 0)
		fail("%s: roundtrip", what);
	expect_mapped_at(t, x, y, what);
}

/* Toplevels: nothing shows before set_toplevel and a buffer; then at
 * the cascade, the next one a step further, moved back to fit. */
static void test_map(void)
{
	static struct t t;
	struct wl_shell *shell;
	struct sw a, b, c;

	t_start(&t);
	shell = bind_shell(&t);
	sw_create(&t, shell, &a);
	show(&t, a.s, 100, 80, RED);
	screenshot(&t);
	expect_rect(&t, 0, 0, OUT_W, OUT_H, BACKGROUND,
		    "a buffer without set_toplevel: nothing shows");
	check(!proc_contains(&t.c.p, "wl_shell_surface \"\" at"),
	      "not mapped without a kind");
	wl_shell_surface_set_toplevel(a.ss);
	wl_shell_surface_set_title(a.ss, "first");
	show(&t, a.s, 100, 80, RED);
	shell_mapped_at(&t, CASCADE_X0, CASCADE_Y0, "first toplevel");
	screenshot(&t);
	expect_rect(&t, CASCADE_X0, CASCADE_Y0, 100, 80, RED, "at the cascade");
	expect_rect(&t, 0, 0, OUT_W, CASCADE_Y0, BACKGROUND, "background above");

	sw_create(&t, shell, &b);
	wl_shell_surface_set_toplevel(b.ss);
	show(&t, b.s, 60, 40, GREEN);
	shell_mapped_at(&t, CASCADE_X0 + CASCADE_STEP, CASCADE_Y0 + CASCADE_STEP,
			"second toplevel");
	screenshot(&t);
	expect_rect(&t, CASCADE_X0 + CASCADE_STEP, CASCADE_Y0 + CASCADE_STEP,
		    60, 40, GREEN, "second on top, a step further");

	/* Too wide for its slot: moved back until it fits. */
	sw_create(&t, shell, &c);
	wl_shell_surface_set_toplevel(c.ss);
	show(&t, c.s, 300, 50, BLUE);
	shell_mapped_at(&t, OUT_W - 300, CASCADE_Y0 + 2 * CASCADE_STEP,
			"wide toplevel");

	/* A NULL buffer unmaps; a buffer maps it again at its slot. */
	wl_surface_attach(a.s, NULL, 0, 0);
	wl_surface_commit(a.s);
	screenshot(&t);
	expect_rect(&t, CASCADE_X0, CASCADE_Y0, 40, 40, BACKGROUND,
		    "unmapped by a NULL buffer");
	show(&t, a.s, 100, 80, RED);
	shell_mapped_at(&t, CASCADE_X0, CASCADE_Y0, "mapped again at its slot");

	/* The wl_shell_surface goes with its wl_surface. */
	wl_surface_destroy(a.s);
	screenshot(&t);
	expect_rect(&t, CASCADE_X0, CASCADE_Y0, 40, 40, BACKGROUND,
		    "gone with its wl_surface");
	wl_shell_surface_destroy(a.ss);
	t_stop(&t);
}

/* One ping per shell surface; the pong with its serial is noted. */
static void test_ping(void)
{
	static struct t t;
	struct wl_shell *shell;
	struct sw a;
	char needle[64];

	t_start(&t);
	shell = bind_shell(&t);
	sw_create(&t, shell, &a);
	if (wl_display_roundtrip(t.display) < 0)
		fail("roundtrip");
	check(a.pings == 1 && a.ping_serial != 0, "one ping (%d, serial %u)",
	      a.pings, a.ping_serial);
	/* A wrong serial first: no pong noted. */
	wl_shell_surface_pong(a.ss, a.ping_serial + 1);
	wl_shell_surface_pong(a.ss, a.ping_serial);
	if (wl_display_roundtrip(t.display) < 0)
		fail("roundtrip");
	snprintf(needle, sizeof(needle), " pong %u", a.ping_serial);
	if (!proc_wait(&t.c.p, &t.log_from, needle, TIMEOUT_MS, NULL, 0))
		fail("the compositor never noted the pong");
	snprintf(needle, sizeof(needle), " pong %u", a.ping_serial + 1);
	check(!proc_contains(&t.c.p, needle), "a wrong serial is no pong");
	t_stop(&t);
}

/* Fullscreen and maximized: a configure with the output's size, the
 * window at 0,0; set_toplevel returns it to its slot. */
static void test_fullscreen(void)
{
	static struct t t;
	struct wl_shell *shell;
	struct sw a;

	t_start(&t);
	shell = bind_shell(&t);
	sw_create(&t, shell, &a);
	wl_shell_surface_set_toplevel(a.ss);
	show(&t, a.s, 100, 80, RED);
	shell_mapped_at(&t, CASCADE_X0, CASCADE_Y0, "floating");

	wl_shell_surface_set_fullscreen(a.ss, WL_SHELL_SURFACE_FULLSCREEN_METHOD_DEFAULT,
					0, NULL);
	if (wl_display_roundtrip(t.display) < 0)
		fail("roundtrip");
	check(a.configures == 1 && a.w == OUT_W && a.h == OUT_H && a.edges == 0,
	      "fullscreen configure %dx%d edges %u (%d configures)", a.w, a.h,
	      a.edges, a.configures);
	shell_mapped_at(&t, 0, 0, "fullscreen, mapped again at 0,0");
	show(&t, a.s, OUT_W, OUT_H, GREEN);
	screenshot(&t);
	expect_rect(&t, 0, 0, OUT_W, OUT_H, GREEN, "fullscreen: the whole output");

	wl_shell_surface_set_toplevel(a.ss);
	show(&t, a.s, 100, 80, RED);
	shell_mapped_at(&t, CASCADE_X0, CASCADE_Y0, "floating again at its slot");
	screenshot(&t);
	expect_rect(&t, 0, 0, OUT_W, CASCADE_Y0, BACKGROUND, "background above");
	expect_rect(&t, CASCADE_X0, CASCADE_Y0, 100, 80, RED, "at its slot");

	wl_shell_surface_set_maximized(a.ss, NULL);
	if (wl_display_roundtrip(t.display) < 0)
		fail("roundtrip");
	check(a.configures == 2 && a.w == OUT_W && a.h == OUT_H,
	      "maximized configure %dx%d", a.w, a.h);
	shell_mapped_at(&t, 0, 0, "maximized at 0,0");
	t_stop(&t);
}

/* A transient is shown on its parent at its offset, moves with it and
 * hides with it; a popup likewise. */
static void test_transient(void)
{
	static struct t t;
	struct wl_shell *shell;
	struct sw p, c, q;

	t_start(&t);
	shell = bind_shell(&t);
	sw_create(&t, shell, &p);
	wl_shell_surface_set_toplevel(p.ss);
	show(&t, p.s, 100, 80, RED);
	shell_mapped_at(&t, CASCADE_X0, CASCADE_Y0, "parent");
	sw_create(&t, shell, &c);
	wl_shell_surface_set_transient(c.ss, p.s, 10, 20, 0);
	show(&t, c.s, 30, 20, GREEN);
	shell_mapped_at(&t, 10, 20, "transient at its offset");
	sw_create(&t, shell, &q);
	wl_shell_surface_set_popup(q.ss, the_seat, 0, p.s, 50, 5, 0);
	show(&t, q.s, 20, 10, BLUE);
	shell_mapped_at(&t, 50, 5, "popup at its offset");
	screenshot(&t);
	expect_rect(&t, CASCADE_X0 + 10, CASCADE_Y0 + 20, 30, 20, GREEN,
		    "transient over its parent");
	expect_rect(&t, CASCADE_X0 + 50, CASCADE_Y0 + 5, 20, 10, BLUE,
		    "popup over its parent");
	expect_rect(&t, CASCADE_X0, CASCADE_Y0, 10, 80, RED, "parent beside");

	/* The parent unmapped: its children hide with it. */
	wl_surface_attach(p.s, NULL, 0, 0);
	wl_surface_commit(p.s);
	screenshot(&t);
	expect_rect(&t, CASCADE_X0, CASCADE_Y0, 100, 80, BACKGROUND,
		    "children hidden with the parent");
	/* The parent destroyed: the children stay unmapped. */
	wl_surface_destroy(p.s);
	wl_shell_surface_destroy(p.ss);
	show(&t, c.s, 30, 20, GREEN);
	screenshot(&t);
	expect_rect(&t, 0, 0, OUT_W, OUT_H, BACKGROUND,
		    "a transient without its parent shows nowhere");
	t_stop(&t);
}

/* The wl_shell "role" error, and the other shells' for a shell surface. */
static void test_roles(void)
{
	static struct t t;
	struct wl_shell *shell;
	struct wl_surface *s;

	t_start(&t);
	shell = bind_shell(&t);
	s = surface(&t);
	xdg_wm_base_get_xdg_surface(t.wm_base, s);
	wl_shell_get_shell_surface(shell, s);
	expect_error(&t, "an xdg_surface's wl_surface", "wl_shell",
		     WL_SHELL_ERROR_ROLE);

	shell = bind_shell(&t);
	s = surface(&t);
	wl_shell_get_shell_surface(shell, s);
	wl_shell_get_shell_surface(shell, s);
	expect_error(&t, "a second shell surface", "wl_shell",
		     WL_SHELL_ERROR_ROLE);

	shell = bind_shell(&t);
	s = surface(&t);
	wl_shell_get_shell_surface(shell, s);
	xdg_wm_base_get_xdg_surface(t.wm_base, s);
	expect_error(&t, "an xdg_surface for a shell surface", "xdg_wm_base",
		     XDG_WM_BASE_ERROR_ROLE);

	if (t.subcompositor) {
		struct wl_surface *parent = surface(&t);

		shell = bind_shell(&t);
		s = surface(&t);
		wl_shell_get_shell_surface(shell, s);
		wl_subcompositor_get_subsurface(t.subcompositor, s, parent);
		expect_error(&t, "a subsurface of a shell surface",
			     "wl_subcompositor", WL_SUBCOMPOSITOR_ERROR_BAD_SURFACE);
	}
	t_stop(&t);
}

/* Shell surfaces count as protocol objects, and go with their
 * surfaces: a client that makes and destroys windows holds none. */
static void test_budget(void)
{
	static struct t t;
	static const char *const args[] = { "--max-objects-per-client=100", NULL };
	struct wl_shell *shell;
	int i;

	t_start_args(&t, args);
	shell = bind_shell(&t);
	for (i = 0; i < 500; i++) {
		struct wl_surface *s = surface(&t);
		struct wl_shell_surface *ss = wl_shell_get_shell_surface(shell, s);

		wl_shell_surface_set_toplevel(ss);
		wl_surface_destroy(s);
		wl_shell_surface_destroy(ss);
		if (i % 50 == 49 && wl_display_roundtrip(t.display) < 0)
			fail("made and destroyed %d shell surfaces within a "
			     "budget of 100 objects: refused", i + 1);
	}
	tap_ok("500 shell surfaces made and destroyed under 100 objects");
	/* About 20 held already; 60 surfaces with shell surfaces are 120. */
	for (i = 0; i < 60; i++)
		wl_shell_get_shell_surface(shell, surface(&t));
	expect_error(&t, "shell surfaces past 100 objects", "wl_display",
		     WL_DISPLAY_ERROR_NO_MEMORY);
	check(strstr(t.error, "client exceeded 100 protocol objects") != NULL,
	      "the error names the budget (%s)", t.error);
	check(proc_contains(&t.c.p, "refused client pid="),
	      "the compositor logged the refusal");
	wl_display_disconnect(t.display);
	comp_stop(&t.c);
}

static const struct harness_test tests[] = {
	{ "wl-shell-map", test_map },
	{ "wl-shell-ping", test_ping },
	{ "wl-shell-fullscreen", test_fullscreen },
	{ "wl-shell-transient", test_transient },
	{ "wl-shell-roles", test_roles },
	{ "wl-shell-budget", test_budget },
};

int main(int argc, char **argv)
{
	return harness_main("test-wl-shell", tests,
			    sizeof(tests) / sizeof(tests[0]), argc, argv);
}
