/* SPDX-License-Identifier: MIT */
/*
 * seat.c - the wl_seat global, "seat0": its capabilities, and who has
 * the keyboard and pointer focus.
 *
 * Input comes from input/ (raw evdev streams: the VM's virtio keyboard
 * and tablet, or --input paths) through the wlseal_input_handler here;
 * keyboard.c and pointer.c send the events. The seat advertises
 * keyboard and pointer only while a device of that kind exists (an
 * --input stream counts as both), and tells every wl_seat when that
 * changes: a device that vanishes (ENODEV, a FIFO's writer closing)
 * takes its capability with it. A client may still ask for a keyboard
 * or pointer it was not offered (it may have raced the change): it
 * gets one, which stays quiet until a device comes. The same holds for
 * wl_touch (touch.c), whose capability is there while a touch device
 * is: input/ reads none yet, an embedder may add one (tests/wlcs/).
 *
 * Keyboard focus goes to a toplevel (a surface whose role sets
 * role_activate, xdg-shell.c): the newest one mapped (or, when it
 * mapped under a dialog of its own, that dialog: its role_front), or
 * the one a button press lands on (its subsurfaces count as it: the
 * focus is the root surface). When the focused toplevel is unmapped
 * or destroyed, the topmost remaining one gets the focus. The focused
 * toplevel is sent the activated state. Without a keyboard nothing
 * has the focus, and no toplevel is activated: a seat with no devices
 * (the host tests without --input) leaves configures as they were.
 *
 * A popup grab (xdg-popup.c hands it over with wlseal_seat_set_grab)
 * takes the keyboard from the focused toplevel, which stays activated,
 * and gives it back when it ends. While it holds, a button pressed
 * anywhere its wlseal_grab_impl does not claim (the popup client's
 * surfaces) dismisses it (the click then goes on as usual), and one
 * pressed on what it claims moves no focus. A toplevel mapped while
 * it holds takes the keyboard and dismisses it.
 *
 * Work per event is bounded by the acting client's own state. A map or
 * unmap costs the seat O(1) (the keyboard focus: the newest toplevel,
 * or the topmost, which is the scene's top view) plus O(64) for a
 * window mapped under its dialogs (the mapping client's own family)
 * plus O(depth) for a pointer focus that was hidden; finding the
 * surface under the cursor, a walk of every client's views, waits for
 * the next frame and runs once whatever the changes (pointer.c), and
 * not at all without a pointer device. Events go to the focused
 * client's own objects (seat-client.c).
 *
 * Version 8 is honest: every request up to it is implemented, and
 * pointer.c sends axis_value120 to version 8 objects.
 */
#include <wayland-server-core.h>
#include <wayland-server-protocol.h>
#include <stdlib.h>

#include "input.h"
#include "log.h"
#include "devices.h"

struct wlseal_seat {
	struct wlseal_server *server;
	struct wl_global *global;
	struct wl_list resources;	/* wl_seat, wl_resource_get_link */
	uint32_t caps;			/* WLSEAL_INPUT_* */
	struct wlseal_keyboard keyboard;
	struct wlseal_pointer pointer;
	/* The focused toplevel: the keyboard's focus, unless a popup grab
	 * holds the keyboard. */
	struct wlseal_focus active;
	struct wlseal_grab *grab;	/* xdg-popup.c's, or NULL */
	struct wlseal_touch touch;
	struct wl_listener view_mapped, view_unmapped;	/* scene signals */
	struct wl_listener frame_start;		/* server->events */
	struct wl_listener commit_applied;	/* server->events */
};

static void resource_destroy(struct wl_client *c, struct wl_resource *r)
{
	wl_resource_destroy(r);
}

static void seat_get_pointer(struct wl_client *client, struct wl_resource *r,
			     uint32_t id)
{
	struct wlseal_seat *seat = wl_resource_get_user_data(r);
	struct wlseal_seat_client *sc = wlseal_seat_client_get(client);

	if (!sc) {
		wl_client_post_no_memory(client);
		return;
	}
	wlseal_pointer_create(&seat->pointer, sc, client,
			      (uint32_t)wl_resource_get_version(r), id);
}

static void seat_get_keyboard(struct wl_client *client, struct wl_resource *r,
			      uint32_t id)
{
	struct wlseal_seat *seat = wl_resource_get_user_data(r);
	struct wlseal_seat_client *sc = wlseal_seat_client_get(client);

	if (!sc) {
		wl_client_post_no_memory(client);
		return;
	}
	wlseal_keyboard_create(&seat->keyboard, sc, client,
			       (uint32_t)wl_resource_get_version(r), id);
}

