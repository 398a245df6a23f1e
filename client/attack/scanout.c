/* SPDX-License-Identifier: MIT */
/*
 * scanout.c - the attacker's view of direct scanout: a fullscreen window
 * whose buffer covers the output, so that the compositor shows the
 * client's own pages as they are (on KMS a udmabuf of them, flipped to)
 * instead of copying them. What a client can do to pages the display
 * holds: write them while shown, write-seal them and try to write anyway,
 * punch holes under them, leave while they are shown, and make the
 * compositor create framebuffers by the hundred.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define ATT_CATEGORY ATT_CAT_SCANOUT
#include "memfd.h"
#include "scenario.h"

#ifndef FALLOC_FL_KEEP_SIZE
#define FALLOC_FL_KEEP_SIZE 0x01
#endif
#ifndef FALLOC_FL_PUNCH_HOLE
#define FALLOC_FL_PUNCH_HOLE 0x02
#endif

/* A full-screen buffer's bytes, rounded up to whole pages (each buffer
 * starts on a page, as a udmabuf needs). */
static size_t frame_span(int32_t w, int32_t h)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t one = (size_t)w * 4 * (size_t)h;

	return (one + page - 1) / page * page;
}

/* The fullscreen window, or a setup failure. */
static bool fullscreen(struct attack *a, struct outcome *o, int32_t *w,
		       int32_t *h)
{
	if (att_fullscreen_window(a, w, h) == 0)
		return true;
	att_fail_setup(o, "no fullscreen configure with a size");
	return false;
}

/* Presents @buf @n times; false when the connection failed. */
static bool present_n(struct attack *a, struct wl_buffer *buf, int32_t w,
		      int32_t h, int n)
{
	for (int i = 0; i < n; i++)
		if (att_present(a, buf, w, h) < 0)
			return false;
	return true;
}

