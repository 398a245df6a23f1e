/* SPDX-License-Identifier: MIT */
/*
 * harness.c - wlseal-attack's connection to the compositor under attack:
 * bounded dispatch and round-trips, the registry, a window to show buffers
 * in, presenting a buffer, and the memfds the scenarios pass.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "attack.h"
#include "memfd.h"
#include "wlseal-seals.h"

int64_t att_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Dispatch events until *flag is set. Returns 0 when it is, 1 on timeout,
 * -1 when the connection failed (wl_display_get_error() says how).
 * A plain wl_display_roundtrip() would block forever on a compositor that
 * hangs, and a hang is one of the outcomes we want to see.
 */
static int dispatch_until(struct wl_display *d, bool *flag, int timeout_ms)
{
	int64_t deadline = att_now_ms() + timeout_ms;
	struct pollfd pfd = { .fd = wl_display_get_fd(d) };

	while (!*flag) {
		int left, ret;

		if (wl_display_get_error(d))
			return -1;
		if (wl_display_prepare_read(d) != 0) {
			if (wl_display_dispatch_pending(d) < 0)
				return -1;
			continue;
		}
		pfd.events = POLLIN;
		if (wl_display_flush(d) < 0) {
			/* EPIPE: the compositor closed the connection, perhaps
			 * right after a protocol error that is still unread in
			 * our socket (a refusal while we kept sending): read on,
			 * as libwayland's own dispatch does, so the outcome
			 * names the error, not the broken pipe. */
			if (errno == EAGAIN) {
				pfd.events |= POLLOUT;
			} else if (errno != EPIPE) {
				wl_display_cancel_read(d);
				return -1;
			}
		}
		left = (int)(deadline - att_now_ms());
		if (left <= 0) {
			wl_display_cancel_read(d);
			return 1;
		}
		ret = poll(&pfd, 1, left);
		if (ret < 0 && errno != EINTR) {
			wl_display_cancel_read(d);
			return -1;
		}
		if (ret > 0 && (pfd.revents & (POLLIN | POLLERR | POLLHUP))) {
			if (wl_display_read_events(d) < 0)
				return -1;
		} else {
			wl_display_cancel_read(d);
		}
		if (wl_display_dispatch_pending(d) < 0)
			return -1;
	}
	return 0;
}

static void sync_done(void *data, struct wl_callback *cb, uint32_t serial)
{
	(void)serial;
	if (data)
		*(bool *)data = true;
	wl_callback_destroy(cb);
}

static const struct wl_callback_listener sync_listener = {
	.done = sync_done,
};

int att_roundtrip_display(struct wl_display *d, int timeout_ms)
{
	bool done = false;
	struct wl_callback *cb = wl_display_sync(d);
	int ret;

	wl_callback_add_listener(cb, &sync_listener, &done);
	ret = dispatch_until(d, &done, timeout_ms);
	/* On failure the callback may still fire later; keep it from
	 * writing to this stack frame. */
	if (ret != 0 && !done)
		wl_proxy_set_user_data((struct wl_proxy *)cb, NULL);
	return ret;
}

int att_roundtrip(struct attack *a)
{
	return att_roundtrip_display(a->display, a->timeout_ms);
}

int att_dispatch_until(struct attack *a, bool *flag)
{
	return dispatch_until(a->display, flag, a->timeout_ms);
}

int att_raw_fd(struct attack *a)
{
	return wl_display_get_fd(a->display);
}

/* --- registry -------------------------------------------------------------- */

static void shm_format(void *data, struct wl_shm *shm, uint32_t format)
{
	struct attack *a = data;

	(void)shm;
	if (a->n_formats < (int)(sizeof(a->formats) / sizeof(a->formats[0])))
		a->formats[a->n_formats++] = format;
}

static const struct wl_shm_listener shm_listener = {
	.format = shm_format,
};

static void wm_base_ping(void *data, struct xdg_wm_base *wm, uint32_t serial)
{
	(void)data;
	xdg_wm_base_pong(wm, serial);
}

static const struct xdg_wm_base_listener wm_base_listener = {
	.ping = wm_base_ping,
};

static void policy_event(void *data, struct wlseal_shm_policy_v1 *p,
			 uint32_t required, uint32_t accepted, uint32_t max_hi,
			 uint32_t max_lo, uint32_t flags)
{
	struct attack *a = data;

	(void)p;
	a->policy_known = true;
	a->required_seals = required;
	a->accepted_seals = accepted;
	a->max_pool_size = ((uint64_t)max_hi << 32) | max_lo;
	a->policy_flags = flags;
}

