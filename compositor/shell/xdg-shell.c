/* SPDX-License-Identifier: MIT */
/*
 * xdg-shell.c - xdg_wm_base and xdg_surface. The roles are in files of
 * their own: xdg_toplevel (its configures and where the window goes) in
 * xdg-toplevel.c, xdg_popup in xdg-popup.c, xdg_positioner in
 * xdg-positioner.c; this file calls into them and is never called back.
 * A popup learns that its parent's xdg_surface goes through the
 * parent's detach_signal.
 */
#include <stdlib.h>
#include <string.h>

#include <wayland-server-core.h>

#include "xdg.h"
#include "xdg-shell-server-protocol.h"

static void xdg_unmap(struct wlseal_xdg_surface *xs)
{
	struct wlseal_surface *s = xs->surface;

	if (s && s->view.mapped) {
		wlseal_scene_unmap(&s->server->scene, &s->view);
		wlseal_scene_request_frame(&s->server->scene);
	}
}

/* Runs after surface-apply.c applied the committed state. */
static void xdg_surface_role_commit(struct wlseal_surface *s)
{
	struct wlseal_xdg_surface *xs = s->role;

	if (xs->pending_geometry.set)
		xs->geometry = xs->pending_geometry;
	if (xs->toplevel)
		wlseal_xdg_toplevel_commit(xs->toplevel);
	else if (xs->popup)
		wlseal_xdg_popup_commit(xs->popup);
}

/* The seat's keyboard focus: the toplevel, if it still lives, shows
 * it in its states. */
static void xdg_surface_role_activate(struct wlseal_surface *s, bool activated)
{
	struct wlseal_xdg_surface *xs = s->role;

	if (xs->toplevel)
		wlseal_xdg_toplevel_set_activated(xs->toplevel, activated);
}

/* The window in front of the toplevel's family (set_parent). */
static struct wlseal_surface *xdg_surface_role_front(struct wlseal_surface *s)
{
	struct wlseal_xdg_surface *xs = s->role;

	return xs->toplevel ? wlseal_xdg_toplevel_front(xs->toplevel) : s;
}

/* "Any attempts by a client to attach or manipulate a buffer prior to
 * the first xdg_surface.configure call must also be treated as errors"
 * (xdg_surface): a buffer attached before the role answered the
 * initial commit. A buffer attached after that configure was sent, and
 * before it was acked, waits for the ack (xdg-toplevel-configure.c).
 *
 * --xdg-early-buffer=map (server->xdg_early_map) takes such a buffer
 * from an xdg_surface that has its role object: its commit is the
 * initial commit and maps the window (xdg-toplevel-configure.c,
 * xdg-popup.c).
 * Without a role object there is no window it could map, and the
 * error stands in both modes. */
static bool xdg_surface_role_attach(struct wlseal_surface *s)
{
	struct wlseal_xdg_surface *xs = s->role;

	if (xs->toplevel ? xs->toplevel->initial_sent :
	    xs->popup && wlseal_xdg_popup_configure_sent(xs->popup))
		return true;
	if (xs->server->xdg_early_map && (xs->toplevel || xs->popup))
		return true;
	wl_resource_post_error(xs->resource, XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER,
			       "a buffer attached to wl_surface@%u before its "
			       "first xdg_surface.configure",
			       wl_resource_get_id(s->resource));
	return false;
}

/* An embedder's place for the toplevel (the WLCS module). */
static void xdg_surface_role_place(struct wlseal_surface *s, int32_t x,
				   int32_t y)
{
	struct wlseal_xdg_surface *xs = s->role;

	if (xs->toplevel)
		wlseal_xdg_toplevel_place(xs->toplevel, x, y);
}

/* An interactive move of the toplevel (seat.c). */
static void xdg_surface_role_move(struct wlseal_surface *s, int32_t dx,
				  int32_t dy)
{
	struct wlseal_xdg_surface *xs = s->role;

	if (xs->toplevel)
		wlseal_xdg_toplevel_move(xs->toplevel, dx, dy);
}

/* An interactive resize of the toplevel (seat.c). */
static void xdg_surface_role_resize(struct wlseal_surface *s, uint32_t edges,
				    int32_t dx, int32_t dy)
{
	struct wlseal_xdg_surface *xs = s->role;

	if (xs->toplevel)
		wlseal_xdg_toplevel_resize(xs->toplevel, edges, dx, dy);
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

	if (xs->toplevel || xs->popup) {
		wl_resource_post_error(r, XDG_SURFACE_ERROR_ALREADY_CONSTRUCTED,
				       "xdg_surface already has a role object");
		return;
	}
	wlseal_xdg_toplevel_create(xs, client,
				   (uint32_t)wl_resource_get_version(r), id);
	/* Only a toplevel takes keyboard focus (popups never show). */
	if (xs->toplevel && xs->surface) {
		xs->surface->role_activate = xdg_surface_role_activate;
		xs->surface->role_front = xdg_surface_role_front;
		xs->surface->role_place = xdg_surface_role_place;
		xs->surface->role_move = xdg_surface_role_move;
		xs->surface->role_resize = xdg_surface_role_resize;
	}
}

/* The parent and the positioner are checked in xdg-popup.c. */
static void xdg_surface_get_popup(struct wl_client *client,
				  struct wl_resource *r, uint32_t id,
				  struct wl_resource *parent,
				  struct wl_resource *positioner)
{
	struct wlseal_xdg_surface *xs = wl_resource_get_user_data(r);

