/* SPDX-License-Identifier: MIT */
/*
 * scene.c - where views are on the output: the trees of views, what
 * they damage when they change, and which one takes input where.
 * render.c draws them.
 *
 * Rendering is damage-tracked: the scene accumulates, in output
 * coordinates, every area that changed since the last repaint, and a
 * repaint touches only those pixels (plus what the target image missed
 * while it was off screen, see wlseal_scene_render). A client that
 * changes a 64x64 square costs a 64x64 copy.
 */
#include <stdlib.h>

#include "scene-private.h"

void wlseal_scene_init(struct wlseal_scene *scene, int width, int height)
{
	scene->width = width;
	scene->height = height;
	wl_list_init(&scene->views);
	pixman_region32_init_rect(&scene->damage, 0, 0, width, height);
	pixman_region32_init(&scene->prev_damage);
	scene->cascade_next = 0;
	wl_signal_init(&scene->map_signal);
	wl_signal_init(&scene->unmap_signal);
}

void wlseal_scene_finish(struct wlseal_scene *scene)
{
	pixman_region32_fini(&scene->damage);
	pixman_region32_fini(&scene->prev_damage);
}

void wlseal_scene_view_init(struct wlseal_scene_view *view,
			    const struct wlseal_scene_source *source)
{
	*view = (struct wlseal_scene_view){ .source = source };
	wl_list_init(&view->link);
	wl_list_init(&view->below);
	wl_list_init(&view->above);
}

/*
 * Coordinates. A view's origin on the output is the sum of its own and
 * its ancestors' offsets, each any int32_t a client chose
 * (wl_subsurface.set_position), and a region a client sends reaches
 * INT32_MAX (Mesa damages 0, 0, INT32_MAX, INT32_MAX on every swap):
 * in int32_t that sum wraps, and pixman, whose regions are int32_t too,
 * drops a rectangle moved past INT32_MAX. So origins are int64_t (32
 * levels of int32_t offsets are far from its limit), and whatever is
 * moved from view to output coordinates is first clipped, in 64 bits,
 * to the part of the view that is on the output (scene_clip_box,
 * scene_region_to_output): damage is never lost, never reaches past the
 * view's own area, and no pixman coordinate leaves the output.
 */

bool scene_clip_box(const struct wlseal_scene *scene, int64_t x1, int64_t y1,
		    int64_t x2, int64_t y2, pixman_box32_t *out)
{
	x1 = x1 < 0 ? 0 : x1;
	y1 = y1 < 0 ? 0 : y1;
	x2 = x2 > scene->width ? scene->width : x2;
	y2 = y2 > scene->height ? scene->height : y2;
	if (x1 >= x2 || y1 >= y2)
		return false;
	*out = (pixman_box32_t){ (int32_t)x1, (int32_t)y1, (int32_t)x2,
				 (int32_t)y2 };
	return true;
}

/* Clipped before it is moved: the clipped box is within 0..@w x 0..@h
 * of the view, and (@x, @y) of a view that is partly on the output lies
 * within (-@w, -@h)..the output's size, so the move cannot overflow. */
void scene_region_to_output(const struct wlseal_scene *scene,
			    const pixman_region32_t *region, int64_t x,
			    int64_t y, int32_t w, int32_t h,
			    pixman_region32_t *out)
{
	pixman_box32_t b;

	if (!scene_clip_box(scene, x, y, x + w, y + h, &b)) {
		pixman_region32_clear(out);
		return;
	}
	if (region) {
		pixman_region32_intersect_rect(out,
					       (pixman_region32_t *)region,
					       (int)(b.x1 - x), (int)(b.y1 - y),
					       (unsigned)(b.x2 - b.x1),
					       (unsigned)(b.y2 - b.y1));
		pixman_region32_translate(out, (int)x, (int)y);
	} else {
		pixman_region32_reset(out, &b);
	}
}

/*
 * Walking a tree of views in stacking order, bottom first: a view's
 * subtree is its below stack, the view itself, then its above stack. The
 * walk is iterative (a client chooses how deep its subsurfaces nest, so
 * no recursion), skips hidden views with everything stacked on them, and
 * keeps the output origin of the current view as it goes.
 */

/* The first mapped view after @from in the stack @head. */
static struct wlseal_scene_view *next_mapped(struct wl_list *from,
					     struct wl_list *head)
{
	struct wl_list *l;

