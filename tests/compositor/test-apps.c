/* SPDX-License-Identifier: MIT */
/*
 * test-apps - unmodified Debian applications against a headless
 * wlseal-compositor: they connect, map a window, present frames, stay
 * up, and what they draw (their subsurfaces included) is on screen.
 *
 * Usage: test-apps TEST. Exit status 0: passed, 77: skipped (the
 * program is not installed), anything else: failed.
 */
#include <dlfcn.h>
#include <errno.h>
#include <linux/input.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "evdev-fifo.h"
#include "harness.h"

/* Must match compositor/scene/scene.h. */
#define BACKGROUND 0xff203040u
/* Must match compositor/shell/decor.c: an unfocused window's frame. */
#define FRAME_INACTIVE 0xff5a5a5au
/* Must match sdl2-window.c's colour. */
#define SDL2_FILL 0xff20a060u

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
 * foot draws its terminal in the main surface; it asks for server-side
 * decorations (its default csd.preferred=server), so the title bar
 * above it is wlseal's (decor.c); told client_side it would draw its
 * own in synchronized subsurfaces at negative offsets. It presents a
 * few frames and then idles until something changes, so one frame
 * after mapping is all it owes.
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
	      "a title bar is drawn above it (%08x)",
	      pixel(&a, a.mx + a.mw / 2, a.my - 10));
	check(!proc_contains(&a.c.p, "refused"), "foot: nothing refused");
	app_stop(&a, "foot");
}

/* @path holds exactly @want; waits for writes into its directory
 * @dir (inotify), up to @timeout_ms. */
static bool wait_file(const char *dir, const char *path, const char *want,
		      int timeout_ms)
{
	int in = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	struct timespec t0, t;
	bool found = false;

	if (in < 0 || inotify_add_watch(in, dir, IN_CLOSE_WRITE | IN_MOVED_TO) < 0)
		fail("inotify on %s: %s", dir, strerror(errno));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		char buf[4096];
		FILE *f = fopen(path, "r");
		struct pollfd p = { .fd = in, .events = POLLIN };
		long left;

		if (f) {
			size_t n = fread(buf, 1, sizeof(buf) - 1, f);

			fclose(f);
			buf[n] = 0;
			if (!strcmp(buf, want)) {
				found = true;
				break;
			}
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
		left = timeout_ms - ((t.tv_sec - t0.tv_sec) * 1000 +
				     (t.tv_nsec - t0.tv_nsec) / 1000000);
		if (left <= 0)
			break;
		if (poll(&p, 1, (int)left) > 0)
			while (read(in, buf, sizeof(buf)) > 0)
				;
	}
	close(in);
	return found;
}

/*
 * Typing into foot: key presses written as input_event records into
 * the compositor's --input FIFO reach foot (the newest toplevel has the
 * keyboard focus), whose shell runs what was typed: the file appears.
 */
static void test_foot_typing(void)
{
	char *argv[] = { "/usr/bin/foot", "sh", NULL };
	/* static: the harness cleans up through pointers at exit */
	static struct app a;
	static struct fifo f;
	const char *args[] = { "--verbose", "--print-frames", NULL, NULL };
	char path[128], line[200], needle[64];

	skip_unless_installed(argv[0]);
	fifo_create(&f);
	args[2] = f.arg;
	comp_start(&a.c, args);
	fifo_open(&f);
	proc_spawn(&a.client, argv);
	snprintf(needle, sizeof(needle), "keyboard focus pid=%d",
		 (int)a.client.pid);
	if (!proc_wait(&a.c.p, &a.from, needle, TIMEOUT_MS, NULL, 0))
		fail("foot never got the keyboard focus");
	tap_ok("foot has the keyboard focus");
	snprintf(path, sizeof(path), "%s/typed", a.c.dir);
	snprintf(line, sizeof(line), "echo typed >%s\n", path);
	fifo_type(&f, line);
	check(wait_file(a.c.dir, path, "typed\n", TIMEOUT_MS),
	      "foot's shell ran 'echo typed >%s'", path);
	unlink(path);
	fifo_close(&f);
	check(!proc_contains(&a.c.p, "refused"), "foot: nothing refused");
	app_stop(&a, "foot");
}

/*
 * weston-terminal's menu is an xdg_popup with a grab: a right click on
 * the terminal opens it (placed, mapped, given the keyboard), a left
 * click outside it dismisses it and gives the keyboard back.
 */
