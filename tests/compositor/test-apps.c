/* SPDX-License-Identifier: MIT */
/*
 * test-apps - unmodified Debian applications against a headless
 * wlseal-compositor: they connect, map a window, present frames, stay
 * up, and what they draw (their subsurfaces included) is on screen.
 *
 * Usage: test-apps TEST. Exit status 0: passed, 77: skipped (the
 * program is not installed), anything else: failed.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

/* Must match compositor/scene/scene.h. */
#define BACKGROUND 0xff203040u

/* How long an application must stay up once it showed its window. */
#define STAY_UP_MS 2000

struct app {
	struct comp c;
	struct proc client;
	size_t from;			/* compositor output read so far */
	int mx, my, mw, mh;		/* the toplevel, from the "mapped" line */
	uint8_t *rgb;			/* the screenshot */
	unsigned int w, h;
};

static void skip_unless_installed(const char *prog)
{
	if (access(prog, X_OK) != 0) {
		printf("SKIP: %s is not installed (scripts/setup installs it)\n",
		       prog);
		exit(77);
	}
}

static void app_connect(struct app *a, const char *const comp_args[],
			char *const argv[])
{
	char needle[64];

	comp_start(&a->c, comp_args);
	proc_spawn(&a->client, argv);
	snprintf(needle, sizeof(needle), "client connected pid=%d",
		 (int)a->client.pid);
	if (!proc_wait(&a->c.p, &a->from, needle, TIMEOUT_MS, NULL, 0))
		fail("%s never connected", argv[0]);
}

static void app_start(struct app *a, const char *const comp_args[],
		      char *const argv[])
{
	char needle[64], line[256];

	app_connect(a, comp_args, argv);
	snprintf(needle, sizeof(needle), "mapped pid=%d toplevel",
		 (int)a->client.pid);
	if (!proc_wait(&a->c.p, &a->from, needle, TIMEOUT_MS, line, sizeof(line)) ||
	    sscanf(strstr(line, " at "), " at %d,%d size %dx%d", &a->mx, &a->my,
		   &a->mw, &a->mh) != 4)
		fail("%s never mapped a toplevel", argv[0]);
	tap_ok("%s mapped %dx%d at %d,%d", argv[0], a->mw, a->mh, a->mx, a->my);
}

/* @n frames shown since the window was mapped. */
static void expect_frames(struct app *a, const char *what, int n)
{
	char line[128];
	int i;

	for (i = 0; i < n; i++)
		if (!proc_wait(&a->c.p, &a->from, "WLSEAL-FRAME ", TIMEOUT_MS,
			       line, sizeof(line)))
			fail("%s: only %d of %d frames shown", what, i, n);
	tap_ok("%s: %d frames shown after mapping", what, n);
}

/* Waiting for the disconnect that must not come: a real event, bounded. */
static void expect_stays_up(struct app *a, const char *what)
{
	char needle[64];

	snprintf(needle, sizeof(needle), "client disconnected pid=%d",
		 (int)a->client.pid);
	check(!proc_wait(&a->c.p, &a->from, needle, STAY_UP_MS, NULL, 0) &&
	      proc_alive(&a->client),
	      "%s still connected and running %d ms later", what, STAY_UP_MS);
}

static void screenshot(struct app *a)
{
	comp_screenshot(&a->c, &a->from, &a->rgb, &a->w, &a->h);
}

/* Output coordinates. */
static uint32_t pixel(struct app *a, int x, int y)
{
	if (x < 0 || y < 0 || x >= (int)a->w || y >= (int)a->h)
		return 0;
	return rgb_at(a->rgb, (int)a->w, x, y);
}

static void app_stop(struct app *a, const char *what)
{
	proc_kill(&a->client, SIGTERM);
	if (!proc_wait_exit(&a->client, TIMEOUT_MS))
		fail("%s ignores SIGTERM", what);
	free(a->rgb);
	comp_stop(&a->c);
}

static const char *const secure_args[] = { "--verbose", "--print-frames", NULL };

/*
 * foot draws its terminal in the main surface and its title bar and
 * borders (client-side decorations) in synchronized subsurfaces at
 * negative offsets. It presents a few frames and then idles until
 * something changes, so one frame after mapping is all it owes.
 */
