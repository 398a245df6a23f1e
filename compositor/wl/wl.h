/* SPDX-License-Identifier: MIT */
/*
 * wl.h - the protocol objects: wl_compositor, wl_surface and wl_region
 * (surface.c, region.c), wl_subcompositor and wl_subsurface
 * (subcompositor.c), wl_shell (wl-shell.c), xdg-shell (xdg-shell.c, xdg-toplevel.c,
 * xdg-popup.c, xdg-positioner.c), xdg-output (xdg-output.c), the
 * relative pointer (relative-pointer.c), pointer constraints
 * (pointer-constraints.c), text input (text-input.c), the
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
	struct wl_list link;	/* server.surfaces while waiting for a frame */

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
/* @fb belongs to the surface's next commit. */
void wlseal_surface_add_feedback(struct wlseal_surface *s,
				 struct wlseal_feedback *fb);

/* viewporter.c: wp_viewporter and wp_viewport */
bool wlseal_viewporter_init(struct wlseal_server *server, uint32_t version);
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
bool wlseal_subcompositor_init(struct wlseal_server *server, uint32_t version);

/* data-device.c: wl_data_device_manager (the selection, no drag) */
bool wlseal_data_device_init(struct wlseal_server *server, uint32_t version);

/* seat.c (with keyboard.c, keymap.c, pointer.c, seat.h): the wl_seat
 * global, fed by input/ through wlseal_seat_input (its data: the seat).
 * Destroyed after the clients. */
struct wlseal_input_handler;
extern const struct wlseal_input_handler wlseal_seat_input;
struct wlseal_seat *wlseal_seat_create(struct wlseal_server *server,
				       uint32_t version);
void wlseal_seat_destroy(struct wlseal_seat *seat);

/* xdg-shell.c: xdg_wm_base, xdg_surface, popups and positioners */
bool wlseal_xdg_shell_init(struct wlseal_server *server, uint32_t version);

/* xdg_surface.set_window_geometry, double-buffered like wl_surface state:
 * the part of the surface that is the window (surface coordinates). */
struct wlseal_xdg_geometry {
	bool set;
	int32_t x, y, width, height;
};

struct wlseal_xdg_toplevel;
struct wlseal_xdg_popup;

struct wlseal_xdg_surface {
	struct wl_resource *resource;
	struct wlseal_server *server;
	struct wlseal_surface *surface;	/* NULL once the wl_surface is gone */
	struct wl_listener surface_destroy;
	/* The role object: at most one of them, NULL: none (yet). */
	struct wlseal_xdg_toplevel *toplevel;
	struct wlseal_xdg_popup *popup;
	struct wlseal_xdg_geometry pending_geometry, geometry;
	/* The xdg_wm_base it was made from, for xdg_wm_base errors; NULL
	 * once that is destroyed. */
	struct wl_resource *wm_base;
	struct wl_listener wm_base_destroy;
	/* The xdg_surface leaves its wl_surface (it or the surface goes):
	 * its popups are dismissed (xdg-popup.c). Data: this. */
	struct wl_signal detach_signal;
};

/*
 * xdg-toplevel.c, xdg-toplevel-configure.c, xdg-toplevel-interactive.c
 * and xdg-toplevel-stack.c: the xdg_toplevel role. xdg-shell.c calls in
 * (create, commit, ack, detach), xdg-decoration.c too (from_resource,
 * configure), and decor.c (set_frame, move, close); none of the four
 * calls them back: they send xdg_surface.configure on the resource
 * themselves, and tell of changes through changed_signal, of the end
 * through destroy_signal.
 */
#define WLSEAL_XDG_CONFIGURES 4	/* sent and not acked, at most */

/* A frame the compositor draws around a window (decor.c): how far it
 * reaches past the window geometry on each side; all 0: none. */
struct wlseal_xdg_frame {
	int32_t top, left, right, bottom;
};

