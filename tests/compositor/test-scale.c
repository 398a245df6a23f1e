/* SPDX-License-Identifier: MIT */
/*
 * test-scale - how a buffer becomes a surface: wl_surface buffer scale
 * and buffer transform, and wp_viewport's source and destination, on the
 * headless backend, checked in the compositor's screenshots; and every
 * error those requests can raise.
 *
 * Usage: test-scale TEST. Buffers come in four coloured quadrants
 * (toplevel.h's quadrants()), so a screenshot tells which part of the
 * buffer landed where, and a wrong rotation or mirror shows. Rectangles
 * are checked one pixel inside each quadrant: what a filtered sample does
 * exactly at a boundary is pixman's business.
 */
#include <wayland-client.h>

#include "toplevel.h"

/* The expected quadrants of a 100x80 surface: top left, top right,
 * bottom left, bottom right; 1 px inside each. */
static void expect_quadrants(struct t *t, int w, int h, const uint32_t q[4],
			     const char *what)
{
	char msg[160];
	int hw = w / 2, hh = h / 2;

	snprintf(msg, sizeof(msg), "%s: top left", what);
	expect_rect(t, 1, 1, hw - 2, hh - 2, q[0], msg);
	snprintf(msg, sizeof(msg), "%s: top right", what);
	expect_rect(t, hw + 1, 1, w - hw - 2, hh - 2, q[1], msg);
	snprintf(msg, sizeof(msg), "%s: bottom left", what);
	expect_rect(t, 1, hh + 1, hw - 2, h - hh - 2, q[2], msg);
	snprintf(msg, sizeof(msg), "%s: bottom right", what);
	expect_rect(t, hw + 1, hh + 1, w - hw - 2, h - hh - 2, q[3], msg);
}

/* The surface covers exactly w x h: the background starts right of and
 * below it. */
static void expect_size(struct t *t, int w, int h, const char *what)
{
	char msg[160];

	snprintf(msg, sizeof(msg), "%s: background right of %dx%d", what, w, h);
	expect_rect(t, w, 0, 8, h, BACKGROUND, msg);
	snprintf(msg, sizeof(msg), "%s: background below %dx%d", what, w, h);
	expect_rect(t, 0, h, w, 8, BACKGROUND, msg);
}

/* A toplevel, configured, nothing attached: the test attaches. */
static void start(struct t *t, struct win *w)
{
	t_start(t);
	win_create(t, w);
	win_initial_commit(w);
	xdg_surface_ack_configure(w->xs, w->serial);
}

/* Attaches @b, damages all of it (buffer coordinates), commits and
 * sends that (the compositor's log is what a test waits on next). */
static void attach(struct t *t, struct wl_surface *s, struct wl_buffer *b)
{
	wl_surface_attach(s, b, 0, 0);
	wl_surface_damage_buffer(s, 0, 0, INT32_MAX, INT32_MAX);
	wl_surface_commit(s);
	wl_display_flush(t->display);
}

/* Scale 2: a 200x160 buffer is a 100x80 surface, each surface pixel
 * four buffer pixels; damage_buffer in buffer pixels repaints it. */
static void test_scale(void)
{
	static struct t t;
	static struct win w;
	static const uint32_t q[4] = { RED, GREEN, BLUE, YELLOW };

	start(&t, &w);
	wl_surface_set_buffer_scale(w.s, 2);
	attach(&t, w.s, quadrants(&t, 200, 160));
	wait_mapped(&t, &t.ox, &t.oy, "scale 2");
	screenshot(&t);
	expect_quadrants(&t, 100, 80, q, "scale 2");
	expect_size(&t, 100, 80, "scale 2");

	/* New content, buffer damage only: all of it shows. */
	wl_surface_attach(w.s, solid(&t, 200, 160, WHITE), 0, 0);
	wl_surface_damage_buffer(w.s, 0, 0, 200, 160);
	wl_surface_commit(w.s);
	screenshot(&t);
	expect_rect(&t, 0, 0, 100, 80, WHITE, "scale 2, new buffer");

	/* Back to scale 1: the same buffer is 200x160. */
	wl_surface_set_buffer_scale(w.s, 1);
	wl_surface_commit(w.s);
	screenshot(&t);
	expect_rect(&t, 0, 0, 200, 160, WHITE, "scale 1 again");
	expect_size(&t, 200, 160, "scale 1 again");
	t_stop(&t);
}

