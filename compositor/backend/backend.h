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
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <pixman.h>
#include <wayland-server-core.h>

/* Same bits as wp_presentation_feedback.kind. */
#define WLSEAL_FRAME_VSYNC 0x1
#define WLSEAL_FRAME_HW_CLOCK 0x2
#define WLSEAL_FRAME_HW_COMPLETION 0x4
#define WLSEAL_FRAME_ZERO_COPY 0x8

/*
 * A client's buffer to scan out as it is (direct scanout): its file, the
 * place of its pixels in it, and the same pixels mapped (@image, what a
 * screenshot of the frame reads). The backend makes what its display
 * needs of the file (drm.c: a udmabuf, a PRIME handle, a framebuffer)
 * and may keep that, keyed by @key, for as long as it likes between
 * @ops->ref() and @ops->unref(). @ops->busy(key, true) says the display
 * may read the pages now; busy(key, false) comes once a later frame
 * replaced it on the screen: only then may the client have the buffer
 * back. @ops->gone() says the client's buffer no longer exists (a cached
 * framebuffer of it is useless, but one on the screen stays until
 * replaced).
 */
struct wlseal_scanout_ops {
	void (*ref)(void *key);
	void (*unref)(void *key);
	void (*busy)(void *key, bool busy);
	bool (*gone)(void *key);
};

struct wlseal_scanout {
	int fd;				/* borrowed for the call only */
	uint64_t offset;		/* of the first pixel, in the file */
	int32_t width, height, stride;	/* the output's size */
	bool write_sealed;		/* F_SEAL_WRITE: immutable pages */
	pixman_image_t *image;		/* x8r8g8b8, the backend refs it */
	void *key;
	const struct wlseal_scanout_ops *ops;
};

enum wlseal_scanout_result {
	WLSEAL_SCANOUT_DONE,		/* queued like present() */
	WLSEAL_SCANOUT_NOT_NOW,		/* compose this frame, ask again */
	WLSEAL_SCANOUT_NOT_THIS,	/* this buffer cannot be: compose it */
	WLSEAL_SCANOUT_NEVER,		/* the backend cannot, for any buffer */
};

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
	/* Optional: show @s instead of a drawn frame, paced and reported
	 * as present() is (events.frame, with WLSEAL_FRAME_ZERO_COPY). On
	 * anything but DONE, @why (@why_len bytes) says why, and nothing
	 * changed: the caller composes the frame instead. */
	enum wlseal_scanout_result (*scanout)(struct wlseal_backend *b,
					      const struct wlseal_scanout *s,
					      char *why, size_t why_len);
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
