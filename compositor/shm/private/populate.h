/* SPDX-License-Identifier: MIT */
/*
 * populate.h - inside shm/: pages of a pool mapping brought into memory
 * off the event loop (populate.c), for resident.c; a call on the same
 * thread, for copy-read.c; its lock for pool.c.
 */
#ifndef WLSEAL_SHM_POPULATE_H
#define WLSEAL_SHM_POPULATE_H

#include <stdbool.h>
#include <stddef.h>

struct wl_event_loop;

/* Bytes [off, off + len) of a mapping, both multiples of the page. */
struct wlseal_populate_range {
	size_t off, len;
};

/*
 * Starts the thread; @done(@item, @pages, @err) runs on the loop when a
 * job has finished: @pages populated; @err 0, or madvise()'s errno, or
 * ECANCELED for a job dropped at stop. false: no thread (no job is
 * taken).
 */
bool wlseal_populate_start(struct wl_event_loop *loop,
			   void (*done)(void *item, size_t pages, int err));
/*
 * Populates @n ranges (copied) of the mapping whose address is *@base,
 * read under the populate lock (the mapping may move between ranges: a
 * pool's resize), for @item. The caller keeps the mapping (a reference
 * on its pool) until @done. false: no thread, or no memory; nothing
 * queued.
 */
bool wlseal_populate_put(void *const *base,
			 const struct wlseal_populate_range *ranges, int n,
			 void *item);
/*
 * Runs @run(@item) on the thread, after the jobs queued before it, then
 * @done(@item, @err) on the loop: @err 0, or ECANCELED for a call
 * dropped at stop (@run never ran). @run must touch nothing the loop
 * touches meanwhile. false: no thread, or no memory; nothing queued.
 */
bool wlseal_populate_call(void (*run)(void *item),
			  void (*done)(void *item, int err), void *item);
/* Held by the loop around whatever moves a mapping a job may touch
 * (pool.c's mremap): the thread holds it for one chunk at a time. */
void wlseal_populate_lock(void);
void wlseal_populate_unlock(void);
/* Jobs handed over whose @done has not run yet. */
int wlseal_populate_pending(void);
/* Drops the jobs not begun, finishes the one running, every @done runs;
 * the thread stops. */
void wlseal_populate_stop(void);

#endif
