/* SPDX-License-Identifier: MIT */
/*
 * headless.c - an output that exists only in memory.
 *
 * It behaves like a 60 Hz display: a timerfd ticks at "vblank" times
 * (multiples of the refresh period since start), and a presented frame
 * becomes visible at the next tick, which is also its timestamp. One
 * image is enough, since nothing scans it out while we draw.
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

	*age = h->drawn ? 1 : 0;
	return h->image;
}

static bool headless_present(struct wlseal_backend *b,
			     const pixman_region32_t *drawn)
{
	struct headless *h = wl_container_of(b, h, base);
	struct itimerspec its = {0};
	struct timespec now;
	uint64_t now_ns, period = b->refresh_nsec, next;

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

static int headless_tick(int fd, uint32_t mask, void *data)
{
	struct headless *h = data;
	struct wlseal_frame_info info;
	uint64_t expirations;

	if (read(fd, &expirations, sizeof(expirations)) < 0 || !h->pending)
		return 0;
	h->pending = false;
	h->drawn = true;
	h->base.front = h->image;
	info.seq = ++h->seq;
	clock_gettime(CLOCK_MONOTONIC, &info.when);
	info.flags = WLSEAL_FRAME_VSYNC;
	info.front = h->image;
	wl_signal_emit(&h->base.events.frame, &info);
	return 0;
}

static void headless_destroy(struct wlseal_backend *b)
{
	struct headless *h = wl_container_of(b, h, base);

	wl_event_source_remove(h->timer);
	close(h->timer_fd);
	pixman_image_unref(h->image);
	free(h);
}

static const struct wlseal_backend_impl headless_impl = {
	.begin_frame = headless_begin_frame,
	.present = headless_present,
	.destroy = headless_destroy,
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
