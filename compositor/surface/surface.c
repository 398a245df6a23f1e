/* SPDX-License-Identifier: MIT */
/*
 * surface.c - wl_compositor and the life of a wl_surface: its creation
 * (budgeted) and destruction, and frame pacing: when a repaint starts,
 * the committed frame callbacks and feedbacks go in flight (frame_start);
 * when that frame is on screen, the callbacks are done and the feedbacks
 * queued (frame_done).
 *
 * Surface state is double-buffered: attach, damage and frame only touch
 * the pending state, commit makes it current at once (or, for a
 * synchronized subsurface, adds it to a cache that its parent's commit
 * applies: subcompositor.c). The compositor
 * reads the committed buffer whenever it repaints, so the buffer stays
 * "busy" until a later commit replaces it; that is when it is released.
 *
 * The rest of wl_surface lies in files beside this one, each one part,
 * calls going one way (private/surface.h): surface-request.c (the
 * requests, and commit), surface-apply.c (a committed state made
 * current), surface-state.c (the double-buffered state itself),
 * surface-geometry.c (buffer scale, transform and viewport: the size
 * and the sampling transform) and surface-source.c (what the scene
 * reads of the committed buffer).
 */
#include <stdlib.h>

#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "surface-impl.h"

static void surface_resource_destroy(struct wl_resource *r)
{
	struct wlseal_surface *s = wlseal_surface_from_resource(r);

	/* The role goes first: it may unmap the surface. */
	wl_signal_emit(&s->destroy_signal, s);
	if (s->view.mapped)
		wlseal_scene_unmap(&s->server->scene, &s->view);
	wlseal_scene_request_frame(&s->server->scene);

	wlseal_surface_state_finish(&s->pending);
	wlseal_surface_state_finish(&s->cached);
	wl_list_remove(&s->buffer_destroy.link);
	wlseal_surface_callbacks_destroy(&s->frame_callbacks);
	wlseal_surface_feedbacks_discard(&s->feedbacks);
	pixman_region32_fini(&s->opaque);
	pixman_region32_fini(&s->input);
	wl_list_remove(&s->link);
	wlseal_resident_waiter_finish(&s->resident);
	wlseal_budget_put(s->account, WLSEAL_BUDGET_SURFACES);
	free(s);
}

static void compositor_create_surface(struct wl_client *client,
				      struct wl_resource *r, uint32_t id)
{
	struct wlseal_server *server = wl_resource_get_user_data(r);
	struct wlseal_account *account;
	struct wlseal_surface *s;

	/* Every frame walks all surfaces (frame_start): their number per
	 * client is budgeted (account/objects.c). */
	account = wlseal_budget_take(client,
				     WLSEAL_BUDGET_SURFACES);
	if (!account)
		return;
	s = calloc(1, sizeof(*s));
	if (s)
		s->resource = wl_resource_create(client, &wl_surface_interface,
						 wl_resource_get_version(r), id);
	if (!s || !s->resource) {
		free(s);
		wlseal_budget_put(account, WLSEAL_BUDGET_SURFACES);
		wl_client_post_no_memory(client);
		return;
	}
	s->server = server;
	s->account = account;
	s->scale = 1;
	wlseal_surface_state_init(&s->pending);
	wlseal_surface_state_init(&s->cached);
	pixman_region32_init(&s->opaque);
	pixman_region32_init(&s->input);
	wl_list_init(&s->buffer_destroy.link);
	s->buffer_destroy.notify = wlseal_surface_buffer_destroyed;
	wl_list_init(&s->frame_callbacks);
	wl_list_init(&s->feedbacks);
	wlseal_surface_source_init(s);
	s->view.opaque = &s->opaque;
	/* The client's account is its key in the overdraw budget: one per
	 * client, alive as long as this surface. */
	s->view.owner = account;
	wl_signal_init(&s->destroy_signal);
	wl_signal_init(&s->apply_signal);
	wl_signal_init(&s->commit_signal);
	wl_list_init(&s->link);
	wlseal_surface_set_implementation(s, surface_resource_destroy);
}

