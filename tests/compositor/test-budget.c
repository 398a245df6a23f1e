/* SPDX-License-Identifier: MIT */
/*
 * test-budget - the per-client object budgets (compositor/account/objects.c):
 * surfaces, subsurfaces, regions, frame callbacks, presentation
 * feedbacks, wl_output binds and all objects together, per client and
 * for all clients (budget-totals); and that a collapsed wl_region never
 * becomes an opaque region (surface/region.c).
 *
 * Usage: test-budget TEST. Each case starts the compositor with a small
 * limit (--max-*-per-client=N), fills it exactly (accepted: a roundtrip
 * succeeds), checks that giving objects back frees the budget, then asks
 * for one more and expects wl_display.error no_memory whose message
 * names the count and the option. A second connection must then still
 * get everything up to the limit: the budget is per client.
 *
 * Checked against the code without the budgets (once, by hand): with
 * the own-limit test of budget_allows() (objects.c) disabled,
 * budget-surfaces, -subsurfaces, -regions, -callbacks, -feedbacks,
 * -outputs and -objects each failed ("the 65th surface: accepted,
 * expected wl_display error 2"); with its wlseal_shm_fair() test
 * disabled, budget-totals failed ("its 17th: refused, the total near
 * its limit ()"); with region.c's grown flag ignored,
 * opaque-region-collapsed failed ("between the rectangles: background:
 * ... is ff203040 (16 pixels differ, e.g. ff000000)": the transparent
 * buffer copied as opaque).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wayland-client.h>

#include "pointer-constraints-unstable-v1-client-protocol.h"
#include "presentation-time-client-protocol.h"
#include "text-input-unstable-v3-client-protocol.h"
#include "toplevel.h"

#define NO_MEMORY WL_DISPLAY_ERROR_NO_MEMORY

/* Accepted so far: a roundtrip succeeds. */
static void expect_ok(struct t *t, const char *what)
{
	last_client_log[0] = 0;
	check(wl_display_roundtrip(t->display) >= 0, "%s: accepted (%s)",
	      what, last_client_log);
}

/* One more: the budget's error, naming @count and @option. */
static void expect_budget(struct t *t, const char *what, const char *text)
{
	expect_error(t, what, "wl_display", NO_MEMORY);
	check(strstr(t->error, text) != NULL, "%s: the error says '%s' (%s)",
	      what, text, t->error);
}

/* t_stop() for a test whose client was refused: the refusal is logged
 * once, with the same words. */
static void t_stop_refused(struct t *t)
{
	check(proc_contains(&t->c.p, "refused client pid=") &&
	      (proc_contains(&t->c.p, ": client exceeded ") ||
	       proc_contains(&t->c.p, ": compositor near its limit ")),
	      "the compositor logged the refusal");
	wl_display_disconnect(t->display);
	free(t->rgb);
	comp_stop(&t->c);
}

/* A w x h a8r8g8b8 buffer of one (premultiplied) colour. */
static struct wl_buffer *solid_argb(struct t *t, int w, int h, uint32_t color)
{
	size_t size = (size_t)w * h * 4;
	int fd = make_memfd(size, F_SEAL_SHRINK);
	struct wl_shm_pool *pool;
	struct wl_buffer *b;
	uint32_t *px;

	px = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (px == MAP_FAILED)
		fail("mmap: %s", strerror(errno));
	for (size_t i = 0; i < size / 4; i++)
		px[i] = color;
	munmap(px, size);
	pool = wl_shm_create_pool(t->shm, fd, (int32_t)size);
	b = wl_shm_pool_create_buffer(pool, 0, w, h, w * 4,
				      WL_SHM_FORMAT_ARGB8888);
	wl_shm_pool_destroy(pool);
	close(fd);
	return b;
}

static void start_with(struct t *t, const char *option)
{
	const char *const args[] = { option, NULL };

	t_start_args(t, args);
}

/* The connection's probe surface counts: 1 + 63 = 64. */
static void test_surfaces(void)
{
	static struct t t;
	struct wl_surface *s[63];
	int i;

	start_with(&t, "--max-surfaces-per-client=64");
	for (i = 0; i < 63; i++)
		s[i] = surface(&t);
	expect_ok(&t, "64 surfaces");
	for (i = 0; i < 10; i++)
		wl_surface_destroy(s[i]);
	for (i = 0; i < 10; i++)
		s[i] = surface(&t);
	expect_ok(&t, "10 destroyed, 10 made again");
	surface(&t);
	expect_budget(&t, "the 65th surface",
		      "client exceeded 64 surfaces (--max-surfaces-per-client)");
	/* expect_error connected again: a new client, a new budget. */
	for (i = 0; i < 63; i++)
		surface(&t);
	expect_ok(&t, "64 surfaces of the next client");
	t_stop_refused(&t);
}

