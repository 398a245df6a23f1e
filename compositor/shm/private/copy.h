/* SPDX-License-Identifier: MIT */
/*
 * copy.h - inside shm/: pools of files that cannot be sealed, read with
 * pread() and never mapped (copy.c), for pool.c and buffer.c, under
 * --unsealed=copy.
 */
#ifndef WLSEAL_SHM_COPY_H
#define WLSEAL_SHM_COPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <wayland-server-core.h>

#include "shm.h"

struct wlseal_account;
struct wlseal_shm_verdict;

/* A copied buffer's pixels: compositor memory, charged to the client's
 * pool memory while the buffer lives. */
struct wlseal_copy {
	struct wlseal_account *account;
	unsigned char *image;	/* stride * height bytes, the buffer's rows */
	size_t bytes;
	bool filled;		/* read whole once: later reads are damage */
};

/* May @fd back a copied pool of @size bytes? 0, or the refusal reason
 * with @v filled as check.c fills it. */
uint32_t wlseal_copy_check(const struct wlseal_shm_policy *policy, int fd,
			   int64_t size, struct wlseal_shm_verdict *v);
/* A buffer's image of @bytes, charged to @account's pool bytes; NULL with
 * @why (the budget), or with @why empty when memory is short. */
struct wlseal_copy *wlseal_copy_new(struct wlseal_account *account,
				    size_t bytes, char *why, size_t why_len);
/* Frees the image and gives its bytes back. */
void wlseal_copy_free(struct wlseal_copy *c);
/* Reads the rows of @spans (@n < 0 or never read before: all @height
 * rows) of the buffer at @offset, @stride bytes a row, from @fd into the
 * image; what could not be read becomes zero. false: the file ended
 * before those rows (it is shorter than the pool). */
bool wlseal_copy_read(struct wlseal_copy *c, struct wl_client *client, int fd,
		      int64_t offset, int32_t stride, int32_t height,
		      const struct wlseal_row_span *spans, int n);

#endif
