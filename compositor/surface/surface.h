/* SPDX-License-Identifier: MIT */
/*
 * surface.h - surfaces and what they show: wl_compositor, wl_surface and
 * its state (surface*.c), wl_subcompositor (subcompositor.c),
 * wp_viewporter (viewporter.c), the outputs (output.c, xdg-output.c) and
 * wp_presentation (presentation.c). The shells (shell/) and the seat
 * (seat/) build on these; nothing here knows a role or a device by name:
 * they reach a surface's role through its hooks (role_*) and signals.
 *
 * They see server.h, the scene and shm/, never a backend: frames reach
 * them as server->events.frame_start and frame_done.
 */
#ifndef WLSEAL_SURFACE_H
#define WLSEAL_SURFACE_H

#include <stdbool.h>
#include <stdint.h>

#include <pixman.h>
#include <wayland-server-core.h>

#include "scene.h"
#include "server.h"
#include "shm.h"

/* surface.c */

/* wp_viewport's state (viewporter.c): a source rectangle in surface
 * coordinates before the crop (wl_fixed_t, 24.8), a destination size. */
struct wlseal_viewport_state {
	bool has_src, has_dst;
	wl_fixed_t src_x, src_y, src_w, src_h;
	int32_t dst_w, dst_h;
};

/* What a commit carries: double-buffered wl_surface state. */
struct wlseal_surface_state {
	bool attached;
	struct wl_resource *buffer;
	struct wlseal_buffer_info buffer_info;	/* shm/'s answer at attach */
	struct wl_listener buffer_destroy;
	pixman_region32_t damage;	/* surface coords (wl_surface.damage) */
	pixman_region32_t buffer_damage;	/* buffer coords (damage_buffer) */
	bool scale_set, transform_set, viewport_set;
	int32_t scale;			/* set_buffer_scale, >= 1 */
	int32_t transform;		/* set_buffer_transform, 0..7 */
	struct wlseal_viewport_state viewport;
	pixman_region32_t opaque;	/* set_opaque_region */
	bool opaque_set;
	pixman_region32_t input;	/* set_input_region */
	bool input_set, input_all;	/* input_all: NULL, everywhere */
	struct wl_list frame_callbacks;
	struct wl_list feedbacks;
};

struct wlseal_surface {
	struct wl_resource *resource;
	struct wlseal_server *server;
	struct wlseal_account *account;	/* its client's budget */
	struct wl_list link;	/* server.surfaces while waiting for a frame */

	struct wlseal_surface_state pending;
	/* Commits a synchronized subsurface made, waiting for its parent. */
	struct wlseal_surface_state cached;
	bool has_cached;

	/* Committed state; view.width and view.height are its size. */
	struct wl_resource *buffer;
	struct wlseal_buffer_info buffer_info;	/* @buffer's, from attach */
	struct wl_listener buffer_destroy;
	/* The last attach committed a buffer, not NULL. Roles map and unmap
	 * on this, not on @buffer: a shown buffer the client destroys
	 * leaves @buffer NULL, the surface mapped and showing nothing
	 * (only a committed NULL attach unmaps). */
	bool has_content;
	struct wl_list frame_callbacks;		/* waiting for the next repaint */
	struct wl_list feedbacks;
	pixman_region32_t opaque;		/* view.opaque points here */
	pixman_region32_t input;		/* view.input, unless NULL */
	/* How the buffer becomes the surface (surface-geometry.c):
	 * scale, transform and viewport as committed; view.transform points
	 * at @xform unless all three leave the buffer as it is. */
	int32_t scale, transform;
	struct wlseal_viewport_state viewport;
	pixman_transform_t xform;
	/* wl_surface.enter was sent for the output (surface-apply.c): the
	 * surface shows there; leave when it stops showing. */
	bool on_output;
	/* viewporter.c's wp_viewport for this surface, or NULL. */
	struct wl_resource *viewport_resource;
	/* pointer-constraints.c's lock or confinement on this surface (at
	 * most one: there is one seat), or NULL. */
	struct wlseal_constraint *constraint;

