/* SPDX-License-Identifier: MIT */
/*
 * scene.h - where things are on the output, and drawing them (scene.c).
 *
 * The scene knows rectangles and pixels, nothing of Wayland objects: a
 * view has a position, a size and a pixel source it asks for an image at
 * draw time. surface/surface.c embeds one view in every wl_surface.
 *
 * Views form trees (surface/subcompositor.c and shell/xdg-popup.c build them): a
 * top-level view sits in wlseal_scene.views at output coordinates; a
 * child view sits in its parent's stack, below or above the parent, at an
 * offset from the parent's origin, and shows only while every ancestor
 * is mapped.
 */
#ifndef WLSEAL_SCENE_H
#define WLSEAL_SCENE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pixman.h>
#include <wayland-server-core.h>

/* The background every frame starts from (opaque, a8r8g8b8). */
#define WLSEAL_BACKGROUND 0xff203040u

/* Where views appear: a cascade so that several stay visible. */
#define WLSEAL_CASCADE_X0 32
#define WLSEAL_CASCADE_Y0 32
#define WLSEAL_CASCADE_STEP 48
#define WLSEAL_CASCADE_SLOTS 8

struct wlseal_scene_view;

/*
 * A view's pixels as they lie in a client's file, for direct scanout:
 * filled by the view's source (surface/scanout.c). The hooks keep the file's
 * pages and the buffer for as long as the display holds them; their
 * meaning is the backend's (backend.h, struct wlseal_scanout_ops), which
 * repaint.c hands them on to.
 */
struct wlseal_scene_scanout_ops {
	void (*ref)(void *key);
	void (*unref)(void *key);
	void (*busy)(void *key, bool busy);
	bool (*gone)(void *key);
	/* The display refused this buffer: never offer it again. */
	void (*refused)(void *key);
};

struct wlseal_scene_scanout {
	int fd;
	uint64_t offset;
	int32_t width, height, stride;
	bool write_sealed;
	bool opaque_format;		/* x8r8g8b8: opaque whatever the
					 * opaque region says */
	pixman_image_t *image;		/* x8r8g8b8 over the same pixels */
	void *key;			/* referenced (ops->ref) for the
					 * caller, who unrefs it */
	const struct wlseal_scene_scanout_ops *ops;
};

/* A box in a view's coordinates, in 64 bits (offsets add up down a
 * tree); empty when x1 >= x2 or y1 >= y2. */
struct wlseal_scene_box {
	int64_t x1, y1, x2, y2;
};

/* Where a view's pixels come from, asked once per repaint. */
struct wlseal_scene_source {
	/* An image wrapping the pixels to draw, or NULL: nothing to draw.
	 * A non-NULL image is unreffed by the scene, then end() is called. */
	pixman_image_t *(*begin)(struct wlseal_scene_view *view);
	void (*end)(struct wlseal_scene_view *view);
	/* Optional: the pixels as a file the display could scan out
	 * (wlseal_scene_scanout_candidate); false: they cannot be, @why
	 * says why when it is worth a line (may stay empty). */
	bool (*scanout)(struct wlseal_scene_view *view,
			struct wlseal_scene_scanout *out, char *why,
			size_t why_len);
	/* Both optional, called between begin() and end() with the part
	 * of the view to be drawn (view coordinates). ready(): false when
	 * the pixels that part samples cannot be read without cost yet
	 * (pages not in memory: shm/resident.c); the view is not drawn in
	 * this repaint, and the source damages it when they can.
	 * ready_cost_ns(): what ready() costs, in nanoseconds of the
	 * thread's CPU on this machine; the scene charges it with the
	 * view's pixels, in the overdraw budget's units (one pixel
	 * blended, measured at start: render.c, wlseal_scene_unit_ns). */
	bool (*ready)(struct wlseal_scene_view *view,
		      const struct wlseal_scene_box *part);
	uint64_t (*ready_cost_ns)(struct wlseal_scene_view *view,
				  const struct wlseal_scene_box *part);
};

/*
 * Pointer input on a view the compositor draws itself (a window frame,
 * shell/decor.c) instead of a client's surface. The seat (seat/pointer.c)
 * sends the cursor's buttons there, not to any client, and holds the
 * pointer for the view while a button pressed on it is down: the view
 * follows the cursor wherever it goes until the release.
 */
struct wlseal_scene_pointer {
	/* A button went down or up with the cursor at (@sx, @sy), view
	 * coordinates (a release: wherever the cursor is by then). */
	void (*button)(struct wlseal_scene_view *view, uint32_t button,
		       bool pressed, double sx, double sy);
	/* A button pressed on the view is held and the cursor moved to
	 * (@sx, @sy), view coordinates, inside the view or not. */
	void (*drag)(struct wlseal_scene_view *view, double sx, double sy);
};