static void seat_get_touch(struct wl_client *client, struct wl_resource *r,
			   uint32_t id)
{
	struct wlseal_seat *seat = wl_resource_get_user_data(r);
	struct wlseal_seat_client *sc = wlseal_seat_client_get(client);

	if (!sc) {
		wl_client_post_no_memory(client);
		return;
	}
	wlseal_touch_create(&seat->touch, sc, client,
			    (uint32_t)wl_resource_get_version(r), id);
}

static const struct wl_seat_interface seat_impl = {
	.get_pointer = seat_get_pointer,
	.get_keyboard = seat_get_keyboard,
	.get_touch = seat_get_touch,
	.release = resource_destroy,
};

static uint32_t wl_caps(uint32_t caps)
{
	return ((caps & WLSEAL_INPUT_POINTER) ? WL_SEAT_CAPABILITY_POINTER : 0) |
	       ((caps & WLSEAL_INPUT_KEYBOARD) ? WL_SEAT_CAPABILITY_KEYBOARD : 0) |
	       ((caps & WLSEAL_INPUT_TOUCH) ? WL_SEAT_CAPABILITY_TOUCH : 0);
}

static void unlink_resource(struct wl_resource *r)
{
	wl_list_remove(wl_resource_get_link(r));
}

static void seat_bind(struct wl_client *client, void *data, uint32_t version,
		      uint32_t id)
{
	struct wlseal_seat *seat = data;
	struct wl_resource *r;

	r = wl_resource_create(client, &wl_seat_interface, (int)version, id);
	if (!r) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(r, &seat_impl, seat, unlink_resource);
	wl_list_insert(&seat->resources, wl_resource_get_link(r));
	wl_seat_send_capabilities(r, wl_caps(seat->caps));
	if (version >= WL_SEAT_NAME_SINCE_VERSION)
		wl_seat_send_name(r, "seat0");
}

/* Focus */

static struct wlseal_surface *view_surface(struct wlseal_scene_view *v)
{
	struct wlseal_surface *s;

	/* A top-level view, or one the pointer focus found, is a
	 * wl_surface's (surface.c); only children of those may be the
	 * compositor's own (a window frame, decor.c). */
	return wl_container_of(v, s, view);
}

/* The toplevel a surface belongs to (itself or a subsurface's root),
 * or NULL when that root cannot take the focus. */
static struct wlseal_surface *focus_root(struct wlseal_surface *s)
{
	struct wlseal_scene_view *v = &s->view;

	while (v->parent)
		v = v->parent;
	s = view_surface(v);
	return s->role_activate ? s : NULL;
}

/* The keyboard to the grab's popup, or to the focused toplevel. */
static void update_keyboard(struct wlseal_seat *seat)
{
	struct wlseal_surface *s = seat->grab ? seat->grab->focus
					      : seat->active.surface;

	if (!(seat->caps & WLSEAL_INPUT_KEYBOARD))
		s = NULL;
	if (seat->keyboard.focus.surface != s)
		wlseal_keyboard_set_focus(&seat->keyboard, s);
}

static void set_keyboard_focus(struct wlseal_seat *seat,
			       struct wlseal_surface *s)
{
	struct wlseal_surface *old = seat->active.surface;

	if (!(seat->caps & WLSEAL_INPUT_KEYBOARD))
		s = NULL;
	if (old == s)
		return;
	if (old && old->role_activate)
		old->role_activate(old, false);
	wlseal_focus_set(&seat->active, s);
	update_keyboard(seat);
	if (s)
		s->role_activate(s, true);
}

static void active_gone(struct wl_listener *l, void *data)
{
	struct wlseal_seat *seat = wl_container_of(l, seat, active.destroy);

	/* Being destroyed: no deactivation for it. */
	wlseal_focus_set(&seat->active, NULL);
}

void wlseal_seat_set_grab(struct wlseal_seat *seat, struct wlseal_grab *grab)
{
	seat->grab = grab;
	update_keyboard(seat);
}

struct wlseal_grab *wlseal_seat_grab(struct wlseal_seat *seat)
{
	return seat->grab;
}

bool wlseal_seat_move(struct wlseal_seat *seat, struct wlseal_surface *s,
		      uint32_t serial)
{
	return wlseal_pointer_move(&seat->pointer, s, serial);
}

bool wlseal_seat_resize(struct wlseal_seat *seat, struct wlseal_surface *s,
			uint32_t serial, uint32_t edges)
{
	return wlseal_pointer_resize(&seat->pointer, s, serial, edges);
}

/*
 * The topmost mapped toplevel, or NULL: the top view of the scene, in
 * O(1), never a walk of the views. Only xdg-toplevel-configure.c maps
 * top-level views, and a surface loses role_activate only as its
 * xdg_surface goes, which unmaps it first (xdg-shell.c): every view in
 * scene.views is a mapped toplevel's. Were a top view ever without role_activate, nobody
 * would get the focus rather than a walk past it.
 */
