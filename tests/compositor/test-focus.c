/* SPDX-License-Identifier: MIT */
/*
 * test-focus - what the seat's focus costs per request, and that the
 * pointer focus, found lazily, still follows the scene.
 *
 * One client maps many toplevels; another maps and unmaps a
 * desynchronized subsurface in a loop. No map or unmap may cost work in
 * proportion to the first client's views: no hit test at all without a
 * pointer device, at most one a frame with one. The compositor logs,
 * with every frame, the hit tests and the views its scene visited
 * outside the repaint since the frame before ("hit_tests=N visits=M",
 * --verbose); the test sums them over the storm. With a pointer, a
 * surface mapped under the cursor gets enter, one unmapped gets leave,
 * one moved away or given an empty input region leave, by the next
 * frame at the latest.
 *
 * Usage: test-focus TEST (TAP output). Input comes from a FIFO
 * (--input, evdev-fifo.h), as in test-input.
 *
 * Checked against the compositor before the change (once, by hand):
 * focus-storm-no-input counted 400 hit tests (one per map and unmap)
 * visiting 121,000 views, focus-storm-pointer the same, and
 * focus-pointer-lazy never sent the leave for a subsurface moved away.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input-client.h"

#define WINDOWS 300
#define CYCLES 200

/* The scene's work the compositor logged with the frames after @mark
 * (up to what its log holds). */
struct work {
	unsigned int frames;
	unsigned long long hit_tests, visits;
};

static struct work work_since(struct t *t, size_t mark)
{
	struct work w = { 0 };
	const char *p = t->c.p.buf + mark;

	while ((p = strstr(p, "frame seq="))) {
		const char *h = strstr(p, "hit_tests="), *v = strstr(p, "visits=");
		const char *eol = strchr(p, '\n');

		if (!h || !v || !eol || h > eol || v > eol)
			fail("a frame line without hit_tests= and visits=");
		w.frames++;
		w.hit_tests += strtoull(h + 10, NULL, 10);
		w.visits += strtoull(v + 7, NULL, 10);
		p = eol;
	}
	return w;
}

/* @n toplevels of 1x1 on @t, mapped a batch at a time: the
 * compositor's log of a batch must fit in its pipe, which is read
 * between batches. */
static void many_windows(struct t *t, struct win *w, int n)
{
	struct wl_buffer *b = solid(t, 1, 1, WHITE);
	int i, first, configured;

	for (first = 0; first < n; first += 20) {
		int last = first + 20 < n ? first + 20 : n;

		for (i = first; i < last; i++) {
			win_create(t, &w[i]);
			wl_surface_commit(w[i].s);
		}
		do {
			if (wl_display_dispatch(t->display) < 0)
				fail("many windows: %s", last_client_log);
			for (configured = 0, i = first; i < last; i++)
				configured += w[i].configures > 0;
		} while (configured < last - first);
		for (i = first; i < last; i++) {
			xdg_surface_ack_configure(w[i].xs, w[i].serial);
			wl_surface_attach(w[i].s, b, 0, 0);
			wl_surface_damage(w[i].s, 0, 0, 1, 1);
			wl_surface_commit(w[i].s);
		}
		if (wl_display_roundtrip(t->display) < 0)
			fail("many windows: %s", last_client_log);
		for (i = 0; i < 4; i++)
			proc_contains(&t->c.p, "");
	}
}

/*
 * @t's compositor holds WINDOWS toplevels of one client; another client
 * maps and unmaps a desynchronized subsurface CYCLES times in one
 * batch. Returns the scene's work over the frames that covered it.
 */
static struct work storm(struct t *t)
{
	static struct win w[WINDOWS];
	static struct t u;
	static struct win uw;
	struct wl_subsurface *ss;
	struct wl_surface *s;
	struct wl_buffer *b;
	size_t mark;
	int i;

