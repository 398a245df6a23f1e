/* SPDX-License-Identifier: MIT */
/*
 * stall-kit.c - steps of the stall scenarios (stalls.c): extra
 * connections, globals by name, small sealed buffers, flushing, many
 * toplevels at once, presentation feedbacks by the thousand, keyboards
 * that count their keymaps.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "stalls.h"
#include "attack-presentation-time-client-protocol.h"

int stall_connect(struct attack *x, struct outcome *o, int i)
{
	*x = (struct attack){ .timeout_ms = STALL_TIMEOUT_MS };
	if (att_connect(x) == 0)
		return 0;
	att_fail_setup(o, "attacking connection %d could not connect", i);
	return -1;
}

struct find {
	const char *name;
	uint32_t id, version;
};

static void find_global(void *data, struct wl_registry *r, uint32_t name,
			const char *iface, uint32_t version)
{
	struct find *f = data;

	if (!f->id && !strcmp(iface, f->name)) {
		f->id = name;
		f->version = version;
	}
}

static void no_global_remove(void *data, struct wl_registry *r,
			     uint32_t name)
{
}

static const struct wl_registry_listener find_listener = {
	.global = find_global,
	.global_remove = no_global_remove,
};

uint32_t stall_global(struct attack *x, const char *iface, uint32_t *version)
{
	struct find f = { .name = iface };
	struct wl_registry *r = wl_display_get_registry(x->display);

	wl_registry_add_listener(r, &find_listener, &f);
	att_roundtrip(x);
	wl_registry_destroy(r);
	if (version)
		*version = f.version;
	return f.id;
}

void *stall_bind(struct attack *x, const struct wl_interface *iface,
		 uint32_t version, uint32_t *got)
{
	uint32_t have, id;

	id = stall_global(x, iface->name, &have);
	if (!id)
		return NULL;
	if (have < version)
		version = have;
	if (got)
		*got = version;
	/* Bound through the connection's own registry: the one made for
	 * the search is gone. */
	return wl_registry_bind(x->registry, id, iface, version);
}

