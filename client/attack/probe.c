/* SPDX-License-Identifier: MIT */
/*
 * probe.c - after the attack, a fresh well-behaved connection asks for a
 * few frames: does the compositor still serve clients that play fair?
 */
#include <stdio.h>
#include <unistd.h>

#include "attack.h"
#include "wlseal-seals.h"

/* The probe's frames: how many arrived, and the slowest one (commit to
 * frame callback, in ms): the well-behaved client's view of fairness. */
int att_probe_frames(int want, int timeout_ms, char *why, size_t whylen,
		     int *worst_ms)
{
	struct attack p = { .timeout_ms = timeout_ms };
	struct wl_shm_pool *pool;
	struct wl_buffer *buf;
	int fd, got = 0;

	snprintf(why, whylen, "ok");
	if (att_connect(&p) != 0) {
		snprintf(why, whylen, "cannot connect");
		att_disconnect(&p);
		return 0;
	}
	fd = att_memfd(ATT_SIZE, MFD_ALLOW_SEALING,
		       F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
	if (fd < 0 || att_window(&p) != 0) {
		snprintf(why, whylen, "setup failed");
		if (fd >= 0)
			close(fd);
		att_disconnect(&p);
		return 0;
	}
	pool = wl_shm_create_pool(p.shm, fd, ATT_SIZE);
	close(fd);
	buf = wl_shm_pool_create_buffer(pool, 0, ATT_W, ATT_H, ATT_STRIDE,
					WL_SHM_FORMAT_XRGB8888);
	*worst_ms = 0;
	/* The first frame also maps the window; time the ones after it. */
	for (; got < want; got++) {
		int64_t t0 = att_now_ms();
		int r = att_present(&p, buf, ATT_W, ATT_H);

		if (r == 0 && got > 0 && att_now_ms() - t0 > *worst_ms)
			*worst_ms = (int)(att_now_ms() - t0);

		if (r != 0) {
			snprintf(why, whylen, "%s",
				 r > 0 ? "frame timeout" : "connection error");
			break;
		}
	}
	att_disconnect(&p);
	return got;
}
