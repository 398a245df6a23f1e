/* SPDX-License-Identifier: MIT */
/*
 * present.c - the window and its frames: one frame per frame callback,
 * damage for what changed, presentation feedback for which output frame
 * showed it, and the timing summary.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <wayland-client.h>

#include "client.h"
#include "pattern.h"
#include "presentation-time-client-protocol.h"
#include "xdg-shell-client-protocol.h"

static double ms_between(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) * 1e3 +
	       (double)(b->tv_nsec - a->tv_nsec) / 1e6;
}

static void print_last(struct window *w)
{
	if (w->last_done && w->last_presented) {
		printf("WLSEAL-CLIENT-LAST frame=%u seq=%llu\n", w->frame,
		       (unsigned long long)w->last_seq);
		fflush(stdout);
		if (w->o->exit_after)
			w->running = false;
	}
}

/* wp_presentation_feedback: one per frame, says which output frame (seq)
 * showed it. */
struct feedback {
	struct window *w;
	uint32_t frame;
};

static void fb_sync_output(void *data, struct wp_presentation_feedback *f,
			   struct wl_output *output)
{
}

static void fb_presented(void *data, struct wp_presentation_feedback *f,
			 uint32_t sec_hi, uint32_t sec_lo, uint32_t nsec,
			 uint32_t refresh, uint32_t seq_hi, uint32_t seq_lo,
			 uint32_t flags)
{
	struct feedback *fb = data;
	struct window *w = fb->w;
	uint64_t seq = ((uint64_t)seq_hi << 32) | seq_lo;

	w->stats.presented++;
	/* The compositor showed our buffer as it is (direct scanout). */
	if (flags & WP_PRESENTATION_FEEDBACK_KIND_ZERO_COPY)
		w->stats.zero_copy++;
	if (w->o->verbose)
		printf("WLSEAL-CLIENT-PRESENTED frame=%u seq=%llu kind=0x%x\n",
		       fb->frame, (unsigned long long)seq, flags);
	if (w->o->frames && fb->frame == w->o->frames) {
		w->last_seq = seq;
		w->last_presented = true;
		print_last(w);
	}
	wp_presentation_feedback_destroy(f);
	free(fb);
}

static void fb_discarded(void *data, struct wp_presentation_feedback *f)
{
	struct feedback *fb = data;

	fb->w->stats.discarded++;
	wp_presentation_feedback_destroy(f);
	free(fb);
}

static const struct wp_presentation_feedback_listener feedback_listener = {
	.sync_output = fb_sync_output,
	.presented = fb_presented,
	.discarded = fb_discarded,
};

static void frame_done(void *data, struct wl_callback *cb, uint32_t time)
{
	struct window *w = data;
	struct timespec now;

	wl_callback_destroy(cb);
	w->callback = NULL;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (w->stats.callbacks++) {
		double ms = ms_between(&w->stats.last_done, &now);

		if (w->stats.callbacks == 2 || ms < w->stats.min_ms)
			w->stats.min_ms = ms;
		if (ms > w->stats.max_ms)
			w->stats.max_ms = ms;
		w->stats.sum_ms += ms;
	}
	w->stats.last_done = now;

	if (w->o->frames && w->frame >= w->o->frames) {
		/* Stay with the last frame shown; no more callbacks. */
		w->last_done = true;
		if (!w->have_presentation)
			w->last_presented = true;
		print_last(w);
		return;
	}
	redraw(w);
}

static const struct wl_callback_listener frame_listener = {
	.done = frame_done,
};