	for (l = from->next; l != head; l = l->next) {
		struct wlseal_scene_view *v = wl_container_of(l, v, link);

		if (v->mapped)
			return v;
	}
	return NULL;
}

static void walk_enter(struct scene_walk *w, struct wlseal_scene_view *child)
{
	struct wlseal_scene_view *c;

	/* Into @child, then down to the bottom of its subtree. */
	for (c = child; c; c = next_mapped(&c->below, &c->below)) {
		w->x += c->x;
		w->y += c->y;
		w->v = c;
	}
}

void scene_walk_begin(struct scene_walk *w, struct wlseal_scene_view *root,
		      int64_t x, int64_t y)
{
	*w = (struct scene_walk){ .root = root, .x = x, .y = y };
	walk_enter(w, root);
}

bool scene_walk_next(struct scene_walk *w)
{
	struct wlseal_scene_view *v = w->v, *c;

	c = next_mapped(&v->above, &v->above);
	if (c) {
		walk_enter(w, c);
		return true;
	}
	/* v's subtree is done: climb until something is left. */
	while (v != w->root) {
		struct wlseal_scene_view *p = v->parent;

		w->x -= v->x;
		w->y -= v->y;
		c = next_mapped(&v->link, v->stack);
		if (c) {
			walk_enter(w, c);
			return true;
		}
		if (v->stack == &p->below) {
			/* The top of p's below stack: p itself is next. */
			w->v = p;
			return true;
		}
		v = p;	/* the top of p's above stack: p's subtree is done */
	}
	return false;
}

/* Input goes where the view would draw: inside its size, and inside
 * its input region. */
static bool takes_input(const struct wlseal_scene_view *v, double x, double y)
{
	if (x < 0 || y < 0 || x >= v->width || y >= v->height)
		return false;
	return !v->input || pixman_region32_contains_point(v->input, (int)x,
							   (int)y, NULL);
}

struct wlseal_scene_view *wlseal_scene_view_at(struct wlseal_scene *scene,
					       double x, double y,
					       double *sx, double *sy)
{
	struct wlseal_scene_view *top, *found = NULL;

	/* Bottom first, so the last view that matches is on top. */
	scene->hit_tests++;
	wl_list_for_each(top, &scene->views, link) {
		struct scene_walk w;

		scene_walk_begin(&w, top, 0, 0);
		do {
			double vx = x - (double)w.x, vy = y - (double)w.y;

			scene->visits++;
			if (takes_input(w.v, vx, vy)) {
				found = w.v;
				*sx = vx;
				*sy = vy;
			}
		} while (scene_walk_next(&w));
	}
	return found;
}

bool wlseal_scene_has_damage(struct wlseal_scene *scene)
{
	return pixman_region32_not_empty(&scene->damage);
}

bool wlseal_scene_view_visible(const struct wlseal_scene_view *v)
{
	for (; v; v = v->parent)
		if (!v->mapped)
			return false;
	return true;
}

void wlseal_scene_view_origin(const struct wlseal_scene_view *v, int64_t *x,
			      int64_t *y)
{
	*x = *y = 0;
	for (; v; v = v->parent) {
		*x += v->x;
		*y += v->y;
	}
}

/* The scene's damage stays within SCENE_MAX_RECTS (scene-private.h). */
static void bound(pixman_region32_t *region)
{
	pixman_box32_t extents;

	if (pixman_region32_n_rects(region) <= SCENE_MAX_RECTS)
		return;
	extents = *pixman_region32_extents(region);
	pixman_region32_reset(region, &extents);
}

/* @damage (view coordinates, NULL: all of it) of a visible view whose
 * origin is at (@x, @y): only what lies inside the view counts (a view
 * that shrinks damages its old size first, wlseal_scene_set_size). */
static void damage_at(struct wlseal_scene *scene, struct wlseal_scene_view *v,
		      int64_t x, int64_t y, const pixman_region32_t *damage)
{
	pixman_region32_t d;

	pixman_region32_init(&d);
	scene_region_to_output(scene, damage, x, y, v->width, v->height, &d);
	pixman_region32_union(&scene->damage, &scene->damage, &d);
	bound(&scene->damage);
	pixman_region32_fini(&d);
}

void wlseal_scene_damage_view(struct wlseal_scene *scene,
			      struct wlseal_scene_view *v,
			      const pixman_region32_t *damage)
{
	int64_t x, y;

	if (!wlseal_scene_view_visible(v))
		return;
	wlseal_scene_view_origin(v, &x, &y);
	damage_at(scene, v, x, y, damage);
}

