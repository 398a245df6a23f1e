/* SPDX-License-Identifier: MIT */
/*
 * test-subsurface - wl_subcompositor and wl_subsurface on the headless
 * backend, checked in the compositor's screenshots.
 *
 * Usage: test-subsurface TEST. A raw client maps a plain toplevel and
 * builds subsurfaces of single colours on it; after each step it waits
 * for a frame (a frame callback on a surface without a role, which
 * fires with the first frame that shows everything committed before
 * it), asks for a screenshot (SIGUSR1) and reads pixels back.
 */
#include <errno.h>
#include <fcntl.h>
#include <png.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <wayland-client.h>

#include "harness.h"
#include "xdg-shell-client-protocol.h"

/* Must match compositor/scene/scene.h. */
#define BACKGROUND 0xff203040u

#define RED	0xffff0000u
#define GREEN	0xff00ff00u
#define BLUE	0xff0000ffu
#define YELLOW	0xffffff00u
#define WHITE	0xffffffffu

struct t {
	struct comp c;
	struct wl_display *display;
	struct wl_registry *registry;
	struct wl_compositor *compositor;
	struct wl_subcompositor *subcompositor;
	struct wl_shm *shm;
	struct xdg_wm_base *wm_base;
	struct wl_surface *probe;	/* no role: only frame callbacks */
	bool configured;
	uint32_t serial;
	int mx, my;			/* where the toplevel was mapped */
	size_t log_from;		/* compositor output read so far */
	uint8_t *rgb;			/* the last screenshot */
	unsigned int shot_w;
};

static void ping(void *data, struct xdg_wm_base *wm, uint32_t serial)
{
	xdg_wm_base_pong(wm, serial);
}

static const struct xdg_wm_base_listener wm_listener = { .ping = ping };

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
		t->wm_base = wl_registry_bind(r, name, &xdg_wm_base_interface, 1);
		xdg_wm_base_add_listener(t->wm_base, &wm_listener, t);
	}
}

static void reg_remove(void *data, struct wl_registry *r, uint32_t name)
{
}

static const struct wl_registry_listener reg_listener = {
	.global = reg_global,
	.global_remove = reg_remove,
};

static void t_connect(struct t *t)
{
	t->display = connect_display();
	t->registry = wl_display_get_registry(t->display);
	wl_registry_add_listener(t->registry, &reg_listener, t);
	if (wl_display_roundtrip(t->display) < 0 || !t->compositor ||
	    !t->subcompositor || !t->shm || !t->wm_base)
		fail("missing globals (wl_subcompositor: %s)",
		     t->subcompositor ? "yes" : "no");
	t->probe = wl_compositor_create_surface(t->compositor);
}

static void t_start(struct t *t)
{
	static const char *const args[] = { "--size=320x240", "--verbose", NULL };

	memset(t, 0, sizeof(*t));
	comp_start(&t->c, args);
	t_connect(t);
}

static void t_stop(struct t *t)
{
	check(!proc_contains(&t->c.p, "refused"), "compositor refused nothing");
	wl_display_disconnect(t->display);
	free(t->rgb);
	comp_stop(&t->c);
}

/* A w x h buffer of one colour from a SEAL_SHRINK-sealed memfd. */
static struct wl_buffer *solid(struct t *t, int w, int h, uint32_t color)
{
	size_t size = (size_t)w * h * 4;
	int fd = memfd_create("test-subsurface", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	struct wl_shm_pool *pool;
	struct wl_buffer *b;
	uint32_t *px;

	if (fd < 0 || ftruncate(fd, (off_t)size) < 0)
		fail("memfd: %s", strerror(errno));
	px = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (px == MAP_FAILED)
		fail("mmap: %s", strerror(errno));
	for (size_t i = 0; i < size / 4; i++)
		px[i] = color;
	munmap(px, size);
	if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK) < 0)
		fail("F_ADD_SEALS: %s", strerror(errno));
	pool = wl_shm_create_pool(t->shm, fd, (int32_t)size);
	b = wl_shm_pool_create_buffer(pool, 0, w, h, w * 4,
				      WL_SHM_FORMAT_XRGB8888);
	wl_shm_pool_destroy(pool);
	close(fd);
	return b;
}

static void show(struct t *t, struct wl_surface *s, int w, int h,
		 uint32_t color)
{
	wl_surface_attach(s, solid(t, w, h, color), 0, 0);
	wl_surface_damage(s, 0, 0, w, h);
	wl_surface_commit(s);
}

static void xs_configure(void *data, struct xdg_surface *xs, uint32_t serial)
{
	struct t *t = data;

	t->configured = true;
	t->serial = serial;
}

