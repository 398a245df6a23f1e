/* SPDX-License-Identifier: MIT */
/*
 * test-xdg-states - the xdg_toplevel states fullscreen and maximized on
 * the headless backend: the configures that set and unset them, where
 * the window goes in the compositor's screenshots, and mpv --fs, an
 * application asking for fullscreen before its initial commit.
 *
 * Usage: test-xdg-states TEST. A raw client (toplevel.h) maps toplevels
 * of single colours; after each step it waits for a frame, asks for a
 * screenshot and reads pixels back in output coordinates.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <wayland-client.h>

#include "toplevel.h"

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
	{ "app-mpv-fullscreen", test_mpv_fullscreen },
};

int main(int argc, char **argv)
{
	return harness_main("test-xdg-states", tests,
			    sizeof(tests) / sizeof(tests[0]), argc, argv);
}
