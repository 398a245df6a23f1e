/* SPDX-License-Identifier: MIT */
/*
 * toplevel.c - a raw test client with xdg toplevels, solid sealed
 * buffers, frame waits and screenshots (toplevel.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "toplevel.h"

static void ping(void *data, struct xdg_wm_base *wm, uint32_t serial)
{
	xdg_wm_base_pong(wm, serial);
}

static const struct xdg_wm_base_listener wm_listener = { .ping = ping };

/* Every global a test of either program needs. */
static void reg_global(void *data, struct wl_registry *r, uint32_t name,
		       const char *iface, uint32_t version)
{
	struct t *t = data;

	if (!strcmp(iface, "wl_compositor"))
		t->compositor = wl_registry_bind(r, name, &wl_compositor_interface, 4);
	else if (!strcmp(iface, "wl_subcompositor"))
		t->subcompositor = wl_registry_bind(r, name,
						    &wl_subcompositor_interface, 1);
	else if (!strcmp(iface, "wl_shm"))
		t->shm = wl_registry_bind(r, name, &wl_shm_interface, 1);
	else if (!strcmp(iface, "xdg_wm_base")) {
		t->wm_base = wl_registry_bind(r, name, &xdg_wm_base_interface, 3);
		xdg_wm_base_add_listener(t->wm_base, &wm_listener, t);
	} else if (!strcmp(iface, "zxdg_decoration_manager_v1"))
		t->deco = wl_registry_bind(r, name,
					   &zxdg_decoration_manager_v1_interface, 1);
	else if (!strcmp(iface, "wp_viewporter"))
		t->viewporter = wl_registry_bind(r, name,
						 &wp_viewporter_interface, 1);
}

static void reg_remove(void *data, struct wl_registry *r, uint32_t name)
{
}

static const struct wl_registry_listener reg_listener = {
	.global = reg_global,
	.global_remove = reg_remove,
};

void t_connect(struct t *t)
{
	t->display = connect_display();
	t->registry = wl_display_get_registry(t->display);
	wl_registry_add_listener(t->registry, &reg_listener, t);
	if (wl_display_roundtrip(t->display) < 0 || !t->compositor ||
	    !t->shm || !t->wm_base)
		fail("missing globals");
	t->probe = wl_compositor_create_surface(t->compositor);
}

void t_start(struct t *t)
{
	static const char *const none[] = { NULL };

	t_start_args(t, none);
}

void t_start_args(struct t *t, const char *const extra[])
{
	const char *args[16] = { "--size=320x240", "--verbose" };
	int n = 2;

	while (*extra && n < 15)
		args[n++] = *extra++;
	args[n] = NULL;
	memset(t, 0, sizeof(*t));
	comp_start(&t->c, args);
	t_connect(t);
}

void t_stop(struct t *t)
{
	check(!proc_contains(&t->c.p, "refused"), "compositor refused nothing");
	wl_display_disconnect(t->display);
	free(t->rgb);
	comp_stop(&t->c);
}

void expect_error(struct t *t, const char *what, const char *iface,
		  uint32_t code)
{
	const struct wl_interface *got = NULL;
	uint32_t got_code, id;

	last_client_log[0] = 0;
	if (wl_display_roundtrip(t->display) >= 0)
		fail("%s: accepted, expected %s error %u", what, iface, code);
	got_code = wl_display_get_protocol_error(t->display, &got, &id);
	snprintf(t->error, sizeof(t->error), "%s", last_client_log);
	check(got && !strcmp(got->name, iface) && got_code == code,
	      "%s: %s error %u (%s)", what, got ? got->name : "?", got_code,
	      strtok(last_client_log, "\n"));
	wl_display_disconnect(t->display);
	t->display = NULL;
	t->compositor = NULL;
	t->subcompositor = NULL;
	t->shm = NULL;
	t->wm_base = NULL;
	t->deco = NULL;
	t->viewporter = NULL;
	t_connect(t);
}

struct wl_surface *surface(struct t *t)
{
	return wl_compositor_create_surface(t->compositor);
}

/* A w x h XRGB8888 buffer from a SEAL_SHRINK-sealed memfd, each pixel
 * @color(x, y). */
