/* SPDX-License-Identifier: MIT */
/*
 * wl.h - the protocol objects: wl_compositor, wl_surface and wl_region
 * (surface.c, region.c), wl_subcompositor and wl_subsurface
 * (subcompositor.c), xdg-shell (xdg-shell.c), wp_presentation
 * (presentation.c) and the wl_output global (output.c).
 *
 * They see server.h, the scene and shm/, never a backend: frames reach
 * them as server->events.frame_start and frame_done.
 */
#ifndef WLSEAL_WL_H
#define WLSEAL_WL_H

#include <stdbool.h>
#include <stdint.h>

#include <pixman.h>
#include <wayland-server-core.h>

#include "scene.h"
#include "server.h"
#include "shm.h"

/*
 * Something that waits for the frame showing a commit (presentation
 * feedback, presentation.c). surface.c carries it from the pending state
 * to the frame and answers through these two calls, so it never calls
 * presentation.c by name. Either call ends the feedback's life.
 */
struct wlseal_feedback;
struct wlseal_feedback_impl {
	void (*presented)(struct wlseal_feedback *fb,
			  const struct wlseal_frame_done *frame);
	void (*discarded)(struct wlseal_feedback *fb);
};
struct wlseal_feedback {
	const struct wlseal_feedback_impl *impl;
	struct wl_list link;	/* a surface's lists or server->feedbacks */
};

/* surface.c */

/* What a commit carries: double-buffered wl_surface state. */
struct wlseal_surface_state {
	bool attached;
	struct wl_resource *buffer;
	struct wl_listener buffer_destroy;
	pixman_region32_t damage;	/* surface == buffer coords */
	pixman_region32_t opaque;	/* set_opaque_region */
	bool opaque_set;
	struct wl_list frame_callbacks;
	struct wl_list feedbacks;
};

struct wlseal_surface {
	struct wl_resource *resource;
	struct wlseal_server *server;
	struct wl_list link;			/* server.surfaces */

	struct wlseal_surface_state pending;
	/* Commits a synchronized subsurface made, waiting for its parent. */
	struct wlseal_surface_state cached;
	bool has_cached;

	/* Committed state; view.width and view.height are its size. */
	struct wl_resource *buffer;
	struct wl_listener buffer_destroy;
	struct wl_list frame_callbacks;		/* waiting for the next repaint */
	struct wl_list feedbacks;
	pixman_region32_t opaque;		/* view.opaque points here */

	/* Scene placement, valid while view.mapped. */
	struct wlseal_scene_view view;
	struct wlseal_pixels reading;		/* during a draw of the view */

	/* Role (xdg_surface, wl_subsurface): called after the state was
	 * applied. */
	void (*role_commit)(struct wlseal_surface *surface);
	/* Role (wl_subsurface): true when a commit is to be cached until
	 * the parent's state is applied instead of applied now. */
	bool (*role_cache)(struct wlseal_surface *surface);
	void *role;
	struct wl_signal destroy_signal;
	/* The state was applied (after role_commit): subsurfaces apply
	 * what waited for this surface (subcompositor.c). */
	struct wl_signal apply_signal;
};

bool wlseal_compositor_init(struct wlseal_server *server);
struct wlseal_surface *wlseal_surface_from_resource(struct wl_resource *r);
/* Applies what a synchronized subsurface's commits cached, if any. */
void wlseal_surface_apply_cached(struct wlseal_surface *s);
/* @fb belongs to the surface's next commit. */
void wlseal_surface_add_feedback(struct wlseal_surface *s,
				 struct wlseal_feedback *fb);

/* region.c */
void wlseal_region_create(struct wl_client *client, uint32_t id);
/* Collapse @region to its extents past a few rectangles (region.c says
 * why): every region a client builds goes through it. */
void wlseal_region_bound(pixman_region32_t *region);

/* subcompositor.c: wl_subcompositor and wl_subsurface */
bool wlseal_subcompositor_init(struct wlseal_server *server);

/* data-device.c: wl_data_device_manager (no selection, no drag) */
bool wlseal_data_device_init(struct wlseal_server *server);

/* seat.c: the wl_seat global, no devices */
bool wlseal_seat_init(struct wlseal_server *server);

/* xdg-shell.c */
bool wlseal_xdg_shell_init(struct wlseal_server *server);

/* presentation.c */
bool wlseal_presentation_init(struct wlseal_server *server);

/* output.c: the wl_output global */
bool wlseal_output_init(struct wlseal_server *server);

#endif
