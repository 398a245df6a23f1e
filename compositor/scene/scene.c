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
	scene->draws = NULL;
	scene->draws_cap = 0;
	wl_signal_init(&scene->map_signal);
	wl_signal_init(&scene->unmap_signal);
	wl_signal_init(&scene->frame_signal);
}

void wlseal_scene_finish(struct wlseal_scene *scene)
{
	pixman_region32_fini(&scene->damage);
	pixman_region32_fini(&scene->prev_damage);
	free(scene->draws);
	scene->draws = NULL;
	scene->draws_cap = 0;
}

void wlseal_scene_view_init(struct wlseal_scene_view *view,
			    const struct wlseal_scene_source *source)
{
	*view = (struct wlseal_scene_view){ .source = source,
					    .box_dirty = true };
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

/*
 * Subtree boxes. A change to a view with everything stacked on it (a
 * map, an unmap, a move, a restack) must damage all that its subtree
 * covers. A walk of the subtree, a rectangle a view, made moving a
 * subsurface that holds 1022 others cost 1023 region unions a commit
 * (gaps of 125-281 ms for other clients). Instead every view keeps the
 * box of its subtree: what it and its mapped descendants can cover, in
 * its own coordinates, so that moving the view leaves it as it is. Such
 * a change damages that box, at the old and at the new place: two
 * rectangles, whatever the subtree holds.
 *
 * Boxes are kept lazily. What can change a box (a view's size; a child
 * mapped, unmapped, moved or removed) marks it dirty, and its ancestors'
 * up to the first that is dirty already or not counted by its parent
 * (box_invalidate): O(depth), at most 32 levels (surface/subcompositor.c).
 * Stopping there is right by this rule: a mapped view with a dirty box
 * has a parent with a dirty box. subtree_box finds a dirty box again
 * from its children's, descending only into dirty ones, so its cost is
 * the children of the views that changed, never the clean rest of the
 * subtree; a restack changes no box at all.
 */

static bool box_empty(const struct wlseal_scene_box *b)
{
	return b->x1 >= b->x2 || b->y1 >= b->y2;
}

/* @b grows to hold @c moved by (@dx, @dy). */
static void box_add(struct wlseal_scene_box *b, const struct wlseal_scene_box *c,
		    int64_t dx, int64_t dy)
{
	struct wlseal_scene_box m = { c->x1 + dx, c->y1 + dy, c->x2 + dx,
				      c->y2 + dy };

	if (box_empty(&m))
		return;
	if (box_empty(b)) {
		*b = m;
		return;
	}
	b->x1 = m.x1 < b->x1 ? m.x1 : b->x1;
	b->y1 = m.y1 < b->y1 ? m.y1 : b->y1;
	b->x2 = m.x2 > b->x2 ? m.x2 : b->x2;
	b->y2 = m.y2 > b->y2 ? m.y2 : b->y2;
}

/* @v's box may have changed: mark it, and its ancestors' as the rule
 * above needs. */
static void box_invalidate(struct wlseal_scene_view *v)
{
	for (; v && !v->box_dirty; v = v->parent) {
		v->box_dirty = true;
		if (!v->mapped)
			break;	/* its parent does not count it */
	}
}

/* The first mapped child of @p with a dirty box after @after (NULL:
 * from the bottom of the below stack), below stack first. */
static struct wlseal_scene_view *dirty_child(struct wlseal_scene *scene,
					     struct wlseal_scene_view *p,
					     struct wlseal_scene_view *after)
{
	struct wl_list *head = after ? after->stack : &p->below;
	struct wl_list *l = after ? after->link.next : head->next;

	for (;;) {
		for (; l != head; l = l->next) {
			struct wlseal_scene_view *c = wl_container_of(l, c, link);

			scene->visits++;
			if (c->mapped && c->box_dirty)
				return c;
		}
		if (head == &p->above)
			return NULL;
		head = &p->above;
		l = head->next;
	}
}

/* @v's box from its size and its mapped children's boxes (all clean). */
static void box_compute(struct wlseal_scene *scene, struct wlseal_scene_view *v)
{
	struct wlseal_scene_box b = { 0, 0, v->width, v->height };
	struct wl_list *stacks[2] = { &v->below, &v->above };
	struct wlseal_scene_view *c;

	for (int i = 0; i < 2; i++)
		wl_list_for_each(c, stacks[i], link) {
			scene->visits++;
			if (c->mapped)
				box_add(&b, &c->box, c->x, c->y);
		}
	v->box = b;
	v->box_dirty = false;
}

/* @v's subtree box, found again if dirty: a post-order walk of the
 * dirty part without recursion (a client chooses how deep it nests).
 * Down to a view whose mapped children are all clean, compute it, then
 * on to its next dirty sibling (and down again) or up to its parent;
 * each dirty view's children are scanned once, and once summed. */
static const struct wlseal_scene_box *subtree_box(struct wlseal_scene *scene,
						  struct wlseal_scene_view *v)
{
	struct wlseal_scene_view *cur = v, *c;

	while (v->box_dirty) {
		while ((c = dirty_child(scene, cur, NULL)))
			cur = c;
		for (;;) {
			box_compute(scene, cur);
			if (cur == v)
				break;
			c = dirty_child(scene, cur->parent, cur);
			if (c) {
				cur = c;
				break;
			}
			cur = cur->parent;
		}
	}
	return &v->box;
}

/* All that @v's subtree can cover, if @v shows: its box at its origin.
 * O(depth) and the upkeep of the boxes that changed, never a walk of
 * the subtree. */
static void damage_subtree(struct wlseal_scene *scene,
			   struct wlseal_scene_view *v)
{
	const struct wlseal_scene_box *b;
	pixman_box32_t out;
	int64_t x, y;

	if (!wlseal_scene_view_visible(v))
		return;
	b = subtree_box(scene, v);
	wlseal_scene_view_origin(v, &x, &y);
	if (!scene_clip_box(scene, x + b->x1, y + b->y1, x + b->x2, y + b->y2,
			    &out))
		return;
	pixman_region32_union_rect(&scene->damage, &scene->damage, out.x1,
				   out.y1, (unsigned)(out.x2 - out.x1),
				   (unsigned)(out.y2 - out.y1));
	bound(&scene->damage);
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

/* The topmost view of @top's tree that takes input at (@x, @y), into
 * *@found, or *@found unchanged. A tree whose box misses the point is
 * passed over whole. */
static void tree_at(struct wlseal_scene *scene, struct wlseal_scene_view *top,
		    double x, double y, struct wlseal_scene_view **found,
		    double *sx, double *sy)
{
	const struct wlseal_scene_box *b = subtree_box(scene, top);
	struct scene_walk w;

	scene->visits++;
	if (x < (double)(top->x + b->x1) || x >= (double)(top->x + b->x2) ||
	    y < (double)(top->y + b->y1) || y >= (double)(top->y + b->y2))
		return;
	scene_walk_begin(&w, top, 0, 0);
	do {
		double vx = x - (double)w.x, vy = y - (double)w.y;

		scene->visits++;
		if (takes_input(w.v, vx, vy)) {
			*found = w.v;
			*sx = vx;
			*sy = vy;
		}
	} while (scene_walk_next(&w));
}

struct wlseal_scene_view *wlseal_scene_view_at(struct wlseal_scene *scene,
					       double x, double y,
					       double *sx, double *sy)
{
	struct wlseal_scene_view *top, *found = NULL;

	/* Bottom first, so the last view that matches is on top. */
	scene->hit_tests++;
	wl_list_for_each(top, &scene->views, link)
		tree_at(scene, top, x, y, &found, sx, sy);
	return found;
}

struct wlseal_scene_view *wlseal_scene_view_at_within(struct wlseal_scene *scene,
						      struct wlseal_scene_view *top,
						      double x, double y,
						      double *sx, double *sy)
{
	struct wlseal_scene_view *found = NULL;

	if (top->mapped && !top->parent)
		tree_at(scene, top, x, y, &found, sx, sy);
	return found;
}

void wlseal_scene_request_frame(struct wlseal_scene *scene)
{
	wl_signal_emit(&scene->frame_signal, NULL);
}

void wlseal_scene_map(struct wlseal_scene *scene, struct wlseal_scene_view *v)
{
	unsigned int slot;

	scene->layout++;
	if (v->parent) {
		v->mapped = true;
		box_invalidate(v->parent);
		damage_subtree(scene, v);
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
	v->stacked = ++scene->stack_next;
	damage_subtree(scene, v);
	wl_signal_emit(&scene->map_signal, v);
}

int32_t wlseal_scene_fit(int32_t v, int64_t size, int32_t out)
{
	if ((int64_t)v + size <= out)
		return v;
	return size >= out ? 0 : (int32_t)(out - size);
}

void wlseal_scene_keep_grabbable(int64_t *x, int64_t *y, int32_t w,
				 int32_t out_w, int32_t out_h)
{
	*x = *x < -(int64_t)w + 1 ? -(int64_t)w + 1 : *x;
	*x = *x > out_w - 1 ? out_w - 1 : *x;
	*y = *y < 0 ? 0 : *y > out_h - 1 ? out_h - 1 : *y;
}

void wlseal_scene_unmap(struct wlseal_scene *scene,
			struct wlseal_scene_view *v)
{
	damage_subtree(scene, v);
	scene->layout++;
	v->mapped = false;
	box_invalidate(v->parent);
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
	/* Hidden: no box counts it yet. */
	child->parent = parent;
	child->mapped = false;
	child->stack = &parent->above;
	wl_list_insert(parent->above.prev, &child->link);
}

void wlseal_scene_remove_child(struct wlseal_scene *scene,
			       struct wlseal_scene_view *child)
{
	damage_subtree(scene, child);
	scene->layout++;
	if (child->mapped)
		box_invalidate(child->parent);
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
	/* It covers the same pixels, in another order: one box to
	 * damage, and none changes. */
	scene->layout++;
	damage_subtree(scene, child);
	wl_list_remove(&child->link);
	wl_list_insert(after, &child->link);
	child->stack = stack;
}

bool wlseal_scene_under(const struct wlseal_scene_view *a,
			const struct wlseal_scene_view *b)
{
	return a->stacked < b->stacked;
}

/* Top-level views keep their order in @stacked without a walk of the
 * list (which holds every client's windows): a view mapped gets the
 * next number, a view put under another takes that one's number, ties
 * broken by the list. The shells compare views of one client only. */
void wlseal_scene_put_under(struct wlseal_scene *scene,
			    struct wlseal_scene_view *v,
			    struct wlseal_scene_view *ref)
{
	if (v == ref || v->parent || ref->parent || !v->mapped || !ref->mapped)
		return;
	wlseal_scene_place(scene, v, ref, false);
	v->stacked = ref->stacked;
}

void wlseal_scene_move(struct wlseal_scene *scene,
		       struct wlseal_scene_view *v, int32_t x, int32_t y)
{
	if (v->x == x && v->y == y)
		return;
	scene->layout++;
	damage_subtree(scene, v);
	v->x = x;
	v->y = y;
	/* Its own box is in its own coordinates: only the parent's (and
	 * up) can change. */
	if (v->mapped)
		box_invalidate(v->parent);
	damage_subtree(scene, v);
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
	box_invalidate(v);
	wlseal_scene_damage_view(scene, v, NULL);
}

void wlseal_scene_set_input(struct wlseal_scene *scene,
			    struct wlseal_scene_view *v,
			    const pixman_region32_t *input)
{
	v->input = input;
	scene->layout++;
}

/*
 * Direct scanout: is the frame one view's pixels as they are? Only the
 * topmost top-level view can be (every top-level view in the list is
 * mapped), and only if nothing of its own shows above it. Its children
 * below are hidden under it when it is opaque and covers the output;
 * those above are its client's, bounded by that client's subsurface
 * budget, and the walk stops at the first one shown.
 */
struct wlseal_scene_view *
wlseal_scene_scanout_candidate(struct wlseal_scene *scene,
			       struct wlseal_scene_scanout *out, char *why,
			       size_t why_len)
{
	struct wlseal_scene_view *v, *child;
	pixman_box32_t all = { 0, 0, scene->width, scene->height };

	why[0] = '\0';
	if (wl_list_empty(&scene->views))
		return NULL;
	v = wl_container_of(scene->views.prev, v, link);
	if (!v->source->scanout || v->transform || v->x != 0 || v->y != 0 ||
	    v->width != scene->width || v->height != scene->height)
		return NULL;
	wl_list_for_each(child, &v->above, link)
		if (child->mapped)
			return NULL;
	if (!v->source->scanout(v, out, why, why_len))
		return NULL;
	if (out->width != scene->width || out->height != scene->height ||
	    (!out->opaque_format &&
	     (!v->opaque || pixman_region32_contains_rectangle(
		(pixman_region32_t *)v->opaque, &all) != PIXMAN_REGION_IN))) {
		out->ops->unref(out->key);
		return NULL;
	}
	return v;
}

void wlseal_scene_scanned_out(struct wlseal_scene *scene)
{
	pixman_region32_copy(&scene->prev_damage, &scene->damage);
	pixman_region32_clear(&scene->damage);
}
