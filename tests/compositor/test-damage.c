/* SPDX-License-Identifier: MIT */
/*
 * test-damage - damage with extents up to INT32_MAX from a real client,
 * on windows away from the output's origin: Mesa sends
 * wl_surface.damage(0, 0, INT32_MAX, INT32_MAX) on every EGL or Vulkan
 * swap, and GTK 4 puts its windows at a negative origin (the shadow of
 * its client-side decorations, outside the window geometry). The next
 * frame must show the new content, and repaint the window's visible
 * area, not the whole output.
 *
 * Usage: test-damage TEST (TAP output). Each step commits a buffer of a
 * new colour, takes a screenshot, checks the window's pixels and reads
 * how many pixels that frame repainted from the compositor's log
 * ("frame seq=N repainted=A", --verbose).
 *
 * Checked against the compositor before the fix (once, by hand):
 * damage-max-positive failed at its first step (the window stayed red,
 * 0 pixels repainted), damage-max-negative and damage-max-subsurface
 * repainted the whole output (76800 pixels) at theirs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wayland-client.h>

#include "toplevel.h"

/* How many pixels the frame of the last screenshot repainted: its
 * "screenshot frame=N" and "frame seq=N repainted=A" lines, after
 * @mark in the compositor's log. */
static unsigned long long repainted(struct t *t, size_t mark)
{
	char line[256], want[64];
	unsigned long long seq;
	size_t from = mark;

	if (!proc_wait(&t->c.p, &from, "screenshot frame=", TIMEOUT_MS, line,
		       sizeof(line)))
		fail("no screenshot line");
	seq = strtoull(strstr(line, "frame=") + 6, NULL, 10);
	snprintf(want, sizeof(want), "frame seq=%llu repainted=", seq);
	from = mark;
	if (!proc_wait(&t->c.p, &from, want, TIMEOUT_MS, line, sizeof(line)))
		fail("no repaint line for frame %llu", seq);
	return strtoull(strstr(line, "repainted=") + 10, NULL, 10);
}

enum how { DAMAGE, DAMAGE_BUFFER };

/* @s (@w x @h) gets a buffer in @color, damaged from (@dx, @dy) to
 * INT32_MAX in surface or buffer coordinates. On screen the surface's
 * part (@x, @y, @vw x @vh), relative to t->ox, t->oy, must be @color,
 * and the frame must have repainted exactly @area pixels. */
static void step(struct t *t, struct wl_surface *s, int w, int h,
		 uint32_t color, enum how how, int32_t dx, int32_t dy, int x,
		 int y, int vw, int vh, unsigned long long area)
{
	const char *name = how == DAMAGE ? "wl_surface.damage"
					 : "wl_surface.damage_buffer";
	unsigned long long got;
	char what[160];
	size_t mark = t->log_from;

	wl_surface_attach(s, solid(t, w, h, color), 0, 0);
	if (how == DAMAGE)
		wl_surface_damage(s, dx, dy, INT32_MAX, INT32_MAX);
	else
		wl_surface_damage_buffer(s, dx, dy, INT32_MAX, INT32_MAX);
	wl_surface_commit(s);
	screenshot(t);
	snprintf(what, sizeof(what), "%s(%d, %d, INT32_MAX, INT32_MAX): new content",
		 name, dx, dy);
	expect_rect(t, x, y, vw, vh, color, what);
	got = repainted(t, mark);
	check(got == area, "%s(%d, %d, INT32_MAX, INT32_MAX): %llu pixels repainted, want %llu",
	      name, dx, dy, got, area);
}

/* A toplevel of 100x80 whose window geometry starts at (@gx, @gy), so
 * that it lands that far up and left of its cascade slot; *@x, *@y:
 * where it went. */
static void window(struct t *t, struct win *w, int gx, int gy, int *x, int *y)
{
	win_create(t, w);
	if (gx || gy)
		xdg_surface_set_window_geometry(w->xs, gx, gy, 50, 40);
	win_initial_commit(w);
	win_draw(w, 100, 80, RED);
	wait_mapped(t, x, y, "the window");
}