struct wl_buffer *stall_buffer(struct attack *x, struct outcome *o, int w,
			       int h, uint32_t format, uint32_t pixel)
{
	size_t size = (size_t)w * (size_t)h * 4;
	struct wl_shm_pool *pool;
	struct wl_buffer *buf;
	int fd = att_memfd_sparse(size, MFD_ALLOW_SEALING);

	if (fd < 0 || att_fill(fd, 0, size, pixel) != 0 ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW) != 0) {
		att_fail_setup(o, "sealed memfd of %zu bytes: %s", size,
			       strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	pool = wl_shm_create_pool(x->shm, fd, (int32_t)size);
	close(fd);
	buf = wl_shm_pool_create_buffer(pool, 0, w, h, w * 4, format);
	wl_shm_pool_destroy(pool);
	return buf;
}

int stall_flush(struct attack *x)
{
	struct pollfd p = { .fd = wl_display_get_fd(x->display),
			    .events = POLLOUT };

	while (wl_display_flush(x->display) < 0) {
		if (errno != EAGAIN || poll(&p, 1, x->timeout_ms) <= 0)
			return -1;
	}
	return 0;
}

struct mode {
	int32_t w, h;
};

static void out_geometry(void *data, struct wl_output *o, int32_t x,
			 int32_t y, int32_t pw, int32_t ph, int32_t sub,
			 const char *make, const char *model, int32_t t)
{
}

static void out_mode(void *data, struct wl_output *o, uint32_t flags,
		     int32_t w, int32_t h, int32_t refresh)
{
	struct mode *m = data;

	if (flags & WL_OUTPUT_MODE_CURRENT) {
		m->w = w;
		m->h = h;
	}
}

static void out_done(void *data, struct wl_output *o)
{
}

static void out_scale(void *data, struct wl_output *o, int32_t factor)
{
}

static const struct wl_output_listener output_listener = {
	.geometry = out_geometry,
	.mode = out_mode,
	.done = out_done,
	.scale = out_scale,
};

int stall_output_size(struct attack *x, int32_t *w, int32_t *h)
{
	struct mode m = { 0, 0 };
	uint32_t version;
	struct wl_output *out = stall_bind(x, &wl_output_interface, 3, &version);

	if (!out)
		return -1;
	wl_output_add_listener(out, &output_listener, &m);
	att_roundtrip(x);
	if (version >= WL_OUTPUT_RELEASE_SINCE_VERSION)
		wl_output_release(out);
	else
		wl_output_destroy(out);
	*w = m.w;
	*h = m.h;
	return m.w > 0 && m.h > 0 ? 0 : -1;
}

int stall_window(struct attack *x, struct wl_buffer *buf, int w, int h)
{
	if (!x->wm_base || att_window(x) != 0)
		return -1;
	return att_present(x, buf, w, h);
}

void stall_disconnect_all(struct attack *conns, int n)
{
	for (int i = 0; i < n; i++)
		att_disconnect(&conns[i]);
}

/* --- many toplevels ------------------------------------------------------ */

static void walk_configure(void *data, struct xdg_surface *xs, uint32_t serial)
{
	struct walk_tl *t = data;

	t->serial = serial;
	t->configured = true;
}

static const struct xdg_surface_listener walk_xs_listener = {
	.configure = walk_configure,
};

static void tl_configure(void *data, struct xdg_toplevel *t, int32_t w,
			 int32_t h, struct wl_array *states)
{
}

static void tl_close(void *data, struct xdg_toplevel *t)
{
}

static const struct xdg_toplevel_listener quiet_toplevel = {
	.configure = tl_configure,
	.close = tl_close,
};

/*
 * Setting up thousands of windows is not what is measured, and the
 * setup behaves as a client that means well: while it sends, it reads
 * what the compositor answers. A client that sends thousands of
 * requests with answers (each initial commit brings a configure) and
 * reads none fills its socket with events; libwayland then closes the
 * connection ("error in client communication"), sooner the smaller the
 * compositor's sends are: one send per loop turn, and a compositor that
 * paces its reads (wlseal: a read brings what 2 ms of its CPU buys, a
 * few hundred bytes of commits on a slow guest) sends a few events at a
 * time, each send charged its own buffer overhead against the socket's
 * limit. Its waits may take as long as the compositor needs for the
 * requests on a slow guest (the debug kernel under TCG beside other
 * work took more than the 3 s default), bounded at SETUP_TIMEOUT_MS.
 */
#define SETUP_TIMEOUT_MS 60000

/* Dispatch what the compositor has sent, without waiting for more. */
static int read_sent_events(struct attack *x)
{
	struct pollfd p = { .fd = wl_display_get_fd(x->display),
			    .events = POLLIN };

	if (wl_display_dispatch_pending(x->display) < 0)
		return -1;
	while (poll(&p, 1, 0) > 0 && p.revents) {
		if (wl_display_prepare_read(x->display) != 0) {
			if (wl_display_dispatch_pending(x->display) < 0)
				return -1;
			continue;
		}
		if (wl_display_read_events(x->display) < 0 ||
		    wl_display_dispatch_pending(x->display) < 0)
			return -1;
	}
	return 0;
}

int stall_setup_flush(struct attack *x)
{
	struct pollfd p = { .fd = wl_display_get_fd(x->display),
			    .events = POLLIN | POLLOUT };
	int64_t end = att_now_ms() + SETUP_TIMEOUT_MS;

	for (;;) {
		int64_t left = end - att_now_ms();

		if (read_sent_events(x) != 0)
			return -1;
		if (wl_display_flush(x->display) >= 0)
			return 0;
		if (errno != EAGAIN || left <= 0 || poll(&p, 1, (int)left) <= 0)
			return -1;
	}
}

int stall_setup_roundtrip(struct attack *x)
{
	int saved = x->timeout_ms, ret;

	if (x->timeout_ms < SETUP_TIMEOUT_MS)
		x->timeout_ms = SETUP_TIMEOUT_MS;
	ret = att_roundtrip(x);
	x->timeout_ms = saved;
	return ret;
}

int stall_map_toplevels(struct attack *x, struct walk_tl *t, int n,
			 struct wl_buffer *buf)
{
	for (int i = 0; i < n; i++) {
		t[i].surface = wl_compositor_create_surface(x->compositor);
		t[i].xs = xdg_wm_base_get_xdg_surface(x->wm_base, t[i].surface);
		xdg_surface_add_listener(t[i].xs, &walk_xs_listener, &t[i]);
		t[i].tl = xdg_surface_get_toplevel(t[i].xs);
		xdg_toplevel_add_listener(t[i].tl, &quiet_toplevel, NULL);
		wl_surface_commit(t[i].surface);
		if (i % 25 == 24 && stall_setup_flush(x) != 0)
			return -1;
	}
	if (stall_setup_flush(x) != 0 || stall_setup_roundtrip(x) != 0)
		return -1;
	for (int i = 0; i < n; i++) {
		if (!t[i].configured)
			continue;
		xdg_surface_ack_configure(t[i].xs, t[i].serial);
		wl_surface_attach(t[i].surface, buf, 0, 0);
		wl_surface_damage(t[i].surface, 0, 0, 1, 1);
		wl_surface_commit(t[i].surface);
		if (i % 25 == 24 && stall_setup_flush(x) != 0)
			return -1;
	}
	return stall_setup_flush(x) != 0 || stall_setup_roundtrip(x) != 0 ? -1 : 0;
}

static void flag_done(void *data, struct wl_callback *cb, uint32_t t)
{
	*(bool *)data = true;
	wl_callback_destroy(cb);
}

const struct wl_callback_listener stall_flag_listener = {
	.done = flag_done,
};

/* --- feedbacks ------------------------------------------------------------- */

static void fb_sync_output(void *data, struct wp_presentation_feedback *f,
			   struct wl_output *out)
{
}

static void fb_presented(void *data, struct wp_presentation_feedback *f,
			 uint32_t sec_hi, uint32_t sec_lo, uint32_t nsec,
			 uint32_t refresh, uint32_t seq_hi, uint32_t seq_lo,
			 uint32_t flags)
{
	struct fb_conn *fc = data;

	fc->pending--;
	fc->presented++;
	wp_presentation_feedback_destroy(f);
}

static void fb_discarded(void *data, struct wp_presentation_feedback *f)
{
	struct fb_conn *fc = data;

	fc->pending--;
	fc->discarded++;
	wp_presentation_feedback_destroy(f);
}

static const struct wp_presentation_feedback_listener fb_listener = {
	.sync_output = fb_sync_output,
	.presented = fb_presented,
	.discarded = fb_discarded,
};

int stall_fb_frame(struct fb_conn *fc, int feedbacks)
{
	struct wl_callback *cb;

	for (int k = 0; k < feedbacks; k++) {
		struct wp_presentation_feedback *f =
			wp_presentation_feedback(fc->pres, fc->c.surface);

		wp_presentation_feedback_add_listener(f, &fb_listener, fc);
		fc->pending++;
		if (k % STALL_FLUSH_EVERY == STALL_FLUSH_EVERY - 1 &&
		    stall_flush(&fc->c) != 0)
			return -1;
	}
	fc->frame = false;
	cb = wl_surface_frame(fc->c.surface);
	wl_callback_add_listener(cb, &stall_flag_listener, &fc->frame);
	wl_surface_attach(fc->c.surface, fc->buf, 0, 0);
	wl_surface_damage_buffer(fc->c.surface, 0, 0, ATT_W, ATT_H);
	wl_surface_commit(fc->c.surface);
	return stall_flush(&fc->c);
}

int stall_fb_settle(struct fb_conn *fcs, int n, int timeout_ms)
{
	int64_t end = att_now_ms() + timeout_ms, seen[STALL_FB_MAX] = { 0 };
	struct pollfd p[STALL_FB_MAX];

	for (;;) {
		int64_t now = att_now_ms();
		bool all = true;

		for (int i = 0; i < n; i++) {
			if (fcs[i].frame && !seen[i])
				seen[i] = now;
			all = all && fcs[i].frame &&
			      (fcs[i].pending <= 0 ||
			       now - seen[i] > STALL_FB_PATIENCE_MS);
		}
		if (all)
			return 0;
		if (att_now_ms() > end)
			return -1;
		for (int i = 0; i < n; i++) {
			struct wl_display *d = fcs[i].c.display;

			while (wl_display_prepare_read(d) != 0)
				if (wl_display_dispatch_pending(d) < 0)
					return i + 1;
			wl_display_flush(d);
			p[i] = (struct pollfd){ .fd = wl_display_get_fd(d),
						.events = POLLIN };
		}
		poll(p, (nfds_t)n, 100);
		for (int i = 0; i < n; i++) {
			struct wl_display *d = fcs[i].c.display;

			if (p[i].revents & (POLLIN | POLLERR | POLLHUP)) {
				if (wl_display_read_events(d) < 0)
					return i + 1;
			} else {
				wl_display_cancel_read(d);
			}
			if (wl_display_dispatch_pending(d) < 0)
				return i + 1;
		}
	}
}

/* --- keyboards -------------------------------------------------------------- */

static void kb_keymap(void *data, struct wl_keyboard *k, uint32_t format,
		      int32_t fd, uint32_t size)
{
	(*(long *)data)++;
	close(fd);
}

static void kb_enter(void *data, struct wl_keyboard *k, uint32_t serial,
		     struct wl_surface *s, struct wl_array *keys)
{
}

static void kb_leave(void *data, struct wl_keyboard *k, uint32_t serial,
		     struct wl_surface *s)
{
}

static void kb_key(void *data, struct wl_keyboard *k, uint32_t serial,
		   uint32_t time, uint32_t key, uint32_t state)
{
}

static void kb_modifiers(void *data, struct wl_keyboard *k, uint32_t serial,
			 uint32_t dep, uint32_t lat, uint32_t lock,
			 uint32_t group)
{
}

static void kb_repeat(void *data, struct wl_keyboard *k, int32_t rate,
		      int32_t delay)
{
}

const struct wl_keyboard_listener stall_keymap_counter = {
	.keymap = kb_keymap,
	.enter = kb_enter,
	.leave = kb_leave,
	.key = kb_key,
	.modifiers = kb_modifiers,
	.repeat_info = kb_repeat,
};

bool stall_hung_up(int fd, int *unread)
{
	struct pollfd p = { .fd = fd, .events = POLLRDHUP };

	if (ioctl(fd, FIONREAD, unread) != 0)
		*unread = 0;
	return poll(&p, 1, 0) > 0 && (p.revents & (POLLHUP | POLLRDHUP | POLLERR));
}
