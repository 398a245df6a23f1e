/* SPDX-License-Identifier: MIT */
/*
 * closer.h - inside shm/: the last munmap() and close() of a pool, off
 * the event loop (closer.c), for pool.c.
 */
#ifndef WLSEAL_SHM_CLOSER_H
#define WLSEAL_SHM_CLOSER_H

#include <stdbool.h>
#include <stddef.h>

struct wl_event_loop;

/* Starts the thread. false: no thread, wlseal_closer_put() then does
 * the work at once. */
bool wlseal_closer_start(struct wl_event_loop *loop);
/* Unmaps @len bytes at @data and closes @fd (if >= 0), on the thread;
 * then @done(@item) runs on the loop, once the mapping and the fd are
 * gone. */
void wlseal_closer_put(void *data, size_t len, int fd,
		       void (*done)(void *item), void *item);
/* Items handed over whose @done has not run yet. */
int wlseal_closer_pending(void);
/* Finishes every item (its @done runs) and stops the thread. */
void wlseal_closer_stop(void);

#endif
