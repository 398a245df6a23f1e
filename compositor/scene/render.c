/* SPDX-License-Identifier: MIT */
/*
 * render.c - drawing the scene with pixman (scene.c keeps the views and
 * what they damaged): every view that shows in the repaint's region,
 * top-down to find what covers what, bottom-up to draw, within the
 * overdraw budget (account/overdraw.c).
 */
#include <stdlib.h>
#include <time.h>

#include "log.h"
#include "overdraw.h"
#include "scene-private.h"

static uint64_t thread_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * The overdraw budget's unit, one pixel blended OVER 1:1, in nanoseconds
 * of this thread's CPU on this machine: measured once, at the first
 * repaint, on a 64x64 square (UNIT_ROUNDS blends; the cheaper of two
 * passes, so that a pass cut into by the cache's coldness does not make
 * the unit dear and what is charged in it cheap). What a source says its
 * readiness check costs in nanoseconds (ready_cost_ns) is charged in
 * this unit, so the budget bounds the repaint's CPU on any host.
 */
#define UNIT_SIDE 64
#define UNIT_ROUNDS 16

static double unit_ns(void)
{
	static double unit;
	static uint32_t src_px[UNIT_SIDE * UNIT_SIDE];
	static uint32_t dst_px[UNIT_SIDE * UNIT_SIDE];
	pixman_image_t *src, *dst;

	if (unit > 0)
		return unit;
	for (int i = 0; i < UNIT_SIDE * UNIT_SIDE; i++)
		src_px[i] = 0x80402010u + (uint32_t)i;
	src = pixman_image_create_bits(PIXMAN_a8r8g8b8, UNIT_SIDE, UNIT_SIDE,
				       src_px, UNIT_SIDE * 4);
	dst = pixman_image_create_bits(PIXMAN_x8r8g8b8, UNIT_SIDE, UNIT_SIDE,
				       dst_px, UNIT_SIDE * 4);
	unit = 0;
	if (src && dst) {
		for (int pass = 0; pass < 2; pass++) {
			uint64_t t0 = thread_ns();
			double ns;

			for (int i = 0; i < UNIT_ROUNDS; i++)
				pixman_image_composite32(PIXMAN_OP_OVER, src,
							 NULL, dst, 0, 0, 0, 0,
							 0, 0, UNIT_SIDE,
							 UNIT_SIDE);
			ns = (double)(thread_ns() - t0) /
			     (UNIT_ROUNDS * UNIT_SIDE * UNIT_SIDE);
			if (unit == 0 || ns < unit)
				unit = ns;
		}
	}
	if (src)
		pixman_image_unref(src);
	if (dst)
		pixman_image_unref(dst);
	/* A clock that did not move: a tenth of a nanosecond, about the
	 * cheapest blend there is. */
	if (unit < 0.1)
		unit = 0.1;
	wlseal_log("overdraw budget: one pixel blended costs %.2f ns here (the budget's unit)",
		   unit);
	return unit;
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
	uint64_t cost;			/* what they all cost
					 * (view_cost_weights) */
	bool sampled;			/* its opaque pixels cost too */
	bool checked;			/* its source's ready() costs: it
					 * is charged with its pixels */
	bool no_blend;			/* over budget: opaque part only */
	bool no_sample;			/* over budget, or not ready: its
					 * opaque part is filled with the
					 * background */
	struct wlseal_scene_box part;	/* the clip's extents, in view
					 * coordinates: what it samples */
};

