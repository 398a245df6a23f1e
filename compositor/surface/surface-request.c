/* SPDX-License-Identifier: MIT */
/*
 * surface-request.c - the wl_surface requests: attach, damage and
 * damage_buffer, frame (budgeted callbacks), the input and opaque
 * regions, buffer transform and scale, all into the pending state; and
 * commit, which caches it (a synchronized subsurface) or applies it
 * (surface-apply.c). Also a feedback's place in the pending state
 * (presentation.c).
 */
#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "surface-impl.h"

/* wl_surface */

struct wlseal_surface *wlseal_surface_from_resource(struct wl_resource *r)
{
	return wl_resource_get_user_data(r);
}

static void surface_destroy(struct wl_client *client, struct wl_resource *r)
{
	wl_resource_destroy(r);
}

static void surface_attach(struct wl_client *client, struct wl_resource *r,
			   struct wl_resource *buffer, int32_t x, int32_t y)
{
	struct wlseal_surface *s = wlseal_surface_from_resource(r);
	struct wlseal_buffer_info info;

	/* x, y: toplevels are placed by the compositor. The one question
	 * to shm/ about this buffer, answered for every later commit. */
	if (buffer && !wlseal_buffer_info(buffer, &info)) {
		wl_resource_post_error(r, WL_SURFACE_ERROR_INVALID_SIZE,
				       "only wl_shm buffers are supported");
		return;
	}
	if (buffer && s->role_attach && !s->role_attach(s))
		return;
	s->pending.attached = true;
	wlseal_surface_state_set_buffer(&s->pending, buffer,
					buffer ? &info : NULL);
}

/* x + w may pass INT32_MAX (Mesa sends 0, 0, INT32_MAX, INT32_MAX on
 * every swap, and any x with it): clamped (wlseal_region_box), the
 * rectangle reaches the surface's far edge instead of being lost. */
static void add_damage(pixman_region32_t *region, int32_t x, int32_t y,
		       int32_t w, int32_t h)
{
	pixman_box32_t b;

	if (!wlseal_region_box(x, y, w, h, &b))
		return;
	pixman_region32_union_rect(region, region, b.x1, b.y1,
				   (unsigned)(b.x2 - b.x1),
				   (unsigned)(b.y2 - b.y1));
	wlseal_region_bound(region);
}

static void surface_damage(struct wl_client *client, struct wl_resource *r,
			   int32_t x, int32_t y, int32_t w, int32_t h)
{
	add_damage(&wlseal_surface_from_resource(r)->pending.damage, x, y, w, h);
}

/* Buffer coordinates: wlseal_surface_apply turns them into surface damage. */
static void surface_damage_buffer(struct wl_client *client,
				  struct wl_resource *r, int32_t x, int32_t y,
				  int32_t w, int32_t h)
{
	add_damage(&wlseal_surface_from_resource(r)->pending.buffer_damage,
		   x, y, w, h);
}

static void callback_resource_destroy(struct wl_resource *r)
{
	wl_list_remove(wl_resource_get_link(r));
	wlseal_budget_put(wl_resource_get_user_data(r), WLSEAL_BUDGET_CALLBACKS);
}

static void surface_frame(struct wl_client *client, struct wl_resource *r,
			  uint32_t id)
{
	struct wlseal_surface *s = wlseal_surface_from_resource(r);
	struct wlseal_account *account;
	struct wl_resource *cb;

	/* A callback lives until its frame is done, and a client may ask
	 * for any number before it commits: budgeted (account/objects.c),
	 * which also bounds frame_done's walk. */
	account = wlseal_budget_take(client,
				     WLSEAL_BUDGET_CALLBACKS);
	if (!account)
		return;
	cb = wl_resource_create(client, &wl_callback_interface, 1, id);
	if (!cb) {
		wlseal_budget_put(account, WLSEAL_BUDGET_CALLBACKS);
		wl_client_post_no_memory(client);
		return;
	}
	/* The data is the account; callbacks have no requests. */
	wl_resource_set_implementation(cb, NULL, account,
				       callback_resource_destroy);
	wl_list_insert(s->pending.frame_callbacks.prev,
		       wl_resource_get_link(cb));
}

