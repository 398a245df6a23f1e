/* SPDX-License-Identifier: MIT */
/*
 * output.c - the wl_output global: the one output, as the backend
 * described it (server->output, filled by repaint.c). Version 4 (its
 * name and description) where libwayland's headers have it.
 *
 * Each client's wl_output objects are kept in a list of that client's
 * own (wlseal_output_resources), found through its destroy listener:
 * every presented feedback names the client's outputs (presentation.c),
 * and a walk of all clients' binds would make one client's feedbacks
 * cost in proportion to the others' objects.
 */
#include <stdlib.h>

#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "surface-impl.h"

/* One client's wl_output objects (wl_resource_get_link). */
struct client_outputs {
	struct wl_list resources;
	struct wl_listener destroy;	/* the client's */
};

static void client_destroyed(struct wl_listener *l, void *data)
{
	struct client_outputs *co = wl_container_of(l, co, destroy);
	struct wl_resource *r, *tmp;

	/* libwayland destroys the client's objects after this signal:
	 * their destructors then unlink them from nothing. */
	wl_resource_for_each_safe(r, tmp, &co->resources)
		wl_list_init(wl_resource_get_link(r));
	wl_list_remove(&co->destroy.link);
	free(co);
}

static struct client_outputs *client_outputs(struct wl_client *client)
{
	struct wl_listener *l =
		wl_client_get_destroy_listener(client, client_destroyed);
	struct client_outputs *co;

	return l ? wl_container_of(l, co, destroy) : NULL;
}

struct wl_list *wlseal_output_resources(struct wl_client *client)
{
	struct client_outputs *co = client_outputs(client);

	return co ? &co->resources : NULL;
}

static void output_resource_destroy(struct wl_resource *r)
{
	wl_list_remove(wl_resource_get_link(r));
	wlseal_budget_put(wl_resource_get_user_data(r), WLSEAL_BUDGET_OUTPUTS);
}

static void output_release(struct wl_client *c, struct wl_resource *r)
{
	wl_resource_destroy(r);
}

static const struct wl_output_interface output_impl = {
	.release = output_release,
};

static void output_bind(struct wl_client *client, void *data,
			uint32_t version, uint32_t id)
{
	struct wlseal_server *server = data;
	const struct wlseal_output_info *o = &server->output;
	struct wlseal_account *account;
	struct client_outputs *co = client_outputs(client);
	struct wl_resource *r = NULL;

	/* Every presented feedback walks its client's wl_outputs
	 * (presentation.c): their number is budgeted (account/objects.c). */
	account = wlseal_budget_take(client, WLSEAL_BUDGET_OUTPUTS);
	if (!account)
		return;
	if (!co && (co = calloc(1, sizeof(*co)))) {
		wl_list_init(&co->resources);
		co->destroy.notify = client_destroyed;
		wl_client_add_destroy_listener(client, &co->destroy);
	}
	if (co)
		r = wl_resource_create(client, &wl_output_interface, version, id);
	if (!r) {
		wlseal_budget_put(account, WLSEAL_BUDGET_OUTPUTS);
		wl_client_post_no_memory(client);
		return;
	}
	/* The resource's data is its account: nothing reads the server
	 * from it. */
	wl_resource_set_implementation(r, &output_impl, account,
				       output_resource_destroy);
	wl_list_insert(&co->resources, wl_resource_get_link(r));

	/* Physical size unknown (0x0 mm): virtual hardware. */
	wl_output_send_geometry(r, 0, 0, 0, 0, WL_OUTPUT_SUBPIXEL_UNKNOWN,
				"wlseal", o->name, WL_OUTPUT_TRANSFORM_NORMAL);
	wl_output_send_mode(r, WL_OUTPUT_MODE_CURRENT | WL_OUTPUT_MODE_PREFERRED,
			    o->width, o->height, (int32_t)o->refresh_mhz);
	if (version >= WL_OUTPUT_SCALE_SINCE_VERSION)
		wl_output_send_scale(r, 1);
#ifdef WL_OUTPUT_NAME_SINCE_VERSION
	if (version >= WL_OUTPUT_NAME_SINCE_VERSION) {
		wl_output_send_name(r, o->output_name);
		wl_output_send_description(r, o->description);
	}
#endif
	if (version >= WL_OUTPUT_DONE_SINCE_VERSION)
		wl_output_send_done(r);
}

bool wlseal_output_init(struct wlseal_server *server, uint32_t version)
{
	return wl_global_create(server->display, &wl_output_interface,
				version, server, output_bind) != NULL;
}