/*
 * Every wl_output.transform, worked out by hand: the buffer holds the
 * surface's content turned by the transform (counter-clockwise, flipped
 * ones mirrored first), so the compositor shows it turned back. 90: the
 * surface's top right is the buffer's top left (RED), its top left the
 * buffer's bottom left (BLUE). 90 and 270 take an 80x100 buffer.
 */
static void test_transform(void)
{
	static struct t t;
	static struct win w;
	static const struct {
		int32_t transform;
		const char *name;
		uint32_t q[4];
	} cases[] = {
		{ WL_OUTPUT_TRANSFORM_NORMAL, "normal", { RED, GREEN, BLUE, YELLOW } },
		{ WL_OUTPUT_TRANSFORM_90, "90", { BLUE, RED, YELLOW, GREEN } },
		{ WL_OUTPUT_TRANSFORM_180, "180", { YELLOW, BLUE, GREEN, RED } },
		{ WL_OUTPUT_TRANSFORM_270, "270", { GREEN, YELLOW, RED, BLUE } },
		{ WL_OUTPUT_TRANSFORM_FLIPPED, "flipped", { GREEN, RED, YELLOW, BLUE } },
		{ WL_OUTPUT_TRANSFORM_FLIPPED_90, "flipped-90", { RED, BLUE, GREEN, YELLOW } },
		{ WL_OUTPUT_TRANSFORM_FLIPPED_180, "flipped-180", { BLUE, YELLOW, RED, GREEN } },
		{ WL_OUTPUT_TRANSFORM_FLIPPED_270, "flipped-270", { YELLOW, GREEN, BLUE, RED } },
	};

	start(&t, &w);
	attach(&t, w.s, quadrants(&t, 100, 80));
	wait_mapped(&t, &t.ox, &t.oy, "normal");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool odd = cases[i].transform & 1;

		wl_surface_set_buffer_transform(w.s, cases[i].transform);
		attach(&t, w.s, quadrants(&t, odd ? 80 : 100, odd ? 100 : 80));
		screenshot(&t);
		expect_quadrants(&t, 100, 80, cases[i].q, cases[i].name);
		expect_size(&t, 100, 80, cases[i].name);
	}
	t_stop(&t);
}

/* wp_viewport: a crop shown at its own size, a crop scaled, the whole
 * buffer scaled down, then the viewport destroyed (the buffer's own size
 * again); and with scale and transform together. */