	many_windows(t, w, WINDOWS);
	t_connect(&u);
	if (!u.subcompositor)
		fail("no wl_subcompositor");
	win_create(&u, &uw);
	win_initial_commit(&uw);
	win_draw(&uw, 20, 20, RED);
	s = surface(&u);
	ss = wl_subcompositor_get_subsurface(u.subcompositor, s, uw.s);
	wl_subsurface_set_desync(ss);
	wl_surface_commit(uw.s);
	b = solid(&u, 10, 10, GREEN);
	if (wl_display_roundtrip(u.display) < 0)
		fail("the second client: %s", last_client_log);
	/* Everything before the storm is on screen, and logged. */
	screenshot(t);
	mark = t->log_from;
	for (i = 0; i < CYCLES; i++) {
		wl_surface_attach(s, b, 0, 0);
		wl_surface_damage(s, 0, 0, 10, 10);
		wl_surface_commit(s);
		wl_surface_attach(s, NULL, 0, 0);
		wl_surface_commit(s);
	}
	if (wl_display_roundtrip(u.display) < 0)
		fail("the storm: %s", last_client_log);
	/* And now the storm is, with every frame that showed it. */
	screenshot(t);
	wl_display_disconnect(u.display);
	return work_since(t, mark);
}

/* Without an input device: nothing is hit-tested, and a map or unmap
 * visits the subsurface alone. */
static void test_storm_no_input(void)
{
	static struct t t;
	struct work w;

	t_start(&t);
	w = storm(&t);
	check(w.hit_tests == 0, "%d maps and unmaps beside %d windows: %llu hit tests in %u frames",
	      2 * CYCLES, WINDOWS, w.hit_tests, w.frames);
	check(w.visits <= 2 * CYCLES, "%llu views visited, at most %d (one per map or unmap)",
	      w.visits, 2 * CYCLES);
	t_stop(&t);
}

/* With a pointer device: one hit test a frame at most, whatever the
 * maps and unmaps in it. */
static void test_storm_pointer(void)
{
	static struct sc sc;
	struct work w;
	unsigned long long bound;

	sc_start(&sc, 8);
	fifo_move(&sc.f, 5, 5);
	w = storm(&sc.t);
	bound = (unsigned long long)w.frames * (WINDOWS + 2) + 2 * CYCLES;
	check(w.hit_tests <= w.frames, "%d maps and unmaps beside %d windows: %llu hit tests in %u frames",
	      2 * CYCLES, WINDOWS, w.hit_tests, w.frames);
	check(w.visits <= bound, "%llu views visited, at most %llu (a hit test a frame, one per map or unmap)",
	      w.visits, bound);
	sc_stop(&sc);
}

/* Enter and leave follow the scene without a motion. The cascade puts
 * X at 32,32 and A at 80,80 (scene.h); the cursor waits at 90,95. */
static void test_lazy(void)
{
	static struct sc sc;
	struct win x, a;
	struct wl_subsurface *ss;
	struct wl_surface *c;
	struct wl_region *none;
	int xx, xy, ax, ay;

	sc_start(&sc, 8);
	sc_pointer(&sc);
	sc_window(&sc, &x, 3, 40, RED, &xx, &xy);
	fifo_move(&sc.f, xx + 1, xy + 1);
	expect(&sc, "ptr-", "ptr-enter D 1.00 1.00");
	expect(&sc, "ptr-", "ptr-frame");
	fifo_move(&sc.f, 90, 95);
	expect(&sc, "ptr-", "ptr-leave D");
	expect(&sc, "ptr-", "ptr-frame");

	/* Mapped under the resting cursor. */
	sc_window(&sc, &a, 0, 40, GREEN, &ax, &ay);
	check(ax == 80 && ay == 80, "A at %d,%d", ax, ay);
	expect(&sc, "ptr-", "ptr-enter A 10.00 15.00");
	expect(&sc, "ptr-", "ptr-frame");
	/* Unmapped from under it. */
	wl_surface_attach(a.s, NULL, 0, 0);
	wl_surface_commit(a.s);
	expect(&sc, "ptr-", "ptr-leave A");
	expect(&sc, "ptr-", "ptr-frame");

	/* A subsurface C of X moved under the cursor, away, and back;
	 * then its input region emptied. */
	c = surface(&sc.t);
	sc.named[2] = c;
	if (!sc.t.subcompositor)
		fail("no wl_subcompositor");
	ss = wl_subcompositor_get_subsurface(sc.t.subcompositor, c, x.s);
	wl_subsurface_set_position(ss, 90 - 8 - xx, 95 - 8 - xy);
	show(&sc.t, c, 20, 20, BLUE);
	wl_surface_commit(x.s);
	expect(&sc, "ptr-", "ptr-enter C 8.00 8.00");
	expect(&sc, "ptr-", "ptr-frame");
	wl_subsurface_set_position(ss, 0, 0);
	wl_surface_commit(x.s);
	expect(&sc, "ptr-", "ptr-leave C");
	expect(&sc, "ptr-", "ptr-frame");
	wl_subsurface_set_position(ss, 90 - 8 - xx, 95 - 8 - xy);
	wl_surface_commit(x.s);
	expect(&sc, "ptr-", "ptr-enter C 8.00 8.00");
	expect(&sc, "ptr-", "ptr-frame");
	none = wl_compositor_create_region(sc.t.compositor);
	wl_surface_set_input_region(c, none);
	wl_region_destroy(none);
	wl_surface_commit(c);
	wl_surface_commit(x.s);
	expect(&sc, "ptr-", "ptr-leave C");
	expect(&sc, "ptr-", "ptr-frame");
	wl_subsurface_destroy(ss);
	wl_surface_destroy(c);
	sc_stop(&sc);
}

