/* SPDX-License-Identifier: MIT */
/*
 * devices.h - inside seat/: the seat's parts, shared by seat.c (the wl_seat global,
 * capabilities, focus), keyboard.c (wl_keyboard, xkb_state), keymap.c
 * (the sealed keymap memfd), pointer.c (wl_pointer, hit testing),
 * touch.c (wl_touch) and seat-client.c (each client's wl_pointers,
 * wl_keyboards and wl_touches).
 *
 * Calls go one way: seat.c calls keyboard.c, pointer.c and touch.c,
 * keyboard.c calls keymap.c; all four call seat-client.c; none calls
 * back. Focus
 * is a wlseal_surface pointer
 * guarded by a destroy listener on the surface's resource, which fires
 * before the surface's own destroy code (and before it unmaps), so no
 * pointer to a surface outlives it.
 */
#ifndef WLSEAL_SEAT_DEVICES_H
#define WLSEAL_SEAT_DEVICES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <wayland-server-core.h>
#include <xkbcommon/xkbcommon.h>

#include "seat.h"
#include "surface.h"

struct wlseal_keymap {
	int fd;				/* the sealed memfd, -1: none */
	const char *map;		/* PROT_READ mapping of it */
	size_t size;			/* the text and its NUL */
	bool warned;			/* no /proc: said once */
};

/* keymap.c */
bool wlseal_keymap_init(struct wlseal_keymap *km, const char *text);
void wlseal_keymap_finish(struct wlseal_keymap *km);
/* A new fd of the keymap for one client (the caller closes it), or -1. */
int wlseal_keymap_client_fd(struct wlseal_keymap *km);

/* seat-client.c: one client's wl_pointer and wl_keyboard resources
 * (wl_resource_get_link), so that an event for the focused client
 * walks its own objects only. Freed with the client. */
struct wlseal_seat_client {
	struct wl_list pointers, keyboards, touches;
	struct wl_listener destroy;	/* the client's */
};

/* @client's, or NULL: it has made no wl_pointer or wl_keyboard yet
 * (or @client is NULL). */
struct wlseal_seat_client *wlseal_seat_client_find(struct wl_client *client);
/* @client's, made if needed; NULL: out of memory. */
struct wlseal_seat_client *wlseal_seat_client_get(struct wl_client *client);

/* A focus: a surface, forgotten when its resource goes. */
struct wlseal_focus {
	struct wlseal_surface *surface;	/* NULL: none */
	struct wl_listener destroy;	/* on surface->resource */
};

struct wlseal_keyboard {
	struct wlseal_server *server;
	struct wlseal_keymap keymap;
	struct xkb_context *ctx;
	struct xkb_keymap *xkb;
	struct xkb_state *state;
	struct wl_array pressed;	/* uint32_t evdev codes held down */
	struct wlseal_focus focus;
	uint32_t mods[4];		/* depressed, latched, locked, group */
};

struct wlseal_pointer {
	struct wlseal_server *server;
	struct wlseal_focus focus;
	double x, y;			/* the cursor, output coordinates */
	/* Where the focus was last told the cursor is (its coordinates),
	 * and the time of the last motion. */
	double sx, sy;
	uint32_t time;
	uint32_t enter_serial;
	uint64_t layout;		/* scene.layout at the last hit test */
	/* The compositor's own view under the cursor (a window frame:
	 * scene.h's wlseal_scene_pointer), found by the last hit test
	 * instead of a surface; NULL once it stops showing. */
	struct wlseal_scene_view *over;
	/* The compositor's view a button (@grab_button) was pressed on,
	 * while it is held: it gets every motion and the release, and no
	 * client gets pointer events meanwhile. NULL once it stops
	 * showing (wlseal_pointer_unmapped). */
	struct wlseal_scene_view *grab;
	uint32_t grab_button;
	uint32_t button_serial;		/* of the last press sent */
	/* An interactive move (wlseal_pointer_move): the window moved,
	 * the buttons still held, the cursor where it began and how far
	 * the window has gone. */
	struct wlseal_focus moving;
	uint32_t resize_edges;		/* not 0: the move is a resize */
	int move_buttons;
	double move_x0, move_y0;
	int64_t moved_x, moved_y;
	/* Buttons pressed on the focused surface and not released yet:
	 * while any is held the focus stays (the implicit grab), motion
	 * goes to it wherever the cursor is. */
	int held;
	/* Who got events since the last frame (at most the client left
	 * and the one entered). */
	struct wl_client *frame_clients[2];
};

/* keyboard.c */
bool wlseal_keyboard_init(struct wlseal_keyboard *kb,
			  struct wlseal_server *server);
