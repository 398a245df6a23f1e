/* SPDX-License-Identifier: MIT */
/*
 * test-relative-pointer - zwp_relative_pointer_manager_v1 against a
 * headless compositor whose input is a FIFO (--input): a mouse's EV_REL
 * motion reaches the relative pointers of the client under the cursor,
 * with the same deltas accelerated and not, in the wl_pointer frame of
 * the absolute motion; a tablet's EV_ABS motion sends none; a client
 * without the pointer focus gets none.
 *
 * Usage: test-relative-pointer TEST (TAP output).
 */
#include <linux/input.h>
#include <stdio.h>
#include <string.h>

#include "input-client.h"

static void rel_motion(void *data, struct zwp_relative_pointer_v1 *rp,
		       uint32_t hi, uint32_t lo, wl_fixed_t dx, wl_fixed_t dy,
		       wl_fixed_t udx, wl_fixed_t udy)
{
	struct sc *sc = data;
	uint64_t usec = (uint64_t)hi << 32 | lo;

	note(sc, "rel %.2f %.2f unaccel %.2f %.2f%s", wl_fixed_to_double(dx),
	     wl_fixed_to_double(dy), wl_fixed_to_double(udx),
	     wl_fixed_to_double(udy), usec ? "" : " (no time)");
}

static const struct zwp_relative_pointer_v1_listener rel_listener = {
	.relative_motion = rel_motion,
};

/* Another client's count of relative motion events. */
static int other_events;

static void other_motion(void *data, struct zwp_relative_pointer_v1 *rp,
			 uint32_t hi, uint32_t lo, wl_fixed_t dx, wl_fixed_t dy,
			 wl_fixed_t udx, wl_fixed_t udy)
{
	other_events++;
}

static const struct zwp_relative_pointer_v1_listener other_listener = {
	.relative_motion = other_motion,
};

static void test_relative(void)
{
	static struct sc sc;
	static struct t other;
	struct zwp_relative_pointer_v1 *rp, *orp;
	struct input_globals g, og;
	struct win w;
	int x, y;

	sc_start(&sc, 7);
	sc_pointer(&sc);
	g = input_globals(sc.t.display);
	rp = zwp_relative_pointer_manager_v1_get_relative_pointer(g.relative,
								  sc.ptr);
	zwp_relative_pointer_v1_add_listener(rp, &rel_listener, &sc);
	sc_window(&sc, &w, 0, 100, RED, &x, &y);

	/* A second client with a relative pointer, never under the
	 * cursor. */
	t_connect(&other);
	og = input_globals(other.display);
	orp = zwp_relative_pointer_manager_v1_get_relative_pointer(og.relative,
		wl_seat_get_pointer(og.seat));
	zwp_relative_pointer_v1_add_listener(orp, &other_listener, NULL);
	if (wl_display_roundtrip(other.display) < 0)
		fail("the other client: %s", last_client_log);

	/* Absolute (the FIFO's ABS_X, ABS_Y, as a tablet's): no relative
	 * motion. */
	fifo_move(&sc.f, x + 10, y + 10);
	expect(&sc, "ptr-enter", "ptr-enter A 10.00 10.00");
	/* EV_REL, as a mouse's: the deltas, after the absolute motion. */
	fifo_event(&sc.f, EV_REL, REL_X, 7);
	fifo_event(&sc.f, EV_REL, REL_Y, -4);
	fifo_syn(&sc.f);
	expect(&sc, "ptr-motion", "ptr-motion 17.00 6.00");
	expect(&sc, "rel", "rel 7.00 -4.00 unaccel 7.00 -4.00");
	expect(&sc, "ptr-frame", "ptr-frame");
	check(!strstr(sc.log, "rel 0") && strstr(sc.log, "rel ") ==
	      strstr(sc.log, "rel 7.00"),
	      "the absolute move sent no relative motion");
	/* One axis at a time, and moves that add up within a frame. */
	fifo_event(&sc.f, EV_REL, REL_Y, 3);
	fifo_event(&sc.f, EV_REL, REL_Y, 2);
	fifo_syn(&sc.f);
	expect(&sc, "rel", "rel 0.00 5.00 unaccel 0.00 5.00");

	if (wl_display_roundtrip(other.display) < 0)
		fail("the other client: %s", last_client_log);
	check(other_events == 0,
	      "a client without the pointer focus got none (%d)", other_events);

	/* Off every window: nobody gets it. */
	fifo_move(&sc.f, 300, 220);
	expect(&sc, "ptr-leave", "ptr-leave A");
	fifo_event(&sc.f, EV_REL, REL_X, -3);
	fifo_syn(&sc.f);
	fifo_move(&sc.f, x + 10, y + 10);
	expect(&sc, "ptr-enter", "ptr-enter A 10.00 10.00");
	check(!strstr(sc.log, "rel -3"), "no relative motion over no window");
	zwp_relative_pointer_v1_destroy(rp);
	wl_display_disconnect(other.display);
	sc_stop(&sc);
}

static const struct harness_test tests[] = {
	{ "relative-pointer", test_relative },
};

int main(int argc, char **argv)
{
	return harness_main("test-relative-pointer", tests,
			    sizeof(tests) / sizeof(tests[0]), argc, argv);
}