/*
 * What a view's pixels cost to draw, in units of one pixel blended
 * (OVER) 1:1, the unit of the overdraw budget. Measured with pixman
 * (bench/pixel-cost prints the table on the machine at hand); the
 * weights are the measured ratios rounded up:
 *
 *   how the view is sampled           blended    opaque (SRC)
 *   1:1, or whole-pixel moves              1       0 (see below)
 *   scaled, nearest                        2       1
 *   turned 90/270 (nearest)                4       3
 *   scaled, bilinear                       4       2
 *   turned and bilinear                   16      16
 *
 * A 1:1 opaque pixel is a copy and is written once a frame whoever
 * covers it (find_visible), so all of them together cost at most one
 * output's copy: they are never charged and always drawn, which keeps
 * what covers what the same whatever the budget decides. A sampled
 * opaque pixel costs what its sampling does, up to 16 times a blend:
 * it is charged, and past the budget its area is filled with the
 * background instead (still covered, so nothing below is drawn there).
 */
static void view_cost_weights(const struct wlseal_scene_view *v,
			      unsigned int *blend_w, unsigned int *opaque_w)
{
	const pixman_transform_t *t = v->transform;
	bool turned, scaled, bilinear;

	if (!t) {
		*blend_w = 1;
		*opaque_w = 0;
		return;
	}
	turned = t->matrix[0][1] != 0 || t->matrix[1][0] != 0;
	scaled = !turned &&
		 ((t->matrix[0][0] != pixman_fixed_1 &&
		   t->matrix[0][0] != -pixman_fixed_1) ||
		  (t->matrix[1][1] != pixman_fixed_1 &&
		   t->matrix[1][1] != -pixman_fixed_1));
	bilinear = v->filter != PIXMAN_FILTER_NEAREST &&
		   v->filter != PIXMAN_FILTER_FAST;
	if (turned && bilinear) {
		*blend_w = 16;
		*opaque_w = 16;
	} else if (turned) {
		*blend_w = 4;
		*opaque_w = 3;
	} else if (bilinear) {
		*blend_w = 4;
		*opaque_w = 2;
	} else if (scaled) {
		*blend_w = 2;
		*opaque_w = 1;
	} else {
		/* Flips and whole offsets: a copy. */
		*blend_w = 1;
		*opaque_w = 0;
	}
}

/* Visits every view that can show, bottom first, with its origin; returns
 * how many (@d, if not NULL, receives up to @max of them). */
static int flatten(struct wlseal_scene *scene, struct draw *d, int max)
{
	struct wlseal_scene_view *top;
	int n = 0;

	wl_list_for_each(top, &scene->views, link) {
		struct scene_walk w;

		scene_walk_begin(&w, top, 0, 0);
		do {
			if (d && n < max)
				d[n] = (struct draw){ .view = w.v, .x = w.x,
						      .y = w.y };
			n++;
		} while (scene_walk_next(&w));
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

/* @d is not drawn at all. */
static void drop_draw(struct draw *d)
{
	d->shown = false;
	pixman_region32_fini(&d->clip);
	pixman_region32_fini(&d->opaque);
	pixman_image_unref(d->image);
	d->view->source->end(d->view);
}

/*
 * The frame's overdraw budget (account/overdraw.c), a budget of cost:
 * each view is charged what its pixels cost to draw (view_cost_weights:
 * blended pixels, and opaque ones that are sampled through a
 * transform). 1:1 opaque pixels are written once a frame whoever covers
 * them, so together they cost at most one output's copy: never charged,
 * always drawn, and so what covers what is the same whatever the budget
 * decides. Past its owner's allocation a view draws its opaque part
 * only (1:1 and ready without a lookup: copied; sampled, or whose pages
 * would have to be looked up: filled with the background), and is not
 * drawn at all when it has none. Decided top-down: the views a client
 * loses are its lowest.
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
			blend[i] = d[i].shown ? d[i].cost : 0;
		}
		if (overdraw_plan(&od, keys, blend, n,
				  (uint64_t)scene->width *
				  (uint64_t)scene->height, owner_of)) {
			for (int i = n - 1; i >= 0; i--) {
				if (!d[i].shown ||
				    overdraw_take(&od, owner_of[i], blend[i]))
					continue;
				d[i].no_blend = true;
				/* Its opaque part still covers, but what is
				 * not paid for is not done: no sampling
				 * through a transform, and no lookup of its
				 * pages (check_ready), which were charged
				 * with it; filled with the background. */
				if (pixman_region32_not_empty(&d[i].opaque)) {
					d[i].no_sample = d[i].sampled ||
							 d[i].checked;
					continue;
				}
				drop_draw(&d[i]);
			}
			overdraw_finish(&od);
		}
	}
	/* Without memory for the plan nothing is limited this frame. */
	free(keys);
	free(blend);
	free(owner_of);
}

