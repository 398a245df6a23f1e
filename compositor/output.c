/* SPDX-License-Identifier: MIT */
/*
 * output.c - the wl_output global and the repaint loop.
 *
 * This is the only file that talks to both halves: it asks the scene to
 * draw into the backend's image, hands the image to the backend, and when
 * the backend reports the frame on screen, it answers the protocol side
 * (frame callbacks, presentation feedback). Repaints are paced by the
 * backend: at most one frame is in flight, and a new one starts only after
 * the previous one was shown (page flip, or the headless timer).
 */
#include <stdio.h>
#include <stdlib.h>

#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "compositor.h"

static void output_resource_destroy(struct wl_resource *r)
{
	wl_list_remove(wl_resource_get_link(r));
}

static void output_release(struct wl_client *c, struct wl_resource *r)
{
	(void)c;
	wl_resource_destroy(r);
}

static const struct wl_output_interface output_impl = {
	.release = output_release,
};

static void output_bind(struct wl_client *client, void *data,
			uint32_t version, uint32_t id)
{
	struct wlseal_server *server = data;
	struct wlseal_backend *b = server->backend;
	struct wl_resource *r;

	r = wl_resource_create(client, &wl_output_interface, version, id);
	if (!r) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(r, &output_impl, server,
				       output_resource_destroy);
	wl_list_insert(&server->output_resources, wl_resource_get_link(r));

	/* Physical size unknown (0x0 mm): virtual hardware. */
	wl_output_send_geometry(r, 0, 0, 0, 0, WL_OUTPUT_SUBPIXEL_UNKNOWN,
				"wlseal", b->name, WL_OUTPUT_TRANSFORM_NORMAL);
	wl_output_send_mode(r, WL_OUTPUT_MODE_CURRENT | WL_OUTPUT_MODE_PREFERRED,
			    b->width, b->height, (int32_t)b->refresh_mhz);
	if (version >= WL_OUTPUT_SCALE_SINCE_VERSION)
		wl_output_send_scale(r, 1);
	if (version >= WL_OUTPUT_DONE_SINCE_VERSION)
		wl_output_send_done(r);
}

static void repaint(void *data)
{
	struct wlseal_server *server = data;
	pixman_image_t *target;
	int age;

	server->repaint_needed = false;
	/* Whatever was committed up to now goes out with this frame. */
	wlseal_surfaces_take_frame_state(server);
	target = server->backend->impl->begin_frame(server->backend, &age);
	server->last_repaint_area = wlseal_scene_render(&server->scene, target,
							age);
	if (!server->backend->impl->present(server->backend)) {
		wlseal_log("backend failed to present a frame");
		wl_display_terminate(server->display);
		return;
	}
	server->repaint_state = WLSEAL_REPAINT_WAITING;
}

void wlseal_output_schedule_repaint(struct wlseal_server *server)
{
	server->repaint_needed = true;
	if (server->repaint_state != WLSEAL_REPAINT_IDLE)
		return;	/* the frame-done handler will come back here */
	/* An idle source runs once the current batch of requests was
	 * dispatched, so a client's attach+damage+commit end up in one
	 * frame, as do commits of several clients. */
	if (wl_event_loop_add_idle(server->loop, repaint, server))
		server->repaint_state = WLSEAL_REPAINT_SCHEDULED;
}

bool wlseal_output_screenshot(struct wlseal_server *server, const char *path)
{
	if (!server->backend->front) {
		wlseal_log("screenshot: nothing on screen yet");
		return false;
	}
	if (!wlseal_write_png(path, server->backend->front)) {
		wlseal_log("screenshot: cannot write %s", path);
		return false;
	}
	wlseal_log("screenshot frame=%llu written to %s",
		   (unsigned long long)server->last_seq, path);
	return true;
}

static void frame_presented(struct wl_listener *listener, void *data)
{
	struct wlseal_server *server =
		wl_container_of(listener, server, frame_presented);
	const struct wlseal_frame_info *info = data;
	struct wlseal_feedback *fb, *fbtmp;
	struct wl_resource *cb, *cbtmp;
	uint32_t msec = (uint32_t)(info->when.tv_sec * 1000 +
				   info->when.tv_nsec / 1000000);

	server->last_seq = info->seq;
	server->repaint_state = WLSEAL_REPAINT_IDLE;

	/* The frame is on screen: tell the clients whose content it shows,
	 * so that they draw their next frame now, paced by the display. */
	wl_resource_for_each_safe(cb, cbtmp, &server->frame_callbacks) {
		wl_callback_send_done(cb, msec);
		wl_resource_destroy(cb);
	}
	wl_list_for_each_safe(fb, fbtmp, &server->feedbacks, link)
		wlseal_feedback_presented(fb, server, info);

	if (server->opts.print_frames) {
		/* For screenshot tests: which frame is on screen, and a
		 * checksum of it that a screenshot must reproduce. */
		printf("WLSEAL-FRAME %llu %08x\n",
		       (unsigned long long)info->seq,
		       wlseal_image_crc32(info->front));
		fflush(stdout);
	}
	wlseal_debug(server, "frame seq=%llu repainted=%llu",
		     (unsigned long long)info->seq,
		     (unsigned long long)server->last_repaint_area);
	if (server->opts.screenshot && server->opts.screenshot_frame == info->seq)
		wlseal_output_screenshot(server, server->opts.screenshot);

	if (server->repaint_needed || wlseal_scene_has_damage(&server->scene) ||
	    wlseal_surfaces_want_frame(server))
		wlseal_output_schedule_repaint(server);
}

bool wlseal_output_init(struct wlseal_server *server)
{
	wl_list_init(&server->output_resources);
	wl_list_init(&server->frame_callbacks);
	wl_list_init(&server->feedbacks);
	server->frame_presented.notify = frame_presented;
	wl_signal_add(&server->backend->events.frame, &server->frame_presented);
	wlseal_scene_init(&server->scene, server->backend->width,
			  server->backend->height);
	if (!wl_global_create(server->display, &wl_output_interface, 3, server,
			      output_bind))
		return false;
	/* The first frame: the plain background. */
	wlseal_output_schedule_repaint(server);
	return true;
}