static const struct wlseal_shm_policy_v1_listener policy_listener = {
	.policy = policy_event,
};

static void registry_global(void *data, struct wl_registry *reg,
			    uint32_t name, const char *iface, uint32_t version)
{
	struct attack *a = data;

	if (strcmp(iface, wl_compositor_interface.name) == 0) {
		/* Version 4 for damage_buffer; not 5, so attach may still
		 * carry an offset (one of the attacks). */
		a->compositor_version = version < 4 ? version : 4;
		a->compositor = wl_registry_bind(reg, name,
			&wl_compositor_interface, a->compositor_version);
	} else if (strcmp(iface, wl_shm_interface.name) == 0) {
		a->shm = wl_registry_bind(reg, name, &wl_shm_interface, 1);
		wl_shm_add_listener(a->shm, &shm_listener, a);
	} else if (strcmp(iface, xdg_wm_base_interface.name) == 0) {
		a->wm_base = wl_registry_bind(reg, name,
					      &xdg_wm_base_interface, 1);
		xdg_wm_base_add_listener(a->wm_base, &wm_base_listener, a);
	} else if (strcmp(iface, wlseal_shm_policy_v1_interface.name) == 0) {
		/* Version 2 where offered: the --unsealed bits of the
		 * policy event (unsealed.c). */
		a->shm_policy = wl_registry_bind(reg, name,
						 &wlseal_shm_policy_v1_interface,
						 version < 2 ? version : 2);
		wlseal_shm_policy_v1_add_listener(a->shm_policy,
						  &policy_listener, a);
	}
}

static void registry_global_remove(void *data, struct wl_registry *reg,
				   uint32_t name)
{
	(void)data;
	(void)reg;
	(void)name;
}

static const struct wl_registry_listener registry_listener = {
	.global = registry_global,
	.global_remove = registry_global_remove,
};

int att_connect(struct attack *a)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	/* A compositor creates its socket file (bind) just before it
	 * listens; a connection refused in between is not an outcome. */
	for (int i = 0; i < 20; i++) {
		a->display = wl_display_connect(NULL);
		if (a->display || (errno != ECONNREFUSED && errno != ENOENT))
			break;
		usleep(50000);
	}
	if (!a->display)
		return -1;
	if (getsockopt(wl_display_get_fd(a->display), SOL_SOCKET, SO_PEERCRED,
		       &cred, &len) == 0)
		a->compositor_pid = cred.pid;
	a->registry = wl_display_get_registry(a->display);
	wl_registry_add_listener(a->registry, &registry_listener, a);
	/* Twice: globals, then the events of the objects we bound. */
	if (att_roundtrip(a) != 0 || att_roundtrip(a) != 0)
		return -1;
	if (!a->compositor || !a->shm)
		return -1;
	return 0;
}

void att_disconnect(struct attack *a)
{
	if (a->display)
		wl_display_disconnect(a->display);
	a->display = NULL;
}

/* --- a window to show buffers in ---------------------------------------------
 * A compositor reads a buffer's pixels only when it composites the surface,
 * and it composites only mapped surfaces, so attacks that need the pixels
 * read give their surface the xdg_toplevel role. */

static void xdg_surface_configure(void *data, struct xdg_surface *xs,
				  uint32_t serial)
{
	struct attack *a = data;

	xdg_surface_ack_configure(xs, serial);
	a->configured = true;
}

static const struct xdg_surface_listener xdg_surface_listener = {
	.configure = xdg_surface_configure,
};

static void toplevel_configure(void *data, struct xdg_toplevel *t, int32_t w,
			       int32_t h, struct wl_array *states)
{
	struct attack *a = data;

	(void)t;
	(void)states;
	a->conf_w = w;
	a->conf_h = h;
}

static void toplevel_close(void *data, struct xdg_toplevel *t)
{
	struct attack *a = data;

	(void)t;
	a->closed = true;
}

static const struct xdg_toplevel_listener toplevel_listener = {
	.configure = toplevel_configure,
	.close = toplevel_close,
};