/*
 * Asks the source of a view about to sample its pixels whether they can
 * be read now (a pool's pages in memory: shm/resident.c), right before
 * it is drawn, so that as little as possible happens in between. One
 * that cannot is not drawn this repaint: where it is opaque, and so was
 * counted as covering what is below, the background is filled in (as
 * over budget); elsewhere what is below shows. Its source damages it
 * when it can be drawn. The lookups were charged with the views' pixels
 * (find_visible), so the overdraw budget bounds them too. false: not
 * drawn at all.
 */
static bool check_ready(struct draw *d)
{
	struct wlseal_scene_view *v = d->view;

	if (d->no_sample || !v->source->ready || v->source->ready(v, &d->part))
		return true;
	d->no_blend = true;
	if (!pixman_region32_not_empty(&d->opaque))
		return false;
	d->no_sample = true;
	return true;
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
		if (!scene_clip_box(scene, x, y, x + v->width, y + v->height,
				    &box) ||
		    pixman_region32_contains_rectangle(region, &box) ==
		    PIXMAN_REGION_OUT)
			continue;
		image = v->source->begin(v);
		if (!image)
			continue;
		view_image_setup(v, image);
		view_extent(v, image, &w, &h);
		if (!scene_clip_box(scene, x, y, x + w, y + h, &d[i].box)) {
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
		{
			pixman_box32_t *e = pixman_region32_extents(&d[i].clip);

			d[i].part = (struct wlseal_scene_box){
				e->x1 - x, e->y1 - y, e->x2 - x, e->y2 - y };
		}
		/* x8r8g8b8 has no alpha: opaque by definition. Elsewhere the
		 * client's opaque region says so. */
		if (pixman_image_get_format(image) == PIXMAN_x8r8g8b8) {
			pixman_region32_init(&d[i].opaque);
			pixman_region32_copy(&d[i].opaque, &d[i].clip);
		} else if (v->opaque && pixman_region32_not_empty(v->opaque)) {
			pixman_region32_init(&d[i].opaque);
			scene_region_to_output(scene, v->opaque, x, y, w, h,
					       &d[i].opaque);
			pixman_region32_intersect(&d[i].opaque, &d[i].opaque,
						  &d[i].clip);
		} else {
			pixman_region32_init(&d[i].opaque);
		}
		/* The cover only saves drawing: past SCENE_MAX_RECTS it
		 * stops growing (it must never grow beyond what is opaque,
		 * so it is not collapsed), and every subtract above stays
		 * bounded however many opaque views there are. */
		if (pixman_region32_n_rects(covered) <= SCENE_MAX_RECTS)
			pixman_region32_union(covered, covered, &d[i].opaque);
		{
			uint64_t opaque_px = region_area(&d[i].opaque);
			unsigned int bw, ow;

			view_cost_weights(v, &bw, &ow);
			d[i].blend = region_area(&d[i].clip) - opaque_px;
			d[i].cost = d[i].blend * bw + opaque_px * ow;
			d[i].sampled = ow > 0;
			/* Finding out whether its pixels can be read
			 * (check_ready) costs too. */
			if (v->source->ready_cost_ns) {
				uint64_t ns = v->source->ready_cost_ns(v, &d[i].part);

				d[i].cost += (uint64_t)((double)ns / unit_ns());
				d[i].checked = ns > 0;
			}
		}
		d[i].shown = true;
	}
}

