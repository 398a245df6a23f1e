/* SPDX-License-Identifier: MIT */
/*
 * test-constraints - zwp_pointer_constraints_v1 against a headless
 * compositor whose input is a FIFO (--input): a lock or confinement
 * becomes active when its surface has the pointer focus and the cursor
 * is in its region (asked for before or while the surface has the
 * focus), and holds only while its window has the keyboard focus too;
 * a locked pointer gets no wl_pointer.motion but relative motion, and
 * the cursor stays where it was locked; a confined cursor stops at the
 * region's edge, whatever the motion (wl_pointer.motion shows where);
 * set_region waits for the surface's commit; the focus leaving (an
 * empty input region committed) ends a constraint, a persistent one
 * comes back with the focus, a oneshot one does not; a second
 * constraint on a surface is already_constrained; a window unmapped
 * under a lock ends it; a surface destroyed under it leaves the object
 * defunct without an event; a confinement to the whole surface stops
 * at its input region; a client gone while confined frees the cursor.
 *
 * Usage: test-constraints TEST (TAP output).
 */
#include <linux/input.h>
#include <stdio.h>
#include <string.h>

#include "input-client.h"

/* Events as lines of the client's log. */

static void locked(void *data, struct zwp_locked_pointer_v1 *l)
{
	note(data, "lock locked");
}

static void unlocked(void *data, struct zwp_locked_pointer_v1 *l)
{
	note(data, "lock unlocked");
}

static const struct zwp_locked_pointer_v1_listener lock_listener = {
	.locked = locked, .unlocked = unlocked,
};

static void confined(void *data, struct zwp_confined_pointer_v1 *c)
{
	note(data, "confine confined");
}

static void unconfined(void *data, struct zwp_confined_pointer_v1 *c)
{
	note(data, "confine unconfined");
}

static const struct zwp_confined_pointer_v1_listener confine_listener = {
	.confined = confined, .unconfined = unconfined,
};

static void rel_motion(void *data, struct zwp_relative_pointer_v1 *rp,
		       uint32_t hi, uint32_t lo, wl_fixed_t dx, wl_fixed_t dy,
		       wl_fixed_t udx, wl_fixed_t udy)
{
	note(data, "rel %.2f %.2f", wl_fixed_to_double(dx),
	     wl_fixed_to_double(dy));
}

static const struct zwp_relative_pointer_v1_listener rel_listener = {
	.relative_motion = rel_motion,
};

static struct wl_region *rect_region(struct sc *sc, int x, int y, int w, int h)
{
	struct wl_region *r = wl_compositor_create_region(sc->t.compositor);

	wl_region_add(r, x, y, w, h);
	return r;
}

/* The focus leaves @w (an empty input region, found at the next frame)
 * and comes back (the whole surface again). */
static void hide_input(struct sc *sc, struct win *w)
{
	struct wl_region *empty = wl_compositor_create_region(sc->t.compositor);

	wl_surface_set_input_region(w->s, empty);
	wl_region_destroy(empty);
	wl_surface_commit(w->s);
}

static void show_input(struct sc *sc, struct win *w)
{
	wl_surface_set_input_region(w->s, NULL);
	wl_surface_commit(w->s);
}

/* A point of the 320x240 output off the 100x100 window at @x, @y. */
static void off_window(int x, int y, int *ox, int *oy)
{
	static const int pts[][2] = { { 5, 5 }, { 315, 235 }, { 315, 5 },
				      { 5, 235 } };

	for (int i = 0; i < 4; i++)
		if (pts[i][0] < x || pts[i][0] >= x + 100 ||
		    pts[i][1] < y || pts[i][1] >= y + 100) {
			*ox = pts[i][0];
			*oy = pts[i][1];
			return;
		}
	fail("no point off the window at %d,%d", x, y);
}

