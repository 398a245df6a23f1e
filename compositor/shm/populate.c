/* SPDX-License-Identifier: MIT */
/*
 * populate.c - pages of a pool mapping brought into memory, on a thread
 * of its own.
 *
 * A page of a sealed pool that is not in memory (a hole of a sparse
 * file: SEAL_SHRINK keeps the file's size, not its pages) is allocated
 * and zeroed by the page fault of whoever reads it first: about 3 us a
 * page on the host. A repaint that samples 48 MiB of such pages through
 * a viewport (hole-charge) took 26-44 ms of the loop thread's CPU. So
 * resident.c draws a view only when the pages it samples are in memory,
 * and hands the others to this thread, which faults them in with
 * MADV_POPULATE_READ (Linux 5.14; the VM's 6.1 and the host have it):
 * the same read fault the repaint would have taken, in the same process
 * and memory cgroup, on pages of a mapping the pool budget has charged
 * whole since it was mapped (account/memory.c), on this thread's CPU.
 *
 * The thread touches no pool, account or Wayland object: a job is a
 * list of byte ranges and a pointer to the mapping's address, which the
 * loop owns. Two rules keep the mapping there while the thread uses it:
 * - the job's owner holds a reference on the pool until @done, so the
 *   pool's last munmap (closer.c) and the reaper's slices (pool.c) come
 *   after the job, never during it;
 * - the one thing that moves a live mapping, a pool's resize (mremap
 *   may move it), happens under the populate lock, which the thread
 *   holds while it populates one chunk, and under which it reads the
 *   address again for the next: the loop waits at most one chunk
 *   (CHUNK below) there.
 * MADV_POPULATE_READ never makes the thread take a signal: a page past
 * the end of a file (a permissive policy's truncated pool) is -EFAULT,
 * and the job ends there.
 *
 * The thread, its queue and the way back are the worker's (worker.c), as
 * closer.c's: finished jobs go back to the loop, where @done runs: it
 * lets go of the pool and tells the view. At stop the jobs not begun are
 * dropped (@done with ECANCELED).
 *
 * The same thread runs a second kind of job, a call (wlseal_populate_
 * call): copy-read.c's pread() of a copied buffer's rows into the
 * buffer's image, which the loop leaves alone until the call's own @done
 * is back on the loop. The call, too, touches no pool, account or
 * Wayland object: an fd its job's pool reference keeps open, and the
 * image. Jobs of both kinds run one at a time, in the order they came.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <wayland-server-core.h>

#include "log.h"
#include "populate.h"
#include "worker.h"

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22	/* Linux 5.14 */
#endif

/* One madvise() at most: 64 pages, about 0.2 ms on the host. The most a
 * resize waits for the lock. */
#define CHUNK (256u << 10)

struct job {
	struct wlseal_worker_job work;
	void *const *base;
	struct wlseal_populate_range *ranges;
	int n;
	void *item;
	size_t pages;
	int err;	/* 0, or madvise()'s errno, or ECANCELED */
	/* A call: run(item) on the thread, done(item, err) on the loop. */
	void (*run)(void *item);
	void (*done)(void *item, int err);
};

static struct {
	struct wlseal_worker *worker;
	pthread_mutex_t map_lock;	/* the mappings' addresses */
	void (*done_fn)(void *item, size_t pages, int err);
	size_t page;
} pop = {
	.map_lock = PTHREAD_MUTEX_INITIALIZER,
};

static void populate(struct job *j)
{
	j->err = 0;
	for (int i = 0; i < j->n && !j->err; i++) {
		size_t off = j->ranges[i].off, end = off + j->ranges[i].len;

		while (off < end && !j->err) {
			size_t len = end - off < CHUNK ? end - off : CHUNK;

			pthread_mutex_lock(&pop.map_lock);
			if (madvise((char *)*j->base + off, len,
				    MADV_POPULATE_READ) < 0)
				j->err = errno;
			pthread_mutex_unlock(&pop.map_lock);
			if (!j->err)
				j->pages += len / pop.page;
			off += len;
		}
	}
}

/* On the thread. */
static void job_run(struct wlseal_worker_job *wj)
{
	struct job *j = wl_container_of(wj, j, work);

	if (j->run)
		j->run(j->item);
	else
		populate(j);
}

/* On the loop: @ran false for a job never begun, dropped at stop. */
static void job_done(struct wlseal_worker_job *wj, bool ran)
{
	struct job *j = wl_container_of(wj, j, work);

	if (!ran)
		j->err = ECANCELED;
	if (j->done)
		j->done(j->item, j->err);
	else
		pop.done_fn(j->item, j->pages, j->err);
	free(j->ranges);
	free(j);
}

bool wlseal_populate_start(struct wl_event_loop *loop,
			   void (*done)(void *item, size_t pages, int err))
{
	long page = sysconf(_SC_PAGESIZE);

	/* A fresh start each time, as closer.c's (tests/wlcs/). */
	pop.done_fn = done;
	pop.page = page > 0 ? (size_t)page : 4096;
	/* Jobs not begun at stop are dropped. */
	pop.worker = wlseal_worker_start(loop, "populate", false);
	return pop.worker != NULL;
}

bool wlseal_populate_put(void *const *base,
			 const struct wlseal_populate_range *ranges, int n,
			 void *item)
{
	struct job *j;

	if (!pop.worker || n <= 0)
		return false;
	j = calloc(1, sizeof(*j));
	if (!j)
		return false;
	j->ranges = malloc(sizeof(*ranges) * (size_t)n);
	if (!j->ranges) {
		free(j);
		return false;
	}
	memcpy(j->ranges, ranges, sizeof(*ranges) * (size_t)n);
	j->work.run = job_run;
	j->work.done = job_done;
	j->n = n;
	j->base = base;
	j->item = item;
	if (!wlseal_worker_submit(pop.worker, &j->work)) {
		free(j->ranges);
		free(j);
		return false;
	}
	return true;
}

bool wlseal_populate_call(void (*run)(void *item),
			  void (*done)(void *item, int err), void *item)
{
	struct job *j;

	if (!pop.worker)
		return false;
	j = calloc(1, sizeof(*j));
	if (!j)
		return false;
	j->work.run = job_run;
	j->work.done = job_done;
	j->run = run;
	j->done = done;
	j->item = item;
	if (!wlseal_worker_submit(pop.worker, &j->work)) {
		free(j);
		return false;
	}
	return true;
}

void wlseal_populate_lock(void)
{
	pthread_mutex_lock(&pop.map_lock);
}

void wlseal_populate_unlock(void)
{
	pthread_mutex_unlock(&pop.map_lock);
}

int wlseal_populate_pending(void)
{
	return wlseal_worker_pending(pop.worker);
}

void wlseal_populate_stop(void)
{
	/* Drops the jobs not begun, finishes the one running; every @done
	 * runs (a put or call from one of them is refused). */
	wlseal_worker_stop(pop.worker);
	pop.worker = NULL;
}
