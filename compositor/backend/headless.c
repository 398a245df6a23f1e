/* SPDX-License-Identifier: MIT */
/*
 * headless.c - an output that exists only in memory.
 *
 * It behaves like a 60 Hz display: a timerfd ticks at "vblank" times
 * (multiples of the refresh period since start), and a presented frame
 * becomes visible at the next tick, which is also its timestamp. One
 * image is enough, since nothing scans it out while we draw.
 *
 * Direct scanout here shows the client's own pixels as the output's
 * image (base.front: what screenshots and the frame checksum read), no
 * copy made: the memory output's equivalent of a flip to the client's
 * buffer. The buffer is held from scanout() until a later frame replaced
 * it; what it needs of the file (a udmabuf) is drm.c's business, not
 * this one's, so any mapped buffer will do.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "backend.h"
#include "log.h"

#define HEADLESS_REFRESH_MHZ 60000

struct headless {
	struct wlseal_backend base;
	pixman_image_t *image;
	bool drawn;		/* image holds a complete earlier frame */
	bool pending;		/* presented, waiting for the next tick */
	struct wlseal_scanout next, shown; /* scanned out; key NULL: none */
	uint64_t seq;
	int timer_fd;
	struct wl_event_source *timer;
	uint64_t epoch_ns;
};

static uint64_t ts_to_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * 1000000000ull + (uint64_t)ts->tv_nsec;
}

static pixman_image_t *headless_begin_frame(struct wlseal_backend *b, int *age)
{
	struct headless *h = wl_container_of(b, h, base);

	/* Drawn, and not replaced by a scanned-out buffer since. */
	*age = h->drawn && !h->shown.key ? 1 : 0;
	return h->image;
}

/* Lets go of a scanned-out buffer, if @s holds one. */
static void scanout_put(struct wlseal_scanout *s)
{
	if (!s->key)
		return;
	s->ops->busy(s->key, false);
	s->ops->unref(s->key);
	pixman_image_unref(s->image);
	s->key = NULL;
}

static bool arm_tick(struct headless *h)
{
	struct itimerspec its = {0};
	struct timespec now;
	uint64_t now_ns, period = h->base.refresh_nsec, next;

	/* The next vblank strictly after now. */
	clock_gettime(CLOCK_MONOTONIC, &now);
	now_ns = ts_to_ns(&now);
	next = h->epoch_ns + ((now_ns - h->epoch_ns) / period + 1) * period;
	its.it_value.tv_sec = (time_t)(next / 1000000000ull);
	its.it_value.tv_nsec = (long)(next % 1000000000ull);
	if (timerfd_settime(h->timer_fd, TFD_TIMER_ABSTIME, &its, NULL) < 0)
		return false;
	h->pending = true;
	return true;
}

static bool headless_present(struct wlseal_backend *b,
			     const pixman_region32_t *drawn)
{
	struct headless *h = wl_container_of(b, h, base);

	return arm_tick(h);
}

static enum wlseal_scanout_result
headless_scanout(struct wlseal_backend *b, const struct wlseal_scanout *s,
		 char *why, size_t why_len)
{
	struct headless *h = wl_container_of(b, h, base);

	if (s->width != b->width || s->height != b->height) {
		snprintf(why, why_len, "buffer %dx%d is not the output's %dx%d",
			 s->width, s->height, b->width, b->height);
		return WLSEAL_SCANOUT_NOT_THIS;
	}
	if (!arm_tick(h)) {
		snprintf(why, why_len, "no vblank timer");
		return WLSEAL_SCANOUT_NEVER;
	}
	/* At most one frame is in flight (repaint.c), so next is free. */
	h->next = *s;
	s->ops->ref(s->key);
	s->ops->busy(s->key, true);
	pixman_image_ref(s->image);
	return WLSEAL_SCANOUT_DONE;
}

static int headless_tick(int fd, uint32_t mask, void *data)
{
	struct headless *h = data;
	struct wlseal_frame_info info;
	uint64_t expirations;

	if (read(fd, &expirations, sizeof(expirations)) < 0 || !h->pending)
		return 0;
	h->pending = false;
	info.flags = WLSEAL_FRAME_VSYNC;
	/* What was on the screen is replaced now. */
	scanout_put(&h->shown);
	if (h->next.key) {
		h->shown = h->next;
		h->next.key = NULL;
		h->base.front = h->shown.image;
		info.flags |= WLSEAL_FRAME_ZERO_COPY;
	} else {
		/* The image holds a complete frame again once drawn after
		 * a scanout (age 0 until then: it missed those frames). */
		h->drawn = true;
		h->base.front = h->image;
	}
	info.seq = ++h->seq;
	clock_gettime(CLOCK_MONOTONIC, &info.when);
	info.front = h->base.front;
	wl_signal_emit(&h->base.events.frame, &info);
	return 0;
}

static void headless_destroy(struct wlseal_backend *b)
{
	struct headless *h = wl_container_of(b, h, base);

	scanout_put(&h->next);
	scanout_put(&h->shown);
	wl_event_source_remove(h->timer);
	close(h->timer_fd);
	pixman_image_unref(h->image);
	free(h);
}

static const struct wlseal_backend_impl headless_impl = {
	.begin_frame = headless_begin_frame,
	.present = headless_present,
	.destroy = headless_destroy,
	.scanout = headless_scanout,
};

struct wlseal_backend *wlseal_backend_headless_create(struct wl_event_loop *loop,
						      int width, int height)
{
	struct headless *h = calloc(1, sizeof(*h));
	struct timespec now;

	if (!h)
		return NULL;
	h->base.impl = &headless_impl;
	h->base.name = "headless";
	snprintf(h->base.output_name, sizeof(h->base.output_name), "HEADLESS-1");
	h->base.width = width;
	h->base.height = height;
	h->base.refresh_mhz = HEADLESS_REFRESH_MHZ;
	h->base.refresh_nsec = 1000000000000ull / HEADLESS_REFRESH_MHZ;
	wl_signal_init(&h->base.events.frame);
	/* a8r8g8b8 rather than x8r8g8b8: pixman then stores a defined
	 * 0xff in the top byte, so checksums match the DRM backend's. */
	h->image = pixman_image_create_bits(PIXMAN_a8r8g8b8, width, height,
					    NULL, width * 4);
	h->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (!h->image || h->timer_fd < 0)
		goto fail;
	h->timer = wl_event_loop_add_fd(loop, h->timer_fd, WL_EVENT_READABLE,
					headless_tick, h);
	if (!h->timer)
		goto fail;
	clock_gettime(CLOCK_MONOTONIC, &now);
	h->epoch_ns = ts_to_ns(&now);
	return &h->base;
fail:
	if (h->timer_fd >= 0)
		close(h->timer_fd);
	if (h->image)
		pixman_image_unref(h->image);
	free(h);
	return NULL;
}
