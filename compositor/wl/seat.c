/* SPDX-License-Identifier: MIT */
/*
 * seat.c - the wl_seat global: one seat, "seat0", with no devices.
 *
 * wlseal reads no input (the headless host has none, and the VM demo
 * needs none), so the seat announces capabilities 0. Clients such as
 * foot still refuse to start without a seat, and a client may ask for
 * a pointer, keyboard or touch object at any time (it may have raced a
 * capability change): the protocol wants those created, and inert. Ours
 * never send an event, so no keymap is ever sent either.
 *
 * Version 8 is honest: every request up to it is implemented (release
 * came in 3 and 5); what later versions add are events of devices that
 * this seat does not have.
 */
#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "wl.h"

#define SEAT_VERSION 8

static void resource_destroy(struct wl_client *c, struct wl_resource *r)
{
	wl_resource_destroy(r);
}

static void pointer_set_cursor(struct wl_client *c, struct wl_resource *r,
			       uint32_t serial, struct wl_resource *surface,
			       int32_t x, int32_t y)
{
	struct wlseal_surface *s = surface ? wlseal_surface_from_resource(surface)
					   : NULL;

	if (s && s->role) {
		wl_resource_post_error(r, WL_POINTER_ERROR_ROLE,
				       "cursor wl_surface@%u already has a role",
				       wl_resource_get_id(surface));
		return;
	}
	/* No pointer, no focus: no serial of ours matches, ignored. */
}

static const struct wl_pointer_interface pointer_impl = {
	.set_cursor = pointer_set_cursor,
	.release = resource_destroy,
};

static const struct wl_keyboard_interface keyboard_impl = {
	.release = resource_destroy,
};

static const struct wl_touch_interface touch_impl = {
	.release = resource_destroy,
};

/* An object of @iface that never receives an event. */
static void create_inert(struct wl_client *client, struct wl_resource *seat,
			 const struct wl_interface *iface, const void *impl,
			 uint32_t id)
{
	struct wl_resource *r;

	r = wl_resource_create(client, iface, wl_resource_get_version(seat), id);
	if (!r) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(r, impl, NULL, NULL);
}

static void seat_get_pointer(struct wl_client *client, struct wl_resource *r,
			     uint32_t id)
{
	create_inert(client, r, &wl_pointer_interface, &pointer_impl, id);
}

static void seat_get_keyboard(struct wl_client *client, struct wl_resource *r,
			      uint32_t id)
{
	create_inert(client, r, &wl_keyboard_interface, &keyboard_impl, id);
}

static void seat_get_touch(struct wl_client *client, struct wl_resource *r,
			   uint32_t id)
{
	create_inert(client, r, &wl_touch_interface, &touch_impl, id);
}

static const struct wl_seat_interface seat_impl = {
	.get_pointer = seat_get_pointer,
	.get_keyboard = seat_get_keyboard,
	.get_touch = seat_get_touch,
	.release = resource_destroy,
};

static void seat_bind(struct wl_client *client, void *data, uint32_t version,
		      uint32_t id)
{
	struct wl_resource *r;

	r = wl_resource_create(client, &wl_seat_interface, version, id);
	if (!r) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(r, &seat_impl, data, NULL);
	wl_seat_send_capabilities(r, 0);
	if (version >= WL_SEAT_NAME_SINCE_VERSION)
		wl_seat_send_name(r, "seat0");
}

bool wlseal_seat_init(struct wlseal_server *server)
{
	return wl_global_create(server->display, &wl_seat_interface,
				SEAT_VERSION, server, seat_bind) != NULL;
}
