/* SPDX-License-Identifier: MIT */
/*
 * scene-private.h - what scene.c lends render.c: walking the views in
 * stacking order, clipping view coordinates to the output, and the
 * bound on rectangles. Calls go one way: render.c calls scene.c.
 */
#ifndef WLSEAL_SCENE_PRIVATE_H
#define WLSEAL_SCENE_PRIVATE_H

#include "scene.h"

/*
 * The scene's damage gathers every view's: each view's is bounded
 * (surface/region.c collapses a surface's past 32 rectangles), but many views,
 * or many commits before one repaint, would add up, and every union
 * costs time in proportion to what the region holds: quadratic in the
 * count of views damaged between two repaints. Past SCENE_MAX_RECTS the
 * damage collapses to its extents: more pixels repainted, never fewer,
 * and never more than the output. The same bound keeps the repaint's
 * opaque cover small (render.c, find_visible).
 */
#define SCENE_MAX_RECTS 64

/* A walk of a tree of views in stacking order, bottom first (scene.c). */
struct scene_walk {
	const struct wlseal_scene_view *root;
	struct wlseal_scene_view *v;
	int64_t x, y;			/* v's origin, output coordinates */
};

/* @root is mapped; (@x, @y) is its parent's origin (0, 0: top-level).
 * w->v is the first view, at the bottom of @root's tree. */
void scene_walk_begin(struct scene_walk *w, struct wlseal_scene_view *root,
		      int64_t x, int64_t y);
/* On to the next mapped view above; false: the tree is done. */
bool scene_walk_next(struct scene_walk *w);

/* The box (@x1, @y1)-(@x2, @y2), output coordinates, clipped to the
 * output into @out; false when none of it is on the output. */
bool scene_clip_box(const struct wlseal_scene *scene, int64_t x1, int64_t y1,
		    int64_t x2, int64_t y2, pixman_box32_t *out);
/* @region (view coordinates; NULL: all of it) of a view @w x @h whose
 * origin is at (@x, @y), as far as it lies inside the view and on the
 * output: into @out (initialized), output coordinates. */
void scene_region_to_output(const struct wlseal_scene *scene,
			    const pixman_region32_t *region, int64_t x,
			    int64_t y, int32_t w, int32_t h,
			    pixman_region32_t *out);

#endif
