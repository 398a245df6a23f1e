/* SPDX-License-Identifier: MIT */
/*
 * presentation.c - wp_presentation: when exactly did a commit reach the
 * screen. The timestamps are the backend's (the page flip event's on KMS),
 * the sequence number is the output's frame counter, the same number
 * --print-frames prints, so a client's "presented at seq N" and the
 * compositor's "WLSEAL-FRAME N crc" name the same frame.
 */
#include <stdlib.h>
#include <time.h>

#include <wayland-server-core.h>

#include "surface-impl.h"
#include "presentation-time-server-protocol.h"

/* A wp_presentation_feedback, carried along by surface.c (surface-impl.h). */
struct presentation_feedback {
	struct wlseal_feedback base;
	struct wl_resource *resource;
	struct wlseal_server *server;
	struct wlseal_account *account;	/* account/objects.c */
};

static void feedback_resource_destroy(struct wl_resource *r)
{
	struct presentation_feedback *fb = wl_resource_get_user_data(r);

	wl_list_remove(&fb->base.link);
	wlseal_budget_put(fb->account, WLSEAL_BUDGET_FEEDBACKS);
	free(fb);
}

static void feedback_discarded(struct wlseal_feedback *base)
{
	struct presentation_feedback *fb = wl_container_of(base, fb, base);

	wp_presentation_feedback_send_discarded(fb->resource);
	wl_resource_destroy(fb->resource);
}

static unsigned int feedback_presented(struct wlseal_feedback *base,
				       const struct wlseal_frame_done *frame)
{
	struct presentation_feedback *fb = wl_container_of(base, fb, base);
	struct wl_client *client = wl_resource_get_client(fb->resource);
	struct wlseal_server *server = fb->server;
	struct wl_list *outputs = wlseal_output_resources(client);
	struct wl_resource *out;
	uint64_t sec = (uint64_t)frame->when.tv_sec;
	unsigned int events = 2;	/* presented, and the destruction */

	/* sync_output for each of the client's own wl_output objects
	 * (output.c keeps them per client): at most
	 * --max-outputs-per-client (account/objects.c), whatever other clients
	 * bound. */
	if (outputs)
		wl_resource_for_each(out, outputs) {
			wp_presentation_feedback_send_sync_output(fb->resource,
								  out);
			events++;
		}
	wp_presentation_feedback_send_presented(fb->resource,
		(uint32_t)(sec >> 32), (uint32_t)sec,
		(uint32_t)frame->when.tv_nsec, server->output.refresh_nsec,
		(uint32_t)(frame->seq >> 32), (uint32_t)frame->seq, frame->flags);
	wl_resource_destroy(fb->resource);
	return events;
}

static const struct wlseal_feedback_impl feedback_impl = {
	.presented = feedback_presented,
	.discarded = feedback_discarded,
};

static void presentation_destroy(struct wl_client *c, struct wl_resource *r)
{
	wl_resource_destroy(r);
}

static void presentation_feedback(struct wl_client *client,
				  struct wl_resource *r,
				  struct wl_resource *surface_resource,
				  uint32_t id)
{
	struct wlseal_surface *s = wlseal_surface_from_resource(surface_resource);
	struct wlseal_server *server = wl_resource_get_user_data(r);
	struct wlseal_account *account;
	struct presentation_feedback *fb;

	/* Alive until presented or discarded, however many a surface
	 * asks for before it commits: budgeted (account/objects.c). */
	account = wlseal_budget_take(client, WLSEAL_BUDGET_FEEDBACKS);
	if (!account)
		return;
	fb = calloc(1, sizeof(*fb));
	if (fb)
		fb->resource = wl_resource_create(client,
						  &wp_presentation_feedback_interface,
						  wl_resource_get_version(r), id);
	if (!fb || !fb->resource) {
		free(fb);
		wlseal_budget_put(account, WLSEAL_BUDGET_FEEDBACKS);
		wl_client_post_no_memory(client);
		return;
	}
	fb->base.impl = &feedback_impl;
	fb->server = server;
	fb->account = account;
	/* Belongs to the next commit of the surface. */
	wlseal_surface_add_feedback(s, &fb->base);
	wl_resource_set_implementation(fb->resource, NULL, fb,
				       feedback_resource_destroy);
}

static const struct wp_presentation_interface presentation_impl = {
	.destroy = presentation_destroy,
	.feedback = presentation_feedback,
};

static void presentation_bind(struct wl_client *client, void *data,
			      uint32_t version, uint32_t id)
{
	struct wl_resource *r;

	r = wl_resource_create(client, &wp_presentation_interface, version, id);
	if (!r) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(r, &presentation_impl, data, NULL);
	/* Both backends time frames with CLOCK_MONOTONIC. */
	wp_presentation_send_clock_id(r, CLOCK_MONOTONIC);
}

bool wlseal_presentation_init(struct wlseal_server *server, uint32_t version)
{
	return wl_global_create(server->display, &wp_presentation_interface, version,
				server, presentation_bind) != NULL;
}