static void test_subsurfaces(void)
{
	static struct t t;
	struct wl_subsurface *sub[16];
	struct wl_surface *parent;
	int i;

	start_with(&t, "--max-subsurfaces-per-client=16");
	parent = surface(&t);
	for (i = 0; i < 16; i++)
		sub[i] = wl_subcompositor_get_subsurface(t.subcompositor,
							 surface(&t), parent);
	wl_surface_commit(parent);
	expect_ok(&t, "16 subsurfaces");
	/* The role object is what counts: destroying it gives it back. */
	wl_subsurface_destroy(sub[0]);
	wl_subcompositor_get_subsurface(t.subcompositor, surface(&t), parent);
	expect_ok(&t, "one destroyed, one made again");
	wl_subcompositor_get_subsurface(t.subcompositor, surface(&t), parent);
	expect_budget(&t, "the 17th subsurface",
		      "client exceeded 16 subsurfaces (--max-subsurfaces-per-client)");
	parent = surface(&t);
	for (i = 0; i < 16; i++)
		wl_subcompositor_get_subsurface(t.subcompositor, surface(&t),
						parent);
	expect_ok(&t, "16 subsurfaces of the next client");
	t_stop_refused(&t);
}

static void test_regions(void)
{
	static struct t t;
	struct wl_region *r[16];
	int i;

	start_with(&t, "--max-regions-per-client=16");
	for (i = 0; i < 16; i++)
		r[i] = wl_compositor_create_region(t.compositor);
	expect_ok(&t, "16 regions");
	wl_region_destroy(r[3]);
	wl_compositor_create_region(t.compositor);
	expect_ok(&t, "one destroyed, one made again");
	wl_compositor_create_region(t.compositor);
	expect_budget(&t, "the 17th region",
		      "client exceeded 16 regions (--max-regions-per-client)");
	t_stop_refused(&t);
}

static void cb_done(void *data, struct wl_callback *cb, uint32_t msec)
{
	(*(int *)data)++;
	wl_callback_destroy(cb);
}

static const struct wl_callback_listener cb_listener = { .done = cb_done };

static void test_callbacks(void)
{
	static struct t t;
	struct wl_surface *a;
	int i, done = 0;

	start_with(&t, "--max-callbacks-per-client=32");
	/* Done callbacks are given back: 100 frames at a limit of 32. */
	for (i = 0; i < 100; i++) {
		int before = done;

		wl_callback_add_listener(wl_surface_frame(t.probe),
					 &cb_listener, &done);
		wl_surface_commit(t.probe);
		while (done == before)
			if (wl_display_dispatch(t.display) < 0)
				fail("frame %d: %s", i, last_client_log);
	}
	/* Pending without a commit: they stay until the surface goes. */
	a = surface(&t);
	for (i = 0; i < 32; i++)
		wl_surface_frame(a);
	expect_ok(&t, "32 callbacks pending");
	wl_surface_frame(a);
	expect_budget(&t, "the 33rd callback",
		      "client exceeded 32 frame callbacks (--max-callbacks-per-client)");
	t_stop_refused(&t);
}

struct want {
	const struct wl_interface *iface;
	uint32_t version;
	void *proxy;
};

static void bind_global(void *data, struct wl_registry *r, uint32_t name,
			const char *iface, uint32_t version)
{
	struct want *want = data;

	if (!strcmp(iface, want->iface->name))
		want->proxy = wl_registry_bind(r, name, want->iface,
					       want->version);
}

static void no_remove(void *data, struct wl_registry *r, uint32_t name)
{
}

static const struct wl_registry_listener bind_listener = {
	.global = bind_global,
	.global_remove = no_remove,
};

/* Binds @iface at @version once more, on a registry of its own. */
static void *bind(struct t *t, const struct wl_interface *iface,
		  uint32_t version)
{
	struct want want = { iface, version, NULL };
	struct wl_registry *r = wl_display_get_registry(t->display);

	wl_registry_add_listener(r, &bind_listener, &want);
	if (wl_display_roundtrip(t->display) < 0 || !want.proxy)
		fail("cannot bind %s: %s", iface->name, last_client_log);
	wl_registry_destroy(r);
	return want.proxy;
}

