/* SPDX-License-Identifier: MIT */
/*
 * surface-state.c - what a wl_surface commit carries: the
 * double-buffered state (the pending one, and the cache of a
 * synchronized subsurface's commits), its buffer (forgotten if the
 * client destroys it first), one state merged into another, and its
 * end.
 */
#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "surface-impl.h"

/* A pending or cached buffer may be destroyed before it is applied:
 * forget it. */
static void state_buffer_destroyed(struct wl_listener *listener, void *data)
{
	struct wlseal_surface_state *st =
		wl_container_of(listener, st, buffer_destroy);

	wl_list_remove(&st->buffer_destroy.link);
	wl_list_init(&st->buffer_destroy.link);
	st->buffer = NULL;
	st->buffer_info = (struct wlseal_buffer_info){ 0 };
}

void wlseal_surface_state_init(struct wlseal_surface_state *st)
{
	*st = (struct wlseal_surface_state){ 0 };
	st->scale = 1;
	pixman_region32_init(&st->damage);
	pixman_region32_init(&st->buffer_damage);
	pixman_region32_init(&st->opaque);
	pixman_region32_init(&st->input);
	wl_list_init(&st->frame_callbacks);
	wl_list_init(&st->feedbacks);
	wl_list_init(&st->buffer_destroy.link);
	st->buffer_destroy.notify = state_buffer_destroyed;
}

void wlseal_surface_state_set_buffer(struct wlseal_surface_state *st,
				     struct wl_resource *buffer,
				     const struct wlseal_buffer_info *info)
{
	st->buffer_info = info ? *info : (struct wlseal_buffer_info){ 0 };
	wl_list_remove(&st->buffer_destroy.link);
	wl_list_init(&st->buffer_destroy.link);
	st->buffer = buffer;
	if (buffer)
		wl_resource_add_destroy_listener(buffer, &st->buffer_destroy);
}

/* Adds @from (then empty) to @into: a later attach or opaque region
 * replaces an earlier one, damage and callbacks accumulate. A committed
 * buffer replaced before it was ever shown is released here, unless it
 * is @current, the one on screen. */
void wlseal_surface_state_merge(struct wlseal_surface_state *into,
			struct wlseal_surface_state *from,
			struct wl_resource *current)
{
	if (from->attached) {
		if (into->buffer && into->buffer != from->buffer &&
		    into->buffer != current)
			wl_buffer_send_release(into->buffer);
		wlseal_surface_state_set_buffer(into, from->buffer,
						&from->buffer_info);
		into->attached = true;
		wlseal_surface_state_set_buffer(from, NULL, NULL);
		from->attached = false;
	}
	/* Both sides hold at most 33 rectangles (region.c): O(1). */
	pixman_region32_union(&into->damage, &into->damage, &from->damage);
	wlseal_region_bound(&into->damage);
	pixman_region32_clear(&from->damage);
	pixman_region32_union(&into->buffer_damage, &into->buffer_damage,
			      &from->buffer_damage);
	wlseal_region_bound(&into->buffer_damage);
	pixman_region32_clear(&from->buffer_damage);
	if (from->scale_set) {
		into->scale = from->scale;
		into->scale_set = true;
		from->scale_set = false;
	}
	if (from->transform_set) {
		into->transform = from->transform;
		into->transform_set = true;
		from->transform_set = false;
	}
	if (from->viewport_set) {
		into->viewport = from->viewport;
		into->viewport_set = true;
		from->viewport_set = false;
	}
	if (from->opaque_set) {
		pixman_region32_copy(&into->opaque, &from->opaque);
		into->opaque_set = true;
		from->opaque_set = false;
	}
	if (from->input_set) {
		pixman_region32_copy(&into->input, &from->input);
		into->input_all = from->input_all;
		into->input_set = true;
		from->input_set = false;
	}
	wl_list_insert_list(into->frame_callbacks.prev, &from->frame_callbacks);
	wl_list_init(&from->frame_callbacks);
	wl_list_insert_list(into->feedbacks.prev, &from->feedbacks);
	wl_list_init(&from->feedbacks);
}

void wlseal_surface_callbacks_destroy(struct wl_list *list)
{
	struct wl_resource *cb, *tmp;

	wl_resource_for_each_safe(cb, tmp, list)
		wl_resource_destroy(cb);
}

void wlseal_surface_feedbacks_discard(struct wl_list *list)
{
	struct wlseal_feedback *fb, *tmp;

	wl_list_for_each_safe(fb, tmp, list, link)
		fb->impl->discarded(fb);
}

void wlseal_surface_state_finish(struct wlseal_surface_state *st)
{
	wl_list_remove(&st->buffer_destroy.link);
	wlseal_surface_callbacks_destroy(&st->frame_callbacks);
	wlseal_surface_feedbacks_discard(&st->feedbacks);
	pixman_region32_fini(&st->damage);
	pixman_region32_fini(&st->buffer_damage);
	pixman_region32_fini(&st->opaque);
	pixman_region32_fini(&st->input);
}
