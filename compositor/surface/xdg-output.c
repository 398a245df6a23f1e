/* SPDX-License-Identifier: MIT */
/*
 * xdg-output.c - zxdg_output_manager_v1, version 3: the output in the
 * compositor's logical coordinates, as toolkits and screen tools ask
 * for it (foot and GTK size themselves by it, screenshot tools crop by
 * it).
 *
 * There is one output, at 0,0, scale 1, not transformed: its logical
 * size is its mode's size (server->output). Each zxdg_output_v1 is told
 * everything once, when it is made: logical_position, logical_size,
 * name and description (version 2 on), then done, which from version 3
 * is wl_output.done on the wl_output it describes (zxdg_output_v1.done
 * for older objects, and for a wl_output too old to have done). The
 * output never changes, so nothing is sent afterwards and nothing is
 * kept: each object is a resource without state, counted like any other
 * (account/objects.c).
 */
#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "surface-impl.h"
#include "xdg-output-unstable-v1-server-protocol.h"


static void resource_destroy(struct wl_client *c, struct wl_resource *r)
{
	wl_resource_destroy(r);
}

static const struct zxdg_output_v1_interface xdg_output_impl = {
	.destroy = resource_destroy,
};

static void get_xdg_output(struct wl_client *client, struct wl_resource *r,
			   uint32_t id, struct wl_resource *output)
{
	struct wlseal_server *server = wl_resource_get_user_data(r);
	const struct wlseal_output_info *o = &server->output;
	int version = wl_resource_get_version(r);
	struct wl_resource *x;

	x = wl_resource_create(client, &zxdg_output_v1_interface, version, id);
	if (!x) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(x, &xdg_output_impl, NULL, NULL);
	zxdg_output_v1_send_logical_position(x, 0, 0);
	zxdg_output_v1_send_logical_size(x, o->width, o->height);
	if (version >= ZXDG_OUTPUT_V1_NAME_SINCE_VERSION) {
		zxdg_output_v1_send_name(x, o->output_name);
		zxdg_output_v1_send_description(x, o->description);
	}
	if (version >= 3 &&
	    wl_resource_get_version(output) >= WL_OUTPUT_DONE_SINCE_VERSION)
		wl_output_send_done(output);
	else
		zxdg_output_v1_send_done(x);
}

static const struct zxdg_output_manager_v1_interface manager_impl = {
	.destroy = resource_destroy,
	.get_xdg_output = get_xdg_output,
};

static void manager_bind(struct wl_client *client, void *data,
			 uint32_t version, uint32_t id)
{
	struct wl_resource *r;

	r = wl_resource_create(client, &zxdg_output_manager_v1_interface,
			       (int)version, id);
	if (!r) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(r, &manager_impl, data, NULL);
}

bool wlseal_xdg_output_init(struct wlseal_server *server, uint32_t version)
{
	return wl_global_create(server->display,
				&zxdg_output_manager_v1_interface,
				version, server, manager_bind) != NULL;
}
