/* SPDX-License-Identifier: MIT */
/*
 * repaint.c - the repaint loop.
 *
 * This is the only file that talks to both halves: it asks the scene to
 * draw into the backend's image, hands the image to the backend, and when
 * the backend reports the frame on screen, it tells the protocol side
 * through server->events.frame_done (frame callbacks, presentation
 * feedback: wl/surface.c). Repaints are paced by the backend: at most one
 * frame is in flight, and a new one starts only after the previous one
 * was shown (page flip, or the headless timer).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <wayland-server-core.h>

#include "backend.h"
#include "cpu.h"
#include "log.h"
#include "screenshot.h"
#include "repaint.h"
#include "scene.h"
#include "server.h"

static void repaint(void *data)
{
	struct wlseal_server *server = data;
	pixman_image_t *target;
	pixman_region32_t drawn;
	bool ok;
	int age;

	wlseal_cpu_repaint_begin();
	server->repaint_needed = false;
	/* Whatever was committed up to now goes out with this frame. */
	wl_signal_emit(&server->events.frame_start, NULL);
	target = server->backend->impl->begin_frame(server->backend, &age);
	pixman_region32_init(&drawn);
	server->last_repaint_area = wlseal_scene_render(&server->scene, target,
							age, &drawn);
	ok = server->backend->impl->present(server->backend, &drawn);
	pixman_region32_fini(&drawn);
	if (!ok) {
		wlseal_log("backend failed to present a frame");
		wl_display_terminate(server->display);
		wlseal_cpu_repaint_end();
		return;
	}
	server->repaint_state = WLSEAL_REPAINT_WAITING;
	wlseal_cpu_repaint_end();
}

static void repaint_schedule(struct wlseal_server *server)
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

bool wlseal_screenshot(struct wlseal_server *server, const char *path)
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
	struct wlseal_frame_done frame = {
		.seq = info->seq, .when = info->when, .flags = info->flags,
	};

	server->last_seq = info->seq;
	server->repaint_state = WLSEAL_REPAINT_IDLE;

	/* Frame callbacks and presentation feedback (wl/surface.c). */
	wl_signal_emit(&server->events.frame_done, &frame);

	if (server->print_frames) {
		/* For screenshot tests: which frame is on screen, and a
		 * checksum of it that a screenshot must reproduce. */
		printf("WLSEAL-FRAME %llu %08x\n",
		       (unsigned long long)info->seq,
		       wlseal_image_crc32(info->front));
		fflush(stdout);
	}
	{
		/* The compositor's CPU time (all threads, user and kernel,
		 * nanosecond clock) since the previous frame was shown:
		 * what this frame cost, for scripts/bench and bench-*
		 * scenarios. */
		struct timespec cpu;
		uint64_t ns;

		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
		ns = (uint64_t)cpu.tv_sec * 1000000000ull + (uint64_t)cpu.tv_nsec;
		/* And the scene's own bookkeeping since then (hit tests,
		 * views visited outside the repaint): tests count it. */
		wlseal_debug("frame seq=%llu repainted=%llu cpu_us=%llu hit_tests=%llu visits=%llu faults=%llu",
			     (unsigned long long)info->seq,
			     (unsigned long long)server->last_repaint_area,
			     (unsigned long long)((ns - server->last_frame_cpu_ns) / 1000),
			     (unsigned long long)server->scene.hit_tests,
			     (unsigned long long)server->scene.visits,
			     wlseal_cpu_repaint_faults());
		server->last_frame_cpu_ns = ns;
		server->scene.hit_tests = server->scene.visits = 0;
	}
	if (server->screenshot && server->screenshot_frame == info->seq)
		wlseal_screenshot(server, server->screenshot);

	/* A commit since the repaint started set repaint_needed, also one
	 * that only asked for a frame callback. */
	if (server->repaint_needed || wlseal_scene_has_damage(&server->scene))
		repaint_schedule(server);
}

/* wlseal_scene_request_frame(): the protocol side wants a frame. */
static void frame_requested(struct wl_listener *listener, void *data)
{
	struct wlseal_server *server =
		wl_container_of(listener, server, frame_request);

	(void)data;
	repaint_schedule(server);
}

void wlseal_repaint_init(struct wlseal_server *server)
{
	struct wlseal_backend *b = server->backend;

	server->output = (struct wlseal_output_info){
		.name = b->name, .width = b->width, .height = b->height,
		.refresh_mhz = b->refresh_mhz, .refresh_nsec = b->refresh_nsec,
		.output_name = b->output_name,
	};
	snprintf(server->output.description, sizeof(server->output.description),
		 "wlseal %s output %s %dx%d", b->name, b->output_name, b->width,
		 b->height);
	wl_signal_init(&server->events.frame_start);
	wl_signal_init(&server->events.frame_done);
	wl_signal_init(&server->events.keyboard_focus);
	server->frame_presented.notify = frame_presented;
	wl_signal_add(&b->events.frame, &server->frame_presented);
	wlseal_scene_init(&server->scene, b->width, b->height);
	server->frame_request.notify = frame_requested;
	wl_signal_add(&server->scene.frame_signal, &server->frame_request);
	/* The first frame: the plain background. */
	repaint_schedule(server);
}

void wlseal_repaint_finish(struct wlseal_server *server)
{
	wl_list_remove(&server->frame_request.link);
	wlseal_scene_finish(&server->scene);
	server->backend->impl->destroy(server->backend);
}
