/* SPDX-License-Identifier: MIT */
/*
 * surface.c - wl_compositor, wl_surface and wl_region.
 *
 * Surface state is double-buffered: attach, damage and frame only touch
 * the pending state, commit makes it current at once. The compositor
 * reads the committed buffer whenever it repaints, so the buffer stays
 * "busy" until a later commit replaces it; that is when it is released.
 */
#include <stdlib.h>

#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "compositor.h"
#include "presentation-time-server-protocol.h"

/*
 * Bounded work per request. Every union or subtract costs time in
 * proportion to the rectangles a region already holds, so a client
 * sending thousands of scattered 1x1 rectangles would make each request
 * dearer than the last (quadratic in total) and the repaint after it
 * just as slow, stalling every other client. Past WLSEAL_MAX_RECTS a
 * region collapses to its extents: for damage that repaints more pixels
 * than asked, never fewer, and the repaint stays bounded by the surface's
 * area; its cost follows the pixels that change, not the client's count.
 */
#define WLSEAL_MAX_RECTS 32

static void bound_rects(pixman_region32_t *region)
{
	pixman_box32_t extents;

	if (pixman_region32_n_rects(region) <= WLSEAL_MAX_RECTS)
		return;
	extents = *pixman_region32_extents(region);
	pixman_region32_reset(region, &extents);
}

/* wl_region: kept only as pixman regions, since wlseal has no input and
 * treats every surface as possibly translucent. They are only hints that
 * wlseal ignores (set_opaque_region, set_input_region), so collapsing
 * them to their extents changes nothing; should an opaque region ever be
 * used, it must collapse the other way (to nothing), never grow. */

static void region_destroy(struct wl_client *client, struct wl_resource *r)
{
	(void)client;
	wl_resource_destroy(r);
}

static void region_add(struct wl_client *client, struct wl_resource *r,
		       int32_t x, int32_t y, int32_t w, int32_t h)
{
	pixman_region32_t *region = wl_resource_get_user_data(r);

	(void)client;
	if (w > 0 && h > 0) {
		pixman_region32_union_rect(region, region, x, y, w, h);
		bound_rects(region);
	}
}

static void region_subtract(struct wl_client *client, struct wl_resource *r,
			    int32_t x, int32_t y, int32_t w, int32_t h)
{
	pixman_region32_t *region = wl_resource_get_user_data(r);
	pixman_region32_t rect;

	(void)client;
	if (w <= 0 || h <= 0)
		return;
	pixman_region32_init_rect(&rect, x, y, w, h);
	pixman_region32_subtract(region, region, &rect);
	pixman_region32_fini(&rect);
	bound_rects(region);
}

static const struct wl_region_interface region_impl = {
	.destroy = region_destroy,
	.add = region_add,
	.subtract = region_subtract,
};

static void region_resource_destroy(struct wl_resource *r)
{
	pixman_region32_t *region = wl_resource_get_user_data(r);

	pixman_region32_fini(region);
	free(region);
}

/* wl_surface */

struct wlseal_surface *wlseal_surface_from_resource(struct wl_resource *r)
{
	return wl_resource_get_user_data(r);
}

static void surface_destroy(struct wl_client *client, struct wl_resource *r)
{
	(void)client;
	wl_resource_destroy(r);
}

/* A pending buffer may be destroyed before commit: forget it. */
static void pending_buffer_destroyed(struct wl_listener *listener, void *data)
{
	struct wlseal_surface *s =
		wl_container_of(listener, s, pending.buffer_destroy);

	(void)data;
	wl_list_remove(&s->pending.buffer_destroy.link);
	wl_list_init(&s->pending.buffer_destroy.link);
	s->pending.buffer = NULL;
}

/* The shown buffer was destroyed: there is nothing left to read, so the
 * surface shows nothing until the next attach. */
static void current_buffer_destroyed(struct wl_listener *listener, void *data)
{
	struct wlseal_surface *s = wl_container_of(listener, s, buffer_destroy);

	(void)data;
	wl_list_remove(&s->buffer_destroy.link);
	wl_list_init(&s->buffer_destroy.link);
	s->buffer = NULL;
	if (s->mapped)
		wlseal_scene_damage_surface(&s->server->scene, s, NULL);
	wlseal_output_schedule_repaint(s->server);
}

static void surface_attach(struct wl_client *client, struct wl_resource *r,
			   struct wl_resource *buffer, int32_t x, int32_t y)
{
	struct wlseal_surface *s = wlseal_surface_from_resource(r);
	int32_t w, h;

	(void)client;
	(void)x;	/* toplevels are placed by the compositor */
	(void)y;
	if (buffer && !wlseal_buffer_get_size(buffer, &w, &h)) {
		wl_resource_post_error(r, WL_SURFACE_ERROR_INVALID_SIZE,
				       "only wl_shm buffers are supported");
		return;
	}
	wl_list_remove(&s->pending.buffer_destroy.link);
	wl_list_init(&s->pending.buffer_destroy.link);
	s->pending.attached = true;
	s->pending.buffer = buffer;
	if (buffer)
		wl_resource_add_destroy_listener(buffer,
						 &s->pending.buffer_destroy);
}

