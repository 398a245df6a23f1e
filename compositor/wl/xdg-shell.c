/* SPDX-License-Identifier: MIT */
/*
 * xdg-shell.c - xdg_wm_base, xdg_surface and xdg_toplevel.
 *
 * wlseal has no input, so a toplevel's life is short: the first commit
 * (without a buffer) asks for a configure, the client acks it and commits
 * a buffer, and the surface is mapped into the scene. Sizes are left to
 * the client (configure 0x0), which keeps frames deterministic.
 * Popups and positioners are accepted and otherwise ignored.
 */
#include <stdlib.h>
#include <string.h>

#include <wayland-server-core.h>

#include "log.h"
#include "wl.h"
#include "xdg-shell-server-protocol.h"

struct wlseal_xdg_surface {
	struct wl_resource *resource;
	struct wl_resource *toplevel;
	struct wlseal_surface *surface;	/* NULL once the wl_surface is gone */
	struct wl_listener surface_destroy;
	uint32_t configure_serial;
	bool configure_sent;		/* waiting for the client's ack */
	bool configured;		/* acked at least once */
	char *title;
};

static void xdg_unmap(struct wlseal_xdg_surface *xs)
{
	struct wlseal_surface *s = xs->surface;

	if (s && s->view.mapped) {
		wlseal_scene_unmap(&s->server->scene, &s->view);
		wlseal_repaint_schedule(s->server);
	}
}

static void send_configure(struct wlseal_xdg_surface *xs)
{
	struct wl_array states;
	struct wl_display *display =
		wl_client_get_display(wl_resource_get_client(xs->resource));

	/* 0x0: "pick your own size"; no states: a plain floating window. */
	wl_array_init(&states);
	xdg_toplevel_send_configure(xs->toplevel, 0, 0, &states);
	wl_array_release(&states);
	xs->configure_serial = wl_display_next_serial(display);
	xdg_surface_send_configure(xs->resource, xs->configure_serial);
	xs->configure_sent = true;
}

/* Runs after surface.c applied the committed state. */
static void xdg_surface_role_commit(struct wlseal_surface *s)
{
	struct wlseal_xdg_surface *xs = s->role;

	if (!xs->toplevel)
		return;
	if (!xs->configured) {
		/* The initial commit: answer with the first configure. */
		if (!xs->configure_sent)
			send_configure(xs);
		return;
	}
	if (s->buffer && !s->view.mapped) {
		wlseal_scene_map(&s->server->scene, &s->view);
		wlseal_debug("mapped pid=%d toplevel \"%s\" at %d,%d size %dx%d",
			     (int)wlseal_client_pid(wl_resource_get_client(s->resource)),
			     xs->title ? xs->title : "", s->view.x, s->view.y,
			     s->view.width, s->view.height);
	} else if (!s->buffer && s->view.mapped) {
		/* A NULL buffer unmaps; the client starts over with a new
		 * initial commit and configure. */
		xdg_unmap(xs);
		xs->configured = false;
		xs->configure_sent = false;
	}
}

/* xdg_toplevel */

static void toplevel_destroy(struct wl_client *c, struct wl_resource *r)
{
	wl_resource_destroy(r);
}

static void toplevel_set_parent(struct wl_client *c, struct wl_resource *r,
				struct wl_resource *parent)
{
}

static void toplevel_set_title(struct wl_client *c, struct wl_resource *r,
			       const char *title)
{
	struct wlseal_xdg_surface *xs = wl_resource_get_user_data(r);

	if (!xs)
		return;
	free(xs->title);
	xs->title = strdup(title);
}

static void toplevel_set_string(struct wl_client *c, struct wl_resource *r,
				const char *s)
{
}

static void toplevel_show_window_menu(struct wl_client *c,
				      struct wl_resource *r,
				      struct wl_resource *seat, uint32_t serial,
				      int32_t x, int32_t y)
{
}

static void toplevel_move(struct wl_client *c, struct wl_resource *r,
			  struct wl_resource *seat, uint32_t serial)
{
}

static void toplevel_resize(struct wl_client *c, struct wl_resource *r,
			    struct wl_resource *seat, uint32_t serial,
			    uint32_t edges)
{
}

static void toplevel_set_size(struct wl_client *c, struct wl_resource *r,
			      int32_t w, int32_t h)
{
}

static void toplevel_no_args(struct wl_client *c, struct wl_resource *r)
{
}

