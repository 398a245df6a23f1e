/* SPDX-License-Identifier: MIT */
/*
 * viewporter.c - wp_viewporter and wp_viewport: a surface shows a
 * rectangle of its buffer (set_source, surface coordinates after scale
 * and transform) at a size of its own (set_destination). Both are
 * double-buffered: they go into the pending wl_surface state, and the
 * commit (surface-geometry.c) checks them against the buffer and builds
 * the transform the scene samples through.
 *
 * Errors here, on the viewport: viewport_exists (a second viewport for
 * one surface, on the manager), bad_value (a negative origin, an empty
 * or negative size that is not the -1 "unset", a destination larger than
 * WLSEAL_VIEWPORT_MAX), no_surface (any request but destroy after the
 * surface is gone). At commit (surface-geometry.c, on the surface's
 * viewport_resource): bad_size, out_of_buffer.
 *
 * Lifetimes: the viewport may outlive its surface (it turns inert and
 * says no_surface), and the surface its viewport (destroying it unsets
 * source and destination with the next commit). A client making inert
 * viewports without end is bounded by the per-client object budget
 * (account/objects.c, WLSEAL_BUDGET_OBJECTS), like every resource.
 */
#include <stdlib.h>

#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "viewporter-server-protocol.h"
#include "surface-impl.h"

/* The largest destination accepted: far beyond any output (KMS stops at
 * 8192 on virtio-gpu), and small enough that a view's position plus its
 * size never overflows int32_t anywhere in the scene. */
#define WLSEAL_VIEWPORT_MAX 32768

struct viewport {
	struct wl_resource *resource;
	struct wlseal_surface *surface;	/* NULL once the surface is gone */
	struct wl_listener surface_destroy;
};

static void viewport_detach(struct viewport *vp)
{
	if (!vp->surface)
		return;
	vp->surface->viewport_resource = NULL;
	wl_list_remove(&vp->surface_destroy.link);
	vp->surface = NULL;
}

static void surface_destroyed(struct wl_listener *l, void *data)
{
	struct viewport *vp = wl_container_of(l, vp, surface_destroy);

	viewport_detach(vp);
}

/* The surface, or NULL with no_surface posted. */
static struct wlseal_surface *viewport_surface(struct wl_resource *r)
{
	struct viewport *vp = wl_resource_get_user_data(r);

	if (!vp->surface)
		wl_resource_post_error(r, WP_VIEWPORT_ERROR_NO_SURFACE,
				       "the wl_surface of this wp_viewport is gone");
	return vp->surface;
}

static void viewport_destroy(struct wl_client *c, struct wl_resource *r)
{
	struct viewport *vp = wl_resource_get_user_data(r);

	/* Source and destination are unset with the next commit. */
	if (vp->surface) {
		vp->surface->pending.viewport = (struct wlseal_viewport_state){ 0 };
		vp->surface->pending.viewport_set = true;
	}
	wl_resource_destroy(r);
}

static void viewport_set_source(struct wl_client *c, struct wl_resource *r,
				wl_fixed_t x, wl_fixed_t y, wl_fixed_t w,
				wl_fixed_t h)
{
	struct wlseal_surface *s = viewport_surface(r);
	struct wlseal_viewport_state *st;
	const wl_fixed_t unset = wl_fixed_from_int(-1);

	if (!s)
		return;
	st = &s->pending.viewport;
	if (x == unset && y == unset && w == unset && h == unset) {
		st->has_src = false;
	} else if (x < 0 || y < 0 || w <= 0 || h <= 0) {
		wl_resource_post_error(r, WP_VIEWPORT_ERROR_BAD_VALUE,
				       "source %.2f,%.2f %.2fx%.2f: a negative origin or an empty size",
				       wl_fixed_to_double(x), wl_fixed_to_double(y),
				       wl_fixed_to_double(w), wl_fixed_to_double(h));
		return;
	} else {
		st->has_src = true;
		st->src_x = x;
		st->src_y = y;
		st->src_w = w;
		st->src_h = h;
	}
	s->pending.viewport_set = true;
}

static void viewport_set_destination(struct wl_client *c,
				     struct wl_resource *r, int32_t w,
				     int32_t h)
{
	struct wlseal_surface *s = viewport_surface(r);
	struct wlseal_viewport_state *st;

	if (!s)
		return;
	st = &s->pending.viewport;
	if (w == -1 && h == -1) {
		st->has_dst = false;
	} else if (w <= 0 || h <= 0 || w > WLSEAL_VIEWPORT_MAX ||
		   h > WLSEAL_VIEWPORT_MAX) {
		wl_resource_post_error(r, WP_VIEWPORT_ERROR_BAD_VALUE,
				       "destination %dx%d: each side must be 1..%d (or both -1)",
				       w, h, WLSEAL_VIEWPORT_MAX);
		return;
	} else {
		st->has_dst = true;
		st->dst_w = w;
		st->dst_h = h;
	}
	s->pending.viewport_set = true;
}

static const struct wp_viewport_interface viewport_impl = {
	.destroy = viewport_destroy,
	.set_source = viewport_set_source,
	.set_destination = viewport_set_destination,
};

static void viewport_resource_destroy(struct wl_resource *r)
{
	struct viewport *vp = wl_resource_get_user_data(r);

	viewport_detach(vp);
	free(vp);
}

static void viewporter_destroy(struct wl_client *c, struct wl_resource *r)
{
	wl_resource_destroy(r);
}

static void viewporter_get_viewport(struct wl_client *c,
				    struct wl_resource *r, uint32_t id,
				    struct wl_resource *surface)
{
	struct wlseal_surface *s = wlseal_surface_from_resource(surface);
	struct viewport *vp;

	if (s->viewport_resource) {
		wl_resource_post_error(r, WP_VIEWPORTER_ERROR_VIEWPORT_EXISTS,
				       "wl_surface@%u already has a wp_viewport",
				       wl_resource_get_id(surface));
		return;
	}
	vp = calloc(1, sizeof(*vp));
	if (vp)
		vp->resource = wl_resource_create(c, &wp_viewport_interface,
						  wl_resource_get_version(r), id);
	if (!vp || !vp->resource) {
		free(vp);
		wl_client_post_no_memory(c);
		return;
	}
	vp->surface = s;
	s->viewport_resource = vp->resource;
	vp->surface_destroy.notify = surface_destroyed;
	wl_signal_add(&s->destroy_signal, &vp->surface_destroy);
	wl_resource_set_implementation(vp->resource, &viewport_impl, vp,
				       viewport_resource_destroy);
}

static const struct wp_viewporter_interface viewporter_impl = {
	.destroy = viewporter_destroy,
	.get_viewport = viewporter_get_viewport,
};

static void viewporter_bind(struct wl_client *c, void *data, uint32_t version,
			    uint32_t id)
{
	struct wl_resource *r;

	r = wl_resource_create(c, &wp_viewporter_interface, version, id);
	if (!r) {
		wl_client_post_no_memory(c);
		return;
	}
	wl_resource_set_implementation(r, &viewporter_impl, data, NULL);
}

bool wlseal_viewporter_init(struct wlseal_server *server, uint32_t version)
{
	return wl_global_create(server->display, &wp_viewporter_interface, version,
				server, viewporter_bind) != NULL;
}