/* After a roundtrip: the next line starting with @prefix is @line and
 * came before the roundtrip's done (nothing more is read). */
static void expect_already(struct sc *sc, const char *prefix, const char *line)
{
	char *p = sc->log + sc->from;

	while (*p) {
		char *eol = strchr(p, '\n');
		size_t n = (size_t)(eol - p);

		if (!strncmp(p, prefix, strlen(prefix))) {
			sc->from = (size_t)(eol + 1 - sc->log);
			check(n == strlen(line) && !strncmp(p, line, n),
			      "before the roundtrip's done: '%s' (got '%.*s')",
			      line, (int)n, p);
			return;
		}
		p = eol + 1;
	}
	fail("no '%s' before the roundtrip's done; log:\n%s", line, sc->log);
}

/*
 * A window that moves its own subsurfaces under the resting cursor: the
 * pointer hears of it before the roundtrip that follows the commit is
 * done, not only with the next frame (WLCS's clients look right after
 * the roundtrip). Motion on a subsurface that moved under it; leave and
 * enter when the main surface is under the cursor instead.
 */
static void test_commit(void)
{
	static struct sc sc;
	struct win x;
	struct wl_subsurface *ss;
	struct wl_surface *c;
	int xx, xy;

	sc_start(&sc, 8);
	sc_pointer(&sc);
	sc_window(&sc, &x, 3, 100, RED, &xx, &xy);
	c = surface(&sc.t);
	sc.named[2] = c;
	if (!sc.t.subcompositor)
		fail("no wl_subcompositor");
	ss = wl_subcompositor_get_subsurface(sc.t.subcompositor, c, x.s);
	wl_subsurface_set_position(ss, 10, 10);
	show(&sc.t, c, 20, 20, BLUE);
	wl_surface_commit(x.s);
	/* The subsurface is in place before the cursor comes: the FIFO is
	 * read on the compositor's loop apart from our requests, so without
	 * this the motion could be seen first (enter D, then leave and
	 * enter C). */
	if (wl_display_roundtrip(sc.t.display) < 0)
		fail("roundtrip: %s", last_client_log);
	fifo_move(&sc.f, xx + 15, xy + 15);
	expect(&sc, "ptr-", "ptr-enter C 5.00 5.00");
	expect(&sc, "ptr-", "ptr-frame");

	wl_subsurface_set_position(ss, 12, 8);
	wl_surface_commit(c);
	wl_surface_commit(x.s);
	if (wl_display_roundtrip(sc.t.display) < 0)
		fail("roundtrip: %s", last_client_log);
	expect_already(&sc, "ptr-", "ptr-motion 3.00 7.00");
	expect_already(&sc, "ptr-", "ptr-frame");

	wl_subsurface_set_position(ss, 50, 50);
	wl_surface_commit(c);
	wl_surface_commit(x.s);
	if (wl_display_roundtrip(sc.t.display) < 0)
		fail("roundtrip: %s", last_client_log);
	expect_already(&sc, "ptr-", "ptr-leave C");
	expect_already(&sc, "ptr-", "ptr-enter D 15.00 15.00");
	expect_already(&sc, "ptr-", "ptr-frame");
	wl_subsurface_destroy(ss);
	wl_surface_destroy(c);
	sc_stop(&sc);
}

static const struct harness_test tests[] = {
	{ "focus-storm-no-input", test_storm_no_input },
	{ "focus-storm-pointer", test_storm_pointer },
	{ "focus-pointer-lazy", test_lazy },
	{ "focus-pointer-commit", test_commit },
};

int main(int argc, char **argv)
{
	return harness_main("test-focus", tests, sizeof(tests) / sizeof(tests[0]),
			    argc, argv);
}