static void surface_damage(struct wl_client *client, struct wl_resource *r,
			   int32_t x, int32_t y, int32_t w, int32_t h)
{
	struct wlseal_surface *s = wlseal_surface_from_resource(r);

	(void)client;
	/* Scale 1, no transform: surface and buffer coordinates agree,
	 * so damage and damage_buffer are the same thing here. */
	if (w > 0 && h > 0) {
		pixman_region32_union_rect(&s->pending.damage,
					   &s->pending.damage, x, y, w, h);
		bound_rects(&s->pending.damage);
	}
}

static void callback_resource_destroy(struct wl_resource *r)
{
	wl_list_remove(wl_resource_get_link(r));
}

static void surface_frame(struct wl_client *client, struct wl_resource *r,
			  uint32_t id)
{
	struct wlseal_surface *s = wlseal_surface_from_resource(r);
	struct wl_resource *cb;

	cb = wl_resource_create(client, &wl_callback_interface, 1, id);
	if (!cb) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(cb, NULL, NULL,
				       callback_resource_destroy);
	wl_list_insert(s->pending.frame_callbacks.prev,
		       wl_resource_get_link(cb));
}

static void surface_set_region(struct wl_client *client, struct wl_resource *r,
			       struct wl_resource *region)
{
	/* Opaque and input regions are hints wlseal does not need. */
	(void)client;
	(void)r;
	(void)region;
}

static void surface_set_buffer_transform(struct wl_client *client,
					 struct wl_resource *r, int32_t t)
{
	(void)client;
	if (t != WL_OUTPUT_TRANSFORM_NORMAL)
		wl_resource_post_error(r, WL_SURFACE_ERROR_INVALID_TRANSFORM,
				       "only the normal transform is supported");
}

static void surface_set_buffer_scale(struct wl_client *client,
				     struct wl_resource *r, int32_t scale)
{
	(void)client;
	if (scale != 1)
		wl_resource_post_error(r, WL_SURFACE_ERROR_INVALID_SCALE,
				       "only scale 1 is supported");
}

static void surface_commit(struct wl_client *client, struct wl_resource *r)
{
	struct wlseal_surface *s = wlseal_surface_from_resource(r);
	struct wlseal_server *server = s->server;
	struct wlseal_feedback *fb, *tmp;
	int32_t old_w = s->width, old_h = s->height;

	(void)client;
	if (s->pending.attached) {
		struct wl_resource *old = s->buffer;

		/* The committed buffer is read at repaint time, so the old
		 * one is done with as soon as another replaces it. */
		wl_list_remove(&s->buffer_destroy.link);
		wl_list_init(&s->buffer_destroy.link);
		if (old && old != s->pending.buffer)
			wl_buffer_send_release(old);
		s->buffer = s->pending.buffer;
		if (s->buffer) {
			wlseal_buffer_get_size(s->buffer, &s->width, &s->height);
			wl_resource_add_destroy_listener(s->buffer,
							 &s->buffer_destroy);
		} else {
			s->width = s->height = 0;
		}
		wl_list_remove(&s->pending.buffer_destroy.link);
		wl_list_init(&s->pending.buffer_destroy.link);
		s->pending.buffer = NULL;
		s->pending.attached = false;
	}

	if (s->mapped) {
		if (s->width != old_w || s->height != old_h) {
			/* The old and the new outline both change. */
			pixman_region32_t all;

			pixman_region32_init_rect(&all, 0, 0, old_w, old_h);
			wlseal_scene_damage_surface(&server->scene, s, &all);
			pixman_region32_fini(&all);
			wlseal_scene_damage_surface(&server->scene, s, NULL);
		} else {
			wlseal_scene_damage_surface(&server->scene, s,
						    &s->pending.damage);
		}
	}
	pixman_region32_clear(&s->pending.damage);

	/* Feedback for an update that never reached the screen is
	 * discarded once a newer update replaces it. */
	wl_list_for_each_safe(fb, tmp, &s->feedbacks, link)
		wlseal_feedback_discard(fb);
	wl_list_insert_list(&s->feedbacks, &s->pending.feedbacks);
	wl_list_init(&s->pending.feedbacks);
	wl_list_insert_list(s->frame_callbacks.prev, &s->pending.frame_callbacks);
	wl_list_init(&s->pending.frame_callbacks);

	/* The role (xdg_toplevel) decides about mapping and configure. */
	if (s->role_commit)
		s->role_commit(s);

	if (!wl_list_empty(&s->frame_callbacks) || s->mapped)
		wlseal_output_schedule_repaint(server);
}

static const struct wl_surface_interface surface_impl = {
	.destroy = surface_destroy,
	.attach = surface_attach,
	.damage = surface_damage,
	.frame = surface_frame,
	.set_opaque_region = surface_set_region,
	.set_input_region = surface_set_region,
	.commit = surface_commit,
	.set_buffer_transform = surface_set_buffer_transform,
	.set_buffer_scale = surface_set_buffer_scale,
	.damage_buffer = surface_damage,
};