static const struct xdg_surface_listener xs_listener = {
	.configure = xs_configure,
};

static void tl_configure(void *data, struct xdg_toplevel *tl, int32_t w,
			 int32_t h, struct wl_array *states)
{
}

static void tl_close(void *data, struct xdg_toplevel *tl)
{
}

static const struct xdg_toplevel_listener tl_listener = {
	.configure = tl_configure,
	.close = tl_close,
};

/* A toplevel of w x h in @color, mapped; t->mx, t->my say where. */
static struct wl_surface *toplevel(struct t *t, int w, int h, uint32_t color)
{
	struct wl_surface *s = wl_compositor_create_surface(t->compositor);
	struct xdg_surface *xs = xdg_wm_base_get_xdg_surface(t->wm_base, s);
	struct xdg_toplevel *tl = xdg_surface_get_toplevel(xs);
	char line[256];

	xdg_surface_add_listener(xs, &xs_listener, t);
	xdg_toplevel_add_listener(tl, &tl_listener, t);
	wl_surface_commit(s);
	while (!t->configured)
		if (wl_display_dispatch(t->display) < 0)
			fail("no configure");
	xdg_surface_ack_configure(xs, t->serial);
	show(t, s, w, h, color);
	wl_display_roundtrip(t->display);
	if (!proc_wait(&t->c.p, &t->log_from, "mapped pid=", TIMEOUT_MS, line,
		       sizeof(line)) ||
	    sscanf(strstr(line, " at "), " at %d,%d", &t->mx, &t->my) != 2)
		fail("toplevel never mapped");
	return s;
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

static void screenshot(struct t *t)
{
	png_image img;

	wait_frame(t);
	proc_kill(&t->c.p, SIGUSR1);
	if (!proc_wait(&t->c.p, &t->log_from, "screenshot frame=", TIMEOUT_MS,
		       NULL, 0))
		fail("no screenshot written");
	free(t->rgb);
	memset(&img, 0, sizeof(img));
	img.version = PNG_IMAGE_VERSION;
	if (!png_image_begin_read_from_file(&img, t->c.shot))
		fail("cannot read %s: %s", t->c.shot, img.message);
	img.format = PNG_FORMAT_RGB;
	t->rgb = malloc(PNG_IMAGE_SIZE(img));
	if (!t->rgb || !png_image_finish_read(&img, NULL, t->rgb, 0, NULL))
		fail("cannot decode %s", t->c.shot);
	t->shot_w = img.width;
}

/* The screenshot's pixel at (@x, @y) relative to the toplevel. */
static uint32_t at(struct t *t, int x, int y)
{
	const uint8_t *p = t->rgb + ((size_t)(t->my + y) * t->shot_w +
				     (size_t)(t->mx + x)) * 3;

	return 0xff000000u | (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

/* Every pixel of the rectangle (toplevel coordinates) is @color. */
static void expect_rect(struct t *t, int x, int y, int w, int h,
			uint32_t color, const char *what)
{
	int i, j, bad = 0;
	uint32_t first = 0;

	for (j = y; j < y + h; j++)
		for (i = x; i < x + w; i++)
			if (at(t, i, j) != color && !bad++)
				first = at(t, i, j);
	check(bad == 0, "%s: %dx%d at %d,%d is %08x (%d pixels differ, e.g. %08x)",
	      what, w, h, x, y, color, bad, first);
}

static struct wl_subsurface *sub(struct t *t, struct wl_surface *s,
				 struct wl_surface *parent)
{
	return wl_subcompositor_get_subsurface(t->subcompositor, s, parent);
}

/* The parent 100x80 red; a child 30x20 green at 10,20; a grandchild
 * 10x10 blue at 5,5 of the child, all synchronized. */
static void test_offset(void)
{
	/* static: the harness cleans up through pointers at exit */
	static struct t t;
	struct wl_surface *parent, *child, *grand;
	struct wl_subsurface *cs, *gs;

	t_start(&t);
	parent = toplevel(&t, 100, 80, RED);
	child = wl_compositor_create_surface(t.compositor);
	grand = wl_compositor_create_surface(t.compositor);
	cs = sub(&t, child, parent);
	gs = sub(&t, grand, child);
	wl_subsurface_set_position(cs, 10, 20);
	wl_subsurface_set_position(gs, 5, 5);
	show(&t, grand, 10, 10, BLUE);
	show(&t, child, 30, 20, GREEN);
	wl_surface_commit(parent);
	screenshot(&t);
	expect_rect(&t, 0, 0, 100, 20, RED, "parent above the child");
	expect_rect(&t, 10, 20, 30, 5, GREEN, "child's top rows");
	expect_rect(&t, 10, 25, 5, 10, GREEN, "child left of the grandchild");
	expect_rect(&t, 15, 25, 10, 10, BLUE, "grandchild at parent + 10,20 + 5,5");
	expect_rect(&t, 25, 25, 15, 15, GREEN, "child right of and below it");
	expect_rect(&t, 40, 20, 60, 60, RED, "parent right of the child");
	expect_rect(&t, 0, 40, 40, 40, RED, "parent below the child");
	t_stop(&t);
}

/* Synchronized: the child's commit waits for the parent's. */
static void test_sync(void)
{
	/* static: the harness cleans up through pointers at exit */
	static struct t t;
	struct wl_surface *parent, *child;
	struct wl_subsurface *cs;

	t_start(&t);
	parent = toplevel(&t, 100, 80, RED);
	child = wl_compositor_create_surface(t.compositor);
	cs = sub(&t, child, parent);
	wl_subsurface_set_position(cs, 10, 10);
	show(&t, child, 20, 20, GREEN);
	screenshot(&t);
	expect_rect(&t, 0, 0, 100, 80, RED,
		    "before the parent's commit, no subsurface");
	wl_surface_commit(parent);
	screenshot(&t);
	expect_rect(&t, 10, 10, 20, 20, GREEN, "the parent's commit shows it");
	show(&t, child, 20, 20, BLUE);
	screenshot(&t);
	expect_rect(&t, 10, 10, 20, 20, GREEN, "child commit cached");
	wl_surface_commit(parent);
	screenshot(&t);
	expect_rect(&t, 10, 10, 20, 20, BLUE, "applied with the parent's commit");
	t_stop(&t);
}

/* Desynchronized: at once, unless an ancestor is synchronized. */
static void test_desync(void)
{
	/* static: the harness cleans up through pointers at exit */
	static struct t t;
	struct wl_surface *parent, *child, *grand;
	struct wl_subsurface *cs, *gs;

	t_start(&t);
	parent = toplevel(&t, 100, 80, RED);
	child = wl_compositor_create_surface(t.compositor);
	grand = wl_compositor_create_surface(t.compositor);
	cs = sub(&t, child, parent);
	gs = sub(&t, grand, child);
	wl_subsurface_set_position(cs, 10, 10);
	wl_subsurface_set_position(gs, 40, 0);
	wl_subsurface_set_desync(gs);
	show(&t, grand, 10, 10, WHITE);
	show(&t, child, 30, 30, GREEN);
	wl_surface_commit(parent);
	screenshot(&t);
	expect_rect(&t, 10, 10, 30, 30, GREEN, "child shown");
	expect_rect(&t, 50, 10, 10, 10, WHITE, "grandchild shown");

	show(&t, grand, 10, 10, YELLOW);
	screenshot(&t);
	expect_rect(&t, 50, 10, 10, 10, WHITE,
		    "desync grandchild under a sync child waits");
	wl_surface_commit(parent);
	screenshot(&t);
	expect_rect(&t, 50, 10, 10, 10, YELLOW,
		    "the parent's commit applied child and grandchild");

	wl_subsurface_set_desync(cs);
	show(&t, child, 30, 30, BLUE);
	screenshot(&t);
	expect_rect(&t, 10, 10, 30, 30, BLUE, "desync child applied at once");
	show(&t, grand, 10, 10, WHITE);
	screenshot(&t);
	expect_rect(&t, 50, 10, 10, 10, WHITE,
		    "desync grandchild of a desync child applied at once");

	/* Cached while synchronized, applied on set_desync. */
	wl_subsurface_set_sync(cs);
	show(&t, child, 30, 30, GREEN);
	screenshot(&t);
	expect_rect(&t, 10, 10, 30, 30, BLUE, "sync again: cached");
	wl_subsurface_set_desync(cs);
	screenshot(&t);
	expect_rect(&t, 10, 10, 30, 30, GREEN, "set_desync applied the cache");

	/* A NULL buffer unmaps at once. */
	wl_surface_attach(child, NULL, 0, 0);
	wl_surface_commit(child);
	screenshot(&t);
	expect_rect(&t, 0, 0, 100, 80, RED,
		    "NULL buffer hides the child and its grandchild");
	t_stop(&t);
}

/* set_position waits for the parent; the old place is repainted. */
static void test_position(void)
{
	/* static: the harness cleans up through pointers at exit */
	static struct t t;
	struct wl_surface *parent, *child;
	struct wl_subsurface *cs;

	t_start(&t);
	parent = toplevel(&t, 100, 80, RED);
	child = wl_compositor_create_surface(t.compositor);
	cs = sub(&t, child, parent);
	wl_subsurface_set_desync(cs);
	show(&t, child, 20, 20, GREEN);
	wl_subsurface_set_position(cs, 10, 10);
	wl_surface_commit(parent);
	screenshot(&t);
	expect_rect(&t, 10, 10, 20, 20, GREEN, "at 10,10");
	wl_subsurface_set_position(cs, 60, 40);
	show(&t, child, 20, 20, GREEN);
	screenshot(&t);
	expect_rect(&t, 10, 10, 20, 20, GREEN,
		    "set_position waits for the parent's commit");
	wl_surface_commit(parent);
	screenshot(&t);
	expect_rect(&t, 60, 40, 20, 20, GREEN, "moved to 60,40");
	expect_rect(&t, 10, 10, 20, 20, RED, "old place repainted");
	/* Partly outside the parent: not clipped to it. */
	wl_subsurface_set_position(cs, 90, 70);
	wl_surface_commit(parent);
	screenshot(&t);
	expect_rect(&t, 90, 70, 20, 20, GREEN, "past the parent's edge");
	expect_rect(&t, 60, 40, 20, 20, RED, "old place repainted again");
	wl_subsurface_destroy(cs);
	screenshot(&t);
	expect_rect(&t, 90, 70, 10, 10, RED, "destroyed: gone at once (inside)");
	expect_rect(&t, 100, 80, 10, 10, BACKGROUND,
		    "destroyed: gone at once (outside)");
	t_stop(&t);
}

/* place_below / place_above against the parent and a sibling. */
static void test_stacking(void)
{
	/* static: the harness cleans up through pointers at exit */
	static struct t t;
	struct wl_surface *parent, *a, *b;
	struct wl_subsurface *as, *bs;

	t_start(&t);
	parent = toplevel(&t, 100, 80, RED);
	a = wl_compositor_create_surface(t.compositor);
	b = wl_compositor_create_surface(t.compositor);
	as = sub(&t, a, parent);
	bs = sub(&t, b, parent);
	wl_subsurface_set_position(as, 80, 60);	/* half outside */
	wl_subsurface_set_position(bs, 90, 70);	/* over a's corner */
	show(&t, a, 40, 40, GREEN);
	show(&t, b, 40, 40, BLUE);
	wl_surface_commit(parent);
	screenshot(&t);
	expect_rect(&t, 80, 60, 10, 10, GREEN, "a over the parent");
	expect_rect(&t, 90, 70, 30, 30, BLUE, "b, created last, on top of a");

	wl_subsurface_place_above(as, b);
	screenshot(&t);
	expect_rect(&t, 90, 70, 30, 30, BLUE, "restacking waits for the parent");
	wl_surface_commit(parent);
	screenshot(&t);
	expect_rect(&t, 90, 70, 30, 30, GREEN, "place_above(b): a on top");
	expect_rect(&t, 120, 100, 10, 10, BLUE, "b's corner beyond a");

	wl_subsurface_place_below(as, parent);
	wl_subsurface_place_below(bs, parent);
	wl_surface_commit(parent);
	screenshot(&t);
	expect_rect(&t, 80, 60, 20, 20, RED, "both below: the parent covers them");
	expect_rect(&t, 100, 80, 20, 20, BLUE,
		    "outside the parent: b above a (placed below the parent last)");
	expect_rect(&t, 100, 60, 20, 10, GREEN, "a where b does not cover it");

	wl_subsurface_place_above(bs, parent);
	wl_surface_commit(parent);
	screenshot(&t);
	expect_rect(&t, 90, 70, 10, 10, BLUE, "place_above(parent): b over it");
	expect_rect(&t, 80, 60, 10, 10, RED, "a still below the parent");
	t_stop(&t);
}

/* Each refused request ends the connection with its protocol error. */
static void expect_error(struct t *t, const char *what, const char *iface,
			 uint32_t code)
{
	const struct wl_interface *got = NULL;
	uint32_t got_code, id;

	last_client_log[0] = 0;
	if (wl_display_roundtrip(t->display) >= 0)
		fail("%s: accepted, expected %s error %u", what, iface, code);
	got_code = wl_display_get_protocol_error(t->display, &got, &id);
	check(got && !strcmp(got->name, iface) && got_code == code,
	      "%s: %s error %u (%s)", what, got ? got->name : "?", got_code,
	      strtok(last_client_log, "\n"));
	wl_display_disconnect(t->display);
	t->display = NULL;
	t->compositor = NULL;
	t->subcompositor = NULL;
	t->shm = NULL;
	t->wm_base = NULL;
	t_connect(t);
}

static void test_errors(void)
{
	/* static: the harness cleans up through pointers at exit */
	static struct t t;
	struct wl_surface *a, *b, *c, *other;
	struct wl_subsurface *as;
	struct xdg_surface *xs;

	t_start(&t);

	a = wl_compositor_create_surface(t.compositor);
	xs = xdg_wm_base_get_xdg_surface(t.wm_base, a);
	(void)xs;
	sub(&t, a, wl_compositor_create_surface(t.compositor));
	expect_error(&t, "an xdg_surface made a subsurface", "wl_subcompositor",
		     WL_SUBCOMPOSITOR_ERROR_BAD_SURFACE);

	a = wl_compositor_create_surface(t.compositor);
	b = wl_compositor_create_surface(t.compositor);
	sub(&t, a, b);
	sub(&t, a, b);
	expect_error(&t, "a second wl_subsurface", "wl_subcompositor",
		     WL_SUBCOMPOSITOR_ERROR_BAD_SURFACE);

	a = wl_compositor_create_surface(t.compositor);
	sub(&t, a, a);
	expect_error(&t, "a surface its own parent", "wl_subcompositor", 1);

	/* a <- b <- c, then a under c: a cycle. */
	a = wl_compositor_create_surface(t.compositor);
	b = wl_compositor_create_surface(t.compositor);
	c = wl_compositor_create_surface(t.compositor);
	sub(&t, b, a);
	sub(&t, c, b);
	sub(&t, a, c);
	expect_error(&t, "a cycle (parent is a descendant)", "wl_subcompositor", 1);

	a = wl_compositor_create_surface(t.compositor);
	b = wl_compositor_create_surface(t.compositor);
	other = wl_compositor_create_surface(t.compositor);
	as = sub(&t, a, b);
	wl_subsurface_place_above(as, other);
	expect_error(&t, "place_above an unrelated surface", "wl_subsurface",
		     WL_SUBSURFACE_ERROR_BAD_SURFACE);

	a = wl_compositor_create_surface(t.compositor);
	b = wl_compositor_create_surface(t.compositor);
	as = sub(&t, a, b);
	wl_subsurface_place_below(as, a);
	expect_error(&t, "place_below itself", "wl_subsurface",
		     WL_SUBSURFACE_ERROR_BAD_SURFACE);

	/* A child of a child of another parent is no sibling either. */
	a = wl_compositor_create_surface(t.compositor);
	b = wl_compositor_create_surface(t.compositor);
	c = wl_compositor_create_surface(t.compositor);
	as = sub(&t, a, b);
	sub(&t, c, a);
	wl_subsurface_place_above(as, c);
	expect_error(&t, "place_above its own child", "wl_subsurface",
		     WL_SUBSURFACE_ERROR_BAD_SURFACE);

	/* Too deep: the compositor's own limit, not the client's stack. */
	a = wl_compositor_create_surface(t.compositor);
	for (int i = 0; i < 40; i++) {
		b = wl_compositor_create_surface(t.compositor);
		sub(&t, b, a);
		a = b;
	}
	expect_error(&t, "nesting past the limit", "wl_display",
		     WL_DISPLAY_ERROR_IMPLEMENTATION);

	/* Destroying parents and children in any order is fine. */
	a = wl_compositor_create_surface(t.compositor);
	b = wl_compositor_create_surface(t.compositor);
	c = wl_compositor_create_surface(t.compositor);
	as = sub(&t, b, a);
	sub(&t, c, b);
	wl_surface_destroy(b);
	wl_subsurface_set_position(as, 1, 1);
	wl_subsurface_place_above(as, a);
	wl_surface_commit(c);
	wl_surface_destroy(a);
	wl_subsurface_destroy(as);
	wl_surface_commit(c);
	last_client_log[0] = 0;
	check(wl_display_roundtrip(t.display) >= 0,
	      "inert subsurfaces after their surfaces went (%s)", last_client_log);
	t_stop(&t);
}

static const struct harness_test tests[] = {
	{ "subsurface-offset", test_offset },
	{ "subsurface-sync", test_sync },
	{ "subsurface-desync", test_desync },
	{ "subsurface-position", test_position },
	{ "subsurface-stacking", test_stacking },
	{ "subsurface-errors", test_errors },
};

int main(int argc, char **argv)
{
	return harness_main("test-subsurface", tests,
			    sizeof(tests) / sizeof(tests[0]), argc, argv);
}
