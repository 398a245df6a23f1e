/* SPDX-License-Identifier: MIT */
/*
 * seat.h - the input protocols: wl_seat and its devices (seat.c,
 * keyboard.c, keymap.c, pointer.c, touch.c, seat-client.c; their structs
 * are private/devices.h), the relative pointer (relative-pointer.c),
 * pointer constraints (pointer-constraints.c), text input
 * (text-input.c) and the selection (data-device.c). input/ feeds the
 * seat through wlseal_seat_input; the shells (shell/) ask it for grabs,
 * moves and resizes. It builds on surfaces (surface.h) and never calls a
 * shell: a window's focus goes back through the surface's
 * role_activate hook.
 */
#ifndef WLSEAL_SEAT_H
#define WLSEAL_SEAT_H

#include <stdbool.h>
#include <stdint.h>

#include <wayland-server-core.h>

#include "surface.h"

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

#endif