static struct wlseal_surface *topmost(struct wlseal_seat *seat)
{
	struct wl_list *views = &seat->server->scene.views;
	struct wlseal_scene_view *v;
	struct wlseal_surface *s;

	if (wl_list_empty(views))
		return NULL;
	v = wl_container_of(views->prev, v, link);
	s = view_surface(v);
	return v->mapped && s->role_activate ? s : NULL;
}

/* Work per map: O(1), whoever maps and whatever else is mapped. The
 * pointer learns of it through scene.layout, once a frame. */
static void view_mapped(struct wl_listener *l, void *data)
{
	struct wlseal_seat *seat = wl_container_of(l, seat, view_mapped);
	struct wlseal_scene_view *v = data;
	struct wlseal_surface *s, *front;

	/* The newest toplevel gets the keyboard, or the dialog it maps
	 * under (role_front: O(64), the bounded walk of a family). Only a
	 * top-level view is sure to be a surface's: a child may be a
	 * window frame's. A popup grab held the keyboard: the new window
	 * breaks it (its popups are dismissed, O(chain length)), after it
	 * was made the focus, so that the keyboard goes straight to it. */
	s = v->parent ? NULL : view_surface(v);
	if (s && s->role_activate) {
		front = s->role_front ? s->role_front(s) : s;
		set_keyboard_focus(seat, front->role_activate ? front : s);
		if (seat->grab)
			seat->grab->impl->dismiss(seat->grab);
	}
}

/* Work per unmap: O(depth of the focused surfaces' trees), at most 32
 * levels (subcompositor.c), plus O(1) for the topmost toplevel. */
static void view_unmapped(struct wl_listener *l, void *data)
{
	struct wlseal_seat *seat = wl_container_of(l, seat, view_unmapped);
	struct wlseal_surface *focus = seat->active.surface;

	/* The focus was destroyed (keyboard.c forgot it) or hidden.
	 * Without a keyboard nobody has it: nothing to look for. */
	if ((seat->caps & WLSEAL_INPUT_KEYBOARD) &&
	    (!focus || !wlseal_scene_view_visible(&focus->view)))
		set_keyboard_focus(seat, topmost(seat));
	wlseal_pointer_unmapped(&seat->pointer);
}

/* A repaint starts: the one hit test for whatever changed in the scene
 * since the last, and none without a pointer device. */
static void frame_start(struct wl_listener *l, void *data)
{
	struct wlseal_seat *seat = wl_container_of(l, seat, frame_start);

	if (seat->caps & WLSEAL_INPUT_POINTER)
		wlseal_pointer_frame_start(&seat->pointer);
}

/* A commit was applied: the pointer looks within that window, O(its
 * tree), and not at all without a pointer device (pointer.c). */
static void commit_applied(struct wl_listener *l, void *data)
{
	struct wlseal_seat *seat = wl_container_of(l, seat, commit_applied);

	if (seat->caps & WLSEAL_INPUT_POINTER)
		wlseal_pointer_committed(&seat->pointer, data);
}

/* The input handler */

static void on_key(void *data, uint32_t time, uint32_t key, bool pressed)
{
	struct wlseal_seat *seat = data;

	wlseal_keyboard_key(&seat->keyboard, time, key, pressed);
}

/* Where the cursor may go: a lock holds it, a confinement keeps it in
 * its region (pointer-constraints.c, for the pointer focus). */
static void on_constrain(void *data, double from_x, double from_y, double *x,
			 double *y)
{
	struct wlseal_seat *seat = data;

	wlseal_constraint_clamp(&seat->pointer, from_x, from_y, x, y);
}

static void on_motion(void *data, uint32_t time, double x, double y)
{
	struct wlseal_seat *seat = data;

	wlseal_pointer_motion(&seat->pointer, time, x, y);
}

/* A mouse's own motion, to the relative pointers of the client the
 * cursor is over (relative-pointer.c), in the same frame. */
static void on_relative(void *data, uint32_t time, double dx, double dy)
{
	struct wlseal_seat *seat = data;
	struct wlseal_surface *s = seat->pointer.focus.surface;

	if (s)
		wlseal_relative_pointer_motion(wl_resource_get_client(s->resource),
					       time, dx, dy);
}

static void on_button(void *data, uint32_t time, uint32_t button, bool pressed)
{
	struct wlseal_seat *seat = data;
	struct wlseal_surface *s = seat->pointer.focus.surface;
	struct wlseal_scene_view *v = seat->pointer.over;

	/* A window's frame (the compositor's view, a child of the
	 * window's) counts as the window. */
	if (!s && v) {
		while (v->parent)
			v = v->parent;
		s = view_surface(v);
	}

	/* A press outside the grab's popups breaks it; one on them keeps
	 * the keyboard where the grab put it. */
	if (pressed && seat->grab &&
	    !(s && seat->grab->impl->contains(seat->grab, s))) {
		seat->grab->impl->dismiss(seat->grab);
		s = seat->pointer.focus.surface;
	}
	/* Click to focus: before the button, so that a client sees its
	 * keyboard enter first. */
	if (pressed && s && !seat->grab && focus_root(s))
		set_keyboard_focus(seat, focus_root(s));
	wlseal_pointer_button(&seat->pointer, time, button, pressed);
}

