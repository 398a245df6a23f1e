/* SPDX-License-Identifier: MIT */
/*
 * xdg.h - inside shell/: the xdg_surface, the xdg_toplevel role, the
 * positioner and the popup as the files of xdg-shell share them, and the
 * server-side frame (decor.c). xdg-shell.c calls into xdg-toplevel*.c,
 * xdg-popup.c and xdg-positioner.c and is never called back;
 * xdg-decoration.c calls decor.c and xdg-toplevel*.c.
 */
#ifndef WLSEAL_SHELL_XDG_H
#define WLSEAL_SHELL_XDG_H

#include <stdbool.h>
#include <stdint.h>

#include <wayland-server-core.h>

#include "seat.h"
#include "shell.h"
#include "surface.h"

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

#endif
