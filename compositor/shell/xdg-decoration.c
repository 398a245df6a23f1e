/* SPDX-License-Identifier: MIT */
/*
 * xdg-decoration.c - zxdg_decoration_manager_v1: who draws a toplevel's
 * title bar and border. A client that asks for client_side gets
 * client_side and draws its own; one that asks for server_side, or
 * leaves it to the compositor (no set_mode, or unset_mode), gets
 * server_side and a frame wlseal draws (decor.c). server_side is the
 * preference because applications that ask nothing expect it: SDL 2
 * (2.26, Debian 12) maps its window through xdg-shell once it sees the
 * decoration global, and when told client_side it unmaps the window to
 * start over with libdecor, or stays borderless without it.
 *
 * The mode is told when the decoration is made and after each set_mode
 * or unset_mode, each time followed by an xdg_surface.configure
 * (xdg-toplevel-configure.c) once the toplevel had its initial commit;
 * before that, the initial configure follows. The frame comes and goes with
 * the mode at once (its room in configures and placement with it), and
 * goes with the decoration object or the toplevel.
 *
 * Errors, on the decoration object: unconfigured_buffer (its toplevel
 * has a buffer attached or committed), already_constructed (a second
 * decoration for one toplevel), orphaned (the toplevel destroyed before
 * its decoration).
 */
#include <stdlib.h>

#include <wayland-server-core.h>

#include "log.h"
#include "xdg.h"
#include "xdg-decoration-unstable-v1-server-protocol.h"

/* What a client that states no preference gets (see above). */
#define PREFERRED_MODE ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE

struct decoration {
	struct wl_resource *resource;
	struct wlseal_xdg_toplevel *tl;	/* NULL once the toplevel is gone */
	struct wl_listener toplevel_destroy;
	struct wlseal_decor *decor;	/* the frame, while server_side */
};

/* @mode given: the frame made or taken away, then told. */
static void send_mode(struct decoration *d, uint32_t mode)
{
	if (mode == ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE && !d->decor) {
		d->decor = wlseal_decor_create(d->tl);
		if (!d->decor) {
			wl_client_post_no_memory(wl_resource_get_client(d->resource));
			return;
		}
	} else if (mode != ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE) {
		wlseal_decor_destroy(d->decor);
		d->decor = NULL;
	}
	wlseal_debug("decoration pid=%d toplevel \"%s\" %s",
		     (int)wlseal_client_pid(wl_resource_get_client(d->resource)),
		     d->tl->title.s ? d->tl->title.s : "",
		     mode == ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE ?
		     "server_side" : "client_side");
	zxdg_toplevel_decoration_v1_send_configure(d->resource, mode);
	wlseal_xdg_toplevel_configure(d->tl);
}

static void decoration_detach(struct decoration *d)
{
	if (!d->tl)
		return;
	wlseal_decor_destroy(d->decor);
	d->decor = NULL;
	d->tl->decoration = NULL;
	wl_list_remove(&d->toplevel_destroy.link);
	d->tl = NULL;
}

static void orphaned_error(struct wl_resource *r)
{
	wl_resource_post_error(r, ZXDG_TOPLEVEL_DECORATION_V1_ERROR_ORPHANED,
			       "xdg_toplevel destroyed before its decoration");
}

static void decoration_destroy(struct wl_client *c, struct wl_resource *r)
{
	wl_resource_destroy(r);
}

static void decoration_set_mode(struct wl_client *c, struct wl_resource *r,
				uint32_t mode)
{
	struct decoration *d = wl_resource_get_user_data(r);

	if (!d->tl) {
		orphaned_error(r);
		return;
	}
	/* Granted either way; a value the protocol does not name leaves
	 * it to the compositor. */
	send_mode(d, mode == ZXDG_TOPLEVEL_DECORATION_V1_MODE_CLIENT_SIDE ?
		     mode : PREFERRED_MODE);
}

static void decoration_unset_mode(struct wl_client *c, struct wl_resource *r)
{
	decoration_set_mode(c, r, PREFERRED_MODE);
}

static const struct zxdg_toplevel_decoration_v1_interface decoration_impl = {
	.destroy = decoration_destroy,
	.set_mode = decoration_set_mode,
	.unset_mode = decoration_unset_mode,
};

static void decoration_resource_destroy(struct wl_resource *r)
{
	struct decoration *d = wl_resource_get_user_data(r);

	decoration_detach(d);
	free(d);
}

/* A client's xdg_toplevel.destroy before the decoration's is its error;
 * when the client goes, the order its objects go in is no one's fault. */
static void toplevel_destroyed(struct wl_listener *l, void *data)
{
	struct decoration *d = wl_container_of(l, d, toplevel_destroy);
	bool requested = d->tl->destroy_requested;

	decoration_detach(d);
	if (requested)
		orphaned_error(d->resource);
}

static bool has_buffer(struct wlseal_xdg_toplevel *tl)
{
	struct wlseal_surface *s = tl->xs ? tl->xs->surface : NULL;

	return s && (s->buffer || (s->pending.attached && s->pending.buffer));
}

static void manager_destroy(struct wl_client *c, struct wl_resource *r)
{
	wl_resource_destroy(r);
}

static void manager_get_toplevel_decoration(struct wl_client *client,
					    struct wl_resource *r, uint32_t id,
					    struct wl_resource *toplevel)
{
	struct wlseal_xdg_toplevel *tl =
		wlseal_xdg_toplevel_from_resource(toplevel);
	struct decoration *d = calloc(1, sizeof(*d));

	if (!d) {
		wl_client_post_no_memory(client);
		return;
	}
	d->resource = wl_resource_create(client,
					 &zxdg_toplevel_decoration_v1_interface,
					 wl_resource_get_version(r), id);
	if (!d->resource) {
		free(d);
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(d->resource, &decoration_impl, d,
				       decoration_resource_destroy);
	if (tl->decoration) {
		wl_resource_post_error(d->resource,
				       ZXDG_TOPLEVEL_DECORATION_V1_ERROR_ALREADY_CONSTRUCTED,
				       "xdg_toplevel already has a decoration");
		return;
	}
	if (has_buffer(tl)) {
		wl_resource_post_error(d->resource,
				       ZXDG_TOPLEVEL_DECORATION_V1_ERROR_UNCONFIGURED_BUFFER,
				       "xdg_toplevel already has a buffer");
		return;
	}
	d->tl = tl;
	tl->decoration = d->resource;
	d->toplevel_destroy.notify = toplevel_destroyed;
	wl_signal_add(&tl->destroy_signal, &d->toplevel_destroy);
	send_mode(d, PREFERRED_MODE);
}

static const struct zxdg_decoration_manager_v1_interface manager_impl = {
	.destroy = manager_destroy,
	.get_toplevel_decoration = manager_get_toplevel_decoration,
};

static void manager_bind(struct wl_client *client, void *data,
			 uint32_t version, uint32_t id)
{
	struct wl_resource *r;

	r = wl_resource_create(client, &zxdg_decoration_manager_v1_interface,
			       (int)version, id);
	if (!r) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(r, &manager_impl, data, NULL);
}

bool wlseal_xdg_decoration_init(struct wlseal_server *server,
				uint32_t version)
{
	return wl_global_create(server->display,
				&zxdg_decoration_manager_v1_interface, version, server,
				manager_bind) != NULL;
}