static void test_foot(void)
{
	char *argv[] = { "/usr/bin/foot", "sh", "-c", "exec sleep 60", NULL };
	/* static: the harness cleans up through pointers at exit */
	static struct app a;

	skip_unless_installed(argv[0]);
	app_start(&a, secure_args, argv);
	expect_frames(&a, "foot", 1);
	expect_stays_up(&a, "foot");
	screenshot(&a);
	check(pixel(&a, a.mx + a.mw / 2, a.my + a.mh / 2) != BACKGROUND,
	      "foot's terminal is drawn (%08x at its centre)",
	      pixel(&a, a.mx + a.mw / 2, a.my + a.mh / 2));
	check(pixel(&a, a.mx + a.mw / 2, a.my - 10) != BACKGROUND,
	      "foot's title bar subsurface is drawn above it (%08x)",
	      pixel(&a, a.mx + a.mw / 2, a.my - 10));
	check(!proc_contains(&a.c.p, "refused"), "foot: nothing refused");
	app_stop(&a, "foot");
}

/* The toytoolkit's red subsurface: red, whatever its spinner does. */
static int count_red(struct app *a)
{
	int x, y, n = 0;

	for (y = a->my; y < a->my + a->mh; y++)
		for (x = a->mx; x < a->mx + a->mw; x++) {
			uint32_t p = pixel(a, x, y);

			n += ((p >> 16) & 0xff) > 0x80 && ((p >> 8) & 0xff) < 0x40 &&
			     (p & 0xff) < 0x40;
		}
	return n;
}

/*
 * weston-subsurfaces: a main surface, a red subsurface drawn with cairo
 * into wl_shm (toytoolkit seals its pools), and by default a GL triangle
 * in a second subsurface. Without the triangle every pool is sealed.
 */
static void test_weston_subsurfaces(void)
{
	char *argv[] = { "/usr/bin/weston-subsurfaces", "--no-triangle", NULL };
	/* static: the harness cleans up through pointers at exit */
	static struct app a;
	int red;

	skip_unless_installed(argv[0]);
	app_start(&a, secure_args, argv);
	expect_frames(&a, "weston-subsurfaces", 60);
	expect_stays_up(&a, "weston-subsurfaces");
	screenshot(&a);
	red = count_red(&a);
	check(red >= 50 * 50, "its red subsurface is on screen (%d red pixels)",
	      red);
	check(!proc_contains(&a.c.p, "refused"),
	      "weston-subsurfaces: nothing refused");
	app_stop(&a, "weston-subsurfaces");
}

/*
 * The triangle comes from Mesa's EGL, whose wl_shm pools (software
 * rendering) are memfds without any seal: the secure policy refuses the
 * first one, with its reason, and the compositor carries on.
 */
static void test_weston_subsurfaces_gl_refused(void)
{
	char *argv[] = { "/usr/bin/weston-subsurfaces", NULL };
	/* static: the harness cleans up through pointers at exit */
	static struct app a;
	char needle[128];

	skip_unless_installed(argv[0]);
	app_connect(&a, secure_args, argv);
	snprintf(needle, sizeof(needle),
		 "refused client pid=%d wl_shm.create_pool: missing F_SEAL_SHRINK",
		 (int)a.client.pid);
	check(proc_wait(&a.c.p, &a.from, needle, TIMEOUT_MS, NULL, 0),
	      "Mesa's unsealed pool refused: '%s'", needle);
	proc_wait_exit(&a.client, TIMEOUT_MS);
	check(proc_alive(&a.c.p), "compositor still running");
	free(a.rgb);
	comp_stop(&a.c);
}

/* Under --policy=permissive (maps anything) the triangle runs too. */
static void test_weston_subsurfaces_gl_permissive(void)
{
	static const char *const args[] = { "--verbose", "--print-frames",
					    "--policy=permissive", NULL };
	char *argv[] = { "/usr/bin/weston-subsurfaces", NULL };
	/* static: the harness cleans up through pointers at exit */
	static struct app a;

	skip_unless_installed(argv[0]);
	app_start(&a, args, argv);
	expect_frames(&a, "weston-subsurfaces (GL)", 60);
	expect_stays_up(&a, "weston-subsurfaces (GL)");
	screenshot(&a);
	check(count_red(&a) >= 50 * 50, "its red subsurface is on screen");
	app_stop(&a, "weston-subsurfaces (GL)");
}

static const struct harness_test tests[] = {
	{ "app-foot", test_foot },
	{ "app-weston-subsurfaces", test_weston_subsurfaces },
	{ "app-weston-subsurfaces-gl-refused", test_weston_subsurfaces_gl_refused },
	{ "app-weston-subsurfaces-gl-permissive", test_weston_subsurfaces_gl_permissive },
};

int main(int argc, char **argv)
{
	return harness_main("test-apps", tests, sizeof(tests) / sizeof(tests[0]),
			    argc, argv);
}