static int clampi(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static void rel_move(struct sc *sc, int dx, int dy)
{
	if (dx)
		fifo_event(&sc->f, EV_REL, REL_X, dx);
	if (dy)
		fifo_event(&sc->f, EV_REL, REL_Y, dy);
	fifo_syn(&sc->f);
}

/*
 * A persistent lock asked for away from the window: locked when the
 * cursor enters; no wl_pointer.motion but relative motion, the cursor
 * held (absolute moves too); unlocked when the focus leaves, locked
 * again when it returns; destroyed, the cursor moves on from where it
 * was locked.
 */
static void test_lock(void)
{
	static struct sc sc;
	struct zwp_locked_pointer_v1 *lock;
	struct zwp_relative_pointer_v1 *rp;
	struct input_globals g;
	struct win w;
	int x, y, ox, oy;
	size_t mark;

	sc_start(&sc, 7);
	sc_pointer(&sc);
	g = input_globals(sc.t.display);
	rp = zwp_relative_pointer_manager_v1_get_relative_pointer(g.relative,
								  sc.ptr);
	zwp_relative_pointer_v1_add_listener(rp, &rel_listener, &sc);
	sc_window(&sc, &w, 0, 100, RED, &x, &y);
	off_window(x, y, &ox, &oy);
	fifo_move(&sc.f, ox, oy);

	lock = zwp_pointer_constraints_v1_lock_pointer(g.constraints, w.s,
		sc.ptr, NULL, ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT);
	zwp_locked_pointer_v1_add_listener(lock, &lock_listener, &sc);
	sc_sync(&sc);
	none_since(&sc, 0, "lock", "no lock without the pointer focus");

	fifo_move(&sc.f, x + 10, y + 10);
	expect(&sc, "ptr-enter", "ptr-enter A 10.00 10.00");
	expect(&sc, "lock", "lock locked");
	mark = sc.len;
	rel_move(&sc, 5, 3);
	expect(&sc, "rel", "rel 5.00 3.00");
	/* Absolute moves are held too, on the window and off it. */
	fifo_move(&sc.f, x + 50, y + 60);
	fifo_move(&sc.f, ox, oy);
	rel_move(&sc, 0, 1);
	expect(&sc, "rel", "rel 0.00 1.00");
	none_since(&sc, mark, "ptr-motion", "a locked pointer gets no motion");
	none_since(&sc, mark, "ptr-leave", "a locked cursor leaves no window");

	/* The focus leaves (nothing of the window takes input) and
	 * returns: a persistent lock ends and comes back. */
	hide_input(&sc, &w);
	expect(&sc, "ptr-leave", "ptr-leave A");
	expect(&sc, "lock", "lock unlocked");
	show_input(&sc, &w);
	expect(&sc, "ptr-enter", "ptr-enter A 10.00 10.00");
	expect(&sc, "lock", "lock locked");

	/* Unlocked by destroying it: the cursor goes on from 10,10. */
	mark = sc.len;
	zwp_locked_pointer_v1_destroy(lock);
	sc_sync(&sc);
	rel_move(&sc, 1, 0);
	expect(&sc, "ptr-motion", "ptr-motion 11.00 10.00");
	expect(&sc, "rel", "rel 1.00 0.00");
	none_since(&sc, mark, "lock", "no event for a lock its client destroyed");
	sc_stop(&sc);
}

/*
 * A oneshot lock asked for while the surface has the pointer: locked at
 * once, unlocked when the focus leaves, and never again when it
 * returns; a region: the lock waits for the cursor to be in it.
 */
static void test_oneshot(void)
{
	static struct sc sc;
	struct zwp_locked_pointer_v1 *lock;
	struct wl_region *r;
	struct input_globals g;
	struct win w;
	int x, y;
	size_t mark;

	sc_start(&sc, 7);
	sc_pointer(&sc);
	g = input_globals(sc.t.display);
	sc_window(&sc, &w, 0, 100, RED, &x, &y);
	fifo_move(&sc.f, x + 10, y + 10);
	expect(&sc, "ptr-enter", "ptr-enter A 10.00 10.00");

	lock = zwp_pointer_constraints_v1_lock_pointer(g.constraints, w.s,
		sc.ptr, NULL, ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_ONESHOT);
	zwp_locked_pointer_v1_add_listener(lock, &lock_listener, &sc);
	expect(&sc, "lock", "lock locked");
	hide_input(&sc, &w);
	expect(&sc, "ptr-leave", "ptr-leave A");
	expect(&sc, "lock", "lock unlocked");
	show_input(&sc, &w);
	expect(&sc, "ptr-enter", "ptr-enter A 10.00 10.00");
	mark = sc.len;
	sc_sync(&sc);
	rel_move(&sc, 2, 0);
	expect(&sc, "ptr-motion", "ptr-motion 12.00 10.00");
	none_since(&sc, mark, "lock", "a oneshot lock, once ended, is spent");
	zwp_locked_pointer_v1_destroy(lock);

	/* A persistent lock with a region: not where the cursor is. */
	r = rect_region(&sc, 50, 50, 20, 20);
	lock = zwp_pointer_constraints_v1_lock_pointer(g.constraints, w.s,
		sc.ptr, r, ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT);
	wl_region_destroy(r);
	zwp_locked_pointer_v1_add_listener(lock, &lock_listener, &sc);
	sc_sync(&sc);
	rel_move(&sc, 30, 30);
	expect(&sc, "ptr-motion", "ptr-motion 42.00 40.00");
	none_since(&sc, mark, "lock", "not locked outside its region");
	rel_move(&sc, 10, 10);
	expect(&sc, "ptr-motion", "ptr-motion 52.00 50.00");
	expect(&sc, "lock", "lock locked");
	/* Held at 52,50 while locked, free once destroyed. */
	rel_move(&sc, 10, 10);
	zwp_locked_pointer_v1_destroy(lock);
	sc_sync(&sc);
	rel_move(&sc, 1, 1);
	expect(&sc, "ptr-motion", "ptr-motion 53.00 51.00");
	sc_stop(&sc);
}

/*
 * A confinement to 10,10 30x30 of the window: confined once the cursor
 * is in it, then every motion stops at the region's edge (relative and
 * absolute); set_region waits for the commit; a region that leaves the
 * cursor out ends it, and a persistent one comes back inside.
 */
static void test_confine(void)
{
	static struct sc sc;
	struct zwp_confined_pointer_v1 *cp;
	struct zwp_relative_pointer_v1 *rp;
	struct wl_region *r;
	struct input_globals g;
	struct win w;
	int x, y, ox, oy;
	char line[64];

	sc_start(&sc, 7);
	sc_pointer(&sc);
	g = input_globals(sc.t.display);
	rp = zwp_relative_pointer_manager_v1_get_relative_pointer(g.relative,
								  sc.ptr);
	zwp_relative_pointer_v1_add_listener(rp, &rel_listener, &sc);
	sc_window(&sc, &w, 0, 100, RED, &x, &y);
	off_window(x, y, &ox, &oy);

	r = rect_region(&sc, 10, 10, 30, 30);
	cp = zwp_pointer_constraints_v1_confine_pointer(g.constraints, w.s,
		sc.ptr, r, ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT);
	wl_region_destroy(r);
	zwp_confined_pointer_v1_add_listener(cp, &confine_listener, &sc);
	sc_sync(&sc);
	fifo_move(&sc.f, x + 50, y + 50);
	expect(&sc, "ptr-enter", "ptr-enter A 50.00 50.00");
	sc_sync(&sc);
	none_since(&sc, 0, "confine", "not confined outside its region");
	fifo_move(&sc.f, x + 20, y + 20);
	expect(&sc, "ptr-motion", "ptr-motion 20.00 20.00");
	expect(&sc, "confine", "confine confined");

	/* A mouse: stops at the last column, the delta reported whole. */
	rel_move(&sc, 50, 0);
	expect(&sc, "ptr-motion", "ptr-motion 39.00 20.00");
	expect(&sc, "rel", "rel 50.00 0.00");
	rel_move(&sc, -100, -100);
	expect(&sc, "ptr-motion", "ptr-motion 10.00 10.00");
	/* A tablet: the nearest point of the region, off the window too. */
	fifo_move(&sc.f, x + 70, y + 15);
	expect(&sc, "ptr-motion", "ptr-motion 39.00 15.00");
	fifo_move(&sc.f, ox, oy);
	snprintf(line, sizeof(line), "ptr-motion %d.00 %d.00",
		 clampi(ox - x, 10, 39), clampi(oy - y, 10, 39));
	expect(&sc, "ptr-motion", line);
	fifo_move(&sc.f, x + 39, y + 15);
	expect(&sc, "ptr-motion", "ptr-motion 39.00 15.00");

	/* A larger region: not before the surface's commit. */
	r = rect_region(&sc, 0, 0, 100, 100);
	zwp_confined_pointer_v1_set_region(cp, r);
	wl_region_destroy(r);
	sc_sync(&sc);
	rel_move(&sc, 20, 0);
	expect(&sc, "ptr-motion", "ptr-motion 39.00 15.00");
	wl_surface_commit(w.s);
	sc_sync(&sc);
	rel_move(&sc, 20, 0);
	expect(&sc, "ptr-motion", "ptr-motion 59.00 15.00");
	/* The whole window (a NULL region): up to its edge. */
	zwp_confined_pointer_v1_set_region(cp, NULL);
	wl_surface_commit(w.s);
	sc_sync(&sc);
	rel_move(&sc, 100, 0);
	expect(&sc, "ptr-motion", "ptr-motion 99.00 15.00");

	/* A region the cursor is not in: unconfined; in it: again. */
	r = rect_region(&sc, 0, 0, 5, 5);
	zwp_confined_pointer_v1_set_region(cp, r);
	wl_region_destroy(r);
	wl_surface_commit(w.s);
	expect(&sc, "confine", "confine unconfined");
	rel_move(&sc, -20, 0);
	expect(&sc, "ptr-motion", "ptr-motion 79.00 15.00");
	fifo_move(&sc.f, x + 2, y + 2);
	expect(&sc, "ptr-motion", "ptr-motion 2.00 2.00");
	expect(&sc, "confine", "confine confined");
	rel_move(&sc, 10, 10);
	expect(&sc, "ptr-motion", "ptr-motion 4.00 4.00");

	/* The focus leaves and returns: persistent, it comes back. The
	 * commit ends it (no region holds the cursor), before the next
	 * frame finds the focus gone. */
	hide_input(&sc, &w);
	expect(&sc, "confine", "confine unconfined");
	expect(&sc, "ptr-leave", "ptr-leave A");
	show_input(&sc, &w);
	expect(&sc, "ptr-enter", "ptr-enter A 4.00 4.00");
	expect(&sc, "confine", "confine confined");
	zwp_confined_pointer_v1_destroy(cp);
	sc_sync(&sc);
	rel_move(&sc, 10, 10);
	expect(&sc, "ptr-motion", "ptr-motion 14.00 14.00");
	sc_stop(&sc);
}

/* A second constraint on a surface: already_constrained, even when the
 * first is a spent oneshot one; another surface may have its own. */
static void test_already(void)
{
	static struct sc sc;
	struct zwp_locked_pointer_v1 *lock;
	struct input_globals g;
	struct win w;
	int x, y;

	sc_start(&sc, 7);
	sc_pointer(&sc);
	g = input_globals(sc.t.display);
	sc_window(&sc, &w, 0, 100, RED, &x, &y);
	lock = zwp_pointer_constraints_v1_lock_pointer(g.constraints, w.s,
		sc.ptr, NULL, ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_ONESHOT);
	zwp_pointer_constraints_v1_confine_pointer(g.constraints,
		surface(&sc.t), sc.ptr, NULL,
		ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_ONESHOT);
	sc_sync(&sc);
	tap_ok("another surface may have a constraint of its own");
	/* Destroyed, a constraint makes room for the next. */
	zwp_locked_pointer_v1_destroy(lock);
	lock = zwp_pointer_constraints_v1_lock_pointer(g.constraints, w.s,
		sc.ptr, NULL, ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT);
	sc_sync(&sc);
	tap_ok("a destroyed constraint makes room for another");
	zwp_pointer_constraints_v1_confine_pointer(g.constraints, w.s, sc.ptr,
		NULL, ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT);
	expect_error(&sc.t, "a confinement on a locked surface",
		     "zwp_pointer_constraints_v1",
		     ZWP_POINTER_CONSTRAINTS_V1_ERROR_ALREADY_CONSTRAINED);
	check(strstr(sc.t.error, "has a pointer constraint already") != NULL,
	      "the error says the surface has a pointer constraint already");

	/* A lifetime that is neither oneshot nor persistent. */
	g = input_globals(sc.t.display);
	zwp_pointer_constraints_v1_lock_pointer(g.constraints, surface(&sc.t),
		wl_seat_get_pointer(g.seat), NULL, 3);
	expect_error(&sc.t, "lifetime 3", "wl_display",
		     WL_DISPLAY_ERROR_INVALID_METHOD);
	sc_stop(&sc);
}

/*
 * A surface destroyed under its active lock: no event, the object
 * defunct (its requests harmless). A confinement to the whole surface
 * (no region) stops at the input region's edge; its client gone while
 * it is active, the cursor is free.
 */
static void test_gone(void)
{
	static struct sc sc, other;
	struct zwp_locked_pointer_v1 *lock;
	struct zwp_confined_pointer_v1 *cp;
	struct wl_region *r;
	struct input_globals g, og;
	struct win a, b, c;
	int ax, ay, bx, by, cx, cy;
	size_t mark;

	sc_start(&sc, 7);
	sc_pointer(&sc);
	g = input_globals(sc.t.display);
	sc_window(&sc, &a, 0, 100, RED, &ax, &ay);
	fifo_move(&sc.f, ax + 10, ay + 10);
	expect(&sc, "ptr-enter", "ptr-enter A 10.00 10.00");
	lock = zwp_pointer_constraints_v1_lock_pointer(g.constraints, a.s,
		sc.ptr, NULL, ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT);
	zwp_locked_pointer_v1_add_listener(lock, &lock_listener, &sc);
	expect(&sc, "lock", "lock locked");
	/* The wl_surface first (its roles follow it inert): the pointer
	 * leaves it while it is destroyed (the client, which destroyed
	 * it, sees a NULL surface), the lock goes without unlocked. */
	mark = sc.len;
	wl_surface_destroy(a.s);
	xdg_toplevel_destroy(a.tl);
	xdg_surface_destroy(a.xs);
	sc.named[0] = NULL;
	sc_sync(&sc);
	expect(&sc, "ptr-leave", "ptr-leave (destroyed)");
	zwp_locked_pointer_v1_set_region(lock, NULL);
	zwp_locked_pointer_v1_set_cursor_position_hint(lock,
		wl_fixed_from_int(1), wl_fixed_from_int(1));
	sc_sync(&sc);
	tap_ok("a defunct lock's requests are accepted");
	zwp_locked_pointer_v1_destroy(lock);
	sc_sync(&sc);
	none_since(&sc, mark, "lock", "no event for a lock whose surface went");

	/* Another client confines the cursor to its window, whose input
	 * region is its left half. */
	memset(&other, 0, sizeof(other));
	t_connect(&other.t);
	og = input_globals(other.t.display);
	other.seat = og.seat;
	sc_pointer(&other);
	win_create(&other.t, &b);
	other.named[2] = b.s;
	r = rect_region(&other, 0, 0, 50, 100);
	wl_surface_set_input_region(b.s, r);
	wl_region_destroy(r);
	win_initial_commit(&b);
	win_draw(&b, 100, 100, BLUE);
	wait_mapped(&sc.t, &bx, &by, "the other client's window");
	cp = zwp_pointer_constraints_v1_confine_pointer(og.constraints, b.s,
		other.ptr, NULL, ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT);
	zwp_confined_pointer_v1_add_listener(cp, &confine_listener, &other);
	if (wl_display_roundtrip(other.t.display) < 0)
		fail("the other client: %s", last_client_log);
	fifo_move(&sc.f, bx + 10, by + 10);
	expect(&other, "ptr-enter", "ptr-enter C 10.00 10.00");
	expect(&other, "confine", "confine confined");
	rel_move(&sc, 100, 0);
	expect(&other, "ptr-motion", "ptr-motion 49.00 10.00");

	/* The client goes while confined: the cursor moves on. */
	wl_display_disconnect(other.t.display);
	sc_window(&sc, &c, 1, 100, GREEN, &cx, &cy);
	fifo_move(&sc.f, cx + 10, cy + 10);
	expect(&sc, "ptr-enter", "ptr-enter B 10.00 10.00");
	rel_move(&sc, 60, 0);
	expect(&sc, "ptr-motion", "ptr-motion 70.00 10.00");
	sc_stop(&sc);
}

/* A window unmapped under its lock (its xdg_toplevel destroyed): it
 * loses the keyboard, which ends the lock, and the pointer leaves it. */
static void test_unmapped(void)
{
	static struct sc sc;
	struct zwp_locked_pointer_v1 *lock;
	struct input_globals g;
	struct win a;
	int ax, ay;

	sc_start(&sc, 7);
	sc_pointer(&sc);
	g = input_globals(sc.t.display);
	sc_window(&sc, &a, 0, 100, RED, &ax, &ay);
	fifo_move(&sc.f, ax + 10, ay + 10);
	expect(&sc, "ptr-enter", "ptr-enter A 10.00 10.00");
	lock = zwp_pointer_constraints_v1_lock_pointer(g.constraints, a.s,
		sc.ptr, NULL, ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT);
	zwp_locked_pointer_v1_add_listener(lock, &lock_listener, &sc);
	expect(&sc, "lock", "lock locked");
	xdg_toplevel_destroy(a.tl);
	expect(&sc, "lock", "lock unlocked");
	expect(&sc, "ptr-leave", "ptr-leave A");
	zwp_locked_pointer_v1_destroy(lock);
	xdg_surface_destroy(a.xs);
	wl_surface_destroy(a.s);
	sc_sync(&sc);
	sc_stop(&sc);
}

/*
 * A constraint holds only while its window also has the keyboard: a new
 * window (not under the cursor) takes the keyboard and ends the lock,
 * though the pointer stays on the locked window; a click on that window
 * gives it the keyboard back and a persistent lock returns.
 */
static void test_keyboard(void)
{
	static struct sc sc;
	struct zwp_locked_pointer_v1 *lock;
	struct input_globals g;
	struct win a, b;
	int ax, ay, bx, by;
	size_t mark;

	sc_start(&sc, 7);
	sc_keyboard(&sc);
	sc_pointer(&sc);
	g = input_globals(sc.t.display);
	sc_window(&sc, &a, 0, 40, RED, &ax, &ay);
	expect(&sc, "kb-enter", "kb-enter A keys");
	fifo_move(&sc.f, ax + 10, ay + 10);
	expect(&sc, "ptr-enter", "ptr-enter A 10.00 10.00");
	lock = zwp_pointer_constraints_v1_lock_pointer(g.constraints, a.s,
		sc.ptr, NULL, ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT);
	zwp_locked_pointer_v1_add_listener(lock, &lock_listener, &sc);
	expect(&sc, "lock", "lock locked");

	mark = sc.len;
	sc_window(&sc, &b, 1, 40, GREEN, &bx, &by);
	check(bx > ax + 10 || by > ay + 10, "B (%d,%d) is not under the cursor",
	      bx, by);
	expect(&sc, "kb-enter", "kb-enter B keys");
	expect(&sc, "lock", "lock unlocked");
	none_since(&sc, mark, "ptr-leave", "the pointer stayed on A");

	fifo_key(&sc.f, BTN_LEFT, 1);
	fifo_key(&sc.f, BTN_LEFT, 0);
	expect(&sc, "kb-enter", "kb-enter A keys");
	expect(&sc, "lock", "lock locked");
	zwp_locked_pointer_v1_destroy(lock);
	sc_stop(&sc);
}

static const struct harness_test tests[] = {
	{ "constraints-lock", test_lock },
	{ "constraints-oneshot", test_oneshot },
	{ "constraints-confine", test_confine },
	{ "constraints-already", test_already },
	{ "constraints-gone", test_gone },
	{ "constraints-unmapped", test_unmapped },
	{ "constraints-keyboard", test_keyboard },
};

int main(int argc, char **argv)
{
	return harness_main("test-constraints", tests,
			    sizeof(tests) / sizeof(tests[0]), argc, argv);
}
