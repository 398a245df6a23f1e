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

struct wlseal_shm_buffer;

/* A copied buffer's pixels: compositor memory, charged to the client's
 * pool memory while the buffer lives (and while a read of it is in
 * flight, if the buffer went first). */
struct wlseal_copy {
	struct wlseal_account *account;
	unsigned char *image;	/* stride * height bytes, the buffer's rows */
	size_t bytes;
	bool filled;		/* read whole once: later reads are damage */
	/* copy-read.c's, on the loop: */
	struct wlseal_shm_buffer *buffer; /* NULL once the buffer went */
	bool reading;		/* a read in flight on the populate thread:
				   until it is back, the image is its */
	bool dirty;		/* rows [dirty_y1, dirty_y2) committed and */
	int32_t dirty_y1, dirty_y2;	/* not read yet */
	struct wl_list starved_link;	/* dirty, waiting for a read slot */
	struct wl_list waiters;	/* wlseal_resident_waiter.starved_link */
};

/* What one read found. */
struct wlseal_copy_result {
	size_t wanted, missing;	/* bytes */
	int first_err;		/* pread()'s errno, or 0 */
	bool ended;		/* the file ended before the rows */
	int spans;
};

/* May @fd back a copied pool of @size bytes? 0, or the refusal reason
 * with @v filled as check.c fills it. */
uint32_t wlseal_copy_check(const struct wlseal_shm_policy *policy, int fd,
			   int64_t size, struct wlseal_shm_verdict *v);
/* A buffer's image of @bytes, charged to @account's pool bytes; NULL with
 * @why (the budget), or with @why empty when memory is short. */
struct wlseal_copy *wlseal_copy_new(struct wlseal_account *account,
				    size_t bytes, char *why, size_t why_len);
/* The buffer went: frees the image and gives its bytes back, or, while
 * a read of it is in flight, leaves that to the read's report (which
 * calls this again). Views still waiting for it are let go, untold. */
void wlseal_copy_free(struct wlseal_copy *c);
/* The rows to read for @spans (@n < 0 or never read before: all @height
 * rows), sorted and merged into @rows (WLSEAL_ROW_SPANS_MAX): their
 * number, and their bytes at @stride in *@bytes. Marks the image as
 * read whole once (the caller reads them). */
int wlseal_copy_rows(struct wlseal_copy *c, int32_t height, int32_t stride,
		     const struct wlseal_row_span *spans, int n,
		     struct wlseal_row_span *rows, size_t *bytes);
/* Reads @rows (from wlseal_copy_rows) of the buffer at @offset, @stride
 * bytes a row, from @fd into the image; what could not be read becomes
 * zero. Touches nothing but the image's rows and @r: safe on the
 * populate thread. */
void wlseal_copy_fill(struct wlseal_copy *c, int fd, int64_t offset,
		      int32_t stride, const struct wlseal_row_span *rows,
		      int n, struct wlseal_copy_result *r);
/* On the loop: logs what @r found for @client. false: the file ended
 * before the rows (it is shorter than the pool). */
bool wlseal_copy_report(struct wl_client *client,
			const struct wlseal_copy_result *r);

#endif