struct wlseal_scene_view {
	/* A top-level view: output coordinates, valid while mapped; a
	 * child: the offset from its parent's origin. */
	int32_t x, y;
	int32_t width, height;		/* wlseal_scene_set_size; what damage
					 * and placement use */
	bool mapped;			/* a child: shown when its parent is */
	struct wl_list link;		/* in *stack */
	struct wl_list *stack;		/* scene.views, parent->below or ->above */
	struct wlseal_scene_view *parent;	/* NULL: a top-level view */
	/* A top-level view: when it went on top (wlseal_scene_map), or
	 * the number of the view it was placed under: bigger is higher
	 * (wlseal_scene_under). */
	uint64_t stacked;
	/* Child views drawn under and over this one, bottom first. */
	struct wl_list below, above;
	const struct wlseal_scene_source *source;
	/* NULL: the source image is the view, pixel for pixel, and
	 * width x height is the image's size. Otherwise it maps a point of
	 * the view (view coordinates) to where the image is sampled
	 * (wl_surface buffer scale and transform, wp_viewport), with
	 * @filter; outside the image its edge pixels repeat. */
	const pixman_transform_t *transform;
	pixman_filter_t filter;
	/* View coordinates: where the pixels are opaque whatever their
	 * alpha says (wl_surface.set_opaque_region); NULL or empty: only
	 * what the format says (x8r8g8b8 is opaque everywhere). */
	const pixman_region32_t *opaque;
	/* View coordinates: where it takes pointer input
	 * (wl_surface.set_input_region, wlseal_scene_set_input), always
	 * within its size; NULL: all of it. */
	const pixman_region32_t *input;
	/* NULL: a client's surface (surface/surface.c embeds the view), whose
	 * client gets the pointer's events. Otherwise the compositor's own
	 * view, which takes them through these hooks; it is never a
	 * top-level view, always a child of a surface's. */
	const struct wlseal_scene_pointer *pointer;
	/* Whose overdraw budget its drawing counts against (overdraw.c):
	 * compared, never dereferenced; NULL: the compositor's own. */
	const void *owner;
	/* What the view and its mapped descendants can cover, in its own
	 * coordinates; kept by scene.c, found again when @box_dirty. */
	struct wlseal_scene_box box;
	bool box_dirty;
};

/* The views, bottom to top, and what changed. */
struct wlseal_scene {
	int width, height;
	struct wl_list views;		/* wlseal_scene_view.link, bottom first */
	pixman_region32_t damage;	/* output coords, since the last repaint */
	pixman_region32_t prev_damage;	/* what the previous repaint drew */
	unsigned int cascade_next;
	uint64_t stack_next;	/* the next top-level view's stacked */
	/* A view was mapped (after it got its place) or unmapped (data:
	 * the view): the seat moves the keyboard focus (seat/seat.c). */
	struct wl_signal map_signal, unmap_signal;
	/* Bumped whenever what takes pointer input where may have changed
	 * (a view mapped, unmapped, moved, restacked, resized, or given a
	 * new input region). The seat finds the surface under the cursor
	 * again when it differs, once a frame at most (seat/pointer.c),
	 * instead of once per change. */
	uint64_t layout;
	/* The scene's work outside the repaint: hit tests
	 * (wlseal_scene_view_at), and the views visited for them and for
	 * subtree boxes (not counting a view's ancestors, read for its
	 * origin or visibility: at most 32). repaint.c logs both with
	 * every frame and clears them, so that tests count the work a
	 * request costs. */
	uint64_t hit_tests, visits;
	/* Bytes of client pixels the repaints read and wrote into the
	 * output (each composite's destination area, 4 bytes a pixel),
	 * since repaint.c last cleared it: 0 for a scanned-out frame. */
	uint64_t copied;
	/* render.c's list of the views of a repaint, kept from one
	 * repaint to the next (scene.c frees it with the scene). */
	void *draws;
	size_t draws_cap;
	/* A frame is wanted (wlseal_scene_request_frame): the repaint loop
	 * (repaint.c) listens. */
	struct wl_signal frame_signal;
};

void wlseal_scene_init(struct wlseal_scene *scene, int width, int height);
void wlseal_scene_finish(struct wlseal_scene *scene);
void wlseal_scene_view_init(struct wlseal_scene_view *view,
			    const struct wlseal_scene_source *source);
/* A top-level @view goes on top (the cascade); a child view keeps its
 * offset and its place in the parent's stack. Both damage the box of
 * all that is stacked on them (scene.c, subtree boxes). */
void wlseal_scene_map(struct wlseal_scene *scene, struct wlseal_scene_view *view);
/* A new window's slot @v on one axis, for a window @size long on an
 * output @out long: as far back towards 0 as it then fits, and 0 if it
 * cannot fit at all (the shells' placement, shell/xdg-toplevel-configure.c
 * and shell/wl-shell.c). */
int32_t wlseal_scene_fit(int32_t v, int64_t size, int32_t out);
/* A floating window's origin (@x, @y) after a move, for a window @w
 * wide: anywhere, as long as some of its top edge (where a title bar is
 * grabbed) stays on an output @out_w x @out_h. */