/* @src, a view's image with its origin at (@x, @y), over the part
 * @box of the output (inside the view, view_extent), clipped to @clip.
 * Only @box's corner reaches pixman as a destination: inside the output,
 * whatever the origin. The one place client pixels are copied: @copied
 * grows by the bytes written (the destination's area, 4 a pixel). */
static void composite_clipped(pixman_op_t op, pixman_image_t *src,
			      pixman_image_t *target, pixman_region32_t *clip,
			      int64_t x, int64_t y, const pixman_box32_t *box,
			      uint64_t *copied)
{
	pixman_region32_t dst;

	if (!pixman_region32_not_empty(clip))
		return;
	pixman_region32_init_rect(&dst, box->x1, box->y1,
				  (unsigned int)(box->x2 - box->x1),
				  (unsigned int)(box->y2 - box->y1));
	pixman_region32_intersect(&dst, &dst, clip);
	*copied += region_area(&dst) * 4;
	pixman_region32_fini(&dst);
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
static void draw_view(struct draw *d, pixman_image_t *target,
		      const pixman_color_t *bg, uint64_t *copied)
{
	pixman_region32_t rest;
	pixman_box32_t *boxes;
	int n;

	if (d->no_sample) {
		boxes = pixman_region32_rectangles(&d->opaque, &n);
		pixman_image_set_clip_region32(target, NULL);
		pixman_image_fill_boxes(PIXMAN_OP_SRC, target, bg, n, boxes);
		return;
	}
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
					  &d->opaque, d->x, d->y, &d->box, copied);
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
			  &d->box, copied);
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
		struct scene_walk w;

		scene_walk_begin(&w, top, 0, 0);
		do {
			struct wlseal_scene_view *v = w.v;
			pixman_image_t *image = v->source->begin(v);
			pixman_box32_t box;
			int vw, vh;

			if (!image)
				continue;
			view_image_setup(v, image);
			view_extent(v, image, &vw, &vh);
			if (scene_clip_box(scene, w.x, w.y, w.x + vw,
					   w.y + vh, &box) &&
			    (!v->source->ready ||
			     v->source->ready(v, &(struct wlseal_scene_box){
				     box.x1 - w.x, box.y1 - w.y,
				     box.x2 - w.x, box.y2 - w.y })))
				composite_clipped(PIXMAN_OP_OVER, image, target,
						  region, w.x, w.y, &box,
						  &scene->copied);
			pixman_image_unref(image);
			v->source->end(v);
		} while (scene_walk_next(&w));
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
	struct draw *draws;
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
	/* One walk of the views, into the list kept from the last repaint;
	 * a second only when there are more views than it holds (the
	 * walk touches every view: with 16,000 views half a repaint's
	 * CPU was the two walks of before). */
	draws = scene->draws;
	nviews = flatten(scene, draws, (int)scene->draws_cap);
	if ((size_t)nviews > scene->draws_cap) {
		size_t cap = (size_t)nviews + (size_t)nviews / 2 + 32;

		draws = realloc(scene->draws, cap * sizeof(*draws));
		if (draws) {
			scene->draws = draws;
			scene->draws_cap = cap;
			flatten(scene, draws, nviews);
		}
	}
	if (!draws) {
		/* No memory for the bookkeeping: draw everything in the
		 * region bottom-up, which needs none (same pixels). */
		render_plain(scene, target, &region, &bg);
		goto done;
	}
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
		if (check_ready(&draws[i]))
			draw_view(&draws[i], target, &bg, &scene->copied);
		pixman_image_unref(draws[i].image);
		draws[i].view->source->end(draws[i].view);
		pixman_region32_fini(&draws[i].clip);
		pixman_region32_fini(&draws[i].opaque);
	}
	pixman_image_set_clip_region32(target, NULL);
done:
	area = region_area(&region);

	if (drawn)
		pixman_region32_copy(drawn, &region);
	pixman_region32_copy(&scene->prev_damage, &scene->damage);
	pixman_region32_clear(&scene->damage);
	pixman_region32_fini(&region);
	return area;
}