void wlseal_keyboard_finish(struct wlseal_keyboard *kb);
/* A wl_keyboard of @client, whose objects @sc holds. */
void wlseal_keyboard_create(struct wlseal_keyboard *kb,
			    struct wlseal_seat_client *sc,
			    struct wl_client *client, uint32_t version,
			    uint32_t id);
/* leave to the old focus, enter (with the keys held) to @s or nothing. */
void wlseal_keyboard_set_focus(struct wlseal_keyboard *kb,
			       struct wlseal_surface *s);
void wlseal_keyboard_key(struct wlseal_keyboard *kb, uint32_t time,
			 uint32_t key, bool pressed);

/* pointer.c */
void wlseal_pointer_init(struct wlseal_pointer *p, struct wlseal_server *server);
void wlseal_pointer_finish(struct wlseal_pointer *p);
/* A wl_pointer of @client, whose objects @sc holds. */
void wlseal_pointer_create(struct wlseal_pointer *p,
			   struct wlseal_seat_client *sc,
			   struct wl_client *client, uint32_t version,
			   uint32_t id);
/* The cursor is at @x, @y: enter, leave and motion as needed. */
void wlseal_pointer_motion(struct wlseal_pointer *p, uint32_t time,
			   double x, double y);
/* No pointer device any more: the focus is left. */
void wlseal_pointer_leave(struct wlseal_pointer *p);
/* Finds the surface under the cursor now: enter or leave, no motion. */
void wlseal_pointer_rehit(struct wlseal_pointer *p);
/* A repaint starts: rehit if the scene changed since the last hit
 * test, whatever the number of changes. */
void wlseal_pointer_frame_start(struct wlseal_pointer *p);
/* A view was unmapped: if that hid the focus, leave it now. */
void wlseal_pointer_unmapped(struct wlseal_pointer *p);
/* A commit of @s was applied: if the focus is in @s's window, the
 * cursor is found again within that window. */
void wlseal_pointer_committed(struct wlseal_pointer *p,
			      struct wlseal_surface *s);
/* The window @s moves with the cursor while the button pressed on it
 * with @serial is held; false: none is. */
bool wlseal_pointer_move(struct wlseal_pointer *p, struct wlseal_surface *s,
			 uint32_t serial);
/* The same, resizing @s by @edges (its role_resize) instead. */
bool wlseal_pointer_resize(struct wlseal_pointer *p, struct wlseal_surface *s,
			   uint32_t serial, uint32_t edges);
void wlseal_pointer_button(struct wlseal_pointer *p, uint32_t time,
			   uint32_t button, bool pressed);
void wlseal_pointer_axis(struct wlseal_pointer *p, uint32_t time,
			 bool vertical, int32_t clicks);
void wlseal_pointer_frame(struct wlseal_pointer *p);

/* Touch points down at once (touch.c); more are dropped. */
#define WLSEAL_TOUCH_POINTS 10

struct wlseal_touch_point {
	struct wlseal_touch *touch;	/* the array it is in */
	bool down;
	int32_t id;
	struct wlseal_focus focus;	/* where it went down; NULL: nowhere */
};

struct wlseal_touch {
	struct wlseal_server *server;
	struct wlseal_touch_point points[WLSEAL_TOUCH_POINTS];
	uint32_t time;			/* of the last event */
	/* Who got events since the last frame (one per point at most). */
	struct wl_client *frame_clients[WLSEAL_TOUCH_POINTS];
	int n_frame_clients;
};

/* touch.c */
void wlseal_touch_init(struct wlseal_touch *t, struct wlseal_server *server);
void wlseal_touch_finish(struct wlseal_touch *t);
/* A wl_touch of @client, whose objects @sc holds. */
void wlseal_touch_create(struct wlseal_touch *t, struct wlseal_seat_client *sc,
			 struct wl_client *client, uint32_t version, uint32_t id);
/* Point @id went down at, moved to (@x, @y), output coordinates; up. */
void wlseal_touch_down(struct wlseal_touch *t, uint32_t time, int32_t id,
		       double x, double y);
void wlseal_touch_motion(struct wlseal_touch *t, uint32_t time, int32_t id,
			 double x, double y);
void wlseal_touch_up(struct wlseal_touch *t, uint32_t time, int32_t id);
/* The events since the last frame belong together. */
void wlseal_touch_frame(struct wlseal_touch *t);
/* No touch device any more: every point ends, its client told. */
void wlseal_touch_cancel(struct wlseal_touch *t);

/* @f follows @s (or nothing). The listener sits on the surface's
 * resource: it fires before the surface's own destroy code runs. */
static inline void wlseal_focus_set(struct wlseal_focus *f,
				    struct wlseal_surface *s)
{
	wl_list_remove(&f->destroy.link);
	wl_list_init(&f->destroy.link);
	f->surface = s;
	if (s)
		wl_resource_add_destroy_listener(s->resource, &f->destroy);
}

#endif