void redraw(struct window *w)
{
	uint32_t frame = w->frame + 1;
	struct wlseal_rect rects[3];
	struct timespec t0, t1;
	struct buffer *b;
	int i, n;

	if (w->o->resize) {
		/* Every 30 frames, alternate between the size asked for and
		 * a larger one. */
		int32_t want_w = w->o->width + (((frame - 1) / 30) % 2 ? 64 : 0);
		int32_t want_h = w->o->height + (((frame - 1) / 30) % 2 ? 48 : 0);

		if ((want_w != w->width || want_h != w->height) &&
		    !w->write_mode) {
			if (!resize_pool(w, want_w, want_h)) {
				w->running = false;
				return;
			}
		} else {
			w->width = want_w;
			w->height = want_h;
		}
	}

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (w->write_mode)
		b = immutable_buffer(w, frame);
	else
		b = next_buffer(w);
	if (!b && !w->running)
		return;
	if (!b) {
		/* All busy: draw when the compositor releases one. */
		w->waiting_buffer = true;
		return;
	}
	w->waiting_buffer = false;
	if (b->data)
		wlseal_pattern_fill(b->data, b->stride, b->width, b->height, frame);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	w->stats.render_ms += ms_between(&t0, &t1);

	wl_surface_attach(w->surface, b->buffer, 0, 0);
	if (frame == 1 || b->width != w->buffers[0].width || w->o->resize ||
	    w->o->full_damage) {
		wl_surface_damage_buffer(w->surface, 0, 0, b->width, b->height);
	} else {
		/* Only what changed since the frame on screen. */
		n = wlseal_pattern_damage(frame, b->width, b->height, rects);
		for (i = 0; i < n; i++)
			wl_surface_damage_buffer(w->surface, rects[i].x, rects[i].y,
						 rects[i].width, rects[i].height);
	}
	w->callback = wl_surface_frame(w->surface);
	wl_callback_add_listener(w->callback, &frame_listener, w);
	if (w->d->presentation) {
		struct feedback *fb = calloc(1, sizeof(*fb));

		if (fb) {
			fb->w = w;
			fb->frame = frame;
			wp_presentation_feedback_add_listener(
				wp_presentation_feedback(w->d->presentation,
							 w->surface),
				&feedback_listener, fb);
		}
	}
	wl_surface_commit(w->surface);
	b->busy = true;
	w->frame = frame;
	w->stats.drawn++;
}

static void xdg_surface_configure(void *data, struct xdg_surface *s,
				  uint32_t serial)
{
	struct window *w = data;

	xdg_surface_ack_configure(s, serial);
	if (!w->configured) {
		/* The first configure: the window may now show content. */
		w->configured = true;
		if (w->o->fullscreen) {
			/* --fullscreen: the size the compositor asked for
			 * (the output's), and only now the pool for it. */
			if (w->conf_width > 0 && w->conf_height > 0) {
				w->width = w->conf_width;
				w->height = w->conf_height;
			}
			printf("WLSEAL-CLIENT-FULLSCREEN size=%dx%d\n",
			       w->width, w->height);
			fflush(stdout);
			if (!w->write_mode && !create_pool(w)) {
				w->running = false;
				return;
			}
		}
		redraw(w);
	}
}

const struct xdg_surface_listener xdg_surface_listener = {
	.configure = xdg_surface_configure,
};

static void toplevel_configure(void *data, struct xdg_toplevel *t, int32_t width,
			       int32_t height, struct wl_array *states)
{
	struct window *w = data;

	/* The size is ours to choose, frames must stay deterministic; but
	 * --fullscreen takes the first size offered (the output's). */
	if (!w->configured) {
		w->conf_width = width;
		w->conf_height = height;
	}
}

static void toplevel_close(void *data, struct xdg_toplevel *t)
{
	struct window *w = data;

	w->running = false;
}

const struct xdg_toplevel_listener toplevel_listener = {
	.configure = toplevel_configure,
	.close = toplevel_close,
};

void print_summary(struct window *w)
{
	struct stats *s = &w->stats;
	uint32_t intervals = s->callbacks > 1 ? s->callbacks - 1 : 0;

	printf("WLSEAL-CLIENT-SUMMARY frames=%u callbacks=%u presented=%u "
	       "discarded=%u interval_ms_min=%.2f interval_ms_avg=%.2f "
	       "interval_ms_max=%.2f render_ms_avg=%.3f zero_copy=%u\n",
	       s->drawn, s->callbacks, s->presented, s->discarded,
	       intervals ? s->min_ms : 0.0,
	       intervals ? s->sum_ms / intervals : 0.0, s->max_ms,
	       s->drawn ? s->render_ms / s->drawn : 0.0, s->zero_copy);
	fflush(stdout);
}