static void test_feedbacks(void)
{
	static struct t t;
	struct wp_presentation *p;
	struct wl_surface *a;
	int i;

	start_with(&t, "--max-feedbacks-per-client=16");
	p = bind(&t, &wp_presentation_interface, 1);
	a = surface(&t);
	for (i = 0; i < 16; i++)
		wp_presentation_feedback(p, a);
	expect_ok(&t, "16 feedbacks pending");
	/* The first commit makes them the surface's; the second, of a
	 * surface that never showed them, discards them. */
	wl_surface_commit(a);
	wl_surface_commit(a);
	for (i = 0; i < 16; i++)
		wp_presentation_feedback(p, a);
	expect_ok(&t, "discarded ones given back");
	wp_presentation_feedback(p, a);
	expect_budget(&t, "the 17th feedback",
		      "client exceeded 16 presentation feedbacks (--max-feedbacks-per-client)");
	t_stop_refused(&t);
}

static void test_outputs(void)
{
	static struct t t;
	struct wl_output *o[16];
	int i;

	start_with(&t, "--max-outputs-per-client=16");
	for (i = 0; i < 16; i++)
		o[i] = bind(&t, &wl_output_interface, 3);
	expect_ok(&t, "16 wl_output binds");
	wl_output_release(o[0]);
	bind(&t, &wl_output_interface, 3);
	expect_ok(&t, "one released, one bound again");
	{
		/* bind() fails the test on the error: bind by hand. */
		struct want want = { &wl_output_interface, 3, NULL };
		struct wl_registry *r = wl_display_get_registry(t.display);

		wl_registry_add_listener(r, &bind_listener, &want);
		/* The globals come with this roundtrip's answer; the bind
		 * goes out while they are read, its error with the next. */
		wl_display_roundtrip(t.display);
	}
	expect_budget(&t, "the 17th wl_output",
		      "client exceeded 16 wl_output objects (--max-outputs-per-client)");
	t_stop_refused(&t);
}

/* Every kind of object counts: positioners here, registries below. */
static void test_objects(void)
{
	static struct t t;
	int i;

	start_with(&t, "--max-objects-per-client=300");
	/* The connection holds about a dozen already (display, registry,
	 * globals, the probe); 250 more are still below the limit. */
	for (i = 0; i < 250; i++)
		xdg_wm_base_create_positioner(t.wm_base);
	expect_ok(&t, "250 positioners");
	for (i = 0; i < 60; i++)
		xdg_wm_base_create_positioner(t.wm_base);
	expect_budget(&t, "positioners past 300 objects",
		      "client exceeded 300 protocol objects (--max-objects-per-client)");
	/* The first 250 in batches, each read before the next is sent:
	 * every registry brings all the globals, and 300 of them at once
	 * filled the socket both ways, so that the compositor's error was
	 * sometimes lost to a reset connection before the client read it.
	 * The last 50 cross the limit, their error read by expect_budget. */
	for (i = 0; i < 250; i++) {
		wl_display_get_registry(t.display);
		if (i % 10 == 9 && wl_display_roundtrip(t.display) < 0)
			fail("registries: the connection failed below the limit");
	}
	for (i = 0; i < 50; i++)
		wl_display_get_registry(t.display);
	expect_budget(&t, "registries past 300 objects",
		      "client exceeded 300 protocol objects");
	t_stop_refused(&t);
}

/* Popups count as protocol objects: each is a wl_surface, an
 * xdg_surface and an xdg_popup, and the positioner is one more. */
static void test_popups(void)
{
	static struct t t;
	struct xdg_positioner *pos;
	struct win w;
	int i;

	start_with(&t, "--max-objects-per-client=100");
	win_create(&t, &w);
	win_initial_commit(&w);
	pos = xdg_wm_base_create_positioner(t.wm_base);
	xdg_positioner_set_size(pos, 10, 10);
	xdg_positioner_set_anchor_rect(pos, 0, 0, 1, 1);
	/* About 20 held already; 20 popups are 60 more. */
	for (i = 0; i < 20; i++) {
		struct wl_surface *s = surface(&t);

		xdg_surface_get_popup(xdg_wm_base_get_xdg_surface(t.wm_base, s),
				      w.xs, pos);
	}
	expect_ok(&t, "20 popups");
	for (i = 0; i < 20; i++) {
		struct wl_surface *s = surface(&t);

		xdg_surface_get_popup(xdg_wm_base_get_xdg_surface(t.wm_base, s),
				      w.xs, pos);
	}
	expect_budget(&t, "popups past 100 objects",
		      "client exceeded 100 protocol objects (--max-objects-per-client)");
	t_stop_refused(&t);
}

struct input_globals {
	struct wl_seat *seat;
	struct zwp_pointer_constraints_v1 *constraints;
	struct zwp_text_input_manager_v3 *text_input;
};