/* At the cascade's first slot, inside the output. */
static void test_positive(void)
{
	static struct t t;
	static struct win w;

	t_start(&t);
	window(&t, &w, 0, 0, &t.ox, &t.oy);
	check(t.ox > 0 && t.oy > 0, "the window is at %d,%d", t.ox, t.oy);
	screenshot(&t);
	expect_rect(&t, 0, 0, 100, 80, RED, "mapped");
	step(&t, w.s, 100, 80, GREEN, DAMAGE, 0, 0, 0, 0, 100, 80, 100 * 80);
	step(&t, w.s, 100, 80, BLUE, DAMAGE_BUFFER, 0, 0, 0, 0, 100, 80,
	     100 * 80);
	/* x + width past INT32_MAX: from (10, 20) to the window's end. */
	step(&t, w.s, 100, 80, YELLOW, DAMAGE, 10, 20, 10, 20, 90, 60, 90 * 60);
	step(&t, w.s, 100, 80, WHITE, DAMAGE_BUFFER, 10, 20, 10, 20, 90, 60,
	     90 * 60);
	t_stop(&t);
}

/* Up and left of the output's origin, as GTK 4 places its windows. */
static void test_negative(void)
{
	static struct t t;
	static struct win w;
	int vw, vh;

	t_start(&t);
	window(&t, &w, 50, 40, &t.ox, &t.oy);
	check(t.ox < 0 && t.oy < 0, "the window is at %d,%d", t.ox, t.oy);
	vw = 100 + t.ox;
	vh = 80 + t.oy;
	screenshot(&t);
	expect_rect(&t, -t.ox, -t.oy, vw, vh, RED, "mapped");
	step(&t, w.s, 100, 80, GREEN, DAMAGE, 0, 0, -t.ox, -t.oy, vw, vh,
	     (unsigned long long)(vw * vh));
	step(&t, w.s, 100, 80, BLUE, DAMAGE_BUFFER, 0, 0, -t.ox, -t.oy, vw, vh,
	     (unsigned long long)(vw * vh));
	t_stop(&t);
}

/* Desynchronized subsurfaces of a window at its cascade slot: one
 * reaching past the output's top left corner, one inside the window. */
static void test_subsurface(void)
{
	static struct t t;
	static struct win w;
	struct wl_surface *out, *in;
	struct wl_subsurface *so, *si;
	int x, y;

	t_start(&t);
	if (!t.subcompositor)
		fail("no wl_subcompositor");
	window(&t, &w, 0, 0, &x, &y);
	out = surface(&t);
	in = surface(&t);
	so = wl_subcompositor_get_subsurface(t.subcompositor, out, w.s);
	si = wl_subcompositor_get_subsurface(t.subcompositor, in, w.s);
	wl_subsurface_set_position(so, -x - 20, -y - 10);
	wl_subsurface_set_position(si, 30, 20);
	wl_subsurface_set_desync(so);
	wl_subsurface_set_desync(si);
	show(&t, out, 60, 60, RED);
	show(&t, in, 40, 40, RED);
	wl_surface_commit(w.s);
	screenshot(&t);
	/* The outer one is at (-20, -10): 40x50 of it show. */
	expect_rect(&t, 0, 0, 40, 50, RED, "the subsurface past the corner");
	step(&t, out, 60, 60, GREEN, DAMAGE, 0, 0, 0, 0, 40, 50, 40 * 50);
	step(&t, out, 60, 60, BLUE, DAMAGE_BUFFER, 0, 0, 0, 0, 40, 50, 40 * 50);
	t.ox = x + 30;
	t.oy = y + 20;
	step(&t, in, 40, 40, GREEN, DAMAGE, 0, 0, 0, 0, 40, 40, 40 * 40);
	step(&t, in, 40, 40, BLUE, DAMAGE_BUFFER, 0, 0, 0, 0, 40, 40, 40 * 40);
	wl_subsurface_destroy(so);
	wl_subsurface_destroy(si);
	wl_surface_destroy(out);
	wl_surface_destroy(in);
	t_stop(&t);
}

static const struct harness_test tests[] = {
	{ "damage-max-positive", test_positive },
	{ "damage-max-negative", test_negative },
	{ "damage-max-subsurface", test_subsurface },
};

int main(int argc, char **argv)
{
	return harness_main("test-damage", tests,
			    sizeof(tests) / sizeof(tests[0]), argc, argv);
}