ATT_SCENARIO(run_scanout_write_on_screen, "scanout-write-on-screen",
	     "a fullscreen buffer scanned out as it is, written by the client while the display shows it (its own frame is all it changes)",
	     ACCEPTED)
{
	int32_t w, h;
	size_t span;
	struct wl_shm_pool *pool;
	struct wl_buffer *buf[2];
	uint32_t *px;
	int fd;

	if (!fullscreen(a, o, &w, &h))
		return;
	span = frame_span(w, h);
	fd = att_memfd_or_fail(o, span * 2, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	if (fd < 0)
		return;
	px = mmap(NULL, span * 2, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (px == MAP_FAILED) {
		att_fail_setup(o, "mmap: %s", strerror(errno));
		close(fd);
		return;
	}
	pool = wl_shm_create_pool(a->shm, fd, (int32_t)(span * 2));
	for (int i = 0; i < 2; i++)
		buf[i] = wl_shm_pool_create_buffer(pool, (int32_t)(span * (size_t)i),
						   w, h, w * 4, XRGB);
	wl_shm_pool_destroy(pool);
	close(fd);
	/* Show A, then scribble over it while it is on the screen, show B,
	 * scribble over A again (released or not), and so on. */
	for (int i = 0; i < 20; i++) {
		uint32_t *shown = (uint32_t *)((char *)px + span * (size_t)(i & 1));

		if (att_present(a, buf[i & 1], w, h) < 0)
			break;
		for (size_t j = 0; j < (size_t)w * (size_t)h; j += 7)
			shown[j] = 0xff000000u | (uint32_t)(i * 0x010203) | (uint32_t)j;
	}
	munmap(px, span * 2);
	att_note(o, "20 frames of %dx%d buffers written while on the screen", w, h);
}

ATT_SCENARIO(run_scanout_write_sealed, "scanout-write-sealed",
	     "a write-sealed fullscreen buffer scanned out (read-only udmabuf on KMS); every way to change its pages must fail while it is shown",
	     ACCEPTED)
{
	int32_t w, h;
	size_t span;
	struct wl_shm_pool *pool;
	struct wl_buffer *buf;
	char refused[256] = "", *at = refused;
	void *map;
	int fd, broke = 0;
	uint32_t px = 0xffff00ffu;

	if (!fullscreen(a, o, &w, &h))
		return;
	span = frame_span(w, h);
	fd = att_memfd_or_fail(o, span, MFD_ALLOW_SEALING, 0);
	if (fd < 0)
		return;
	if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE) < 0) {
		att_fail_setup(o, "F_ADD_SEALS write: %s", strerror(errno));
		close(fd);
		return;
	}
	pool = wl_shm_create_pool(a->shm, fd, (int32_t)span);
	buf = wl_shm_pool_create_buffer(pool, 0, w, h, w * 4, XRGB);
	wl_shm_pool_destroy(pool);
	if (!present_n(a, buf, w, h, 2)) {
		close(fd);
		return;
	}
	/* While the display holds the pages: */
#define TRY(what, call)							\
	do {								\
		if ((call) == 0) {					\
			broke++;					\
			att_note(o, "%s succeeded on a write-sealed buffer on the screen", what); \
		} else {						\
			at += snprintf(at, sizeof(refused) - (size_t)(at - refused), \
				       "%s%s %s", at == refused ? "" : ", ", \
				       what, strerror(errno));	\
		}							\
	} while (0)
	TRY("pwrite", pwrite(fd, &px, sizeof(px), 0) == (ssize_t)sizeof(px) ? 0 : -1);
	map = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	TRY("mmap(PROT_WRITE)", map == MAP_FAILED ? -1 : 0);
	if (map != MAP_FAILED)
		munmap(map, span);
	TRY("punch hole", fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				    0, (off_t)span));
	TRY("ftruncate(0)", ftruncate(fd, 0));
	/* The seed ABI removes seals only for an exclusive holder; our
	 * pool's mapping in the compositor (and a udmabuf) deny that. */
	if (wlseal_seed_abi_available())
		TRY("SHMEM_SET_SEALS(0)", fcntl(fd, SHMEM_SET_SEALS, 0));
#undef TRY
	close(fd);
	present_n(a, buf, w, h, 2);
	if (broke) {
		o->result = RES_ERROR;
		return;
	}
	att_note(o, "refused: %s", refused);
}

ATT_SCENARIO(run_scanout_punch_holes, "scanout-punch-holes",
	     "holes punched under a fullscreen buffer while it is scanned out (SEAL_SHRINK allows it): the display keeps the pages it holds, the compositor faults in fresh ones",
	     ACCEPTED)
{
	int32_t w, h;
	size_t span;
	struct wl_shm_pool *pool;
	struct wl_buffer *buf;
	int fd, punched = 0;

	if (!fullscreen(a, o, &w, &h))
		return;
	span = frame_span(w, h);
	fd = att_memfd_or_fail(o, span, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	if (fd < 0)
		return;
	pool = wl_shm_create_pool(a->shm, fd, (int32_t)span);
	buf = wl_shm_pool_create_buffer(pool, 0, w, h, w * 4, XRGB);
	wl_shm_pool_destroy(pool);
	for (int i = 0; i < 20; i++) {
		if (att_present(a, buf, w, h) < 0)
			break;
		if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			      0, (off_t)span) == 0)
			punched++;
		att_fill(fd, 0, span / 2, 0xff00ff00u | (uint32_t)i);
	}
	close(fd);
	att_note(o, "%d holes punched under the buffer on the screen", punched);
}