	/* Scene placement, valid while view.mapped. */
	struct wlseal_scene_view view;
	struct wlseal_pixels reading;		/* during a draw of the view */
	/* Waiting for the pool pages the view samples (shm/resident.c). */
	struct wlseal_resident_waiter resident;

	/* Role (xdg_surface, wl_subsurface): called after the state was
	 * applied. */
	void (*role_commit)(struct wlseal_surface *surface);
	/* Role (wl_subsurface): true when a commit is to be cached until
	 * the parent's state is applied instead of applied now. */
	bool (*role_cache)(struct wlseal_surface *surface);
	/* Role (xdg_toplevel, through xdg-shell.c): the seat gives the
	 * surface keyboard focus or takes it away; NULL: the surface can
	 * never have it. */
	void (*role_activate)(struct wlseal_surface *surface, bool activated);
	/* Role (xdg_toplevel, through xdg-shell.c): the window that takes
	 * the keyboard focus when this one maps, the one the user sees in
	 * front of its family: its topmost shown dialog (set_parent), which
	 * it maps under, or itself. NULL: itself. */
	struct wlseal_surface *(*role_front)(struct wlseal_surface *surface);
	/* Role (xdg_surface): a buffer is attached; false: the role
	 * refused it with a protocol error, and the attach is dropped. */
	bool (*role_attach)(struct wlseal_surface *surface);
	/* Role (a window: xdg_toplevel, a wl_shell toplevel): an embedder
	 * puts it at @x, @y on the output (the window geometry's origin),
	 * now or when it maps; NULL: the role has no such place. */
	void (*role_place)(struct wlseal_surface *surface, int32_t x, int32_t y);
	/* Role (a floating window of either shell): an interactive move
	 * (wlseal_seat_move) moves it by (@dx, @dy); NULL: it cannot be
	 * moved so. */
	void (*role_move)(struct wlseal_surface *surface, int32_t dx, int32_t dy);
	/* Role (an xdg_toplevel): an interactive resize (wlseal_seat_resize)
	 * drags @edges (xdg_toplevel.resize_edge bits) by (@dx, @dy) from
	 * where it began; the first call (0, 0) begins it, @edges 0 ends
	 * it. NULL: it cannot be resized so. */
	void (*role_resize)(struct wlseal_surface *surface, uint32_t edges,
			    int32_t dx, int32_t dy);
	void *role;
	struct wl_signal destroy_signal;
	/* The state was applied (after role_commit): subsurfaces apply
	 * what waited for this surface (subcompositor.c). */
	struct wl_signal apply_signal;
	/* The client committed (before the commit is cached or applied):
	 * its subsurfaces' positions and order, which are this surface's
	 * state, are taken with the commit (subcompositor.c). */
	struct wl_signal commit_signal;
};

bool wlseal_compositor_init(struct wlseal_server *server, uint32_t version);
/* After the clients are gone: what wlseal_compositor_init started. */
void wlseal_compositor_finish(struct wlseal_server *server);
struct wlseal_surface *wlseal_surface_from_resource(struct wl_resource *r);
/* Applies what a synchronized subsurface's commits cached, if any. */
void wlseal_surface_apply_cached(struct wlseal_surface *s);

/* viewporter.c: wp_viewporter and wp_viewport */
bool wlseal_viewporter_init(struct wlseal_server *server, uint32_t version);

/* subcompositor.c: wl_subcompositor and wl_subsurface */
bool wlseal_subcompositor_init(struct wlseal_server *server, uint32_t version);

/* xdg-output.c: zxdg_output_manager_v1, version 3 */
bool wlseal_xdg_output_init(struct wlseal_server *server, uint32_t version);

/* presentation.c */
bool wlseal_presentation_init(struct wlseal_server *server, uint32_t version);

/* output.c: the wl_output global */
bool wlseal_output_init(struct wlseal_server *server, uint32_t version);
/* @client's wl_output objects (wl_resource_get_link), or NULL: none. */
struct wl_list *wlseal_output_resources(struct wl_client *client);

#endif
