/* SPDX-License-Identifier: MIT */
/*
 * backend.h - where frames go: KMS (drm.c) or memory (headless.c).
 *
 * A backend knows no Wayland protocol. It lends the renderer an image to
 * draw into, takes it back with present(), and later emits events.frame
 * once that image is on the screen (page flip event, or the headless
 * timer). Everything the protocol side does at that moment (frame
 * callbacks, presentation feedback) is ../repaint.c's business. Backends
 * include this header and log.h, nothing else of the compositor.
 */
#ifndef WLSEAL_BACKEND_H
#define WLSEAL_BACKEND_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include <pixman.h>
#include <wayland-server-core.h>

/* Same bits as wp_presentation_feedback.kind. */
#define WLSEAL_FRAME_VSYNC 0x1
#define WLSEAL_FRAME_HW_CLOCK 0x2
#define WLSEAL_FRAME_HW_COMPLETION 0x4

struct wlseal_frame_info {
	uint64_t seq;			/* 1 for the first frame shown */
	struct timespec when;		/* CLOCK_MONOTONIC */
	uint32_t flags;			/* WLSEAL_FRAME_* */
	pixman_image_t *front;		/* what is on the screen now */
};

struct wlseal_backend;

struct wlseal_backend_impl {
	/* The image to draw the next frame into, and how many frames old
	 * its content is (0: unknown, draw everything). */
	pixman_image_t *(*begin_frame)(struct wlseal_backend *b, int *age);
	/* Queue the image from begin_frame for display; @drawn is what was
	 * drawn into it since begin_frame (NULL: possibly everything), so
	 * a backend can tell the display only that part changed. */
	bool (*present)(struct wlseal_backend *b,
			const pixman_region32_t *drawn);
	void (*destroy)(struct wlseal_backend *b);
};

struct wlseal_backend {
	const struct wlseal_backend_impl *impl;
	const char *name;
	/* The output's own name: "HEADLESS-1", a DRM connector's
	 * ("Virtual-1", "HDMI-A-1"). */
	char output_name[32];
	int width, height;
	uint32_t refresh_mhz;
	uint32_t refresh_nsec;
	pixman_image_t *front;		/* last presented image, or NULL */
	struct {
		struct wl_signal frame;	/* data: struct wlseal_frame_info * */
	} events;
};

/* "drm" or "headless"; NULL (logged) when it cannot start. */
struct wlseal_backend *wlseal_backend_create(const char *name,
					     struct wl_event_loop *loop,
					     const char *drm_device,
					     int width, int height);
struct wlseal_backend *wlseal_backend_headless_create(struct wl_event_loop *loop,
						      int width, int height);
struct wlseal_backend *wlseal_backend_drm_create(struct wl_event_loop *loop,
						 const char *device,
						 int width, int height);

#endif