static void toplevel_set_fullscreen(struct wl_client *c, struct wl_resource *r,
				    struct wl_resource *output)
{
}

static const struct xdg_toplevel_interface toplevel_impl = {
	.destroy = toplevel_destroy,
	.set_parent = toplevel_set_parent,
	.set_title = toplevel_set_title,
	.set_app_id = toplevel_set_string,
	.show_window_menu = toplevel_show_window_menu,
	.move = toplevel_move,
	.resize = toplevel_resize,
	.set_max_size = toplevel_set_size,
	.set_min_size = toplevel_set_size,
	.set_maximized = toplevel_no_args,
	.unset_maximized = toplevel_no_args,
	.set_fullscreen = toplevel_set_fullscreen,
	.unset_fullscreen = toplevel_no_args,
	.set_minimized = toplevel_no_args,
};

static void toplevel_resource_destroy(struct wl_resource *r)
{
	struct wlseal_xdg_surface *xs = wl_resource_get_user_data(r);

	if (!xs)
		return;
	xdg_unmap(xs);
	xs->toplevel = NULL;
	xs->configured = false;
	xs->configure_sent = false;
}

/* xdg_surface */

static void xdg_surface_destroy(struct wl_client *c, struct wl_resource *r)
{
	wl_resource_destroy(r);
}

static void xdg_surface_get_toplevel(struct wl_client *client,
				     struct wl_resource *r, uint32_t id)
{
	struct wlseal_xdg_surface *xs = wl_resource_get_user_data(r);

	if (xs->toplevel) {
		wl_resource_post_error(r, XDG_SURFACE_ERROR_ALREADY_CONSTRUCTED,
				       "xdg_surface already has a role object");
		return;
	}
	xs->toplevel = wl_resource_create(client, &xdg_toplevel_interface,
					  wl_resource_get_version(r), id);
	if (!xs->toplevel) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(xs->toplevel, &toplevel_impl, xs,
				       toplevel_resource_destroy);
}

static void popup_destroy(struct wl_client *c, struct wl_resource *r)
{
	wl_resource_destroy(r);
}

static void popup_grab(struct wl_client *c, struct wl_resource *r,
		       struct wl_resource *seat, uint32_t serial)
{
}

static void popup_reposition(struct wl_client *c, struct wl_resource *r,
			     struct wl_resource *positioner, uint32_t token)
{
}

static const struct xdg_popup_interface popup_impl = {
	.destroy = popup_destroy,
	.grab = popup_grab,
	.reposition = popup_reposition,
};

static void xdg_surface_get_popup(struct wl_client *client,
				  struct wl_resource *r, uint32_t id,
				  struct wl_resource *parent,
				  struct wl_resource *positioner)
{
	struct wl_resource *popup;

	/* No popups are ever shown; tell the client at once. */
	popup = wl_resource_create(client, &xdg_popup_interface,
				   wl_resource_get_version(r), id);
	if (!popup) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(popup, &popup_impl, NULL, NULL);
	xdg_popup_send_popup_done(popup);
}

static void xdg_surface_set_window_geometry(struct wl_client *c,
					    struct wl_resource *r, int32_t x,
					    int32_t y, int32_t w, int32_t h)
{
}

static void xdg_surface_ack_configure(struct wl_client *c,
				      struct wl_resource *r, uint32_t serial)
{
	struct wlseal_xdg_surface *xs = wl_resource_get_user_data(r);

	if (!xs->configure_sent || serial != xs->configure_serial) {
		wl_resource_post_error(r, XDG_SURFACE_ERROR_INVALID_SERIAL,
				       "ack_configure with unknown serial %u",
				       serial);
		return;
	}
	xs->configured = true;
}

static const struct xdg_surface_interface xdg_surface_impl = {
	.destroy = xdg_surface_destroy,
	.get_toplevel = xdg_surface_get_toplevel,
	.get_popup = xdg_surface_get_popup,
	.set_window_geometry = xdg_surface_set_window_geometry,
	.ack_configure = xdg_surface_ack_configure,
};

static void xdg_surface_detach(struct wlseal_xdg_surface *xs)
{
	if (!xs->surface)
		return;
	xdg_unmap(xs);
	xs->surface->role_commit = NULL;
	xs->surface->role = NULL;
	wl_list_remove(&xs->surface_destroy.link);
	xs->surface = NULL;
}

