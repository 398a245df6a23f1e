/* SPDX-License-Identifier: MIT */
/*
 * test-subsurface - wl_subcompositor and wl_subsurface on the headless
 * backend, checked in the compositor's screenshots.
 *
 * Usage: test-subsurface TEST. A raw client (toplevel.h) maps a plain
 * toplevel and builds subsurfaces of single colours on it; after each
 * step it waits for a frame, asks for a screenshot and reads pixels back
 * relative to the toplevel.
 */
#include <wayland-client.h>

#include "toplevel.h"

/* The compositor; wl_subcompositor must be there. */
static void sub_start(struct t *t)
{
	t_start(t);
	if (!t->subcompositor)
		fail("no wl_subcompositor");
}

/* sub_start() and a 100x80 red toplevel, mapped: expect_rect's 0,0 is
 * its 0,0. */
static struct wl_surface *start(struct t *t)
{
	/* static: its listeners point here; one toplevel a test */
	static struct win w;

	sub_start(t);
	win_create(t, &w);
	win_initial_commit(&w);
	win_draw(&w, 100, 80, RED);
	wait_mapped(t, &t->ox, &t->oy, "toplevel");
	return w.s;
}

static struct wl_subsurface *sub(struct t *t, struct wl_surface *s,
				 struct wl_surface *parent)
{
	return wl_subcompositor_get_subsurface(t->subcompositor, s, parent);
}

/* *s a new surface, a subsurface of @parent placed at @x, @y. */
static struct wl_subsurface *sub_at(struct t *t, struct wl_surface **s,
				    struct wl_surface *parent, int x, int y)
{
	struct wl_subsurface *ss;

	*s = surface(t);
	ss = sub(t, *s, parent);
	wl_subsurface_set_position(ss, x, y);
	return ss;
}

/* The parent 100x80 red; a child 30x20 green at 10,20; a grandchild
 * 10x10 blue at 5,5 of the child, all synchronized. */
static void test_offset(void)
{
	/* static: the harness cleans up through pointers at exit */
	static struct t t;
	struct wl_surface *parent, *child, *grand;

	parent = start(&t);
	sub_at(&t, &child, parent, 10, 20);
	sub_at(&t, &grand, child, 5, 5);
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

	parent = start(&t);
	sub_at(&t, &child, parent, 10, 10);
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

/* Desynchronized: at once, unless an ancestor is synchronized. A
 * grandchild's position waits for its parent's commit to be applied. */
static void test_desync(void)
{
	/* static: the harness cleans up through pointers at exit */
	static struct t t;
	struct wl_surface *parent, *child, *grand;
	struct wl_subsurface *cs, *gs;

	parent = start(&t);
	cs = sub_at(&t, &child, parent, 10, 10);
	gs = sub_at(&t, &grand, child, 40, 0);
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

	/* The grandchild's position is the child's state: taken by the
	 * child's commit, applied when that commit is. The main
	 * surface's commit alone, or one before the child's, moves
	 * nothing. */
	wl_subsurface_set_position(gs, 50, 0);
	wl_surface_commit(parent);
	screenshot(&t);
	expect_rect(&t, 50, 10, 10, 10, YELLOW,
		    "set_position, only the main surface committed: not moved");
	wl_surface_commit(child);
	screenshot(&t);
	expect_rect(&t, 50, 10, 10, 10, YELLOW,
		    "the sync child committed, the main surface not: not moved");
	wl_surface_commit(parent);
	screenshot(&t);
	expect_rect(&t, 60, 10, 10, 10, YELLOW,
		    "child, then main surface committed: moved");
	expect_rect(&t, 50, 10, 10, 10, RED, "its old place repainted");
	wl_subsurface_set_position(gs, 40, 0);
	wl_surface_commit(parent);
	wl_surface_commit(child);
	screenshot(&t);
	expect_rect(&t, 60, 10, 10, 10, YELLOW,
		    "main surface committed before the child: not moved");
	wl_surface_commit(parent);
	screenshot(&t);
	expect_rect(&t, 50, 10, 10, 10, YELLOW,
		    "and once the main surface commits after it: moved");

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

	parent = start(&t);
	cs = sub_at(&t, &child, parent, 10, 10);
	wl_subsurface_set_desync(cs);
	show(&t, child, 20, 20, GREEN);
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

	parent = start(&t);
	as = sub_at(&t, &a, parent, 80, 60);	/* half outside */
	bs = sub_at(&t, &b, parent, 90, 70);	/* over a's corner */
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

static void test_errors(void)
{
	/* static: the harness cleans up through pointers at exit */
	static struct t t;
	struct wl_surface *a, *b, *c, *other;
	struct wl_subsurface *as;
	struct xdg_surface *xs;

	sub_start(&t);

	a = surface(&t);
	xs = xdg_wm_base_get_xdg_surface(t.wm_base, a);
	(void)xs;
	sub(&t, a, surface(&t));
	expect_error(&t, "an xdg_surface made a subsurface", "wl_subcompositor",
		     WL_SUBCOMPOSITOR_ERROR_BAD_SURFACE);

	a = surface(&t);
	b = surface(&t);
	sub(&t, a, b);
	sub(&t, a, b);
	expect_error(&t, "a second wl_subsurface", "wl_subcompositor",
		     WL_SUBCOMPOSITOR_ERROR_BAD_SURFACE);

	a = surface(&t);
	sub(&t, a, a);
	expect_error(&t, "a surface its own parent", "wl_subcompositor", 1);

	/* a <- b <- c, then a under c: a cycle. */
	a = surface(&t);
	b = surface(&t);
	c = surface(&t);
	sub(&t, b, a);
	sub(&t, c, b);
	sub(&t, a, c);
	expect_error(&t, "a cycle (parent is a descendant)", "wl_subcompositor", 1);

	a = surface(&t);
	b = surface(&t);
	other = surface(&t);
	as = sub(&t, a, b);
	wl_subsurface_place_above(as, other);
	expect_error(&t, "place_above an unrelated surface", "wl_subsurface",
		     WL_SUBSURFACE_ERROR_BAD_SURFACE);

	a = surface(&t);
	b = surface(&t);
	as = sub(&t, a, b);
	wl_subsurface_place_below(as, a);
	expect_error(&t, "place_below itself", "wl_subsurface",
		     WL_SUBSURFACE_ERROR_BAD_SURFACE);

	/* A child of a child of another parent is no sibling either. */
	a = surface(&t);
	b = surface(&t);
	c = surface(&t);
	as = sub(&t, a, b);
	sub(&t, c, a);
	wl_subsurface_place_above(as, c);
	expect_error(&t, "place_above its own child", "wl_subsurface",
		     WL_SUBSURFACE_ERROR_BAD_SURFACE);

	/* Too deep: the compositor's own limit, not the client's stack. */
	a = surface(&t);
	for (int i = 0; i < 40; i++) {
		b = surface(&t);
		sub(&t, b, a);
		a = b;
	}
	expect_error(&t, "nesting past the limit", "wl_display",
		     WL_DISPLAY_ERROR_IMPLEMENTATION);

	/* Destroying parents and children in any order is fine. */
	a = surface(&t);
	b = surface(&t);
	c = surface(&t);
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