	if (xs->toplevel || xs->popup) {
		wl_resource_post_error(r, XDG_SURFACE_ERROR_ALREADY_CONSTRUCTED,
				       "xdg_surface already has a role object");
		return;
	}
	if (!xs->surface) {
		wl_resource_post_error(xs->wm_base ? xs->wm_base : r,
				       XDG_WM_BASE_ERROR_INVALID_SURFACE_STATE,
				       "get_popup on an xdg_surface whose "
				       "wl_surface is destroyed");
		return;
	}
	wlseal_xdg_popup_create(xs, client, (uint32_t)wl_resource_get_version(r),
				id, parent ? wl_resource_get_user_data(parent) : NULL,
				positioner);
}

/* Offsets past this are no window a screen shows; clamped, they keep
 * placement arithmetic far from overflow. */
#define GEOMETRY_LIMIT (1 << 16)

static int32_t clamp_offset(int32_t v)
{
	return v < -GEOMETRY_LIMIT ? -GEOMETRY_LIMIT :
	       v > GEOMETRY_LIMIT ? GEOMETRY_LIMIT : v;
}

/* Applied with the next commit; placement uses its origin (x, y). */
static void xdg_surface_set_window_geometry(struct wl_client *c,
					    struct wl_resource *r, int32_t x,
					    int32_t y, int32_t w, int32_t h)
{
	struct wlseal_xdg_surface *xs = wl_resource_get_user_data(r);

	if (w <= 0 || h <= 0) {
		wl_resource_post_error(r, XDG_SURFACE_ERROR_INVALID_SIZE,
				       "window geometry %dx%d", w, h);
		return;
	}
	xs->pending_geometry = (struct wlseal_xdg_geometry){
		.set = true, .x = clamp_offset(x), .y = clamp_offset(y),
		.width = w, .height = h,
	};
}

static void xdg_surface_ack_configure(struct wl_client *c,
				      struct wl_resource *r, uint32_t serial)
{
	struct wlseal_xdg_surface *xs = wl_resource_get_user_data(r);

	if (xs->popup ? !wlseal_xdg_popup_ack(xs->popup, serial) :
	    !xs->toplevel || !wlseal_xdg_toplevel_ack(xs->toplevel, serial))
		wl_resource_post_error(r, XDG_SURFACE_ERROR_INVALID_SERIAL,
				       "ack_configure with unknown serial %u",
				       serial);
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
	/* Popups on this one leave its view first; then its own popup
	 * role, if it has one, leaves its parent. */
	wl_signal_emit(&xs->detach_signal, xs);
	if (xs->popup)
		wlseal_xdg_popup_detach(xs->popup);
	/* Before the unmap: the seat, losing its focus there, must not
	 * configure what is going. */
	xs->surface->role_activate = NULL;
	xs->surface->role_front = NULL;
	xs->surface->role_place = NULL;
	xs->surface->role_move = NULL;
	xs->surface->role_resize = NULL;
	xs->surface->role_attach = NULL;
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
		wlseal_xdg_toplevel_detach(xs->toplevel);
	if (xs->wm_base)
		wl_list_remove(&xs->wm_base_destroy.link);
	free(xs);
}

static void xdg_surface_surface_destroyed(struct wl_listener *l, void *data)
{
	struct wlseal_xdg_surface *xs = wl_container_of(l, xs, surface_destroy);

	xdg_surface_detach(xs);
}

/* xdg_wm_base */

static void wm_base_destroy(struct wl_client *c, struct wl_resource *r)
{
	wl_resource_destroy(r);
}

static void wm_base_create_positioner(struct wl_client *client,
				      struct wl_resource *r, uint32_t id)
{
	wlseal_positioner_create(client, (uint32_t)wl_resource_get_version(r),
				 id);
}

static void wm_base_destroyed(struct wl_listener *l, void *data)
{
	struct wlseal_xdg_surface *xs = wl_container_of(l, xs, wm_base_destroy);

	wl_list_remove(&xs->wm_base_destroy.link);
	xs->wm_base = NULL;
}

static void wm_base_get_xdg_surface(struct wl_client *client,
				    struct wl_resource *r, uint32_t id,
				    struct wl_resource *surface_resource)
{
	struct wlseal_surface *s = wlseal_surface_from_resource(surface_resource);
	struct wlseal_xdg_surface *xs;

	if (s->role) {
		wl_resource_post_error(r, XDG_WM_BASE_ERROR_ROLE,
				       "wl_surface@%u already has a role",
				       wl_resource_get_id(surface_resource));
		return;
	}
	/* "Creating an xdg_surface from a wl_surface which has a buffer
	 * attached or committed is a client error." */
	if (s->buffer || s->has_content ||
	    (s->pending.attached && s->pending.buffer)) {
		wl_resource_post_error(r, XDG_WM_BASE_ERROR_INVALID_SURFACE_STATE,
				       "wl_surface@%u has a buffer attached or "
				       "committed",
				       wl_resource_get_id(surface_resource));
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
	xs->server = s->server;
	xs->surface = s;
	wl_signal_init(&xs->detach_signal);
	xs->wm_base = r;
	xs->wm_base_destroy.notify = wm_base_destroyed;
	wl_resource_add_destroy_listener(r, &xs->wm_base_destroy);
	s->role = xs;
	s->role_commit = xdg_surface_role_commit;
	s->role_attach = xdg_surface_role_attach;
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

/* Version 3: configure_bounds (4) and wm_capabilities (5) would tell
 * little the configures do not (the output's size, what is granted),
 * and a client that binds the newest version its headers know but
 * leaves those listeners NULL aborts when they arrive. */
bool wlseal_xdg_shell_init(struct wlseal_server *server, uint32_t version)
{
	return wl_global_create(server->display, &xdg_wm_base_interface, version,
				server, wm_base_bind) != NULL;
}