static void on_axis(void *data, uint32_t time, bool vertical, int32_t clicks)
{
	struct wlseal_seat *seat = data;

	wlseal_pointer_axis(&seat->pointer, time, vertical, clicks);
}

static void on_touch_down(void *data, uint32_t time, int32_t id, double x,
			  double y)
{
	struct wlseal_seat *seat = data;

	wlseal_touch_down(&seat->touch, time, id, x, y);
}

static void on_touch_motion(void *data, uint32_t time, int32_t id, double x,
			    double y)
{
	struct wlseal_seat *seat = data;

	wlseal_touch_motion(&seat->touch, time, id, x, y);
}

static void on_touch_up(void *data, uint32_t time, int32_t id)
{
	struct wlseal_seat *seat = data;

	wlseal_touch_up(&seat->touch, time, id);
}

static void on_frame(void *data)
{
	struct wlseal_seat *seat = data;

	wlseal_pointer_frame(&seat->pointer);
	wlseal_touch_frame(&seat->touch);
}

static void on_caps(void *data, uint32_t caps)
{
	struct wlseal_seat *seat = data;
	struct wl_resource *r;

	if (caps == seat->caps)
		return;
	seat->caps = caps;
	wl_resource_for_each(r, &seat->resources)
		wl_seat_send_capabilities(r, wl_caps(caps));
	/* A keyboard came: the topmost toplevel gets it; it went: nobody
	 * has the focus. The same for the pointer. */
	set_keyboard_focus(seat, topmost(seat));
	update_keyboard(seat);		/* a grab's popup, if one holds it */
	if (caps & WLSEAL_INPUT_POINTER)
		wlseal_pointer_rehit(&seat->pointer);
	else
		wlseal_pointer_leave(&seat->pointer);
	if (!(caps & WLSEAL_INPUT_TOUCH))
		wlseal_touch_cancel(&seat->touch);
}

const struct wlseal_input_handler wlseal_seat_input = {
	.key = on_key,
	.constrain = on_constrain,
	.motion = on_motion,
	.relative = on_relative,
	.button = on_button,
	.axis = on_axis,
	.touch_down = on_touch_down,
	.touch_motion = on_touch_motion,
	.touch_up = on_touch_up,
	.frame = on_frame,
	.caps = on_caps,
};

struct wlseal_seat *wlseal_seat_create(struct wlseal_server *server,
				       uint32_t version)
{
	struct wlseal_seat *seat = calloc(1, sizeof(*seat));

	if (!seat)
		return NULL;
	seat->server = server;
	wl_list_init(&seat->resources);
	wl_list_init(&seat->active.destroy.link);
	seat->active.destroy.notify = active_gone;
	if (!wlseal_keyboard_init(&seat->keyboard, server)) {
		free(seat);
		return NULL;
	}
	wlseal_pointer_init(&seat->pointer, server);
	wlseal_touch_init(&seat->touch, server);
	seat->global = wl_global_create(server->display, &wl_seat_interface,
					version, seat, seat_bind);
	if (!seat->global) {
		wlseal_keyboard_finish(&seat->keyboard);
		free(seat);
		return NULL;
	}
	seat->view_mapped.notify = view_mapped;
	wl_signal_add(&server->scene.map_signal, &seat->view_mapped);
	seat->view_unmapped.notify = view_unmapped;
	wl_signal_add(&server->scene.unmap_signal, &seat->view_unmapped);
	seat->frame_start.notify = frame_start;
	wl_signal_add(&server->events.frame_start, &seat->frame_start);
	seat->commit_applied.notify = commit_applied;
	wl_signal_add(&server->events.commit_applied, &seat->commit_applied);
	return seat;
}

/* After the clients are gone, before the scene goes. */
void wlseal_seat_destroy(struct wlseal_seat *seat)
{
	struct wl_resource *r, *tmp;

	if (!seat)
		return;
	wl_list_remove(&seat->view_mapped.link);
	wl_list_remove(&seat->view_unmapped.link);
	wl_list_remove(&seat->frame_start.link);
	wl_list_remove(&seat->commit_applied.link);
	wl_resource_for_each_safe(r, tmp, &seat->resources)
		wl_list_init(wl_resource_get_link(r));
	wl_global_destroy(seat->global);
	wlseal_focus_set(&seat->active, NULL);
	wlseal_touch_finish(&seat->touch);
	wlseal_pointer_finish(&seat->pointer);
	wlseal_keyboard_finish(&seat->keyboard);
	free(seat);
}