static void test_weston_terminal_menu(void)
{
	char *argv[] = { "/usr/bin/weston-terminal", NULL };
	static struct app a;
	static struct fifo f;
	const char *args[] = { "--verbose", "--print-frames", NULL, NULL };
	char needle[64], focus[64], line[200], terminal[80];
	unsigned int id = 0, menu_id = 0;

	skip_unless_installed(argv[0]);
	fifo_create(&f);
	args[2] = f.arg;
	comp_start(&a.c, args);
	fifo_open(&f);
	proc_spawn(&a.client, argv);
	/* The focus comes with the map, before its line. */
	snprintf(focus, sizeof(focus), "keyboard focus pid=%d wl_surface@",
		 (int)a.client.pid);
	if (!proc_wait(&a.c.p, &a.from, focus, TIMEOUT_MS, line, sizeof(line)) ||
	    sscanf(strstr(line, "wl_surface@"), "wl_surface@%u", &id) != 1)
		fail("weston-terminal never got the keyboard");
	snprintf(terminal, sizeof(terminal), "%s%u\n", focus, id);
	snprintf(needle, sizeof(needle), "mapped pid=%d toplevel",
		 (int)a.client.pid);
	if (!proc_wait(&a.c.p, &a.from, needle, TIMEOUT_MS, NULL, 0))
		fail("weston-terminal never mapped a toplevel");
	tap_ok("weston-terminal mapped, with the keyboard");

	fifo_move(&f, 150, 150);
	fifo_key(&f, BTN_RIGHT, 1);
	fifo_key(&f, BTN_RIGHT, 0);
	snprintf(needle, sizeof(needle), "mapped popup pid=%d", (int)a.client.pid);
	check(proc_wait(&a.c.p, &a.from, needle, TIMEOUT_MS, NULL, 0),
	      "a right click opens the menu: a popup mapped");
	if (!proc_wait(&a.c.p, &a.from, focus, TIMEOUT_MS, line, sizeof(line)) ||
	    sscanf(strstr(line, "wl_surface@"), "wl_surface@%u", &menu_id) != 1)
		fail("the menu never got the keyboard");
	check(menu_id != id,
	      "the menu takes the keyboard (its grab): wl_surface@%u, not @%u",
	      menu_id, id);

	/* On the terminal, but off the menu: outside the grab's chain. */
	fifo_move(&f, 20, 400);
	fifo_key(&f, BTN_LEFT, 1);
	fifo_key(&f, BTN_LEFT, 0);
	snprintf(needle, sizeof(needle), "popup grab broken: chain of pid=%d",
		 (int)a.client.pid);
	check(proc_wait(&a.c.p, &a.from, needle, TIMEOUT_MS, NULL, 0),
	      "a click outside the menu dismisses it");
	check(proc_wait(&a.c.p, &a.from, terminal, TIMEOUT_MS, NULL, 0),
	      "the keyboard back on the terminal's wl_surface@%u", id);
	expect_stays_up(&a, "weston-terminal");
	check(!proc_contains(&a.c.p, "refused"), "weston-terminal: nothing refused");
	fifo_close(&f);
	app_stop(&a, "weston-terminal");
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

/*
 * An SDL 2 program with SDL's defaults: sdl2-window (this directory;
 * Debian 12's libSDL2 2.26) creates a window without flags and fills
 * it. SDL asks for a toplevel decoration as soon as the global is
 * there, and maps through xdg-shell only if it gets server_side: told
 * client_side it unmaps its window to start over with libdecor. So it
 * must get server_side, map once, present frames, stay up, and
 * wlseal's title bar is above its picture. SDL draws its window
 * surface through Mesa's EGL, whose wl_shm memfd carries no seal: it
 * runs under wlseal-autoseal, the secure policy unchanged. No DISPLAY,
 * so that SDL does not pick X11.
 */
static void test_sdl2(void)
{
	char *argv[] = { getenv("WLSEAL_AUTOSEAL"), getenv("WLSEAL_SDL2_WINDOW"),
			 "--seconds=30", "--title=sdl2", NULL };
	/* static: the harness cleans up through pointers at exit */
	static struct app a;
	char needle[96];
	size_t from;
	void *lib;

	if (!argv[0] || !argv[1])
		fail("WLSEAL_AUTOSEAL and WLSEAL_SDL2_WINDOW must name the "
		     "programs (meson test sets them)");
	lib = dlopen("libSDL2-2.0.so.0", RTLD_NOW);
	if (!lib) {
		printf("SKIP: libSDL2-2.0.so.0 is not installed (scripts/setup "
		       "installs libsdl2-2.0-0): %s\n", dlerror());
		exit(77);
	}
	dlclose(lib);
	unsetenv("DISPLAY");
	app_start(&a, secure_args, argv);
	from = 0;
	snprintf(needle, sizeof(needle),
		 "decoration pid=%d toplevel \"sdl2\" server_side",
		 (int)a.client.pid);
	check(proc_wait(&a.c.p, &from, needle, 0, NULL, 0),
	      "SDL 2 asked for a decoration and got server_side");
	snprintf(needle, sizeof(needle), "decoration pid=%d toplevel \"sdl2\" client_side",
		 (int)a.client.pid);
	check(!proc_contains(&a.c.p, needle), "and was never told client_side");
	expect_frames(&a, "sdl2-window", 3);
	expect_stays_up(&a, "sdl2-window");
	snprintf(needle, sizeof(needle), "mapped pid=%d toplevel", (int)a.client.pid);
	from = 0;
	check(proc_wait(&a.c.p, &from, needle, 0, NULL, 0) &&
	      !proc_wait(&a.c.p, &from, needle, 0, NULL, 0),
	      "SDL mapped its window once");
	check(a.mw == 200 && a.mh == 150, "at the size it asked for (%dx%d)",
	      a.mw, a.mh);
	screenshot(&a);
	check(pixel(&a, a.mx + a.mw / 2, a.my + a.mh / 2) == SDL2_FILL,
	      "SDL's picture is drawn (%08x at its centre)",
	      pixel(&a, a.mx + a.mw / 2, a.my + a.mh / 2));
	check(pixel(&a, a.mx + 2, a.my - 12) == FRAME_INACTIVE &&
	      pixel(&a, a.mx - 1, a.my + a.mh / 2) == FRAME_INACTIVE,
	      "wlseal's title bar above it, its border beside it (%08x, %08x)",
	      pixel(&a, a.mx + 2, a.my - 12), pixel(&a, a.mx - 1, a.my + a.mh / 2));
	check(!proc_contains(&a.c.p, "refused"), "sdl2-window: nothing refused");
	app_stop(&a, "sdl2-window");
}

/*
 * SDL 2's relative mouse mode, as games use it: on Wayland SDL locks
 * the pointer to its window (zwp_pointer_constraints_v1, persistent)
 * and reads zwp_relative_pointer_v1. With the cursor moved onto the
 * window the lock becomes active (the compositor's --verbose line),
 * and a mouse's EV_REL motion through the input FIFO reaches SDL as
 * SDL_MOUSEMOTION with those deltas.
 */
static void test_sdl2_relative(void)
{
	char *argv[] = { getenv("WLSEAL_AUTOSEAL"), getenv("WLSEAL_SDL2_WINDOW"),
			 "--seconds=30", "--title=sdl2", "--relative", NULL };
	static struct app a;
	static struct fifo f;
	const char *args[] = { "--verbose", "--print-frames", NULL, NULL };
	char needle[96], line[256];
	size_t cfrom = 0;
	void *lib;

	if (!argv[0] || !argv[1])
		fail("WLSEAL_AUTOSEAL and WLSEAL_SDL2_WINDOW must name the "
		     "programs (meson test sets them)");
	lib = dlopen("libSDL2-2.0.so.0", RTLD_NOW);
	if (!lib) {
		printf("SKIP: libSDL2-2.0.so.0 is not installed (scripts/setup "
		       "installs libsdl2-2.0-0): %s\n", dlerror());
		exit(77);
	}
	dlclose(lib);
	unsetenv("DISPLAY");
	fifo_create(&f);
	args[2] = f.arg;
	comp_start(&a.c, args);
	fifo_open(&f);
	proc_spawn(&a.client, argv);
	snprintf(needle, sizeof(needle), "mapped pid=%d toplevel",
		 (int)a.client.pid);
	if (!proc_wait(&a.c.p, &a.from, needle, TIMEOUT_MS, line, sizeof(line)) ||
	    sscanf(strstr(line, " at "), " at %d,%d size %dx%d", &a.mx, &a.my,
		   &a.mw, &a.mh) != 4)
		fail("sdl2-window never mapped a toplevel");
	if (!proc_wait(&a.client, &cfrom, "relative mode ", TIMEOUT_MS, line,
		       sizeof(line)))
		fail("sdl2-window never turned relative mode on");
	check(strstr(line, "relative mode 0") != NULL,
	      "SDL_SetRelativeMouseMode succeeded (%s)", line);
	fifo_move(&f, a.mx + a.mw / 2, a.my + a.mh / 2);
	snprintf(needle, sizeof(needle), "pointer locked pid=%d",
		 (int)a.client.pid);
	check(proc_wait(&a.c.p, &a.from, needle, TIMEOUT_MS, NULL, 0),
	      "SDL's lock became active with the cursor on its window");
	fifo_event(&f, EV_REL, REL_X, 7);
	fifo_event(&f, EV_REL, REL_Y, -3);
	fifo_syn(&f);
	check(proc_wait(&a.client, &cfrom, "motion xrel 7 yrel -3", TIMEOUT_MS,
			NULL, 0),
	      "the mouse's motion reached SDL as relative motion");
	check(!proc_contains(&a.c.p, "refused"), "sdl2-window: nothing refused");
	fifo_close(&f);
	app_stop(&a, "sdl2-window");
}

/*
 * GTK 4's text entry (gtk4-demo's "Undo and Redo" demo) and
 * zwp_text_input_manager_v3: with the keyboard focus, the entry's text
 * input gets enter, enables itself with its state (empty text, the
 * cursor's rectangle) and commits; each key typed through the input
 * FIFO reaches the entry as a key (there is no input method) and GTK
 * commits the new surrounding text, which the compositor applies (its
 * --verbose lines). Under wlseal-autoseal: Mesa's swrast pool is
 * unsealed (tests/compat/expected); the cairo renderer keeps it off
 * the GPU.
 */
static void test_gtk4_text_input(void)
{
	char *argv[] = { getenv("WLSEAL_AUTOSEAL"), "/usr/bin/gtk4-demo",
			 "--run=entry_undo", NULL };
	static struct app a;
	static struct fifo f;
	const char *args[] = { "--verbose", "--print-frames", NULL, NULL };
	char needle[64], line[300];

	skip_unless_installed(argv[1]);
	if (!argv[0])
		fail("WLSEAL_AUTOSEAL must name wlseal-autoseal (meson test sets it)");
	unsetenv("DISPLAY");
	setenv("GDK_BACKEND", "wayland", 1);
	setenv("GSK_RENDERER", "cairo", 1);
	fifo_create(&f);
	args[2] = f.arg;
	comp_start(&a.c, args);
	fifo_open(&f);
	proc_spawn(&a.client, argv);
	snprintf(needle, sizeof(needle), "text-input pid=%d ", (int)a.client.pid);
	if (!proc_wait(&a.c.p, &a.from, needle, TIMEOUT_MS, line, sizeof(line)))
		fail("gtk4-demo's entry never committed its text input");
	check(strstr(line, " commit 1: enabled surrounding 0 bytes cursor 0 "
			   "anchor 0 ") != NULL,
	      "the entry enabled its text input, empty (%s)",
	      strstr(line, "zwp_text_input_v3"));
	fifo_type(&f, "ab");
	if (!proc_wait(&a.c.p, &a.from, "surrounding 2 bytes cursor 2 anchor 2 ",
		       TIMEOUT_MS, line, sizeof(line)))
		fail("typing 'ab' never reached the entry's surrounding text");
	tap_ok("typed 'ab': the entry's surrounding text is 2 bytes, cursor 2 (%s)",
	       strstr(line, "commit"));
	check(!proc_contains(&a.c.p, "refused"), "gtk4-demo: nothing refused");
	fifo_close(&f);
	app_stop(&a, "gtk4-demo");
}

static const struct harness_test tests[] = {
	{ "app-foot", test_foot },
	{ "app-foot-typing", test_foot_typing },
	{ "app-weston-terminal-menu", test_weston_terminal_menu },
	{ "app-weston-subsurfaces", test_weston_subsurfaces },
	{ "app-weston-subsurfaces-gl-refused", test_weston_subsurfaces_gl_refused },
	{ "app-weston-subsurfaces-gl-permissive", test_weston_subsurfaces_gl_permissive },
	{ "app-sdl2", test_sdl2 },
	{ "app-sdl2-relative", test_sdl2_relative },
	{ "app-gtk4-text-input", test_gtk4_text_input },
};

int main(int argc, char **argv)
{
	return harness_main("test-apps", tests, sizeof(tests) / sizeof(tests[0]),
			    argc, argv);
}
