/* SPDX-License-Identifier: MIT */
/*
 * buffers.c - buffer parameters: pool sizes against file sizes, resize,
 * every create_buffer argument at its extremes, formats, damage and
 * attach coordinates, and the scale, transform and viewport through which
 * a buffer is read.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define ATT_CATEGORY ATT_CAT_BUFFERS
#include "attack-viewporter-client-protocol.h"
#include "scenario.h"

/* --- sizes: the pool promises more than the file holds -------------------------- */

ATT_SCENARIO(run_empty_file, "empty-file",
	     "SHRINK-sealed but empty file (Smithay #834: zero-length file crashed anvil)",
	     POOL_REFUSED(MSG_TOO_SMALL))
{
	int fd = att_memfd_or_fail(o, 0, MFD_ALLOW_SEALING, F_SEAL_SHRINK);

	if (fd < 0)
		return;
	att_show_and_close(a, o, fd);
}

ATT_SCENARIO(run_pool_larger_than_file, "pool-larger-than-file",
	     "one sealed page, 1 MiB pool, buffer at the far end: SIGBUS even with seals (Hyprland #8570)",
	     POOL_REFUSED(MSG_TOO_SMALL))
{
	/* One sealed page; a 1 MiB pool; the buffer at the far end, where
	 * every read is past the end of the file: SIGBUS without a check. */
	int fd = att_memfd_or_fail(o, 4096, MFD_ALLOW_SEALING, F_SEAL_SHRINK);

	if (fd < 0)
		return;
	att_show_fd(a, fd, MIB, MIB - ATT_SIZE, 2, NULL);
	close(fd);
}

ATT_SCENARIO(run_resize_past_file, "resize-past-file",
	     "sealed pool resized to 1 MiB over a 16 KiB file: libwayland marks sealed pools SIGBUS-free at create_pool and never re-checks on resize",
	     SHM_ERR(WL_SHM_ERROR_INVALID_FD, "wl_shm_pool", MSG_TOO_SMALL))
{
	int fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	struct wl_shm_pool *pool;
	struct wl_buffer *buf;

	if (fd < 0)
		return;
	pool = att_show_fd(a, fd, ATT_SIZE, 0, 1, NULL);
	if (wl_display_get_error(a->display))
		goto out;
	wl_shm_pool_resize(pool, MIB);
	if (att_roundtrip(a) != 0)
		goto out;
	buf = wl_shm_pool_create_buffer(pool, MIB - ATT_SIZE, ATT_W, ATT_H,
					ATT_STRIDE, WL_SHM_FORMAT_XRGB8888);
	att_keep_presenting(a, buf, 2);
out:
	close(fd);
}

ATT_SCENARIO(run_resize_shrink, "resize-shrink",
	     "wl_shm_pool.resize to a smaller size, which the protocol forbids",
	     SHM_ERR(-1, "wl_shm_pool", NULL))
{
	int fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	struct wl_shm_pool *pool;
	struct wl_buffer *buf;

	if (fd < 0)
		return;
	pool = att_show_fd(a, fd, ATT_SIZE, 0, 1, &buf);
	if (!wl_display_get_error(a->display)) {
		wl_shm_pool_resize(pool, 4096);
		att_keep_presenting(a, buf, 2);
	}
	close(fd);
}

/* Grow the file, then the pool, while a buffer of the old mapping is on
 * screen: a compositor that remaps the pool under its renderer reads
 * unmapped memory (Smithay #1473; libwayland defers the remap). */
