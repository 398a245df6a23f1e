/* SPDX-License-Identifier: MIT */
/*
 * relative-pointer.c - zwp_relative_pointer_manager_v1: how far a mouse
 * moved, not where the cursor is (games and 3D views turn by it; it
 * goes on when the cursor stops at the output's edge).
 *
 * Motion comes from input/ as the device reported it (EV_REL; tablets
 * have none), through seat.c, which calls
 * wlseal_relative_pointer_motion for the client that has the pointer
 * focus: a relative pointer shares its wl_pointer's focus, and every
 * wl_pointer of a client has the same one, so each of that client's
 * relative pointers gets the motion, in the wl_pointer.frame that
 * carries its absolute motion. There is no acceleration: the
 * accelerated and unaccelerated deltas are the same. Timestamps are
 * the seat's (milliseconds), in microseconds.
 *
 * Each client's relative pointers are kept in a list of its own (found
 * through its destroy listener, as output.c keeps wl_outputs), so that
 * a motion walks the focused client's objects only. They are counted
 * like any other object (account/objects.c).
 */
#include <stdlib.h>

#include <wayland-server-core.h>

#include "seat.h"
#include "relative-pointer-unstable-v1-server-protocol.h"

struct client_relative {
	struct wl_list resources;	/* wl_resource_get_link */
	struct wl_listener destroy;	/* the client's */
};

static void client_destroyed(struct wl_listener *l, void *data)
{
	struct client_relative *cr = wl_container_of(l, cr, destroy);
	struct wl_resource *r, *tmp;

	/* libwayland destroys the client's objects after this signal:
	 * their destructors then unlink them from nothing. */
	wl_resource_for_each_safe(r, tmp, &cr->resources)
		wl_list_init(wl_resource_get_link(r));
	wl_list_remove(&cr->destroy.link);
	free(cr);
}

static struct client_relative *client_relative(struct wl_client *client)
{
	struct wl_listener *l =
		wl_client_get_destroy_listener(client, client_destroyed);
	struct client_relative *cr;

	return l ? wl_container_of(l, cr, destroy) : NULL;
}

void wlseal_relative_pointer_motion(struct wl_client *client, uint32_t time,
				    double dx, double dy)
{
	struct client_relative *cr = client_relative(client);
	uint64_t usec = (uint64_t)time * 1000;
	wl_fixed_t fx = wl_fixed_from_double(dx), fy = wl_fixed_from_double(dy);
	struct wl_resource *r;

	if (!cr)
		return;
	wl_resource_for_each(r, &cr->resources)
		zwp_relative_pointer_v1_send_relative_motion(r,
			(uint32_t)(usec >> 32), (uint32_t)usec, fx, fy, fx, fy);
}

static void resource_destroy(struct wl_client *c, struct wl_resource *r)
{
	wl_resource_destroy(r);
}

static const struct zwp_relative_pointer_v1_interface relative_impl = {
	.destroy = resource_destroy,
};

static void unlink_resource(struct wl_resource *r)
{
	wl_list_remove(wl_resource_get_link(r));
}

static void get_relative_pointer(struct wl_client *client,
				 struct wl_resource *r, uint32_t id,
				 struct wl_resource *pointer)
{
	struct client_relative *cr = client_relative(client);
	struct wl_resource *rel;

	if (!cr) {
		cr = calloc(1, sizeof(*cr));
		if (!cr) {
			wl_client_post_no_memory(client);
			return;
		}
		wl_list_init(&cr->resources);
		cr->destroy.notify = client_destroyed;
		wl_client_add_destroy_listener(client, &cr->destroy);
	}
	rel = wl_resource_create(client, &zwp_relative_pointer_v1_interface,
				 wl_resource_get_version(r), id);
	if (!rel) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(rel, &relative_impl, NULL,
				       unlink_resource);
	wl_list_insert(&cr->resources, wl_resource_get_link(rel));
}

static const struct zwp_relative_pointer_manager_v1_interface manager_impl = {
	.destroy = resource_destroy,
	.get_relative_pointer = get_relative_pointer,
};

static void manager_bind(struct wl_client *client, void *data,
			 uint32_t version, uint32_t id)
{
	struct wl_resource *r;

	r = wl_resource_create(client, &zwp_relative_pointer_manager_v1_interface,
			       (int)version, id);
	if (!r) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(r, &manager_impl, data, NULL);
}

bool wlseal_relative_pointer_init(struct wlseal_server *server,
				  uint32_t version)
{
	return wl_global_create(server->display,
				&zwp_relative_pointer_manager_v1_interface, version,
				server, manager_bind) != NULL;
}
