/* SPDX-License-Identifier: MIT */
/*
 * repaint.c - the repaint loop.
 *
 * This is the only file that talks to both halves: it asks the scene to
 * draw into the backend's image, hands the image to the backend, and when
 * the backend reports the frame on screen, it tells the protocol side
 * through server->events.frame_done (frame callbacks, presentation
 * feedback: surface/surface.c). Repaints are paced by the backend: at most one
 * frame is in flight, and a new one starts only after the previous one
 * was shown (page flip, or the headless timer).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <wayland-server-core.h>

#include "account.h"
#include "backend.h"
#include "cpu.h"
#include "log.h"
#include "screenshot.h"
#include "repaint.h"
#include "scene.h"
#include "server.h"

/* A reason a full-screen buffer was composed, once per reason in a row
 * (a client offering the same unfit buffer every frame logs one line). */
static void scanout_refused(struct wlseal_server *server, const char *why)
{
	if (!why[0] || !strcmp(server->scanout_why, why))
		return;
	snprintf(server->scanout_why, sizeof(server->scanout_why), "%s", why);
	wlseal_log("direct scanout: composing instead: %s", why);
}

/*
 * The scene's scanout hooks in the backend's words (backend.h): the two
 * layers do not share a header, so these pass each call on. One source
 * kind offers buffers (surface/scanout.c's), and its hooks are kept here.
 */
static const struct wlseal_scene_scanout_ops *scene_ops;

static void hook_ref(void *key)
{
	scene_ops->ref(key);
}

static void hook_unref(void *key)
{
	scene_ops->unref(key);
}

static void hook_busy(void *key, bool busy)
{
	scene_ops->busy(key, busy);
}

static bool hook_gone(void *key)
{
	return scene_ops->gone(key);
}

static const struct wlseal_scanout_ops backend_ops = {
	.ref = hook_ref, .unref = hook_unref, .busy = hook_busy,
	.gone = hook_gone,
};

/*
 * Direct scanout: when the scene says the frame would be one view's
 * buffer pixel for pixel (scene.c), offer that buffer to the backend
 * instead of drawing it. A buffer the backend refuses is marked so and
 * composed from then on; a backend that cannot scan out at all is not
 * asked again. Returns the view shown, or NULL: draw the frame.
 */
static struct wlseal_scene_view *try_scanout(struct wlseal_server *server)
{
	struct wlseal_backend *b = server->backend;
	struct wlseal_scene_scanout sc;
	struct wlseal_scene_view *view;
	struct wlseal_scanout bs;
	enum wlseal_scanout_result r;
	char why[160];

	if (!server->direct_scanout || !b->impl->scanout)
		return NULL;
	view = wlseal_scene_scanout_candidate(&server->scene, &sc, why,
					      sizeof(why));
	if (!view) {
		scanout_refused(server, why);
		return NULL;
	}
	if (scene_ops && sc.ops != scene_ops) {
		sc.ops->unref(sc.key);
		return NULL;
	}
	scene_ops = sc.ops;
	bs = (struct wlseal_scanout){
		.fd = sc.fd, .offset = sc.offset, .width = sc.width,
		.height = sc.height, .stride = sc.stride,
		.write_sealed = sc.write_sealed, .image = sc.image,
		.key = sc.key, .ops = &backend_ops,
	};
	why[0] = '\0';
	r = b->impl->scanout(b, &bs, why, sizeof(why));
	if (r != WLSEAL_SCANOUT_DONE) {
		if (r == WLSEAL_SCANOUT_NEVER) {
			wlseal_log("direct scanout: off: %s", why);
			server->direct_scanout = false;
		} else if (r == WLSEAL_SCANOUT_NOT_NOW) {
			scanout_refused(server, why);
		} else {
			sc.ops->refused(sc.key);
			scanout_refused(server, why);
		}
		view = NULL;
	} else if (server->scanout_why[0]) {
		server->scanout_why[0] = '\0';
	}
	sc.ops->unref(sc.key);
	return view;
}

static void repaint(void *data)
{
	struct wlseal_server *server = data;
	struct wlseal_scene_view *scanned;
	pixman_image_t *target;
	pixman_region32_t drawn;
	uint64_t copied = server->scene.copied;
	bool ok = true;
	int age;

	wlseal_cpu_repaint_begin();
	server->repaint_needed = false;
	scanned = try_scanout(server);
	/* Whatever was committed up to now goes out with this frame. */
	wl_signal_emit(&server->events.frame_start, scanned);
	if (scanned) {
		wlseal_scene_scanned_out(&server->scene);
		server->last_repaint_area = 0;
		server->frames_scanned_out++;
	} else {
		target = server->backend->impl->begin_frame(server->backend,
							    &age);
		pixman_region32_init(&drawn);
		server->last_repaint_area =
			wlseal_scene_render(&server->scene, target, age,
					    &drawn);
		ok = server->backend->impl->present(server->backend, &drawn);
		pixman_region32_fini(&drawn);
		server->frames_composed++;
	}
	server->last_copied = server->scene.copied - copied;
	server->bytes_copied += server->last_copied;
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
	/* zero_copy is per surface: surface/surface.c marks the feedbacks of
	 * the scanned-out one (frame_start's data). */
	struct wlseal_frame_done frame = {
		.seq = info->seq, .when = info->when,
		.flags = info->flags & ~(uint32_t)WLSEAL_FRAME_ZERO_COPY,
	};

	wlseal_cpu_loop();
	server->last_seq = info->seq;
	server->repaint_state = WLSEAL_REPAINT_IDLE;

	/* Frame callbacks and presentation feedback (surface/surface.c). */
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
		/* copied: the bytes of client pixels the frame's repaint
		 * composed (0 when scanned out: zero_copy=1). */
		wlseal_debug("frame seq=%llu repainted=%llu copied=%llu zero_copy=%d cpu_us=%llu hit_tests=%llu visits=%llu faults=%llu",
			     (unsigned long long)info->seq,
			     (unsigned long long)server->last_repaint_area,
			     (unsigned long long)server->last_copied,
			     (info->flags & WLSEAL_FRAME_ZERO_COPY) != 0,
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
	wl_signal_init(&server->events.commit_applied);
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
	/* What the seals saved: frames shown as the client's own buffer. */
	wlseal_log("frames: %llu composed (%llu bytes of client pixels copied), %llu scanned out (none copied)",
		   (unsigned long long)server->frames_composed,
		   (unsigned long long)server->bytes_copied,
		   (unsigned long long)server->frames_scanned_out);
	wl_list_remove(&server->frame_request.link);
	wlseal_scene_finish(&server->scene);
	server->backend->impl->destroy(server->backend);
}