static void test_viewport(void)
{
	static struct t t;
	static struct win w;
	static const uint32_t q[4] = { RED, GREEN, BLUE, YELLOW };
	struct wp_viewport *vp;

	start(&t, &w);
	if (!t.viewporter)
		fail("no wp_viewporter");
	vp = wp_viewporter_get_viewport(t.viewporter, w.s);
	/* The top right quadrant of a 200x160 buffer, as it is. */
	wp_viewport_set_source(vp, wl_fixed_from_int(100), 0,
			       wl_fixed_from_int(100), wl_fixed_from_int(80));
	attach(&t, w.s, quadrants(&t, 200, 160));
	wait_mapped(&t, &t.ox, &t.oy, "viewport");
	screenshot(&t);
	expect_rect(&t, 0, 0, 100, 80, GREEN, "source: the top right quadrant");
	expect_size(&t, 100, 80, "source only");

	/* The middle, crossing all four, shown at half its size. */
	wp_viewport_set_source(vp, wl_fixed_from_int(50), wl_fixed_from_int(40),
			       wl_fixed_from_int(100), wl_fixed_from_int(80));
	wp_viewport_set_destination(vp, 50, 40);
	wl_surface_commit(w.s);
	screenshot(&t);
	expect_quadrants(&t, 50, 40, q, "source and destination");
	expect_size(&t, 50, 40, "source and destination");

	/* No source: all of the buffer, at the destination's size. */
	wp_viewport_set_source(vp, wl_fixed_from_int(-1), wl_fixed_from_int(-1),
			       wl_fixed_from_int(-1), wl_fixed_from_int(-1));
	wp_viewport_set_destination(vp, 100, 80);
	wl_surface_commit(w.s);
	screenshot(&t);
	expect_quadrants(&t, 100, 80, q, "destination only");
	expect_size(&t, 100, 80, "destination only");

	/* Gone: the buffer's size, with the next commit. */
	wp_viewport_destroy(vp);
	screenshot(&t);
	expect_size(&t, 100, 80, "viewport destroyed, not yet committed");
	wl_surface_commit(w.s);
	screenshot(&t);
	expect_quadrants(&t, 200, 160, q, "viewport destroyed");
	expect_size(&t, 200, 160, "viewport destroyed");

	/* Scale 2 and 90 together: 160x200 buffer pixels are a 100x80
	 * surface showing BLUE RED / YELLOW GREEN; the source takes its
	 * top right quadrant (RED), 50x40. */
	vp = wp_viewporter_get_viewport(t.viewporter, w.s);
	wl_surface_set_buffer_scale(w.s, 2);
	wl_surface_set_buffer_transform(w.s, WL_OUTPUT_TRANSFORM_90);
	wp_viewport_set_source(vp, wl_fixed_from_int(50), 0,
			       wl_fixed_from_int(50), wl_fixed_from_int(40));
	attach(&t, w.s, quadrants(&t, 160, 200));
	screenshot(&t);
	expect_rect(&t, 0, 0, 50, 40, RED, "scale 2, 90, source");
	expect_size(&t, 50, 40, "scale 2, 90, source");
	t_stop(&t);
}

/* The viewport outlives its surface: every request but destroy is
 * no_surface; destroy is fine. */
static void test_viewport_lifetime(void)
{
	static struct t t;
	struct wl_surface *s;
	struct wp_viewport *vp;

	t_start(&t);
	s = surface(&t);
	vp = wp_viewporter_get_viewport(t.viewporter, s);
	wl_surface_destroy(s);
	wp_viewport_destroy(vp);
	check(wl_display_roundtrip(t.display) >= 0,
	      "destroying a viewport whose surface is gone (%s)", last_client_log);
	s = surface(&t);
	vp = wp_viewporter_get_viewport(t.viewporter, s);
	wl_surface_destroy(s);
	wp_viewport_set_destination(vp, 10, 10);
	expect_error(&t, "set_destination without a surface", "wp_viewport",
		     WP_VIEWPORT_ERROR_NO_SURFACE);
	/* A surface whose viewport was destroyed can get a new one. */
	s = surface(&t);
	vp = wp_viewporter_get_viewport(t.viewporter, s);
	wp_viewport_destroy(vp);
	vp = wp_viewporter_get_viewport(t.viewporter, s);
	check(wl_display_roundtrip(t.display) >= 0,
	      "a new viewport after the first was destroyed (%s)", last_client_log);
	t_stop(&t);
}

/* Every error, each on a fresh connection; the compositor serves the
 * next one. */