static void xdg_surface_resource_destroy(struct wl_resource *r)
{
	struct wlseal_xdg_surface *xs = wl_resource_get_user_data(r);

	xdg_surface_detach(xs);
	if (xs->toplevel)
		wl_resource_set_user_data(xs->toplevel, NULL);
	free(xs->title);
	free(xs);
}

static void xdg_surface_surface_destroyed(struct wl_listener *l, void *data)
{
	struct wlseal_xdg_surface *xs = wl_container_of(l, xs, surface_destroy);

	xdg_surface_detach(xs);
}

/* xdg_positioner: accepted, never used. */

static void positioner_destroy(struct wl_client *c, struct wl_resource *r)
{
	wl_resource_destroy(r);
}

static void positioner_2i(struct wl_client *c, struct wl_resource *r,
			  int32_t a, int32_t b)
{
}

static void positioner_rect(struct wl_client *c, struct wl_resource *r,
			    int32_t x, int32_t y, int32_t w, int32_t h)
{
}

static void positioner_u(struct wl_client *c, struct wl_resource *r,
			 uint32_t v)
{
}

static void positioner_void(struct wl_client *c, struct wl_resource *r)
{
}

static void positioner_parent_configure(struct wl_client *c,
					struct wl_resource *r, uint32_t serial)
{
}

static const struct xdg_positioner_interface positioner_impl = {
	.destroy = positioner_destroy,
	.set_size = positioner_2i,
	.set_anchor_rect = positioner_rect,
	.set_anchor = positioner_u,
	.set_gravity = positioner_u,
	.set_constraint_adjustment = positioner_u,
	.set_offset = positioner_2i,
	.set_reactive = positioner_void,
	.set_parent_size = positioner_2i,
	.set_parent_configure = positioner_parent_configure,
};

/* xdg_wm_base */

static void wm_base_destroy(struct wl_client *c, struct wl_resource *r)
{
	wl_resource_destroy(r);
}

static void wm_base_create_positioner(struct wl_client *client,
				      struct wl_resource *r, uint32_t id)
{
	struct wl_resource *p;

	p = wl_resource_create(client, &xdg_positioner_interface,
			       wl_resource_get_version(r), id);
	if (!p) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(p, &positioner_impl, NULL, NULL);
}

static void wm_base_get_xdg_surface(struct wl_client *client,
				    struct wl_resource *r, uint32_t id,
				    struct wl_resource *surface_resource)
{
	struct wlseal_surface *s = wlseal_surface_from_resource(surface_resource);
	struct wlseal_xdg_surface *xs;

	if (s->role || s->buffer) {
		wl_resource_post_error(r, XDG_WM_BASE_ERROR_ROLE,
				       "surface already has a role or a buffer");
		return;
	}
	xs = calloc(1, sizeof(*xs));
	if (!xs) {
		wl_client_post_no_memory(client);
		return;
	}
	xs->resource = wl_resource_create(client, &xdg_surface_interface,
					  wl_resource_get_version(r), id);
	if (!xs->resource) {
		free(xs);
		wl_client_post_no_memory(client);
		return;
	}
	xs->surface = s;
	s->role = xs;
	s->role_commit = xdg_surface_role_commit;
	xs->surface_destroy.notify = xdg_surface_surface_destroyed;
	wl_signal_add(&s->destroy_signal, &xs->surface_destroy);
	wl_resource_set_implementation(xs->resource, &xdg_surface_impl, xs,
				       xdg_surface_resource_destroy);
}

static void wm_base_pong(struct wl_client *c, struct wl_resource *r,
			 uint32_t serial)
{
	/* wlseal never judges clients unresponsive; the pong is proof
	 * enough that the client reads its socket. */
}

static const struct xdg_wm_base_interface wm_base_impl = {
	.destroy = wm_base_destroy,
	.create_positioner = wm_base_create_positioner,
	.get_xdg_surface = wm_base_get_xdg_surface,
	.pong = wm_base_pong,
};

static void wm_base_bind(struct wl_client *client, void *data,
			 uint32_t version, uint32_t id)
{
	struct wl_resource *r;

	r = wl_resource_create(client, &xdg_wm_base_interface, version, id);
	if (!r) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(r, &wm_base_impl, data, NULL);
	/* One ping per client, so clients that wait for it see it. */
	xdg_wm_base_send_ping(r, wl_display_next_serial(wl_client_get_display(client)));
}

bool wlseal_xdg_shell_init(struct wlseal_server *server)
{
	return wl_global_create(server->display, &xdg_wm_base_interface, 3,
				server, wm_base_bind) != NULL;
}
