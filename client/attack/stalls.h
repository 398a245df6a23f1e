/* SPDX-License-Identifier: MIT */
/*
 * stalls.h - what the stall scenarios (stalls.c) share, from
 * stall-kit.c: extra connections, globals bound by name, small sealed
 * buffers, flushing a connection whose socket is full.
 */
#ifndef WLSEAL_ATTACK_STALLS_H
#define WLSEAL_ATTACK_STALLS_H

#include "scenario.h"

/* Waits of the attacker's own connections: a stalled compositor may
 * answer late, and that is what the victim measures, not a failure. */
#define STALL_TIMEOUT_MS 30000
/* Requests between two flushes: libwayland-client's buffer is 4 KiB,
 * and a request that finds it full and the socket full fails the
 * connection. */
#define STALL_FLUSH_EVERY 100

/* One more connection of the attacker; -1 with the failure said. */
int stall_connect(struct attack *x, struct outcome *o, int i);
/* Bind the first global named like @iface, at most at @version (its
 * version in *@got when not NULL); NULL when there is none. */
void *stall_bind(struct attack *x, const struct wl_interface *iface,
		 uint32_t version, uint32_t *got);
/* The registry name of the first global named @iface, 0 when none. */
uint32_t stall_global(struct attack *x, const char *iface, uint32_t *version);
/* A @w x @h buffer of @format filled with @pixel on a sealed memfd of
 * its own (the pool is destroyed: the buffer keeps it); NULL on failure
 * (said in @o). */
struct wl_buffer *stall_buffer(struct attack *x, struct outcome *o, int w,
			       int h, uint32_t format, uint32_t pixel);
/* Flush everything, waiting while the socket is full: 0, or -1. */
int stall_flush(struct attack *x);
/* stall_flush() and att_roundtrip() for a scenario's setup, which is not
 * what is measured: the flush reads the compositor's answers while it
 * sends, and both wait up to a minute (stall-kit.c says why). */
int stall_setup_flush(struct attack *x);
int stall_setup_roundtrip(struct attack *x);
/* The output's current mode, from a wl_output bound and released. */
int stall_output_size(struct attack *x, int32_t *w, int32_t *h);
/* A toplevel for x->surface, acked, with @buf shown once. 0 or -1. */
int stall_window(struct attack *x, struct wl_buffer *buf, int w, int h);
/* Disconnect @n connections (the scenario's teardown). */
void stall_disconnect_all(struct attack *conns, int n);

/* A wl_callback listener that sets the bool its data points to. */
extern const struct wl_callback_listener stall_flag_listener;

/* Toplevels by the thousand. */
struct walk_tl {
	struct wl_surface *surface;
	struct xdg_surface *xs;
	struct xdg_toplevel *tl;
	uint32_t serial;
	bool configured;
};
/* @n mapped 1x1 toplevels on @x (t[] zeroed), showing @buf. 0, or -1. */
int stall_map_toplevels(struct attack *x, struct walk_tl *t, int n,
			 struct wl_buffer *buf);

/* A client asking for presentation feedbacks on its window. */
#define STALL_FB_MAX 16
struct fb_conn {
	struct attack c;
	struct wp_presentation *pres;
	struct wl_buffer *buf;
	int pending;		/* feedbacks not yet presented or discarded */
	long presented, discarded;
	bool frame;
};
/* One frame of @fc: @feedbacks feedbacks, a frame callback, a commit. */
int stall_fb_frame(struct fb_conn *fc, int feedbacks);
/*
 * Read @n (at most STALL_FB_MAX) feedback clients at once until each has
 * its frame callback and no feedback left, so that the next frame's stay
 * inside the budget; a client not read while the compositor answers
 * another would have its socket fill. A compositor may leave feedbacks
 * unanswered (sway 1.7 headless answers none): STALL_FB_PATIENCE_MS
 * after the frame callback the frame counts as settled, and the caller
 * asks for fewer next time. 0, the index + 1 of a connection that
 * failed, or -1 on timeout.
 */
#define STALL_FB_PATIENCE_MS 1000
int stall_fb_settle(struct fb_conn *fcs, int n, int timeout_ms);

/* A wl_keyboard listener counting keymaps in the long its data points
 * to, closing each fd. */
extern const struct wl_keyboard_listener stall_keymap_counter;
/* Has the compositor closed its end of @fd? Our unread bytes in
 * *@unread. */
bool stall_hung_up(int fd, int *unread);

#endif