static void input_global(void *data, struct wl_registry *r, uint32_t name,
			 const char *iface, uint32_t version)
{
	struct input_globals *g = data;

	if (!strcmp(iface, "wl_seat") && !g->seat)
		g->seat = wl_registry_bind(r, name, &wl_seat_interface, 1);
	else if (!strcmp(iface, "zwp_pointer_constraints_v1"))
		g->constraints = wl_registry_bind(r, name,
			&zwp_pointer_constraints_v1_interface, 1);
	else if (!strcmp(iface, "zwp_text_input_manager_v3"))
		g->text_input = wl_registry_bind(r, name,
			&zwp_text_input_manager_v3_interface, 1);
}

static void input_global_remove(void *data, struct wl_registry *r,
				uint32_t name)
{
}

static const struct wl_registry_listener input_registry_listener = {
	.global = input_global, .global_remove = input_global_remove,
};

/* Pointer constraints and text inputs count as protocol objects. */
static void test_constraint_objects(void)
{
	static struct t t;
	struct input_globals g = { 0 };
	struct wl_registry *reg;
	struct wl_pointer *ptr;
	int i;

	start_with(&t, "--max-objects-per-client=100");
	reg = wl_display_get_registry(t.display);
	wl_registry_add_listener(reg, &input_registry_listener, &g);
	if (wl_display_roundtrip(t.display) < 0 || !g.seat || !g.constraints ||
	    !g.text_input)
		fail("wl_seat, zwp_pointer_constraints_v1 or "
		     "zwp_text_input_manager_v3 missing");
	ptr = wl_seat_get_pointer(g.seat);
	/* About 25 held already; 15 locks on surfaces of their own and
	 * 15 text inputs are 45 more. */
	for (i = 0; i < 15; i++) {
		zwp_pointer_constraints_v1_lock_pointer(g.constraints,
			surface(&t), ptr, NULL,
			ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT);
		zwp_text_input_manager_v3_get_text_input(g.text_input, g.seat);
	}
	expect_ok(&t, "15 locks and 15 text inputs");
	for (i = 0; i < 20; i++) {
		zwp_pointer_constraints_v1_confine_pointer(g.constraints,
			surface(&t), ptr, NULL,
			ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_ONESHOT);
		zwp_text_input_manager_v3_get_text_input(g.text_input, g.seat);
	}
	expect_budget(&t, "constraints and text inputs past 100 objects",
		      "client exceeded 100 protocol objects (--max-objects-per-client)");
	t_stop_refused(&t);
}

/* A connection of its own with just wl_compositor. */
struct conn {
	struct wl_display *display;
	struct wl_compositor *compositor;
};

static void conn_global(void *data, struct wl_registry *r, uint32_t name,
			const char *iface, uint32_t version)
{
	struct conn *c = data;

	if (!strcmp(iface, "wl_compositor"))
		c->compositor = wl_registry_bind(r, name, &wl_compositor_interface, 1);
}

static const struct wl_registry_listener conn_listener = {
	.global = conn_global,
	.global_remove = no_remove,
};

static void conn_open(struct conn *c)
{
	c->display = connect_display();
	wl_registry_add_listener(wl_display_get_registry(c->display),
				 &conn_listener, c);
	if (wl_display_roundtrip(c->display) < 0 || !c->compositor)
		fail("no wl_compositor");
}

/* @n surfaces on @c; true when all were accepted. */
static bool conn_surfaces(struct conn *c, int n)
{
	for (int i = 0; i < n; i++) {
		wl_compositor_create_surface(c->compositor);
		if (i % 200 == 199 && wl_display_roundtrip(c->display) < 0)
			return false;
	}
	return wl_display_roundtrip(c->display) >= 0;
}

/*
 * The totals of all clients (objects.c): at 1024 surfaces per client the
 * total is 16384, the last 4096 kept for clients holding at most 16.
 * Twelve clients filling their budgets (with the test's own connection
 * and its probe: 12288) stop at the reserve; a new client still gets 16
 * surfaces and is refused the 17th; the test's connection, light, still
 * gets its 16.
 */
