/* SPDX-License-Identifier: MIT */
/*
 * lifetimes.c - object lifetimes: pools and buffers destroyed while in use,
 * two pools on one fd, clients that leave mid-request.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#define ATT_CATEGORY ATT_CAT_LIFETIMES
#include "scenario.h"

/* --- object lifetimes ------------------------------------------------------------------ */

/* Buffers keep their pool's memory alive after wl_shm_pool.destroy
 * (Mir #2643/#2645: clients create, commit and destroy right away). */
ATT_SCENARIO(run_destroy_pool_while_attached, "destroy-pool-while-attached",
	     "destroy the pool while its buffer is shown, keep committing the buffer",
	     ACCEPTED)
{
	int fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	struct wl_shm_pool *pool;
	struct wl_buffer *buf;

	if (fd < 0)
		return;
	pool = att_show_fd(a, fd, ATT_SIZE, 0, 1, &buf);
	close(fd);
	if (wl_display_get_error(a->display))
		return;
	wl_shm_pool_destroy(pool);
	att_keep_presenting(a, buf, 3);
}

ATT_SCENARIO(run_destroy_buffer_while_attached, "destroy-buffer-while-attached",
	     "commit, then destroy buffer and pool at once, keep committing (Mir #2643)",
	     ACCEPTED)
{
	int fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	struct wl_shm_pool *pool;
	struct wl_buffer *buf;

	if (fd < 0)
		return;
	pool = att_show_fd(a, fd, ATT_SIZE, 0, 0, NULL);
	close(fd);
	if (wl_display_get_error(a->display))
		return;
	/* Commit, destroy buffer and pool at once, commit damage again. */
	buf = wl_shm_pool_create_buffer(pool, 0, ATT_W, ATT_H, ATT_STRIDE, XRGB);
	wl_surface_attach(a->surface, buf, 0, 0);
	wl_surface_damage(a->surface, 0, 0, ATT_W, ATT_H);
	wl_surface_commit(a->surface);
	wl_buffer_destroy(buf);
	wl_shm_pool_destroy(pool);
	for (int i = 0; i < 3; i++) {
		wl_surface_damage(a->surface, 0, 0, ATT_W, ATT_H);
		wl_surface_commit(a->surface);
		if (att_roundtrip(a) != 0)
			break;
	}
}

/* Two pools on one fd; one destroyed; the other shown. */
ATT_SCENARIO(run_two_pools_one_fd, "two-pools-one-fd",
	     "two pools on the same fd, one destroyed while the other is shown",
	     ACCEPTED)
{
	int fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	struct wl_shm_pool *p1;
	struct wl_buffer *buf;

	if (fd < 0)
		return;
	p1 = wl_shm_create_pool(a->shm, fd, ATT_SIZE);
	att_show_fd(a, fd, ATT_SIZE, 0, 1, &buf);
	close(fd);
	wl_shm_pool_destroy(p1);
	att_keep_presenting(a, buf, 2);
}

/* Leave with a half-written wl_surface.commit in the socket. */
ATT_SCENARIO(run_disconnect_mid_commit, "disconnect-mid-commit",
	     "leave with half a wl_surface.commit in the socket (accepted = compositor alive)",
	     ACCEPTED)
{
	int fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	struct wl_buffer *buf;
	uint32_t msg[2];

	if (fd < 0)
		return;
	att_show_fd(a, fd, ATT_SIZE, 0, 1, &buf);
	close(fd);
	if (wl_display_get_error(a->display))
		return;
	wl_surface_attach(a->surface, buf, 0, 0);
	wl_surface_damage(a->surface, 0, 0, ATT_W, ATT_H);
	wl_display_flush(a->display);
	/* Header of wl_surface.commit (opcode 6, 8 bytes), cut in half. */
	msg[0] = wl_proxy_get_id((struct wl_proxy *)a->surface);
	msg[1] = (8u << 16) | 6u;
	if (write(att_raw_fd(a), msg, 6) != 6)
		att_note(o, "partial write failed: %s", strerror(errno));
	shutdown(att_raw_fd(a), SHUT_RDWR);
	o->result = att_alive(a) ? RES_ACCEPTED : RES_GONE;
	att_note(o, "attacker left mid-message; compositor %s",
	     o->result == RES_ACCEPTED ? "alive" : "gone");
}

/* Requests and an fd in flight, then gone before any answer. */
ATT_SCENARIO(run_disconnect_pending_pool, "disconnect-pending-pool",
	     "leave with create_pool (an fd) and a commit in flight (accepted = compositor alive)",
	     ACCEPTED)
{
	int fd = att_memfd(ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	struct wl_shm_pool *pool;
	struct wl_buffer *buf;

	if (fd < 0 || att_window(a) != 0) {
		att_fail_setup(o, "setup: %s", strerror(errno));
		return;
	}
	pool = wl_shm_create_pool(a->shm, fd, ATT_SIZE);
	close(fd);
	buf = wl_shm_pool_create_buffer(pool, 0, ATT_W, ATT_H, ATT_STRIDE, XRGB);
	wl_surface_attach(a->surface, buf, 0, 0);
	wl_surface_damage(a->surface, 0, 0, ATT_W, ATT_H);
	wl_surface_commit(a->surface);
	wl_display_flush(a->display);
	shutdown(att_raw_fd(a), SHUT_RDWR);
	o->result = att_alive(a) ? RES_ACCEPTED : RES_GONE;
	att_note(o, "attacker left with requests in flight");
}

/*
 * A toplevel whose wl_surface the client destroyed first: the xdg_surface
 * and the xdg_toplevel live on without one. Linking it into a family
 * (xdg_toplevel.set_parent, as child and as parent) must not look at the
 * surface that is gone. Found by the sanitized fuzzer: the compositor
 * read the mapped flag of a NULL surface.
 */
ATT_SCENARIO(run_set_parent_defunct_surface, "set-parent-defunct-surface",
	     "xdg_toplevel.set_parent on a toplevel whose wl_surface was destroyed first, as child and as parent of a mapped window",
	     ACCEPTED)
{
	struct wl_surface *s;
	struct xdg_surface *xs;
	struct xdg_toplevel *orphan;
	struct wl_buffer *buf = NULL;
	int fd;

	if (!a->wm_base) {
		att_fail_setup(o, "no xdg_wm_base");
		return;
	}
	fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	if (fd < 0 || att_window(a) != 0) {
		att_fail_setup(o, "no mapped window to be the other side");
		return;
	}
	att_show_fd(a, fd, ATT_SIZE, 0, 2, &buf);
	s = wl_compositor_create_surface(a->compositor);
	xs = xdg_wm_base_get_xdg_surface(a->wm_base, s);
	orphan = xdg_surface_get_toplevel(xs);
	wl_surface_commit(s);
	if (att_roundtrip(a) != 0)
		return;
	wl_surface_destroy(s);
	xdg_toplevel_set_parent(orphan, a->toplevel);
	if (att_roundtrip(a) != 0)
		return;
	xdg_toplevel_set_parent(orphan, NULL);
	xdg_toplevel_set_parent(a->toplevel, orphan);
	/* The window redrawn: the family's stacking at its next map. */
	att_keep_presenting(a, buf, 2);
	close(fd);
	att_note(o, "set_parent with the orphan as child and as parent");
}