int att_fullscreen_window(struct attack *a, int32_t *w, int32_t *h)
{
	int ret;

	if (!a->wm_base)
		return -1;
	a->surface = wl_compositor_create_surface(a->compositor);
	a->xdg_surface = xdg_wm_base_get_xdg_surface(a->wm_base, a->surface);
	xdg_surface_add_listener(a->xdg_surface, &xdg_surface_listener, a);
	a->toplevel = xdg_surface_get_toplevel(a->xdg_surface);
	xdg_toplevel_add_listener(a->toplevel, &toplevel_listener, a);
	xdg_toplevel_set_title(a->toplevel, "wlseal-attack");
	xdg_toplevel_set_fullscreen(a->toplevel, NULL);
	wl_surface_commit(a->surface);
	ret = dispatch_until(a->display, &a->configured, a->timeout_ms);
	*w = a->conf_w;
	*h = a->conf_h;
	return ret != 0 || *w <= 0 || *h <= 0 ? -1 : 0;
}

int att_window(struct attack *a)
{
	a->surface = wl_compositor_create_surface(a->compositor);
	if (!a->wm_base)
		return 0; /* a bare surface; some compositors never show it */
	a->xdg_surface = xdg_wm_base_get_xdg_surface(a->wm_base, a->surface);
	xdg_surface_add_listener(a->xdg_surface, &xdg_surface_listener, a);
	a->toplevel = xdg_surface_get_toplevel(a->xdg_surface);
	xdg_toplevel_add_listener(a->toplevel, &toplevel_listener, a);
	xdg_toplevel_set_title(a->toplevel, "wlseal-attack");
	wl_surface_commit(a->surface);
	return dispatch_until(a->display, &a->configured, a->timeout_ms);
}

/*
 * Attach, damage everything, commit, and wait for the frame callback: once
 * it fires the compositor has composited (read) the buffer. Returns 0 on the
 * callback, 1 on timeout, -1 when the connection failed.
 */
int att_present(struct attack *a, struct wl_buffer *buffer, int w, int h)
{
	bool done = false;
	struct wl_callback *cb;
	int ret;

	wl_surface_attach(a->surface, buffer, 0, 0);
	if (a->compositor_version >= 4)
		wl_surface_damage_buffer(a->surface, 0, 0, w, h);
	else
		wl_surface_damage(a->surface, 0, 0, w, h);
	cb = wl_surface_frame(a->surface);
	wl_callback_add_listener(cb, &sync_listener, &done);
	wl_surface_commit(a->surface);
	ret = dispatch_until(a->display, &done, a->timeout_ms);
	if (ret != 0 && !done)
		wl_proxy_set_user_data((struct wl_proxy *)cb, NULL);
	return ret;
}

/* --- files ------------------------------------------------------------------- */

int att_fill(int fd, size_t offset, size_t size, uint32_t pixel)
{
	uint32_t row[1024];
	size_t done = 0;

	for (size_t i = 0; i < sizeof(row) / sizeof(row[0]); i++)
		row[i] = pixel;
	/* pwrite rather than a shared mapping: F_SEAL_WRITE cannot be added
	 * while a writable mapping exists. */
	while (done < size) {
		size_t n = size - done < sizeof(row) ? size - done : sizeof(row);
		ssize_t w = pwrite(fd, row, n, (off_t)(offset + done));

		if (w <= 0)
			return -1;
		done += (size_t)w;
	}
	return 0;
}

int att_memfd_sparse(size_t size, unsigned int mfd_flags)
{
	const char *failed;
	int fd;

	if (mfd_flags == MFD_ALLOW_SEALING)
		return wlseal_memfd_new(WLSEAL_SEAL_API_UPSTREAM, "wlseal-attack",
					size, &failed);
	fd = memfd_create("wlseal-attack", MFD_CLOEXEC | mfd_flags);
	if (fd >= 0 && ftruncate(fd, (off_t)size) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

int att_memfd(size_t size, unsigned int mfd_flags, int seals)
{
	int fd = att_memfd_sparse(size, mfd_flags);

	if (fd < 0)
		return -1;
	if (att_fill(fd, 0, size, 0xff3060c0) ||
	    (seals && fcntl(fd, F_ADD_SEALS, seals) < 0)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Raise our own fd limit to its hard limit: attacks that open many fds
 * or connections must not stop at the soft one. */
void att_raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

struct wl_buffer *att_buffer(struct attack *a, struct wl_shm_pool *pool,
			     int32_t offset, int32_t w, int32_t h,
			     int32_t stride, uint32_t format)
{
	(void)a;
	return wl_shm_pool_create_buffer(pool, offset, w, h, stride, format);
}