static struct wl_buffer *painted(struct t *t, int w, int h,
				 uint32_t (*color)(int x, int y, int w, int h,
						   uint32_t arg),
				 uint32_t arg)
{
	size_t size = (size_t)w * h * 4;
	int fd = make_memfd(size, F_SEAL_SHRINK);
	struct wl_shm_pool *pool;
	struct wl_buffer *b;
	uint32_t *px;

	px = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (px == MAP_FAILED)
		fail("mmap: %s", strerror(errno));
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			px[(size_t)y * w + x] = color(x, y, w, h, arg);
	munmap(px, size);
	pool = wl_shm_create_pool(t->shm, fd, (int32_t)size);
	b = wl_shm_pool_create_buffer(pool, 0, w, h, w * 4,
				      WL_SHM_FORMAT_XRGB8888);
	wl_shm_pool_destroy(pool);
	close(fd);
	return b;
}

static uint32_t one_color(int x, int y, int w, int h, uint32_t color)
{
	return color;
}

static uint32_t quadrant_color(int x, int y, int w, int h, uint32_t unused)
{
	if (y < h / 2)
		return x < w / 2 ? RED : GREEN;
	return x < w / 2 ? BLUE : YELLOW;
}

struct wl_buffer *solid(struct t *t, int w, int h, uint32_t color)
{
	return painted(t, w, h, one_color, color);
}

struct wl_buffer *quadrants(struct t *t, int w, int h)
{
	return painted(t, w, h, quadrant_color, 0);
}

void show(struct t *t, struct wl_surface *s, int w, int h, uint32_t color)
{
	wl_surface_attach(s, solid(t, w, h, color), 0, 0);
	wl_surface_damage(s, 0, 0, w, h);
	wl_surface_commit(s);
}

static void xs_configure(void *data, struct xdg_surface *xs, uint32_t serial)
{
	struct win *w = data;

	w->configures++;
	w->serial = serial;
}

static const struct xdg_surface_listener xs_listener = {
	.configure = xs_configure,
};

static void tl_configure(void *data, struct xdg_toplevel *tl, int32_t width,
			 int32_t height, struct wl_array *states)
{
	struct win *w = data;
	uint32_t *st;

	w->w = width;
	w->h = height;
	w->maximized = w->fullscreen = w->activated = w->resizing = false;
	w->other_state = false;
	wl_array_for_each(st, states) {
		if (*st == XDG_TOPLEVEL_STATE_MAXIMIZED)
			w->maximized = true;
		else if (*st == XDG_TOPLEVEL_STATE_FULLSCREEN)
			w->fullscreen = true;
		else if (*st == XDG_TOPLEVEL_STATE_ACTIVATED)
			w->activated = true;
		else if (*st == XDG_TOPLEVEL_STATE_RESIZING)
			w->resizing = true;
		else
			w->other_state = true;
	}
}

static void tl_close(void *data, struct xdg_toplevel *tl)
{
	struct win *w = data;

	w->closes++;
}

static const struct xdg_toplevel_listener tl_listener = {
	.configure = tl_configure,
	.close = tl_close,
};

void win_create(struct t *t, struct win *w)
{
	memset(w, 0, sizeof(*w));
	w->t = t;
	w->s = wl_compositor_create_surface(t->compositor);
	w->xs = xdg_wm_base_get_xdg_surface(t->wm_base, w->s);
	w->tl = xdg_surface_get_toplevel(w->xs);
	xdg_surface_add_listener(w->xs, &xs_listener, w);
	xdg_toplevel_add_listener(w->tl, &tl_listener, w);
}

void wait_configure(struct win *w, int n, const char *what)
{
	while (w->configures <= n)
		if (wl_display_dispatch(w->t->display) < 0)
			fail("%s: no configure (%s)", what, last_client_log);
}

void win_initial_commit(struct win *w)
{
	int n = w->configures;

	wl_surface_commit(w->s);
	wait_configure(w, n, "initial commit");
}

void win_draw(struct win *w, int width, int height, uint32_t color)
{
	xdg_surface_ack_configure(w->xs, w->serial);
	show(w->t, w->s, width, height, color);
	if (wl_display_roundtrip(w->t->display) < 0)
		fail("connection lost after a commit: %s", last_client_log);
}

