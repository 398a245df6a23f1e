/* SPDX-License-Identifier: MIT */
/*
 * resources.c - resources: volumes of pools, buffers, rectangles and log
 * lines that try to exhaust or stall the compositor for everyone.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#define ATT_CATEGORY ATT_CAT_RESOURCES
#include "scenario.h"

/* --- volume ------------------------------------------------------------------------------- */

ATT_SCENARIO(run_many_pools, "many-pools",
	     "2000 pools from one client: fd and mapping exhaustion in the compositor",
	     SURVIVES)
{
	struct wl_shm_pool *last = NULL;
	struct rlimit rl;
	int n = 0;

	/* libwayland-client dups each fd until it is sent; make sure our own
	 * fd limit is not what stops us. */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	for (; n < 2000; n++) {
		int fd = att_memfd(4096, MFD_ALLOW_SEALING, F_SEAL_SHRINK);

		if (fd < 0) {
			att_fail_setup(o, "memfd %d: %s", n, strerror(errno));
			return;
		}
		last = wl_shm_create_pool(a->shm, fd, 4096);
		close(fd);
		/* Send in batches so the socket's fd queue never overflows. */
		if (n % 100 == 99 && att_roundtrip(a) != 0)
			break;
	}
	att_note(o, "%d pools sent", n);
	if (wl_display_get_error(a->display) || att_window(a) != 0)
		return;
	att_keep_presenting(a, wl_shm_pool_create_buffer(last, 0, 32, 32, 128,
						     XRGB), 1);
}

ATT_SCENARIO(run_many_buffers, "many-buffers",
	     "20000 buffers on one pool: pool reference counting (CVE-2021-3782 was a refcount overflow)",
	     SURVIVES)
{
	int fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	struct wl_shm_pool *pool;
	struct wl_buffer *buf = NULL;
	int n;

	if (fd < 0)
		return;
	pool = wl_shm_create_pool(a->shm, fd, ATT_SIZE);
	close(fd);
	for (n = 0; n < 20000; n++) {
		buf = wl_shm_pool_create_buffer(pool, 0, ATT_W, ATT_H,
						ATT_STRIDE, XRGB);
		if (n % 1000 == 999 && att_roundtrip(a) != 0)
			break;
	}
	att_note(o, "%d buffers on one pool", n);
	if (wl_display_get_error(a->display) || att_window(a) != 0)
		return;
	att_keep_presenting(a, buf, 1);
}
