/* SPDX-License-Identifier: MIT */
/*
 * scene.c - where views are on the output, and drawing them with pixman.
 *
 * Rendering is damage-tracked: the scene accumulates, in output
 * coordinates, every area that changed since the last repaint, and a
 * repaint touches only those pixels (plus what the target image missed
 * while it was off screen, see wlseal_scene_render). A client that
 * changes a 64x64 square costs a 64x64 copy.
 */
#include <stdlib.h>

#include "overdraw.h"
#include "scene.h"

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
 * to the part of the view that is on the output (clip_box,
 * view_region_to_output): damage is never lost, never reaches past the
 * view's own area, and no pixman coordinate leaves the output.
 */

/* The box (@x1, @y1)-(@x2, @y2), output coordinates, clipped to the
 * output into @out; false when none of it is on the output. */
static bool clip_box(const struct wlseal_scene *scene, int64_t x1, int64_t y1,
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

/*
 * @region (view coordinates; NULL: all of it) of a view @w x @h whose
 * origin is at (@x, @y), as far as it lies inside the view and on the
 * output: into @out (initialized), output coordinates. It is clipped
 * before it is moved: the clipped box is within 0..@w x 0..@h of the
 * view, and (@x, @y) of a view that is partly on the output lies within
 * (-@w, -@h)..the output's size, so the move cannot overflow.
 */
static void view_region_to_output(const struct wlseal_scene *scene,
				  const pixman_region32_t *region, int64_t x,
				  int64_t y, int32_t w, int32_t h,
				  pixman_region32_t *out)
{
	pixman_box32_t b;

	if (!clip_box(scene, x, y, x + w, y + h, &b)) {
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
struct walk {
	const struct wlseal_scene_view *root;
	struct wlseal_scene_view *v;
	int64_t x, y;			/* v's origin, output coordinates */
};

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

static void walk_enter(struct walk *w, struct wlseal_scene_view *child)
{
	struct wlseal_scene_view *c;

	/* Into @child, then down to the bottom of its subtree. */
	for (c = child; c; c = next_mapped(&c->below, &c->below)) {
		w->x += c->x;
		w->y += c->y;
		w->v = c;
	}
}

/* @root is mapped; (@x, @y) is its parent's origin (0, 0: top-level). */
static void walk_begin(struct walk *w, struct wlseal_scene_view *root,
		       int64_t x, int64_t y)
{
	*w = (struct walk){ .root = root, .x = x, .y = y };
	walk_enter(w, root);
}

static bool walk_next(struct walk *w)
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
		struct walk w;

		walk_begin(&w, top, 0, 0);
		do {
			double vx = x - (double)w.x, vy = y - (double)w.y;

			scene->visits++;
			if (takes_input(w.v, vx, vy)) {
				found = w.v;
				*sx = vx;
				*sy = vy;
			}
		} while (walk_next(&w));
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

/*
 * The scene's damage gathers every view's: each view's is bounded
 * (wl/region.c collapses a surface's past 32 rectangles), but many views,
 * or many commits before one repaint, would add up, and every union
 * costs time in proportion to what the region holds: quadratic in the
 * count of views damaged between two repaints. Past MAX_DAMAGE_RECTS the
 * damage collapses to its extents: more pixels repainted, never fewer,
 * and never more than the output. The same bound keeps the repaint's
 * opaque cover small (find_visible).
 */
#define MAX_DAMAGE_RECTS 64

static void bound(pixman_region32_t *region)
{
	pixman_box32_t extents;

	if (pixman_region32_n_rects(region) <= MAX_DAMAGE_RECTS)
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
	view_region_to_output(scene, damage, x, y, v->width, v->height, &d);
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
	struct walk w;
	int64_t x, y;

	if (!wlseal_scene_view_visible(v))
		return;
	wlseal_scene_view_origin(v->parent, &x, &y);
	walk_begin(&w, v, x, y);
	do {
		scene->visits++;
		damage_at(scene, w.v, w.x, w.y, NULL);
	} while (walk_next(&w));
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

/* The view's image as the view shows it: sampled through its transform
 * (scene.h), so that the composite covers the view's size. */
static void view_image_setup(const struct wlseal_scene_view *v,
			     pixman_image_t *image)
{
	if (!v->transform)
		return;
	pixman_image_set_transform(image, v->transform);
	pixman_image_set_filter(image, v->filter, NULL, 0);
	pixman_image_set_repeat(image, PIXMAN_REPEAT_PAD);
}

/* What the view covers: its size (a transformed image may be larger or
 * smaller), and no more than the image itself when it is not. */
static void view_extent(const struct wlseal_scene_view *v,
			pixman_image_t *image, int *w, int *h)
{
	*w = v->width;
	*h = v->height;
	if (!v->transform) {
		if (pixman_image_get_width(image) < *w)
			*w = pixman_image_get_width(image);
		if (pixman_image_get_height(image) < *h)
			*h = pixman_image_get_height(image);
	}
}

/* One view's part in a repaint, found top-down, drawn bottom-up. */
struct draw {
	struct wlseal_scene_view *view;
	int64_t x, y;			/* its origin on the output */
	bool shown;			/* the rest is set only then */
	pixman_box32_t box;		/* what it covers (view_extent), on
					 * the output */
	pixman_image_t *image;		/* from view->source->begin() */
	pixman_region32_t clip;		/* what of the repaint it shows */
	pixman_region32_t opaque;	/* the part of clip it covers alone */
	uint64_t blend;			/* pixels it blends (clip - opaque) */
	bool no_blend;			/* over budget: opaque part only */
};

/* Visits every view that can show, bottom first, with its origin; returns
 * how many (@d, if not NULL, receives up to @max of them). */
static int flatten(struct wlseal_scene *scene, struct draw *d, int max)
{
	struct wlseal_scene_view *top;
	int n = 0;

	wl_list_for_each(top, &scene->views, link) {
		struct walk w;

		walk_begin(&w, top, 0, 0);
		do {
			if (d && n < max)
				d[n] = (struct draw){ .view = w.v, .x = w.x,
						      .y = w.y };
			n++;
		} while (walk_next(&w));
	}
	return n;
}

static uint64_t region_area(pixman_region32_t *region)
{
	pixman_box32_t *boxes;
	uint64_t area = 0;
	int n;

	boxes = pixman_region32_rectangles(region, &n);
	for (int i = 0; i < n; i++)
		area += (uint64_t)(boxes[i].x2 - boxes[i].x1) *
			(uint64_t)(boxes[i].y2 - boxes[i].y1);
	return area;
}

/*
 * The frame's overdraw budget (overdraw.c): only blending is budgeted.
 * An opaque pixel is written once a frame whoever covers it, so the
 * opaque parts of all views cost at most one output's area together;
 * they are always drawn, and so what covers what is the same whatever
 * the budget decides. Past its owner's allocation a view draws its
 * opaque part only, and is not drawn at all when it has none. Decided
 * top-down: the views a client loses are its lowest.
 */
static void apply_overdraw(struct wlseal_scene *scene, struct draw *d, int n)
{
	size_t slots = n > 0 ? (size_t)n : 1;
	const void **keys = malloc(sizeof(*keys) * slots);
	uint64_t *blend = malloc(sizeof(*blend) * slots);
	int *owner_of = malloc(sizeof(*owner_of) * slots);
	struct overdraw od;

	if (keys && blend && owner_of) {
		for (int i = 0; i < n; i++) {
			keys[i] = d[i].view->owner;
			blend[i] = d[i].shown ? d[i].blend : 0;
		}
		if (overdraw_plan(&od, keys, blend, n,
				  (uint64_t)scene->width *
				  (uint64_t)scene->height, owner_of)) {
			for (int i = n - 1; i >= 0; i--) {
				if (!d[i].shown ||
				    overdraw_take(&od, owner_of[i], blend[i]))
					continue;
				d[i].no_blend = true;
				if (pixman_region32_not_empty(&d[i].opaque))
					continue;
				d[i].shown = false;
				pixman_region32_fini(&d[i].clip);
				pixman_region32_fini(&d[i].opaque);
				pixman_image_unref(d[i].image);
				d[i].view->source->end(d[i].view);
			}
			overdraw_finish(&od);
		}
	}
	/* Without memory for the plan nothing is limited this frame. */
	free(keys);
	free(blend);
	free(owner_of);
}

/* Marks in @d (bottom first) the views that show in @region, deciding
 * top-down, and fills @covered with what opaque views cover. */
static void find_visible(struct wlseal_scene *scene, pixman_region32_t *region,
			 struct draw *d, int n, pixman_region32_t *covered)
{
	int i;

	for (i = n - 1; i >= 0; i--) {
		struct wlseal_scene_view *v = d[i].view;
		int64_t x = d[i].x, y = d[i].y;
		pixman_box32_t box;
		pixman_image_t *image;
		int w, h;

		/* A view outside the repaint costs no more than this test,
		 * so a frame's work follows its damage, not the view count. */
		if (!clip_box(scene, x, y, x + v->width, y + v->height, &box) ||
		    pixman_region32_contains_rectangle(region, &box) ==
		    PIXMAN_REGION_OUT)
			continue;
		image = v->source->begin(v);
		if (!image)
			continue;
		view_image_setup(v, image);
		view_extent(v, image, &w, &h);
		if (!clip_box(scene, x, y, x + w, y + h, &d[i].box)) {
			pixman_image_unref(image);
			v->source->end(v);
			continue;
		}
		d[i].image = image;
		pixman_region32_init_rect(&d[i].clip, d[i].box.x1, d[i].box.y1,
					  (unsigned)(d[i].box.x2 - d[i].box.x1),
					  (unsigned)(d[i].box.y2 - d[i].box.y1));
		pixman_region32_intersect(&d[i].clip, &d[i].clip, region);
		/* Under an opaque pixel of a view above, nothing shows. */
		pixman_region32_subtract(&d[i].clip, &d[i].clip, covered);
		if (!pixman_region32_not_empty(&d[i].clip)) {
			pixman_region32_fini(&d[i].clip);
			pixman_image_unref(image);
			v->source->end(v);
			continue;
		}
		/* x8r8g8b8 has no alpha: opaque by definition. Elsewhere the
		 * client's opaque region says so. */
		if (pixman_image_get_format(image) == PIXMAN_x8r8g8b8) {
			pixman_region32_init(&d[i].opaque);
			pixman_region32_copy(&d[i].opaque, &d[i].clip);
		} else if (v->opaque && pixman_region32_not_empty(v->opaque)) {
			pixman_region32_init(&d[i].opaque);
			view_region_to_output(scene, v->opaque, x, y, w, h,
					      &d[i].opaque);
			pixman_region32_intersect(&d[i].opaque, &d[i].opaque,
						  &d[i].clip);
		} else {
			pixman_region32_init(&d[i].opaque);
		}
		/* The cover only saves drawing: past MAX_DAMAGE_RECTS it
		 * stops growing (it must never grow beyond what is opaque,
		 * so it is not collapsed), and every subtract above stays
		 * bounded however many opaque views there are. */
		if (pixman_region32_n_rects(covered) <= MAX_DAMAGE_RECTS)
			pixman_region32_union(covered, covered, &d[i].opaque);
		d[i].blend = region_area(&d[i].clip) -
			     region_area(&d[i].opaque);
		d[i].shown = true;
	}
}

/* @src, a view's image with its origin at (@x, @y), over the part
 * @box of the output (inside the view, view_extent), clipped to @clip.
 * Only @box's corner reaches pixman as a destination: inside the output,
 * whatever the origin. */
static void composite_clipped(pixman_op_t op, pixman_image_t *src,
			      pixman_image_t *target, pixman_region32_t *clip,
			      int64_t x, int64_t y, const pixman_box32_t *box)
{
	if (!pixman_region32_not_empty(clip))
		return;
	pixman_image_set_clip_region32(target, clip);
	pixman_image_composite32(op, src, NULL, target, (int32_t)(box->x1 - x),
				 (int32_t)(box->y1 - y), 0, 0, box->x1, box->y1,
				 box->x2 - box->x1, box->y2 - box->y1);
}

/*
 * Draws one view: SRC where it is opaque (nothing below shows through,
 * and nothing below was drawn there: those pixels are written once),
 * OVER elsewhere, onto what the views below left. Where the opaque
 * region covers pixels of an a8r8g8b8 buffer, their alpha is ignored, as
 * the client declared: the same pixels are read as x8r8g8b8.
 */
static void draw_view(struct draw *d, pixman_image_t *target)
{
	pixman_region32_t rest;

	if (pixman_region32_not_empty(&d->opaque)) {
		pixman_image_t *opaque = d->image;

		if (pixman_image_get_format(d->image) != PIXMAN_x8r8g8b8)
			opaque = pixman_image_create_bits_no_clear(
				PIXMAN_x8r8g8b8,
				pixman_image_get_width(d->image),
				pixman_image_get_height(d->image),
				pixman_image_get_data(d->image),
				pixman_image_get_stride(d->image));
		if (opaque) {
			if (opaque != d->image)
				view_image_setup(d->view, opaque);
			composite_clipped(PIXMAN_OP_SRC, opaque, target,
					  &d->opaque, d->x, d->y, &d->box);
			if (opaque != d->image)
				pixman_image_unref(opaque);
		} else {
			/* No memory for the wrapper: blend, as if the
			 * region were not there (same pixels when honest),
			 * over budget or not: what it covers must be drawn. */
			pixman_region32_clear(&d->opaque);
			d->no_blend = false;
		}
	}
	if (d->no_blend)
		return;
	pixman_region32_init(&rest);
	pixman_region32_subtract(&rest, &d->clip, &d->opaque);
	composite_clipped(PIXMAN_OP_OVER, d->image, target, &rest, d->x, d->y,
			  &d->box);
	pixman_region32_fini(&rest);
}

/* The fallback without per-view state: background, then every view
 * over it, all clipped to @region. */
static void render_plain(struct wlseal_scene *scene, pixman_image_t *target,
			 pixman_region32_t *region, const pixman_color_t *bg)
{
	struct wlseal_scene_view *top;
	pixman_box32_t *boxes;
	int n;

	boxes = pixman_region32_rectangles(region, &n);
	pixman_image_fill_boxes(PIXMAN_OP_SRC, target, bg, n, boxes);
	wl_list_for_each(top, &scene->views, link) {
		struct walk w;

		walk_begin(&w, top, 0, 0);
		do {
			struct wlseal_scene_view *v = w.v;
			pixman_image_t *image = v->source->begin(v);
			pixman_box32_t box;
			int vw, vh;

			if (!image)
				continue;
			view_image_setup(v, image);
			view_extent(v, image, &vw, &vh);
			if (clip_box(scene, w.x, w.y, w.x + vw, w.y + vh, &box))
				composite_clipped(PIXMAN_OP_OVER, image, target,
						  region, w.x, w.y, &box);
			pixman_image_unref(image);
			v->source->end(v);
		} while (walk_next(&w));
	}
	pixman_image_set_clip_region32(target, NULL);
}

uint64_t wlseal_scene_render(struct wlseal_scene *scene,
			     pixman_image_t *target, int age,
			     pixman_region32_t *drawn)
{
	static const pixman_color_t bg = {
		.red = ((WLSEAL_BACKGROUND >> 16) & 0xff) * 0x101,
		.green = ((WLSEAL_BACKGROUND >> 8) & 0xff) * 0x101,
		.blue = (WLSEAL_BACKGROUND & 0xff) * 0x101,
		.alpha = 0xffff,
	};
	struct draw stack_draws[32], *draws = stack_draws;
	pixman_region32_t region, covered, background;
	pixman_box32_t *boxes;
	uint64_t area;
	int i, nviews;

	/*
	 * What to redraw depends on how stale the target is: a single
	 * buffer (age 1) missed only the new damage; the back buffer of a
	 * double-buffered output (age 2) also missed what the previous
	 * frame drew into the other buffer; unknown content (age 0) is
	 * redrawn entirely.
	 */
	pixman_region32_init(&region);
	pixman_region32_copy(&region, &scene->damage);
	if (age == 2)
		pixman_region32_union(&region, &region, &scene->prev_damage);
	else if (age != 1)
		pixman_region32_union_rect(&region, &region, 0, 0,
					   scene->width, scene->height);

	/* Which views show where, top-down; then the background only
	 * where no opaque view covers it, then the views bottom-up, each
	 * clipped to what it shows: the cost follows damage, and a pixel
	 * under an opaque view is written once. */
	nviews = flatten(scene, NULL, 0);
	if (nviews > (int)(sizeof(stack_draws) / sizeof(stack_draws[0])))
		draws = calloc((size_t)nviews, sizeof(*draws));
	if (!draws) {
		/* No memory for the bookkeeping: draw everything in the
		 * region bottom-up, which needs none (same pixels). */
		render_plain(scene, target, &region, &bg);
		goto done;
	}
	flatten(scene, draws, nviews);
	pixman_region32_init(&covered);
	find_visible(scene, &region, draws, nviews, &covered);
	apply_overdraw(scene, draws, nviews);

	pixman_region32_init(&background);
	pixman_region32_subtract(&background, &region, &covered);
	boxes = pixman_region32_rectangles(&background, &i);
	pixman_image_fill_boxes(PIXMAN_OP_SRC, target, &bg, i, boxes);
	pixman_region32_fini(&background);
	pixman_region32_fini(&covered);

	for (i = 0; i < nviews; i++) {
		if (!draws[i].shown)
			continue;
		draw_view(&draws[i], target);
		pixman_image_unref(draws[i].image);
		draws[i].view->source->end(draws[i].view);
		pixman_region32_fini(&draws[i].clip);
		pixman_region32_fini(&draws[i].opaque);
	}
	pixman_image_set_clip_region32(target, NULL);
	if (draws != stack_draws)
		free(draws);
done:
	area = region_area(&region);

	if (drawn)
		pixman_region32_copy(drawn, &region);
	pixman_region32_copy(&scene->prev_damage, &scene->damage);
	pixman_region32_clear(&scene->damage);
	pixman_region32_fini(&region);
	return area;
}