void wlseal_scene_keep_grabbable(int64_t *x, int64_t *y, int32_t w,
				 int32_t out_w, int32_t out_h);
/* Hidden, with its children; a child view keeps its place in the stack. */
void wlseal_scene_unmap(struct wlseal_scene *scene,
			struct wlseal_scene_view *view);
/* @child (not mapped, in no stack) joins @parent's stack at the top,
 * hidden until mapped. */
void wlseal_scene_add_child(struct wlseal_scene *scene,
			    struct wlseal_scene_view *parent,
			    struct wlseal_scene_view *child);
/* @child leaves its parent's stack (damaged if it showed). */
void wlseal_scene_remove_child(struct wlseal_scene *scene,
			       struct wlseal_scene_view *child);
/* Whether top-level view @a is stacked under top-level view @b. */
bool wlseal_scene_under(const struct wlseal_scene_view *a,
			const struct wlseal_scene_view *b);
/* Moves top-level view @view just under top-level view @ref (the
 * shells: a parent window under its transient children); damages it
 * if that changes the stacking. */
void wlseal_scene_put_under(struct wlseal_scene *scene,
			    struct wlseal_scene_view *view,
			    struct wlseal_scene_view *ref);
/* Moves @child just above or below @ref, a sibling or the parent itself;
 * damages it (and its children) if that changes the stacking. */
void wlseal_scene_place(struct wlseal_scene *scene,
			struct wlseal_scene_view *child,
			struct wlseal_scene_view *ref, bool above);
/* A new offset (child) or position (top-level): the subtree's box is
 * damaged at the old and at the new place, O(depth) whatever the
 * subtree holds. */
void wlseal_scene_move(struct wlseal_scene *scene,
		       struct wlseal_scene_view *view, int32_t x, int32_t y);
/* Where @view takes pointer input (view coordinates, within its size),
 * NULL: all of it. @input must stay valid while the view uses it. */
void wlseal_scene_set_input(struct wlseal_scene *scene,
			    struct wlseal_scene_view *view,
			    const pixman_region32_t *input);
/* Where @view's origin is on the output: its and its ancestors'
 * offsets, summed in 64 bits. */
void wlseal_scene_view_origin(const struct wlseal_scene_view *view,
			      int64_t *x, int64_t *y);
/* Mapped, and so is every ancestor: its pixels can be on screen. */
bool wlseal_scene_view_visible(const struct wlseal_scene_view *view);
/* @damage in view coordinates; NULL means the whole view. Only what
 * lies inside the view counts, whatever the extents (any int32_t), and
 * wherever the view is. Nothing happens for a view that is not
 * visible. */
void wlseal_scene_damage_view(struct wlseal_scene *scene,
			      struct wlseal_scene_view *view,
			      const pixman_region32_t *damage);
/* A new size: the old and the new area are damaged if the view shows. */
void wlseal_scene_set_size(struct wlseal_scene *scene,
			   struct wlseal_scene_view *view, int32_t width,
			   int32_t height);
/* The topmost visible view that takes input at output point (@x, @y),
 * or NULL; *@sx, *@sy receive the point in its coordinates. */
struct wlseal_scene_view *wlseal_scene_view_at(struct wlseal_scene *scene,
					       double x, double y,
					       double *sx, double *sy);
/* The same within the tree of the top-level view @top only (what other
 * trees put above it is not looked at): O(that tree). */
struct wlseal_scene_view *wlseal_scene_view_at_within(struct wlseal_scene *scene,
						      struct wlseal_scene_view *top,
						      double x, double y,
						      double *sx, double *sy);
bool wlseal_scene_has_damage(struct wlseal_scene *scene);
/*
 * The view the next frame could be, pixel for pixel, instead of being
 * drawn: the topmost shown view covers the whole output at 1:1 (no
 * transform, at the origin, the output's size), opaquely (an x8r8g8b8
 * image, or an opaque region covering it all), with no child shown
 * above it (what is below is hidden), and its source describes its
 * pixels as a file (@out). Constant work but for the view's own children
 * above it, which belong to the same client. NULL: draw the frame;
 * @why then says why when the view's source refused (else empty).
 */
struct wlseal_scene_view *
wlseal_scene_scanout_candidate(struct wlseal_scene *scene,
			       struct wlseal_scene_scanout *out, char *why,
			       size_t why_len);
/* The frame was @view's pixels, not drawn: the damage is consumed as a
 * repaint would, and the next repaint redraws all (the target missed
 * this frame). */
void wlseal_scene_scanned_out(struct wlseal_scene *scene);
/* Something was committed that the next frame must carry, damage or not
 * (a frame callback waits for it): asks the repaint loop for a frame. */
void wlseal_scene_request_frame(struct wlseal_scene *scene);
/* Draws into @target, whose content is @age frames old (0: unknown).
 * Returns the number of pixels drawn; @drawn (if not NULL, initialized)
 * receives where. */
uint64_t wlseal_scene_render(struct wlseal_scene *scene,
			     pixman_image_t *target, int age,
			     pixman_region32_t *drawn);

#endif
