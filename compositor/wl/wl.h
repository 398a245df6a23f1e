/* SPDX-License-Identifier: MIT */
/*
 * wl.h - the protocol objects: wl_compositor, wl_surface and wl_region
 * (surface.c, region.c), wl_subcompositor and wl_subsurface
 * (subcompositor.c), xdg-shell (xdg-shell.c, xdg-toplevel.c), the
 * xdg-decoration manager (xdg-decoration.c), wp_viewporter
 * (viewporter.c), wp_presentation
 * (presentation.c), the wl_output global (output.c) and the seat
 * (seat.c, keyboard.c, keymap.c, pointer.c).
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
	struct wl_list link;			/* server.surfaces */

	struct wlseal_surface_state pending;
	/* Commits a synchronized subsurface made, waiting for its parent. */
	struct wlseal_surface_state cached;
	bool has_cached;

	/* Committed state; view.width and view.height are its size. */
	struct wl_resource *buffer;
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
	/* How the buffer becomes the surface (surface.c, surface_geometry):
	 * scale, transform and viewport as committed; view.transform points
	 * at @xform unless all three leave the buffer as it is. */
	int32_t scale, transform;
	struct wlseal_viewport_state viewport;
	pixman_transform_t xform;
	/* viewporter.c's wp_viewport for this surface, or NULL. */
	struct wl_resource *viewport_resource;

	/* Scene placement, valid while view.mapped. */
	struct wlseal_scene_view view;
	struct wlseal_pixels reading;		/* during a draw of the view */

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

/* viewporter.c: wp_viewporter and wp_viewport */
bool wlseal_viewporter_init(struct wlseal_server *server);
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

/* subcompositor.c: wl_subcompositor and wl_subsurface */
bool wlseal_subcompositor_init(struct wlseal_server *server);

/* data-device.c: wl_data_device_manager (no selection, no drag) */
bool wlseal_data_device_init(struct wlseal_server *server);

/* seat.c (with keyboard.c, keymap.c, pointer.c, seat.h): the wl_seat
 * global, fed by input/ through wlseal_seat_input (its data: the seat).
 * Destroyed after the clients. */
struct wlseal_input_handler;
extern const struct wlseal_input_handler wlseal_seat_input;
struct wlseal_seat *wlseal_seat_create(struct wlseal_server *server);
void wlseal_seat_destroy(struct wlseal_seat *seat);

/* xdg-shell.c: xdg_wm_base, xdg_surface, popups and positioners */
bool wlseal_xdg_shell_init(struct wlseal_server *server);

/* xdg_surface.set_window_geometry, double-buffered like wl_surface state:
 * the part of the surface that is the window (surface coordinates). */
struct wlseal_xdg_geometry {
	bool set;
	int32_t x, y, width, height;
};

struct wlseal_xdg_toplevel;

struct wlseal_xdg_surface {
	struct wl_resource *resource;
	struct wlseal_server *server;
	struct wlseal_surface *surface;	/* NULL once the wl_surface is gone */
	struct wl_listener surface_destroy;
	struct wlseal_xdg_toplevel *toplevel;	/* NULL: no role object */
	struct wlseal_xdg_geometry pending_geometry, geometry;
};

/*
 * xdg-toplevel.c: the xdg_toplevel role. xdg-shell.c calls in (create,
 * commit, ack, detach), xdg-decoration.c too (from_resource, configure);
 * xdg-toplevel.c calls neither back: it sends xdg_surface.configure on
 * the resource itself, and tells of its end through destroy_signal.
 */
#define WLSEAL_XDG_CONFIGURES 4	/* sent and not acked, at most */

/* What a configure asks of the window. */
struct wlseal_xdg_state {
	bool maximized, fullscreen;
	bool activated;			/* it has the keyboard focus */
};

struct wlseal_xdg_toplevel {
	struct wl_resource *resource;
	struct wlseal_xdg_surface *xs;	/* NULL once the xdg_surface is gone */
	char *title;
	struct wlseal_xdg_state wanted;	/* what the client asked for */
	/* Configures on their way, oldest first. */
	struct {
		uint32_t serial;
		struct wlseal_xdg_state state;
	} sent[WLSEAL_XDG_CONFIGURES];
	int n_sent;
	bool resend;			/* @wanted changed while sent[] was full */
	/* Serials sent before the last unmap reset forgot them: the
	 * client may have acked one before it saw its own unmap land. */
	bool has_stale;
	uint32_t stale_first, stale_last;
	bool initial_sent;		/* the initial commit was answered */
	bool configured;		/* a configure was acked */
	struct wlseal_xdg_state acked;	/* the last one acked */
	/* The cascade slot it was given when mapped (scene.h). */
	int32_t cascade_x, cascade_y;
	/* An embedder's place for it before it was mapped, taken instead
	 * of a cascade slot (wlseal_xdg_toplevel_move). */
	bool placed;
	int32_t placed_x, placed_y;
	/* The xdg_toplevel goes (data: this); destroy_requested tells its
	 * destroy request from the client's disconnect. */
	struct wl_signal destroy_signal;
	bool destroy_requested;
	struct wl_resource *decoration;	/* xdg-decoration.c's, or NULL */
};

/* xdg_surface.get_toplevel: @xs gets its role object. */
void wlseal_xdg_toplevel_create(struct wlseal_xdg_surface *xs,
				struct wl_client *client, uint32_t version,
				uint32_t id);
/* After the wl_surface's state (and the window geometry) was applied. */
void wlseal_xdg_toplevel_commit(struct wlseal_xdg_toplevel *tl);
/* xdg_surface.ack_configure; false: @serial was never sent. */
bool wlseal_xdg_toplevel_ack(struct wlseal_xdg_toplevel *tl, uint32_t serial);
/* The xdg_surface goes first: the toplevel stays, inert. */
void wlseal_xdg_toplevel_detach(struct wlseal_xdg_toplevel *tl);
/* The toplevel behind an xdg_toplevel resource. */
struct wlseal_xdg_toplevel *wlseal_xdg_toplevel_from_resource(struct wl_resource *r);
/* Sends xdg_toplevel.configure and xdg_surface.configure, unless the
 * initial commit has not come yet (its answer is the first configure). */
void wlseal_xdg_toplevel_configure(struct wlseal_xdg_toplevel *tl);
/* The seat's focus came or went (xdg-shell.c's role_activate): a
 * configure with or without the activated state. */
void wlseal_xdg_toplevel_set_activated(struct wlseal_xdg_toplevel *tl,
				       bool activated);

/* An embedder places a window (the WLCS module's
 * position_window_absolute): its window geometry's origin at @x, @y,
 * now or, not mapped yet, when it maps. */
void wlseal_xdg_toplevel_move(struct wlseal_xdg_toplevel *tl, int32_t x,
			      int32_t y);

/* xdg-decoration.c: zxdg_decoration_manager_v1, always client-side */
bool wlseal_xdg_decoration_init(struct wlseal_server *server);

/* presentation.c */
bool wlseal_presentation_init(struct wlseal_server *server);

/* output.c: the wl_output global */
bool wlseal_output_init(struct wlseal_server *server);
/* @client's wl_output objects (wl_resource_get_link), or NULL: none. */
struct wl_list *wlseal_output_resources(struct wl_client *client);

#endif