ATT_SCENARIO(run_scanout_leave_on_screen, "scanout-leave-on-screen",
	     "connections that show a fullscreen buffer and destroy it, the pool and themselves while it is on the screen; the compositor must let go of every file",
	     ACCEPTED)
{
	int fds[8], n = 0;
	int64_t waited = 0;

	for (int i = 0; i < 8; i++) {
		struct attack x = { .timeout_ms = a->timeout_ms };
		struct wl_shm_pool *pool;
		struct wl_buffer *buf;
		int32_t w, h;
		size_t span;

		if (att_connect(&x) != 0) {
			att_fail_setup(o, "connection %d could not connect", i);
			break;
		}
		if (att_fullscreen_window(&x, &w, &h) != 0) {
			att_fail_setup(o, "connection %d: no fullscreen configure", i);
			att_disconnect(&x);
			break;
		}
		span = frame_span(w, h);
		fds[n] = att_memfd(span, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
		if (fds[n] < 0) {
			att_fail_setup(o, "memfd: %s", strerror(errno));
			att_disconnect(&x);
			break;
		}
		pool = wl_shm_create_pool(x.shm, fds[n], (int32_t)span);
		buf = wl_shm_pool_create_buffer(pool, 0, w, h, w * 4, XRGB);
		att_present(&x, buf, w, h);
		/* On the screen now: everything goes at once. */
		wl_buffer_destroy(buf);
		wl_shm_pool_destroy(pool);
		if (i & 1)
			wl_display_flush(x.display);
		att_disconnect(&x);
		n++;
	}
	/* Our own connection draws over whatever is left. */
	if (att_window(a) == 0) {
		int fd = att_memfd(ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
		struct wl_shm_pool *pool = wl_shm_create_pool(a->shm, fd, ATT_SIZE);
		struct wl_buffer *buf = wl_shm_pool_create_buffer(pool, 0, ATT_W, ATT_H,
								  ATT_STRIDE, XRGB);

		att_keep_presenting(a, buf, 2);
		close(fd);
	}
	for (int i = 0; i < n; i++) {
		int64_t ms = att_wait_file_released(a, o, fds[i], 60);

		waited = ms > waited ? ms : waited;
		close(fds[i]);
	}
	att_note(o, "%d connections left with their buffer on the screen; every file released within %lld ms",
		 n, (long long)waited);
}

#define CHURN_BUFFERS 40
#define CHURN_NAME "memfd:wlseal-scanout-churn"

ATT_SCENARIO(run_scanout_buffer_churn, "scanout-buffer-churn",
	     "40 fullscreen buffers (ten times what a display keeps), each in a file and pool of its own, each shown once and destroyed: what the compositor keeps of them for the display stays a few buffers, never all",
	     ACCEPTED)
{
	struct wl_buffer *prev = NULL;
	int32_t w, h;
	size_t span;
	int shown = 0, most = 0, held;

	if (!fullscreen(a, o, &w, &h))
		return;
	span = frame_span(w, h);
	for (int i = 0; i < CHURN_BUFFERS; i++) {
		const char *failed;
		int fd = wlseal_memfd_new(WLSEAL_SEAL_API_UPSTREAM,
					  "wlseal-scanout-churn", span, &failed);
		struct wl_shm_pool *pool;
		struct wl_buffer *buf;

		if (fd < 0 || att_fill(fd, 0, span, 0xff000000u | (uint32_t)(i * 0x020406)) ||
		    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK) < 0) {
			att_fail_setup(o, "memfd %d: %s", i, strerror(errno));
			if (fd >= 0)
				close(fd);
			break;
		}
		pool = wl_shm_create_pool(a->shm, fd, (int32_t)span);
		buf = wl_shm_pool_create_buffer(pool, 0, w, h, w * 4, XRGB);
		wl_shm_pool_destroy(pool);
		close(fd);
		if (att_present(a, buf, w, h) < 0)
			break;
		shown++;
		if (prev)
			wl_buffer_destroy(prev);
		prev = buf;
		held = a->compositor_pid ? att_files_named(a->compositor_pid, CHURN_NAME) : -1;
		most = held > most ? held : most;
	}
	/* Two more frames: what the display kept of destroyed buffers goes. */
	if (prev)
		present_n(a, prev, w, h, 2);
	held = a->compositor_pid ? att_files_named(a->compositor_pid, CHURN_NAME) : -1;
	/*
	 * Alive at any time: the buffer shown, the one before it (destroyed
	 * after the next was shown: its pool, fd and mapping until then),
	 * and the framebuffers a display keeps (drm.c: four) of buffers
	 * already destroyed, until the next frame. Each of those is at most
	 * an fd and a mapping: 2 x 6 entries.
	 */
	if (held < 0 || most > 12 || held > 4)
		att_fail_setup(o, "the compositor held up to %d fds and mappings of the churned files (%d at the end)",
			       most, held);
	else
		att_note(o, "%d buffers shown once each; the compositor held at most %d fds and mappings of their files, %d at the end",
			 shown, most, held);
}

/*
 * A pool grown while one of its buffers is on the screen. The compositor
 * may have to move a mapping to grow it (mremap); whatever still points
 * into the old place (the display's image of the buffer: the frame
 * checksum, screenshots, the headless output's front) must not be left
 * pointing at nothing. Each round grows the file and the pool (by 1 MiB
 * and then by 64 MiB, so that the mapping can hardly stay where it is), shows
 * the same buffer again, then a buffer in the part just added, with the
 * compositor's frame checksum on (the runner's --print-frames) and, where
 * the attacker may signal the compositor, a screenshot asked for.
 */
ATT_SCENARIO(run_scanout_resize_on_screen, "scanout-resize-on-screen",
	     "a pool grown (the file first, then wl_shm_pool.resize, 1 MiB to 64 MiB more) while its fullscreen buffer is scanned out, the same buffer shown again and one from the new part: nothing may keep pointing at the mapping's old place",
	     ACCEPTED)
{
	static const size_t grow[] = { 1u << 20, 64u << 20, 4096, 16u << 20 };
	struct wl_shm_pool *pool;
	struct wl_buffer *first, *fresh;
	int32_t w, h;
	size_t span, size;
	int fd, shots = 0;

	if (!fullscreen(a, o, &w, &h))
		return;
	span = frame_span(w, h);
	size = span;
	fd = att_memfd_or_fail(o, span, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	if (fd < 0)
		return;
	att_fill(fd, 0, span, 0xff2040c0u);
	pool = wl_shm_create_pool(a->shm, fd, (int32_t)span);
	first = wl_shm_pool_create_buffer(pool, 0, w, h, w * 4, XRGB);
	if (!present_n(a, first, w, h, 3)) {
		close(fd);
		return;
	}
	for (size_t i = 0; i < sizeof(grow) / sizeof(grow[0]); i++) {
		size_t next = size + grow[i];

		if (next > INT32_MAX || ftruncate(fd, (off_t)next) < 0) {
			att_fail_setup(o, "ftruncate to %zu: %s", next,
				       strerror(errno));
			break;
		}
		/* The new tail: a frame's worth at its end. */
		att_fill(fd, next - span, span, 0xff000000u | (uint32_t)(i * 0x302010));
		wl_shm_pool_resize(pool, (int32_t)next);
		/* The buffer on the screen, read again after the resize. */
		if (!present_n(a, first, w, h, 2))
			break;
		if (a->compositor_pid && kill(a->compositor_pid, SIGUSR1) == 0)
			shots++;
		fresh = wl_shm_pool_create_buffer(pool, (int32_t)(next - span), w, h,
						  w * 4, XRGB);
		if (!present_n(a, fresh, w, h, 2))
			break;
		if (!present_n(a, first, w, h, 1))
			break;
		wl_buffer_destroy(fresh);
		size = next;
	}
	wl_shm_pool_destroy(pool);
	close(fd);
	att_note(o, "pool grown to %zu bytes in %zu steps while its buffer was on the screen, %d screenshots asked",
		 size, sizeof(grow) / sizeof(grow[0]), shots);
}