/* Where the pointer finds the surface (seat.c, through the scene's
 * view.input): double-buffered, NULL means all of it. */
static void surface_set_input_region(struct wl_client *client,
				     struct wl_resource *r,
				     struct wl_resource *region)
{
	struct wlseal_surface *s = wlseal_surface_from_resource(r);

	if (region)
		pixman_region32_copy(&s->pending.input,
				     wl_resource_get_user_data(region));
	else
		pixman_region32_clear(&s->pending.input);
	s->pending.input_all = !region;
	s->pending.input_set = true;
}

/* The opaque region lets the scene write a covered pixel once (scene.c):
 * double-buffered like the rest of the state, NULL means empty. */
static void surface_set_opaque_region(struct wl_client *client,
				      struct wl_resource *r,
				      struct wl_resource *region)
{
	struct wlseal_surface *s = wlseal_surface_from_resource(r);

	if (region)
		wlseal_region_opaque(region, &s->pending.opaque);
	else
		pixman_region32_clear(&s->pending.opaque);
	s->pending.opaque_set = true;
}

static void surface_set_buffer_transform(struct wl_client *client,
					 struct wl_resource *r, int32_t t)
{
	struct wlseal_surface *s = wlseal_surface_from_resource(r);

	if (t < WL_OUTPUT_TRANSFORM_NORMAL || t > WL_OUTPUT_TRANSFORM_FLIPPED_270) {
		wl_resource_post_error(r, WL_SURFACE_ERROR_INVALID_TRANSFORM,
				       "buffer transform %d is not a wl_output.transform",
				       t);
		return;
	}
	s->pending.transform = t;
	s->pending.transform_set = true;
}

static void surface_set_buffer_scale(struct wl_client *client,
				     struct wl_resource *r, int32_t scale)
{
	struct wlseal_surface *s = wlseal_surface_from_resource(r);

	if (scale < 1) {
		wl_resource_post_error(r, WL_SURFACE_ERROR_INVALID_SCALE,
				       "buffer scale %d is not positive", scale);
		return;
	}
	s->pending.scale = scale;
	s->pending.scale_set = true;
}

static void surface_commit(struct wl_client *client, struct wl_resource *r)
{
	struct wlseal_surface *s = wlseal_surface_from_resource(r);

	/* What this surface's subsurfaces asked of it (position, order)
	 * goes with this commit, cached or applied. */
	wl_signal_emit(&s->commit_signal, s);
	/* A synchronized subsurface's commit waits for its parent. */
	if (s->role_cache && s->role_cache(s)) {
		wlseal_surface_state_merge(&s->cached, &s->pending, s->buffer);
		s->has_cached = true;
		return;
	}
	/* A desynchronized one applies what was cached with it. */
	if (s->has_cached) {
		wlseal_surface_state_merge(&s->cached, &s->pending, s->buffer);
		wlseal_surface_apply(s, &s->cached);
	} else {
		wlseal_surface_apply(s, &s->pending);
	}
	wl_signal_emit(&s->server->events.commit_applied, s);
}

static const struct wl_surface_interface surface_impl = {
	.destroy = surface_destroy,
	.attach = surface_attach,
	.damage = surface_damage,
	.frame = surface_frame,
	.set_opaque_region = surface_set_opaque_region,
	.set_input_region = surface_set_input_region,
	.commit = surface_commit,
	.set_buffer_transform = surface_set_buffer_transform,
	.set_buffer_scale = surface_set_buffer_scale,
	.damage_buffer = surface_damage_buffer,
};

void wlseal_surface_set_implementation(struct wlseal_surface *s,
				       wl_resource_destroy_func_t destroy)
{
	wl_resource_set_implementation(s->resource, &surface_impl, s, destroy);
}

void wlseal_surface_add_feedback(struct wlseal_surface *s,
				 struct wlseal_feedback *fb)
{
	wl_list_insert(s->pending.feedbacks.prev, &fb->link);
}
