/* SPDX-License-Identifier: MIT */
/*
 * copy-read.h - inside shm/: when and where a copied buffer's rows are
 * read (copy-read.c), for buffer.c (a commit) and resident.c (may its
 * views be drawn).
 */
#ifndef WLSEAL_SHM_COPY_READ_H
#define WLSEAL_SHM_COPY_READ_H

#include <stdbool.h>

#include "pool.h"
#include "shm.h"

/* A commit of copied buffer @b whose @spans may have changed (@n < 0:
 * any row): read on the loop when few, on the populate thread
 * otherwise; a file too short ends the client (now, or when the read is
 * back). */
void wlseal_copy_commit(struct wlseal_shm_buffer *b,
			const struct wlseal_row_span *spans, int n);
/* May @b's image be read now? false while a read of it is in flight or
 * waits for a slot: @w->populated runs when it is back. */
bool wlseal_copy_ready(struct wlseal_shm_buffer *b,
		       struct wlseal_resident_waiter *w);

#endif
