/* SPDX-License-Identifier: MIT */
/*
 * worker.h - inside shm/: one thread running a queue of jobs off the
 * event loop, each job's @done back on the loop (worker.c), for
 * closer.c and populate.c.
 */
#ifndef WLSEAL_SHM_WORKER_H
#define WLSEAL_SHM_WORKER_H

#include <stdbool.h>

struct wl_event_loop;
struct wlseal_worker;

/*
 * A job, embedded in the caller's own struct. The caller fills @run and
 * @done; @next is the worker's.
 */
struct wlseal_worker_job {
	struct wlseal_worker_job *next;
	/* On the thread, without the worker's lock held: it must touch
	 * nothing the loop touches meanwhile. */
	void (*run)(struct wlseal_worker_job *job);
	/* On the loop, once @run has returned (@ran true), or for a job
	 * dropped at stop whose @run never began (@ran false). The job is
	 * the caller's again: @done may free it. */
	void (*done)(struct wlseal_worker_job *job, bool ran);
};

/*
 * Starts the thread, named @name in the log (a string that outlives
 * the worker). At stop, a worker with @drain runs every job queued
 * before it stops; one without drops the jobs not begun (@done with
 * @ran false). NULL: no thread (nothing is logged; the caller says what
 * it does instead).
 */
struct wlseal_worker *wlseal_worker_start(struct wl_event_loop *loop,
					  const char *name, bool drain);
/*
 * Queues @job: @job->run on the thread after the jobs queued before it,
 * one job at a time, then @job->done on the loop. false: no worker (@w
 * NULL) or one stopping; nothing is queued, @job is still the caller's.
 */
bool wlseal_worker_submit(struct wlseal_worker *w,
			  struct wlseal_worker_job *job);
/* Jobs queued whose @done has not run yet (0 for NULL). */
int wlseal_worker_pending(const struct wlseal_worker *w);
/*
 * Stops the thread: the job running finishes, the others run or are
 * dropped as @drain says, every @done runs (a @done may call
 * wlseal_worker_pending() and get false from wlseal_worker_submit());
 * then @w is freed. NULL: nothing.
 */
void wlseal_worker_stop(struct wlseal_worker *w);

#endif
