/* SPDX-License-Identifier: MIT */
/*
 * data-device.c - wl_data_device_manager: clipboard and drag-and-drop,
 * as far as a compositor without input devices has them.
 *
 * Clients such as foot refuse to start without this global. wlseal has
 * no keyboard focus and no pointer grab, and both protocols need one:
 * a selection is only taken by the client with keyboard focus, a drag
 * only starts from an implicit grab. So sources and devices are real
 * objects that check their arguments, and neither a selection nor a
 * drag ever becomes active; no client is ever offered data, which is
 * what a seat without devices means.
 */
#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "wl.h"

#define ALL_DND_ACTIONS (WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY | \
			 WL_DATA_DEVICE_MANAGER_DND_ACTION_MOVE | \
			 WL_DATA_DEVICE_MANAGER_DND_ACTION_ASK)

/* wl_data_source */

static void source_offer(struct wl_client *c, struct wl_resource *r,
			 const char *mime_type)
{
	/* Nobody is ever offered it, so the list is not kept. */
}

static void source_destroy(struct wl_client *c, struct wl_resource *r)
{
	wl_resource_destroy(r);
}

static void source_set_actions(struct wl_client *c, struct wl_resource *r,
			       uint32_t actions)
{
	if (actions & ~ALL_DND_ACTIONS)
		wl_resource_post_error(r, WL_DATA_SOURCE_ERROR_INVALID_ACTION_MASK,
				       "invalid dnd action mask 0x%x", actions);
}

static const struct wl_data_source_interface source_impl = {
	.offer = source_offer,
	.destroy = source_destroy,
	.set_actions = source_set_actions,
};

/* wl_data_device */

static void device_start_drag(struct wl_client *c, struct wl_resource *r,
			      struct wl_resource *source,
			      struct wl_resource *origin,
			      struct wl_resource *icon, uint32_t serial)
{
	struct wlseal_surface *s = icon ? wlseal_surface_from_resource(icon)
					: NULL;

	if (s && s->role) {
		wl_resource_post_error(r, WL_DATA_DEVICE_ERROR_ROLE,
				       "drag icon wl_surface@%u already has a role",
				       wl_resource_get_id(icon));
		return;
	}
	/* No serial of ours names a grab: the drag does not start. */
}

static void device_set_selection(struct wl_client *c, struct wl_resource *r,
				 struct wl_resource *source, uint32_t serial)
{
	/* No serial of ours names keyboard focus: ignored, as the
	 * protocol asks for a client without focus. */
}

static void device_release(struct wl_client *c, struct wl_resource *r)
{
	wl_resource_destroy(r);
}

static const struct wl_data_device_interface device_impl = {
	.start_drag = device_start_drag,
	.set_selection = device_set_selection,
	.release = device_release,
};

/* wl_data_device_manager */

static void manager_create_data_source(struct wl_client *client,
				       struct wl_resource *r, uint32_t id)
{
	struct wl_resource *source;

	source = wl_resource_create(client, &wl_data_source_interface,
				    wl_resource_get_version(r), id);
	if (!source) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(source, &source_impl, NULL, NULL);
}

static void manager_get_data_device(struct wl_client *client,
				    struct wl_resource *r, uint32_t id,
				    struct wl_resource *seat)
{
	struct wl_resource *device;

	device = wl_resource_create(client, &wl_data_device_interface,
				    wl_resource_get_version(r), id);
	if (!device) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(device, &device_impl, NULL, NULL);
}

static const struct wl_data_device_manager_interface manager_impl = {
	.create_data_source = manager_create_data_source,
	.get_data_device = manager_get_data_device,
};

static void manager_bind(struct wl_client *client, void *data,
			 uint32_t version, uint32_t id)
{
	struct wl_resource *r;

	r = wl_resource_create(client, &wl_data_device_manager_interface,
			       version, id);
	if (!r) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(r, &manager_impl, data, NULL);
}

bool wlseal_data_device_init(struct wlseal_server *server)
{
	/* Version 3: dnd actions, the newest in wayland 1.21. */
	return wl_global_create(server->display,
				&wl_data_device_manager_interface, 3, server,
				manager_bind) != NULL;
}