static void compositor_create_region(struct wl_client *client,
				     struct wl_resource *r, uint32_t id)
{
	wlseal_region_create(wl_resource_get_user_data(r), client, id);
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

/*
 * A repaint starts (repaint.c): move committed callbacks and feedback of
 * every surface to the server's in-flight lists.
 */
static void frame_start(struct wl_listener *listener, void *data)
{
	struct wlseal_server *server =
		wl_container_of(listener, server, frame_start);
	struct wlseal_scene_view *scanned = data;
	struct wlseal_surface *s, *stmp;
	struct wlseal_feedback *fb, *tmp;

	/* The surfaces whose commits brought callbacks or feedback since
	 * the last frame, each once: work its clients' commits paid for,
	 * not a walk of every surface of every client. */
	wl_list_for_each_safe(s, stmp, &server->surfaces, link) {
		wl_list_remove(&s->link);
		wl_list_init(&s->link);
		wl_list_insert_list(server->frame_callbacks.prev,
				    &s->frame_callbacks);
		wl_list_init(&s->frame_callbacks);
		/* Only content that is on the screen gets "presented". */
		if (wlseal_scene_view_visible(&s->view) && s->buffer) {
			/* The scanned-out surface's frame is its own
			 * buffer: presented zero-copy. */
			wl_list_for_each(fb, &s->feedbacks, link)
				fb->zero_copy = scanned == &s->view;
			wl_list_insert_list(server->feedbacks.prev,
					    &s->feedbacks);
			wl_list_init(&s->feedbacks);
		} else {
			wl_list_for_each_safe(fb, tmp, &s->feedbacks, link)
				fb->impl->discarded(fb);
		}
	}
}

/*
 * The frame is on screen: tell the clients whose content it shows, so
 * that they draw their next frame now, paced by the display. Callbacks
 * committed since the repaint started wait for the next frame; their
 * commit already asked for it (wlseal_scene_request_frame, in
 * wlseal_surface_apply: surface-apply.c).
 */
static void frame_done(struct wl_listener *listener, void *data)
{
	struct wlseal_server *server =
		wl_container_of(listener, server, frame_done);
	const struct wlseal_frame_done *frame = data;
	struct wl_resource *cb, *cbtmp;
	uint32_t msec = (uint32_t)(frame->when.tv_sec * 1000 +
				   frame->when.tv_nsec / 1000000);

	/* Every callback in flight: at most --max-callbacks-per-client
	 * per client (account/objects.c). */
	wl_resource_for_each_safe(cb, cbtmp, &server->frame_callbacks) {
		wl_callback_send_done(cb, msec);
		wl_resource_destroy(cb);
	}
	/* Feedbacks cost a client's bound outputs each: a bounded slice
	 * per turn (feedback-queue.c). */
	wlseal_feedback_queue_add(server, &server->feedbacks, frame);
}

bool wlseal_compositor_init(struct wlseal_server *server, uint32_t version)
{
	wl_list_init(&server->surfaces);
	wl_list_init(&server->frame_callbacks);
	wl_list_init(&server->feedbacks);
	wlseal_feedback_queue_init(server);
	server->frame_start.notify = frame_start;
	wl_signal_add(&server->events.frame_start, &server->frame_start);
	server->frame_done.notify = frame_done;
	wl_signal_add(&server->events.frame_done, &server->frame_done);
	/* Version 4 brings damage_buffer; later versions add offset and
	 * scale hints that wlseal has no use for. */
	return wl_global_create(server->display, &wl_compositor_interface, version,
				server, compositor_bind) != NULL;
}

void wlseal_compositor_finish(struct wlseal_server *server)
{
	wlseal_feedback_queue_finish(server);
}
