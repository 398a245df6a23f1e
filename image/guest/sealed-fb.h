/* SPDX-License-Identifier: MIT */
/*
 * sealed-fb.c: the test pattern in a write-sealed memfd, scanned out
 * through a read-only udmabuf and virtio-gpu's PRIME import, with no copy
 * in the guest (wlseal-kmstest --zero-copy).
 */
#ifndef WLSEAL_GUEST_SEALED_FB_H
#define WLSEAL_GUEST_SEALED_FB_H

#include <stddef.h>
#include <stdint.h>

#include "kms.h"

struct sealed_fb {
	int memfd, dmabuf;
	uint32_t stride;	/* the mode's width * 4 */
	size_t size;		/* rounded up to pages */
	struct dumb_fb fb;	/* fb_id, and map: the memfd, read-only */
	char error[256];
};

/*
 * Draws the pattern at @k's mode into a new memfd, seals it
 * (SHRINK|GROW|WRITE|SEAL), and makes a framebuffer of its pages. Also
 * checks two refusals on the way: udmabuf's default mode must refuse the
 * write-sealed file, and virtio-gpu a pitch other than width * 4.
 * 0, or -1 with @s->error saying what failed.
 */
int sealed_fb_create(struct kms *k, struct sealed_fb *s);

#endif