static void test_errors(void)
{
	static struct t t;
	struct wl_surface *s;
	struct wp_viewport *vp;

	t_start(&t);
	s = surface(&t);
	wl_surface_set_buffer_scale(s, 0);
	expect_error(&t, "buffer scale 0", "wl_surface",
		     WL_SURFACE_ERROR_INVALID_SCALE);
	s = surface(&t);
	wl_surface_set_buffer_transform(s, 8);
	expect_error(&t, "buffer transform 8", "wl_surface",
		     WL_SURFACE_ERROR_INVALID_TRANSFORM);
	s = surface(&t);
	wl_surface_set_buffer_scale(s, 3);
	attach(&t, s, solid(&t, 100, 80, RED));
	expect_error(&t, "a 100x80 buffer at scale 3", "wl_surface",
		     WL_SURFACE_ERROR_INVALID_SIZE);

	s = surface(&t);
	wp_viewporter_get_viewport(t.viewporter, s);
	wp_viewporter_get_viewport(t.viewporter, s);
	expect_error(&t, "a second viewport", "wp_viewporter",
		     WP_VIEWPORTER_ERROR_VIEWPORT_EXISTS);
	vp = wp_viewporter_get_viewport(t.viewporter, surface(&t));
	wp_viewport_set_source(vp, wl_fixed_from_int(-2), 0,
			       wl_fixed_from_int(10), wl_fixed_from_int(10));
	expect_error(&t, "a negative source origin", "wp_viewport",
		     WP_VIEWPORT_ERROR_BAD_VALUE);
	vp = wp_viewporter_get_viewport(t.viewporter, surface(&t));
	wp_viewport_set_source(vp, 0, 0, 0, wl_fixed_from_int(10));
	expect_error(&t, "an empty source", "wp_viewport",
		     WP_VIEWPORT_ERROR_BAD_VALUE);
	vp = wp_viewporter_get_viewport(t.viewporter, surface(&t));
	wp_viewport_set_destination(vp, 0, 5);
	expect_error(&t, "an empty destination", "wp_viewport",
		     WP_VIEWPORT_ERROR_BAD_VALUE);
	vp = wp_viewporter_get_viewport(t.viewporter, surface(&t));
	wp_viewport_set_destination(vp, INT32_MAX, INT32_MAX);
	expect_error(&t, "a destination of INT32_MAX", "wp_viewport",
		     WP_VIEWPORT_ERROR_BAD_VALUE);

	s = surface(&t);
	vp = wp_viewporter_get_viewport(t.viewporter, s);
	wp_viewport_set_source(vp, wl_fixed_from_int(50), 0,
			       wl_fixed_from_int(51), wl_fixed_from_int(10));
	attach(&t, s, solid(&t, 100, 80, RED));
	expect_error(&t, "a source past the buffer's right edge", "wp_viewport",
		     WP_VIEWPORT_ERROR_OUT_OF_BUFFER);
	s = surface(&t);
	vp = wp_viewporter_get_viewport(t.viewporter, s);
	wl_surface_set_buffer_scale(s, 2);
	wp_viewport_set_source(vp, 0, 0, wl_fixed_from_int(51),
			       wl_fixed_from_int(10));
	attach(&t, s, solid(&t, 100, 80, RED));
	expect_error(&t, "a source past the edge in surface units (scale 2)",
		     "wp_viewport", WP_VIEWPORT_ERROR_OUT_OF_BUFFER);
	s = surface(&t);
	vp = wp_viewporter_get_viewport(t.viewporter, s);
	wp_viewport_set_source(vp, 0, 0, wl_fixed_from_double(10.5),
			       wl_fixed_from_int(10));
	attach(&t, s, solid(&t, 100, 80, RED));
	expect_error(&t, "a fractional source size without a destination",
		     "wp_viewport", WP_VIEWPORT_ERROR_BAD_SIZE);

	/* Still serving: a scaled surface maps. */
	{
		static struct win w;

		win_create(&t, &w);
		win_initial_commit(&w);
		xdg_surface_ack_configure(w.xs, w.serial);
		wl_surface_set_buffer_scale(w.s, 2);
		attach(&t, w.s, solid(&t, 40, 40, GREEN));
		wait_mapped(&t, &t.ox, &t.oy, "after the errors");
		screenshot(&t);
		expect_rect(&t, 0, 0, 20, 20, GREEN, "a 40x40 buffer at scale 2");
		expect_size(&t, 20, 20, "after the errors");
	}
	t_stop(&t);
}

static const struct harness_test tests[] = {
	{ "scale", test_scale },
	{ "transform", test_transform },
	{ "viewport", test_viewport },
	{ "viewport-lifetime", test_viewport_lifetime },
	{ "scale-errors", test_errors },
};

int main(int argc, char **argv)
{
	return harness_main("test-scale", tests, sizeof(tests) / sizeof(tests[0]),
			    argc, argv);
}