static void destroy_callbacks(struct wl_list *list)
{
	struct wl_resource *cb, *tmp;

	wl_resource_for_each_safe(cb, tmp, list)
		wl_resource_destroy(cb);
}

static void destroy_feedbacks(struct wl_list *list)
{
	struct wlseal_feedback *fb, *tmp;

	wl_list_for_each_safe(fb, tmp, list, link)
		wlseal_feedback_discard(fb);
}

static void surface_resource_destroy(struct wl_resource *r)
{
	struct wlseal_surface *s = wlseal_surface_from_resource(r);

	/* The role goes first: it may unmap the surface. */
	wl_signal_emit(&s->destroy_signal, s);
	if (s->mapped)
		wlseal_scene_unmap(&s->server->scene, s);
	wlseal_output_schedule_repaint(s->server);

	wl_list_remove(&s->pending.buffer_destroy.link);
	wl_list_remove(&s->buffer_destroy.link);
	destroy_callbacks(&s->pending.frame_callbacks);
	destroy_callbacks(&s->frame_callbacks);
	destroy_feedbacks(&s->pending.feedbacks);
	destroy_feedbacks(&s->feedbacks);
	pixman_region32_fini(&s->pending.damage);
	wl_list_remove(&s->link);
	free(s);
}

static void compositor_create_surface(struct wl_client *client,
				      struct wl_resource *r, uint32_t id)
{
	struct wlseal_server *server = wl_resource_get_user_data(r);
	struct wlseal_surface *s;

	s = calloc(1, sizeof(*s));
	if (!s) {
		wl_client_post_no_memory(client);
		return;
	}
	s->resource = wl_resource_create(client, &wl_surface_interface,
					 wl_resource_get_version(r), id);
	if (!s->resource) {
		free(s);
		wl_client_post_no_memory(client);
		return;
	}
	s->server = server;
	pixman_region32_init(&s->pending.damage);
	wl_list_init(&s->pending.frame_callbacks);
	wl_list_init(&s->pending.feedbacks);
	wl_list_init(&s->pending.buffer_destroy.link);
	s->pending.buffer_destroy.notify = pending_buffer_destroyed;
	wl_list_init(&s->buffer_destroy.link);
	s->buffer_destroy.notify = current_buffer_destroyed;
	wl_list_init(&s->frame_callbacks);
	wl_list_init(&s->feedbacks);
	wl_list_init(&s->view_link);
	wl_signal_init(&s->destroy_signal);
	wl_list_insert(&server->surfaces, &s->link);
	wl_resource_set_implementation(s->resource, &surface_impl, s,
				       surface_resource_destroy);
}

static void compositor_create_region(struct wl_client *client,
				     struct wl_resource *r, uint32_t id)
{
	pixman_region32_t *region;
	struct wl_resource *res;

	region = malloc(sizeof(*region));
	if (!region) {
		wl_client_post_no_memory(client);
		return;
	}
	res = wl_resource_create(client, &wl_region_interface, 1, id);
	if (!res) {
		free(region);
		wl_client_post_no_memory(client);
		return;
	}
	(void)r;
	pixman_region32_init(region);
	wl_resource_set_implementation(res, &region_impl, region,
				       region_resource_destroy);
}

static const struct wl_compositor_interface compositor_impl = {
	.create_surface = compositor_create_surface,
	.create_region = compositor_create_region,
};

static void compositor_bind(struct wl_client *client, void *data,
			    uint32_t version, uint32_t id)
{
	struct wl_resource *r;

	r = wl_resource_create(client, &wl_compositor_interface, version, id);
	if (!r) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(r, &compositor_impl, data, NULL);
}

bool wlseal_compositor_init(struct wlseal_server *server)
{
	/* Version 4 brings damage_buffer; later versions add offset and
	 * scale hints that wlseal has no use for. */
	return wl_global_create(server->display, &wl_compositor_interface, 4,
				server, compositor_bind) != NULL;
}

void wlseal_surfaces_take_frame_state(struct wlseal_server *server)
{
	struct wlseal_surface *s;
	struct wlseal_feedback *fb, *tmp;

	wl_list_for_each(s, &server->surfaces, link) {
		wl_list_insert_list(server->frame_callbacks.prev,
				    &s->frame_callbacks);
		wl_list_init(&s->frame_callbacks);
		/* Only content that is on the screen gets "presented". */
		if (s->mapped && s->buffer) {
			wl_list_insert_list(server->feedbacks.prev,
					    &s->feedbacks);
			wl_list_init(&s->feedbacks);
		} else {
			wl_list_for_each_safe(fb, tmp, &s->feedbacks, link)
				wlseal_feedback_discard(fb);
		}
	}
}

bool wlseal_surfaces_want_frame(struct wlseal_server *server)
{
	struct wlseal_surface *s;

	wl_list_for_each(s, &server->surfaces, link)
		if (!wl_list_empty(&s->frame_callbacks))
			return true;
	return false;
}