ATT_SCENARIO(run_resize_while_attached, "resize-while-attached",
	     "grow file and pool six times while a buffer of the old mapping is shown (Smithay #1473 remap)",
	     ACCEPTED)
{
	int fd = att_memfd(ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	struct wl_shm_pool *pool;
	struct wl_buffer *b1, *b2;

	if (fd < 0) {
		att_fail_setup(o, "memfd: %s", strerror(errno));
		return;
	}
	pool = att_show_fd(a, fd, ATT_SIZE, 0, 1, &b1);
	if (wl_display_get_error(a->display))
		goto out;
	for (int32_t size = 2 * ATT_SIZE; size <= 64 * ATT_SIZE; size *= 2) {
		if (ftruncate(fd, size) < 0 ||
		    att_fill(fd, (size_t)size / 2, (size_t)size / 2, 0xff00ff00)) {
			att_fail_setup(o, "growing the file: %s", strerror(errno));
			goto out;
		}
		wl_shm_pool_resize(pool, size);
		b2 = wl_shm_pool_create_buffer(pool, size - ATT_SIZE, ATT_W, ATT_H,
					       ATT_STRIDE, WL_SHM_FORMAT_XRGB8888);
		att_keep_presenting(a, b1, 1);
		att_keep_presenting(a, b2, 1);
		if (wl_display_get_error(a->display))
			break;
	}
out:
	close(fd);
}

static void pool_of_size(struct attack *a, struct outcome *o, int32_t size)
{
	int fd = att_memfd(ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);

	if (fd < 0) {
		att_fail_setup(o, "memfd: %s", strerror(errno));
		return;
	}
	att_show_fd(a, fd, size, 0, 1, NULL);
	close(fd);
}

ATT_SCENARIO(run_pool_size_zero, "pool-size-zero",
	     "create_pool with size 0",
	     SHM_ERR(-1, "wl_shm", NULL))
{
	pool_of_size(a, o, 0);
}

ATT_SCENARIO(run_pool_size_negative, "pool-size-negative",
	     "create_pool with a negative size",
	     SHM_ERR(-1, "wl_shm", NULL))
{
	pool_of_size(a, o, -ATT_SIZE);
}

/* A sparse 2 GiB - 1 file, sealed, and a pool of exactly that size: legal,
 * and every size computation near INT32_MAX must hold. */
ATT_SCENARIO(run_pool_size_int32_max, "pool-size-int32-max",
	     "sealed sparse file and pool of INT32_MAX bytes, buffer at the top: legal, must not overflow",
	     ACCEPTED)
{
	int fd = att_memfd_sparse(INT32_MAX, MFD_ALLOW_SEALING);
	int32_t off = (INT32_MAX - ATT_SIZE) & ~4095;

	if (fd < 0 || att_fill(fd, (size_t)off, ATT_SIZE, 0xffc0c000) ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK) < 0) {
		att_fail_setup(o, "sparse memfd: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	att_show_fd(a, fd, INT32_MAX, off, 2, NULL);
	close(fd);
	att_skip_if_unaffordable(a, o);
}

/* A sealed sparse 8192x8192 buffer (256 MiB of pool) on a small output: a
 * damage-tracked compositor reads only what it shows; one that copies or
 * converts whole buffers allocates (and faults in) all of it. */
ATT_SCENARIO(run_huge_buffer, "huge-buffer",
	     "sealed sparse 8192x8192 buffer (256 MiB): only the visible part may be read",
	     ACCEPTED)
{
	const int32_t side = 8192, stride = side * 4;
	int fd = att_memfd_sparse((size_t)stride * side, MFD_ALLOW_SEALING);
	struct wl_shm_pool *pool;
	struct wl_buffer *buf;

	if (fd < 0 || fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW) < 0) {
		att_fail_setup(o, "sparse memfd: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	pool = wl_shm_create_pool(a->shm, fd, stride * side);
	close(fd);
	buf = wl_shm_pool_create_buffer(pool, 0, side, side, stride, XRGB);
	if (att_roundtrip(a) != 0 || att_window(a) != 0) {
		att_skip_if_unaffordable(a, o);
		return;
	}
	for (int i = 0; i < 2; i++)
		if (att_present(a, buf, side, side) < 0)
			break;
}

/* --- buffer parameters ---------------------------------------------------------------- */

static void bad_buffer(struct attack *a, struct outcome *o, int32_t offset,
		       int32_t w, int32_t h, int32_t stride, uint32_t format)
{
	int fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	struct wl_shm_pool *pool;
	struct wl_buffer *buf;

	if (fd < 0)
		return;
	pool = wl_shm_create_pool(a->shm, fd, ATT_SIZE);
	close(fd);
	buf = wl_shm_pool_create_buffer(pool, offset, w, h, stride, format);
	if (att_roundtrip(a) != 0 || att_window(a) != 0)
		return;
	/* Accepted: make the compositor composite it. */
	for (int i = 0; i < 2; i++)
		if (att_present(a, buf, w > 0 && w < 4096 ? w : 64,
				h > 0 && h < 4096 ? h : 64) < 0)
			break;
}

#define BUFFER_SCENARIO(fn, name, why, off, w, h, stride, fmt, ...)   \
	ATT_SCENARIO(fn, name, why, __VA_ARGS__)                              \
	{                                                                 \
		bad_buffer(a, o, (off), (w), (h), (stride), (fmt));       \
	}

BUFFER_SCENARIO(run_buf_offset_negative, "buffer-offset-negative",
		"create_buffer offset -4",
		-4, ATT_W, ATT_H, ATT_STRIDE, XRGB,
		BAD_BUFFER)

BUFFER_SCENARIO(run_buf_offset_int32_max, "buffer-offset-int32-max",
		"create_buffer offset INT32_MAX",
		INT32_MAX, ATT_W, ATT_H, ATT_STRIDE, XRGB,
		BAD_BUFFER)

BUFFER_SCENARIO(run_buf_offset_int32_min, "buffer-offset-int32-min",
		"create_buffer offset INT32_MIN",
		INT32_MIN, ATT_W, ATT_H, ATT_STRIDE, XRGB,
		BAD_BUFFER)

BUFFER_SCENARIO(run_buf_offset_past_end, "buffer-offset-past-end",
		"buffer one row longer than the pool",
		ATT_STRIDE, ATT_W, ATT_H, ATT_STRIDE, XRGB,
		BAD_BUFFER)

BUFFER_SCENARIO(run_buf_offset_overflow, "buffer-offset-overflow",
		"offset + stride * height overflows int32",
		INT32_MAX - 64, ATT_W, ATT_H, ATT_STRIDE, XRGB,
		BAD_BUFFER)

BUFFER_SCENARIO(run_buf_offset_unaligned, "buffer-offset-unaligned",
		"offset 2: pixels not 4-byte aligned (legal per protocol, must not fault)",
		2, ATT_W, ATT_H - 1, ATT_STRIDE, XRGB,
		SURVIVES)

BUFFER_SCENARIO(run_buf_width_zero, "buffer-width-zero",
		"width 0",
		0, 0, ATT_H, ATT_STRIDE, XRGB,
		BAD_BUFFER)

BUFFER_SCENARIO(run_buf_width_negative, "buffer-width-negative",
		"width -64",
		0, -ATT_W, ATT_H, ATT_STRIDE, XRGB,
		BAD_BUFFER)

BUFFER_SCENARIO(run_buf_width_int32_max, "buffer-width-int32-max",
		"width INT32_MAX, stride 256",
		0, INT32_MAX, 1, ATT_STRIDE, XRGB,
		BAD_BUFFER)

/* width * 4 wraps to 64 in 32 bits: passes a stride >= width * bpp test
 * computed in 32-bit arithmetic. */
BUFFER_SCENARIO(run_buf_width_bpp_overflow, "buffer-width-bpp-overflow",
		"width 0x40000010: width * 4 wraps to 64 in 32 bits, 'fits' a 256-byte stride",
		0, 0x40000010, 1, ATT_STRIDE, XRGB,
		BAD_BUFFER)

BUFFER_SCENARIO(run_buf_height_zero, "buffer-height-zero",
		"height 0",
		0, ATT_W, 0, ATT_STRIDE, XRGB,
		BAD_BUFFER)

BUFFER_SCENARIO(run_buf_height_negative, "buffer-height-negative",
		"height -64",
		0, ATT_W, -ATT_H, ATT_STRIDE, XRGB,
		BAD_BUFFER)

BUFFER_SCENARIO(run_buf_height_int32_max, "buffer-height-int32-max",
		"height INT32_MAX",
		0, ATT_W, INT32_MAX, ATT_STRIDE, XRGB,
		BAD_BUFFER)

BUFFER_SCENARIO(run_buf_stride_zero, "buffer-stride-zero",
		"stride 0",
		0, ATT_W, ATT_H, 0, XRGB,
		BAD_BUFFER)

BUFFER_SCENARIO(run_buf_stride_negative, "buffer-stride-negative",
		"stride -256",
		0, ATT_W, ATT_H, -ATT_STRIDE, XRGB,
		BAD_BUFFER)

BUFFER_SCENARIO(run_buf_stride_int32_max, "buffer-stride-int32-max",
		"stride INT32_MAX",
		0, ATT_W, ATT_H, INT32_MAX, XRGB,
		BAD_BUFFER)

BUFFER_SCENARIO(run_buf_stride_int32_min, "buffer-stride-int32-min",
		"stride INT32_MIN",
		0, ATT_W, ATT_H, INT32_MIN, XRGB,
		BAD_BUFFER)

/* stride >= width but < width * 4, placed so the last row's pixels run
 * past the end of the pool: libwayland only checks stride >= width. */
BUFFER_SCENARIO(run_buf_stride_below_row, "buffer-stride-below-row",
		"stride 128 < 64 px * 4 bytes, last row past the pool: libwayland checks only stride >= width",
		ATT_SIZE / 2, ATT_W, ATT_H, ATT_STRIDE / 2, XRGB,
		BAD_BUFFER)

/* stride * height wraps to 256 in 32 bits. */
BUFFER_SCENARIO(run_buf_size_overflow, "buffer-size-overflow",
		"height 0x01000001: stride * height wraps to 256 in 32 bits",
		0, ATT_W, 0x01000001, ATT_STRIDE, XRGB,
		BAD_BUFFER)

BUFFER_SCENARIO(run_buf_stride_unaligned, "buffer-stride-unaligned",
		"stride 61 for 4-byte pixels: pixman refuses such images (NULL image if unchecked)",
		0, 15, 16, 61, XRGB,
		SURVIVES)

BUFFER_SCENARIO(run_unsupported_format, "unsupported-format",
		"format 0xdeadbeef",
		0, ATT_W, ATT_H, ATT_STRIDE, 0xdeadbeef,
		SHM_ERR(WL_SHM_ERROR_INVALID_FORMAT, "wl_shm_pool", NULL))

BUFFER_SCENARIO(run_format_nv12, "format-nv12",
		"a real but planar, unadvertised format (NV12): size rules differ per plane",
		0, ATT_W, ATT_H, ATT_W, WL_SHM_FORMAT_NV12,
		SHM_ERR(WL_SHM_ERROR_INVALID_FORMAT, "wl_shm_pool", NULL))

ATT_SCENARIO(run_damage_extremes, "damage-extremes",
	     "damage and damage_buffer with INT32 extremes (region arithmetic overflow)",
	     ACCEPTED)
{
	int fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	struct wl_buffer *buf;
	static const int32_t r[][4] = {
		{ INT32_MIN, INT32_MIN, INT32_MAX, INT32_MAX },
		{ INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX },
		{ -1, -1, INT32_MIN, INT32_MIN },
		{ 0, 0, INT32_MAX, 1 },
	};

	if (fd < 0)
		return;
	att_show_fd(a, fd, ATT_SIZE, 0, 1, &buf);
	close(fd);
	for (size_t i = 0; i < sizeof(r) / sizeof(r[0]); i++) {
		if (wl_display_get_error(a->display))
			return;
		wl_surface_attach(a->surface, buf, 0, 0);
		wl_surface_damage(a->surface, r[i][0], r[i][1], r[i][2], r[i][3]);
		if (a->compositor_version >= 4)
			wl_surface_damage_buffer(a->surface, r[i][0], r[i][1],
						 r[i][2], r[i][3]);
		wl_surface_commit(a->surface);
		att_keep_presenting(a, buf, 1);
	}
}

ATT_SCENARIO(run_attach_offset_extremes, "attach-offset-extremes",
	     "wl_surface.attach with x/y at INT32_MAX/INT32_MIN (surface position overflow)",
	     SURVIVES)
{
	int fd = att_memfd(ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	struct wl_buffer *buf;

	if (fd < 0) {
		att_fail_setup(o, "memfd: %s", strerror(errno));
		return;
	}
	att_show_fd(a, fd, ATT_SIZE, 0, 1, &buf);
	close(fd);
	if (wl_display_get_error(a->display))
		return;
	/* wl_surface v4 still allows an offset in attach. */
	wl_surface_attach(a->surface, buf, INT32_MAX, INT32_MIN);
	wl_surface_damage(a->surface, 0, 0, ATT_W, ATT_H);
	wl_surface_commit(a->surface);
	wl_surface_attach(a->surface, buf, INT32_MIN, INT32_MAX);
	wl_surface_commit(a->surface);
	att_keep_presenting(a, buf, 2);
}

/* --- reading through a scale, a transform and a viewport ------------------------- */

ATT_SCENARIO(run_filtered_pool_end, "filtered-read-at-pool-end",
	     "the buffer ends where the pool and the file end; scale 2, transform 270 and a fractional viewport source on its last row stretched to 32768x32768: a bilinear tap one pixel past the edge would read past the mapping (SIGSEGV)",
	     ACCEPTED)
{
	/* The pool is exactly the buffer, so nothing follows its last
	 * pixel; the mapping ends there too (a whole number of pages). */
	int fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	struct wp_viewport *vp;
	struct wl_buffer *buf;

	if (fd < 0)
		return;
	att_show_fd(a, fd, ATT_SIZE, 0, 1, &buf);
	close(fd);
	if (wl_display_get_error(a->display) || !(vp = att_viewport(a, o)))
		return;
	/* 64x64 at scale 2 is 32x32 surface units; the source is the last
	 * quarter unit in both directions, the last pixels of the buffer. */
	wl_surface_set_buffer_scale(a->surface, 2);
	wl_surface_set_buffer_transform(a->surface, WL_OUTPUT_TRANSFORM_270);
	wp_viewport_set_source(vp, wl_fixed_from_double(31.75),
			       wl_fixed_from_double(31.75),
			       wl_fixed_from_double(0.25),
			       wl_fixed_from_double(0.25));
	wp_viewport_set_destination(vp, 32768, 32768);
	att_keep_presenting(a, buf, 2);
	/* And a source of the whole buffer, every transform, stretched. */
	for (int32_t t = 0; t < 8 && !wl_display_get_error(a->display); t++) {
		wl_surface_set_buffer_transform(a->surface, t);
		wp_viewport_set_source(vp, 0, 0, wl_fixed_from_int(32),
				       wl_fixed_from_int(32));
		wp_viewport_set_destination(vp, 1 + 997 * t, 32768 - 4000 * t);
		att_keep_presenting(a, buf, 1);
	}
}

ATT_SCENARIO(run_viewport_huge_destination, "viewport-huge-destination",
	     "wp_viewport.set_destination(INT32_MAX, INT32_MAX): a surface size that overflows every position added to it",
	     SHM_ERR(WP_VIEWPORT_ERROR_BAD_VALUE, "wp_viewport", "destination"))
{
	int fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	struct wp_viewport *vp;
	struct wl_buffer *buf;

	if (fd < 0)
		return;
	att_show_fd(a, fd, ATT_SIZE, 0, 1, &buf);
	close(fd);
	if (wl_display_get_error(a->display) || !(vp = att_viewport(a, o)))
		return;
	wp_viewport_set_destination(vp, INT32_MAX, INT32_MAX);
	att_keep_presenting(a, buf, 1);
}

ATT_SCENARIO(run_viewport_source_past_buffer, "viewport-source-past-buffer",
	     "a viewport source one unit past the buffer's edge once scale 2 halves it: sampling outside the buffer without a check at commit",
	     SHM_ERR(WP_VIEWPORT_ERROR_OUT_OF_BUFFER, "wp_viewport", "outside"))
{
	int fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	struct wp_viewport *vp;
	struct wl_buffer *buf;

	if (fd < 0)
		return;
	att_show_fd(a, fd, ATT_SIZE, 0, 1, &buf);
	close(fd);
	if (wl_display_get_error(a->display) || !(vp = att_viewport(a, o)))
		return;
	/* Fine at scale 1 (64 wide); at scale 2 the buffer is 32 wide. */
	wp_viewport_set_source(vp, 0, 0, wl_fixed_from_int(33),
			       wl_fixed_from_int(32));
	wl_surface_set_buffer_scale(a->surface, 2);
	att_keep_presenting(a, buf, 1);
}