void wait_mapped(struct t *t, int *x, int *y, const char *what)
{
	char line[256];

	if (!proc_wait(&t->c.p, &t->log_from, "mapped pid=", TIMEOUT_MS, line,
		       sizeof(line)) ||
	    sscanf(strstr(line, " at "), " at %d,%d", x, y) != 2)
		fail("%s: never mapped", what);
}

void expect_mapped_at(struct t *t, int x, int y, const char *what)
{
	int mx, my;

	wait_mapped(t, &mx, &my, what);
	check(mx == x && my == y, "%s: mapped at %d,%d (want %d,%d)", what, mx,
	      my, x, y);
}

void expect_placed_at(struct t *t, int x, int y, const char *what)
{
	char line[256];
	int px, py;

	if (!proc_wait(&t->c.p, &t->log_from, "placed pid=", TIMEOUT_MS, line,
		       sizeof(line)) ||
	    sscanf(strstr(line, " at "), " at %d,%d", &px, &py) != 2)
		fail("%s: never placed", what);
	check(px == x && py == y, "%s: placed at %d,%d (want %d,%d)", what, px,
	      py, x, y);
}

void expect_configure(struct win *w, bool maximized, bool fullscreen,
		      int32_t width, int32_t height, const char *what)
{
	check(w->maximized == maximized && w->fullscreen == fullscreen &&
	      !w->other_state && w->w == width && w->h == height,
	      "%s: configure %dx%d%s%s%s (want %dx%d%s%s)", what, w->w, w->h,
	      w->maximized ? " maximized" : "", w->fullscreen ? " fullscreen" : "",
	      w->other_state ? " +other states" : "", width, height,
	      maximized ? " maximized" : "", fullscreen ? " fullscreen" : "");
}

void win_request(struct win *w, void (*req)(struct xdg_toplevel *),
		 const char *what)
{
	int n = w->configures;

	req(w->tl);
	wait_configure(w, n, what);
}

void set_fullscreen(struct xdg_toplevel *tl)
{
	xdg_toplevel_set_fullscreen(tl, NULL);
}

static void frame_done(void *data, struct wl_callback *cb, uint32_t msec)
{
	*(bool *)data = true;
	wl_callback_destroy(cb);
}

static const struct wl_callback_listener frame_listener = { .done = frame_done };

/* Everything committed so far is on the screen once this returns. */
static void wait_frame(struct t *t)
{
	struct wl_callback *cb = wl_surface_frame(t->probe);
	bool done = false;

	wl_callback_add_listener(cb, &frame_listener, &done);
	wl_surface_commit(t->probe);
	while (!done)
		if (wl_display_dispatch(t->display) < 0)
			fail("connection lost waiting for a frame: %s",
			     last_client_log);
}

void screenshot(struct t *t)
{
	wait_frame(t);
	comp_screenshot(&t->c, &t->log_from, &t->rgb, &t->shot_w, &t->shot_h);
}

uint32_t at(struct t *t, int x, int y)
{
	if (x < 0 || y < 0 || x >= (int)t->shot_w || y >= (int)t->shot_h)
		fail("pixel %d,%d outside the %ux%u screenshot", x, y, t->shot_w,
		     t->shot_h);
	return rgb_at(t->rgb, (int)t->shot_w, x, y);
}

void expect_rect(struct t *t, int x, int y, int w, int h, uint32_t color,
		 const char *what)
{
	int i, j, bad = 0;
	uint32_t first = 0;

	for (j = t->oy + y; j < t->oy + y + h; j++)
		for (i = t->ox + x; i < t->ox + x + w; i++)
			if (at(t, i, j) != color && !bad++)
				first = at(t, i, j);
	check(bad == 0, "%s: %dx%d at %d,%d is %08x (%d pixels differ, e.g. %08x)",
	      what, w, h, x, y, color, bad, first);
}

void map_floating(struct t *t, struct win *w)
{
	win_initial_commit(w);
	expect_configure(w, false, false, 0, 0, "initial configure");
	win_draw(w, 100, 80, RED);
	expect_mapped_at(t, CASCADE_X0, CASCADE_Y0, "floating window");
	screenshot(t);
	expect_rect(t, CASCADE_X0, CASCADE_Y0, 100, 80, RED, "at the cascade");
	expect_rect(t, 0, 0, OUT_W, CASCADE_Y0, BACKGROUND, "background above");
}