/* All of @v and of what is stacked on it, if it shows. */
static void damage_tree(struct wlseal_scene *scene, struct wlseal_scene_view *v)
{
	struct scene_walk w;
	int64_t x, y;

	if (!wlseal_scene_view_visible(v))
		return;
	wlseal_scene_view_origin(v->parent, &x, &y);
	scene_walk_begin(&w, v, x, y);
	do {
		scene->visits++;
		damage_at(scene, w.v, w.x, w.y, NULL);
	} while (scene_walk_next(&w));
}

void wlseal_scene_map(struct wlseal_scene *scene, struct wlseal_scene_view *v)
{
	unsigned int slot;

	scene->layout++;
	if (v->parent) {
		v->mapped = true;
		damage_tree(scene, v);
		wl_signal_emit(&scene->map_signal, v);
		return;
	}
	/* A cascade: each new window a step down and right of the last,
	 * wrapping after a few, so that several are visible at once. */
	slot = scene->cascade_next++ % WLSEAL_CASCADE_SLOTS;
	v->x = WLSEAL_CASCADE_X0 + (int32_t)slot * WLSEAL_CASCADE_STEP;
	v->y = WLSEAL_CASCADE_Y0 + (int32_t)slot * WLSEAL_CASCADE_STEP;
	v->mapped = true;
	v->stack = &scene->views;
	wl_list_insert(scene->views.prev, &v->link);	/* on top */
	damage_tree(scene, v);
	wl_signal_emit(&scene->map_signal, v);
}

void wlseal_scene_unmap(struct wlseal_scene *scene,
			struct wlseal_scene_view *v)
{
	damage_tree(scene, v);
	scene->layout++;
	v->mapped = false;
	if (!v->parent) {
		wl_list_remove(&v->link);
		wl_list_init(&v->link);
		v->stack = NULL;
	}
	wl_signal_emit(&scene->unmap_signal, v);
}

void wlseal_scene_add_child(struct wlseal_scene *scene,
			    struct wlseal_scene_view *parent,
			    struct wlseal_scene_view *child)
{
	child->parent = parent;
	child->mapped = false;
	child->stack = &parent->above;
	wl_list_insert(parent->above.prev, &child->link);
}

void wlseal_scene_remove_child(struct wlseal_scene *scene,
			       struct wlseal_scene_view *child)
{
	damage_tree(scene, child);
	scene->layout++;
	wl_list_remove(&child->link);
	wl_list_init(&child->link);
	child->stack = NULL;
	child->parent = NULL;
	child->mapped = false;
}

void wlseal_scene_place(struct wlseal_scene *scene,
			struct wlseal_scene_view *child,
			struct wlseal_scene_view *ref, bool above)
{
	struct wlseal_scene_view *parent = child->parent;
	struct wl_list *stack, *after;

	/* Just above the parent is the bottom of its above stack, just
	 * below it the top of its below stack. */
	if (ref == parent) {
		stack = above ? &parent->above : &parent->below;
		after = above ? &parent->above : parent->below.prev;
	} else {
		stack = ref->stack;
		after = above ? &ref->link : ref->link.prev;
	}
	if (after == &child->link || child->link.prev == after)
		return;		/* already there */
	scene->layout++;
	damage_tree(scene, child);
	wl_list_remove(&child->link);
	wl_list_insert(after, &child->link);
	child->stack = stack;
	damage_tree(scene, child);
}

void wlseal_scene_move(struct wlseal_scene *scene,
		       struct wlseal_scene_view *v, int32_t x, int32_t y)
{
	if (v->x == x && v->y == y)
		return;
	scene->layout++;
	damage_tree(scene, v);
	v->x = x;
	v->y = y;
	damage_tree(scene, v);
}

void wlseal_scene_set_size(struct wlseal_scene *scene,
			   struct wlseal_scene_view *v, int32_t width,
			   int32_t height)
{
	if (v->width == width && v->height == height)
		return;
	scene->layout++;
	/* The old area and the new: whatever the view showed or will. */
	wlseal_scene_damage_view(scene, v, NULL);
	v->width = width;
	v->height = height;
	wlseal_scene_damage_view(scene, v, NULL);
}

void wlseal_scene_set_input(struct wlseal_scene *scene,
			    struct wlseal_scene_view *v,
			    const pixman_region32_t *input)
{
	v->input = input;
	scene->layout++;
}