static void test_totals(void)
{
	static struct t t;
	static struct conn heavy[12], late;
	int i;

	start_with(&t, "--max-surfaces-per-client=1024");
	expect_ok(&t, "the probe surface made");
	for (i = 0; i < 12; i++) {
		conn_open(&heavy[i]);
		check(conn_surfaces(&heavy[i], i < 11 ? 1024 : 1023),
		      "heavy client %d: its own budget (%s)", i, last_client_log);
	}
	conn_open(&late);
	check(conn_surfaces(&late, 16), "a new client: 16 surfaces from the reserve (%s)",
	      last_client_log);
	last_client_log[0] = 0;
	check(!conn_surfaces(&late, 1) &&
	      wl_display_get_error(late.display) == ENOMEM &&
	      strstr(last_client_log, "compositor near its limit of 16384 surfaces for all clients"),
	      "its 17th: refused, the total near its limit (%s)", last_client_log);
	for (i = 0; i < 15; i++)
		surface(&t);
	expect_ok(&t, "the light client: 16 surfaces");
	wl_display_disconnect(late.display);
	for (i = 0; i < 12; i++)
		wl_display_disconnect(heavy[i].display);
	/* All given back once the compositor saw the thirteen go (one
	 * line each). */
	for (i = 0; i < 13; i++) {
		char line[256];

		if (!proc_wait(&t.c.p, &t.log_from, "client disconnected",
			       TIMEOUT_MS, line, sizeof(line)))
			fail("the clients never left");
	}
	/* A heavy client fits again. */
	conn_open(&late);
	check(conn_surfaces(&late, 1024), "after they left: 1024 surfaces (%s)",
	      last_client_log);
	wl_display_disconnect(late.display);
	t_stop_refused(&t);
}

/* Each limit is an option; zero or junk is a usage error. */
static void test_options(void)
{
	static const char *const opts[] = {
		"--max-surfaces-per-client=0", "--max-subsurfaces-per-client=x",
		"--max-regions-per-client=-1", "--max-callbacks-per-client=",
		"--max-feedbacks-per-client=0", "--max-outputs-per-client=0",
		"--max-objects-per-client=99999999999",
	};
	struct proc p;
	size_t from = 0;
	char line[256];

	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		char *argv[] = { (char *)bin_compositor(), (char *)opts[i],
				 "--backend=headless", NULL };

		proc_spawn(&p, argv);
		check(proc_wait_exit(&p, TIMEOUT_MS) && WIFEXITED(p.status) &&
		      WEXITSTATUS(p.status) == 2 && proc_contains(&p, "must be a number"),
		      "%s refused at startup", opts[i]);
	}
	{
		char *argv[] = { (char *)bin_compositor(), "--help", NULL };

		proc_spawn(&p, argv);
		check(proc_wait(&p, &from, "--max-subsurfaces-per-client", TIMEOUT_MS,
				line, sizeof(line)), "--help names the budgets");
		proc_wait_exit(&p, TIMEOUT_MS);
	}
}

/* A transparent a8r8g8b8 buffer whose opaque region has 40 scattered
 * rectangles: the region collapses to its extents, which must not make
 * the pixels between the rectangles opaque (they would turn black). */
static void test_opaque_collapsed(void)
{
	static struct t t;
	static struct win w;
	struct wl_region *r;
	struct wl_buffer *b;
	int i;

	t_start(&t);
	win_create(&t, &w);
	win_initial_commit(&w);
	win_draw(&w, 100, 80, RED);
	wait_mapped(&t, &t.ox, &t.oy, "toplevel");
	b = solid_argb(&t, 100, 80, 0x00000000u);
	r = wl_compositor_create_region(t.compositor);
	for (i = 0; i < 40; i++)
		wl_region_add(r, (i % 10) * 10, (i / 10) * 10, 2, 2);
	wl_surface_set_opaque_region(w.s, r);
	wl_region_destroy(r);
	wl_surface_attach(w.s, b, 0, 0);
	wl_surface_damage(w.s, 0, 0, 100, 80);
	wl_surface_commit(w.s);
	screenshot(&t);
	expect_rect(&t, 5, 5, 4, 4, BACKGROUND, "between the rectangles: background");
	expect_rect(&t, 3, 3, 1, 1, BACKGROUND, "inside the extents: background");
	t_stop(&t);
}

static const struct harness_test tests[] = {
	{ "budget-surfaces", test_surfaces },
	{ "budget-subsurfaces", test_subsurfaces },
	{ "budget-regions", test_regions },
	{ "budget-callbacks", test_callbacks },
	{ "budget-feedbacks", test_feedbacks },
	{ "budget-outputs", test_outputs },
	{ "budget-objects", test_objects },
	{ "budget-popups", test_popups },
	{ "budget-constraints", test_constraint_objects },
	{ "budget-totals", test_totals },
	{ "budget-options", test_options },
	{ "opaque-region-collapsed", test_opaque_collapsed },
};

int main(int argc, char **argv)
{
	return harness_main("test-budget", tests,
			    sizeof(tests) / sizeof(tests[0]), argc, argv);
}