/* What a configure asks of the window. */
struct wlseal_xdg_state {
	bool maximized, fullscreen;
	bool activated;			/* it has the keyboard focus */
	bool resizing;			/* an interactive resize goes on */
	/* The floating size: 0x0 ("pick your own") until an interactive
	 * resize chose one. */
	int32_t width, height;
};

struct wlseal_xdg_toplevel {
	struct wl_resource *resource;
	struct wlseal_xdg_surface *xs;	/* NULL once the xdg_surface is gone */
	struct wlseal_kept_string title;	/* charged to the client */
	/* xdg_toplevel.set_parent: the window this one is stacked above
	 * (a dialog's), NULL for none; its children, linked by
	 * child_link. All of one client (xdg-toplevel-stack.c). */
	struct wlseal_xdg_toplevel *parent;
	struct wl_list children;
	struct wl_list child_link;
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
	/* An interactive resize began at this slot and window size. */
	int32_t resize_x0, resize_y0, resize_w0, resize_h0;
	/* An embedder's place for it before it was mapped, taken instead
	 * of a cascade slot (wlseal_xdg_toplevel_place). */
	bool placed;
	int32_t placed_x, placed_y;
	/* The xdg_toplevel goes (data: this): its decoration and its
	 * popups follow it; destroy_requested tells its destroy request
	 * from the client's disconnect. */
	struct wl_signal destroy_signal;
	bool destroy_requested;
	struct wl_resource *decoration;	/* xdg-decoration.c's, or NULL */
	/* The compositor's frame around it (wlseal_xdg_toplevel_set_frame):
	 * configures leave room for it, placement puts its corner at the
	 * spot. Not drawn, nor counted, while fullscreen. */
	struct wlseal_xdg_frame frame;
	/* What a frame shows may have changed (data: this): a commit (size,
	 * window geometry, states acked), the title, the keyboard focus,
	 * or the xdg_surface gone (xs NULL). */
	struct wl_signal changed_signal;
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
/* The window in front of @tl's family, @tl's own surface when no dialog
 * of it is shown (xdg-shell.c's role_front). O(64): the walk of a
 * family is bounded (xdg-toplevel-stack.c). */
struct wlseal_surface *wlseal_xdg_toplevel_front(struct wlseal_xdg_toplevel *tl);
/* The seat's focus came or went (xdg-shell.c's role_activate): a
 * configure with or without the activated state. */
void wlseal_xdg_toplevel_set_activated(struct wlseal_xdg_toplevel *tl,
				       bool activated);

/*
 * xdg-positioner.c: xdg_positioner and the placement it describes. The
 * rules are copied out of the object when a popup is made or
 * repositioned (the positioner may change or go afterwards).
 */
struct wlseal_box {
	int32_t x, y, width, height;
};

struct wlseal_positioner_rules {
	int32_t width, height;		/* set_size; 0: not set */
	struct wlseal_box anchor_rect;	/* set_anchor_rect */
	bool anchor_rect_set;
	uint32_t anchor, gravity;	/* xdg_positioner.anchor, .gravity */
	uint32_t adjustment;		/* constraint_adjustment bits */
	int32_t offset_x, offset_y;
	/* Version 3, kept as accepted state: reactive popups are placed
	 * again when their parent moves (xdg-popup.c); the parent size and
	 * configure serial change nothing here, where a parent's size is
	 * known when it is committed. */
	bool reactive;
	int32_t parent_width, parent_height;
	bool has_parent_configure;
	uint32_t parent_configure;
};

/* xdg_wm_base.create_positioner. */
void wlseal_positioner_create(struct wl_client *client, uint32_t version,
			      uint32_t id);
/* The rules of an xdg_positioner; false: it is incomplete (no size or
 * no anchor rectangle), an invalid_positioner error for the caller. */
bool wlseal_positioner_rules(struct wl_resource *positioner,
			     struct wlseal_positioner_rules *out);
/* Where the rules put the popup's window geometry, relative to the
 * parent's window geometry, kept inside @bounds (the same coordinates:
 * the output) as far as the constraint adjustments allow. */
struct wlseal_box wlseal_positioner_place(const struct wlseal_positioner_rules *rules,
					  struct wlseal_box bounds);

/*
 * A popup grab as the seat sees it (seat.c): xdg-popup.c hands the seat
 * the topmost grabbing popup's grab; the seat answers only through
 * @impl. While a grab is set, the keyboard focus is @focus, and a button
 * pressed anywhere that @impl does not claim dismisses the grab.
 */
struct wlseal_grab;
struct wlseal_grab_impl {
	/* @s (a surface under the cursor) belongs to the grab's chain. */
	bool (*contains)(struct wlseal_grab *grab, struct wlseal_surface *s);
	/* A click outside: the chain is dismissed, which ends the grab
	 * (wlseal_seat_set_grab(seat, NULL) from inside this call). */
	void (*dismiss)(struct wlseal_grab *grab);
};
struct wlseal_grab {
	const struct wlseal_grab_impl *impl;
	struct wlseal_surface *focus;	/* the topmost grabbing popup's */
};
/* seat.c: @grab (NULL: none) replaces the seat's grab; the keyboard goes
 * to its focus, or back to the focused toplevel. */
void wlseal_seat_set_grab(struct wlseal_seat *seat, struct wlseal_grab *grab);
/* The seat's grab, or NULL. */
struct wlseal_grab *wlseal_seat_grab(struct wlseal_seat *seat);
/* xdg_toplevel.move, wl_shell_surface.move: while the button pressed on
 * @s (or its subsurfaces) with @serial stays held, the pointer moves
 * the window (s->role_move) and no client gets pointer events; false:
 * no such button is held (the request is ignored). */
bool wlseal_seat_move(struct wlseal_seat *seat, struct wlseal_surface *s,
		      uint32_t serial);
/* xdg_toplevel.resize: the same, the pointer dragging @edges of the
 * window (s->role_resize) instead of moving it. */
bool wlseal_seat_resize(struct wlseal_seat *seat, struct wlseal_surface *s,
			uint32_t serial, uint32_t edges);

/*
 * xdg-popup.c: the xdg_popup role. xdg-shell.c calls in (create,
 * commit, ack, detach) and is never called back; the parent is followed
 * through its xdg_surface's detach_signal and its wl_surface's
 * apply_signal and destroy_signal; the seat through the grab above.
 */
void wlseal_xdg_popup_create(struct wlseal_xdg_surface *xs,
			     struct wl_client *client, uint32_t version,
			     uint32_t id, struct wlseal_xdg_surface *parent,
			     struct wl_resource *positioner);
void wlseal_xdg_popup_commit(struct wlseal_xdg_popup *popup);
/* The popup's first configure was sent (its initial commit answered). */
bool wlseal_xdg_popup_configure_sent(const struct wlseal_xdg_popup *popup);
/* xdg_surface.ack_configure; false: @serial was never sent. */
bool wlseal_xdg_popup_ack(struct wlseal_xdg_popup *popup, uint32_t serial);
/* The xdg_surface goes first: the popup is dismissed, inert. */
void wlseal_xdg_popup_detach(struct wlseal_xdg_popup *popup);

/* wl-shell.c: wl_shell and wl_shell_surface (version 1). It calls
 * seat.c (a popup's grab) and is called by no one but main.c. */
bool wlseal_wl_shell_init(struct wlseal_server *server, uint32_t version);

/* xdg-output.c: zxdg_output_manager_v1, version 3 */
bool wlseal_xdg_output_init(struct wlseal_server *server, uint32_t version);

/* relative-pointer.c: zwp_relative_pointer_manager_v1. seat.c calls
 * in with the mouse's motion for the client that has the pointer. */
bool wlseal_relative_pointer_init(struct wlseal_server *server,
				  uint32_t version);
void wlseal_relative_pointer_motion(struct wl_client *client, uint32_t time,
				    double dx, double dy);

/*
 * pointer-constraints.c: zwp_pointer_constraints_v1, a client's pointer
 * lock or confinement on one of its surfaces, active while the surface
 * has the pointer focus and the cursor is in the constraint's region.
 * pointer.c tells it of every focus change and motion and asks whether
 * motion is locked; seat.c asks where the cursor may go (input/'s
 * constrain hook). It calls neither back: it reads the pointer's focus
 * and position from struct wlseal_pointer (seat.h).
 */
struct wlseal_pointer;
bool wlseal_pointer_constraints_init(struct wlseal_server *server,
				     uint32_t version);
/* The focus or the cursor of @p changed (@old: the focus before, or
 * the same): @old's constraint ends if the focus left it, the focus's
 * begins if the cursor is in its region. */
void wlseal_constraint_update(struct wlseal_pointer *p,
			      struct wlseal_surface *old);
/* The focus of @p holds an active lock: no wl_pointer.motion. */
bool wlseal_constraint_locked(const struct wlseal_pointer *p);
/* The cursor of @p would go from (@from_x, @from_y) to (*@x, *@y),
 * output coordinates: where the focus's active lock or confinement
 * lets it go. */
void wlseal_constraint_clamp(const struct wlseal_pointer *p, double from_x,
			     double from_y, double *x, double *y);

/*
 * text-input.c: zwp_text_input_manager_v3. Its text inputs follow the
 * keyboard focus through server->events.keyboard_focus (keyboard.c
 * emits it); there is no input method, so nothing is ever composed.
 */
bool wlseal_text_input_init(struct wlseal_server *server, uint32_t version);

/* The frame around @tl (all 0: none); a mapped window moves so that
 * the frame's corner is at its spot. */
void wlseal_xdg_toplevel_set_frame(struct wlseal_xdg_toplevel *tl,
				   const struct wlseal_xdg_frame *frame);
/* A floating window moves by (@dx, @dy) (the frame's top edge stays on
 * the output); maximized or fullscreen, nothing happens. */
void wlseal_xdg_toplevel_move(struct wlseal_xdg_toplevel *tl, int32_t dx,
			      int32_t dy);
/* An interactive resize of a floating window (xdg-shell.c's
 * role_resize, as that hook says). */
void wlseal_xdg_toplevel_resize(struct wlseal_xdg_toplevel *tl, uint32_t edges,
				int32_t dx, int32_t dy);
/* An embedder places a window (the WLCS module's
 * position_window_absolute): its window geometry's origin at @x, @y,
 * now or, not mapped yet, when it maps. */
void wlseal_xdg_toplevel_place(struct wlseal_xdg_toplevel *tl, int32_t x,
			       int32_t y);
/* xdg_toplevel.close: the user asked the window to close. */
void wlseal_xdg_toplevel_close(struct wlseal_xdg_toplevel *tl);

/*
 * decor.c: the frame the compositor draws around a toplevel whose
 * decoration is server_side: a title bar with the title and a close
 * button, and a border, as child views of the toplevel's surface (below
 * it), drawn and damage-tracked by the scene, taking the pointer
 * through the scene's hooks (wlseal_scene_pointer). It calls the
 * xdg_toplevel's files (frame, move, close) and follows the toplevel
 * through its changed_signal; xdg-decoration.c creates and destroys it.
 */
struct wlseal_decor;
/* NULL: out of memory. */
struct wlseal_decor *wlseal_decor_create(struct wlseal_xdg_toplevel *tl);
/* Before @tl goes, or when its mode is client_side again. */
void wlseal_decor_destroy(struct wlseal_decor *decor);

/* xdg-decoration.c: zxdg_decoration_manager_v1: server_side unless the
 * client asks for client_side */
bool wlseal_xdg_decoration_init(struct wlseal_server *server,
				uint32_t version);

/* presentation.c */
bool wlseal_presentation_init(struct wlseal_server *server, uint32_t version);

/* output.c: the wl_output global */
bool wlseal_output_init(struct wlseal_server *server, uint32_t version);
/* @client's wl_output objects (wl_resource_get_link), or NULL: none. */
struct wl_list *wlseal_output_resources(struct wl_client *client);

#endif
