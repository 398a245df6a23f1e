/* SPDX-License-Identifier: MIT */
/*
 * surface-impl.h - inside surface/: what its files lend each other:
 * scanout records, presentation feedback, regions, and the files of
 * wl_surface.
 * Calls go one way: surface.c (wl_compositor, a surface's life, frame
 * pacing) calls surface-request.c, surface-apply.c, surface-state.c and
 * surface-source.c; surface-request.c (the requests) calls
 * surface-apply.c and surface-state.c; surface-apply.c (a state made
 * current) calls surface-geometry.c and surface-state.c;
 * surface-state.c, surface-geometry.c and surface-source.c call none of
 * them.
 */
#ifndef WLSEAL_SURFACE_IMPL_H
#define WLSEAL_SURFACE_IMPL_H

#include <stdbool.h>

#include <wayland-server-core.h>

#include "surface.h"

/*
 * scanout.c: a wl_buffer held by the display during direct scanout. The
 * surface's scene source describes its buffer through describe() (a
 * reference for the caller in @out); surface-apply.c asks defer_release()
 * before releasing a replaced buffer (true: the backend still shows it,
 * the release comes when a later frame replaced it) and tells attached()
 * of every buffer committed.
 */
bool wlseal_scanout_describe(struct wl_resource *buffer,
			     struct wlseal_scene_scanout *out, char *why,
			     size_t why_len);
bool wlseal_scanout_defer_release(struct wl_resource *buffer);
void wlseal_scanout_attached(struct wl_resource *buffer);

/*
 * Something that waits for the frame showing a commit (presentation
 * feedback, presentation.c). surface.c carries it from the pending state
 * to the frame and answers through these two calls, so it never calls
 * presentation.c by name. Either call ends the feedback's life.
 */
struct wlseal_feedback;
struct wlseal_feedback_impl {
	/* Returns the number of events it cost (feedback-queue.c). */
	unsigned int (*presented)(struct wlseal_feedback *fb,
				  const struct wlseal_frame_done *frame);
	void (*discarded)(struct wlseal_feedback *fb);
};
struct wlseal_feedback {
	const struct wlseal_feedback_impl *impl;
	/* A surface's lists, server->feedbacks or server->presenting. */
	struct wl_list link;
	struct wlseal_frame_done frame;	/* once queued: shown in this one */
	bool zero_copy;			/* its surface's buffer was scanned
					 * out as it is (surface.c) */
};

/*
 * feedback-queue.c: feedbacks of a frame shown are sent a bounded slice
 * of events per loop turn (surface.c hands them over; the queue answers
 * through wlseal_feedback_impl.presented).
 */
void wlseal_feedback_queue_init(struct wlseal_server *server);
void wlseal_feedback_queue_finish(struct wlseal_server *server);
/* Takes every feedback of @feedbacks, shown in @frame. */
void wlseal_feedback_queue_add(struct wlseal_server *server,
			       struct wl_list *feedbacks,
			       const struct wlseal_frame_done *frame);

/* @fb belongs to the surface's next commit. */
void wlseal_surface_add_feedback(struct wlseal_surface *s,
				 struct wlseal_feedback *fb);

/* region.c */
void wlseal_region_create(struct wlseal_server *server,
			  struct wl_client *client, uint32_t id);
/* Where a wl_region says the surface is opaque: the region itself, or
 * nothing when collapsing it made it grow (region.c says why). */
void wlseal_region_opaque(struct wl_resource *region, pixman_region32_t *out);
/* Collapse @region to its extents past a few rectangles (region.c says
 * why): every region a client builds goes through it. */
void wlseal_region_bound(pixman_region32_t *region);
/* A request's rectangle (@x, @y, @w x @h) as a box, its far edges
 * clamped to INT32_MAX (computed in 64 bits); false when it is empty. */
bool wlseal_region_box(int32_t x, int32_t y, int32_t w, int32_t h,
		       pixman_box32_t *box);

/* surface-state.c: the double-buffered state (pending, cached). */

void wlseal_surface_state_init(struct wlseal_surface_state *st);
/* @st holds @buffer (NULL: none), forgotten if it is destroyed. */
void wlseal_surface_state_set_buffer(struct wlseal_surface_state *st,
				     struct wl_resource *buffer,
				     const struct wlseal_buffer_info *info);
/* Adds @from (then empty) to @into; @current is the buffer on screen. */
void wlseal_surface_state_merge(struct wlseal_surface_state *into,
				struct wlseal_surface_state *from,
				struct wl_resource *current);
void wlseal_surface_state_finish(struct wlseal_surface_state *st);
/* Destroys every wl_callback of @list. */
void wlseal_surface_callbacks_destroy(struct wl_list *list);
/* Discards every feedback of @list. */
void wlseal_surface_feedbacks_discard(struct wl_list *list);

/* surface-geometry.c: the size and the scene's sampling transform from
 * the committed buffer, scale, transform and viewport; false with the
 * error posted. */
bool wlseal_surface_geometry(struct wlseal_surface *s);

/* surface-apply.c */

/* Makes @st (the pending or the cached state) current. */
void wlseal_surface_apply(struct wlseal_surface *s,
			  struct wlseal_surface_state *st);
/* The notify of a surface's buffer_destroy: the shown buffer went. */
void wlseal_surface_buffer_destroyed(struct wl_listener *listener,
				     void *data);

/* surface-request.c: @s->resource gets the wl_surface requests, and
 * @destroy as its destructor. */
void wlseal_surface_set_implementation(struct wlseal_surface *s,
				       wl_resource_destroy_func_t destroy);

/* surface-source.c: @s's view reads its committed buffer (the scene's
 * source) and waits for its pool's pages (shm/resident.c). */
void wlseal_surface_source_init(struct wlseal_surface *s);

#endif
