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
 * Finished jobs go back to the loop through an eventfd, like closer.c's,
 * where @done runs: it lets go of the pool and tells the view.
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
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include <wayland-server-core.h>

#include "account.h"
#include "log.h"
#include "populate.h"

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22	/* Linux 5.14 */
#endif

/* One madvise() at most: 64 pages, about 0.2 ms on the host. The most a
 * resize waits for the lock. */
#define CHUNK (256u << 10)

struct job {
	struct job *next;
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
	pthread_t thread;
	bool running, stopping;
	pthread_mutex_t lock;		/* the queues */
	pthread_mutex_t map_lock;	/* the mappings' addresses */
	pthread_cond_t wake;
	struct job *todo, **todo_tail;	/* FIFO, under lock */
	struct job *done;		/* under lock */
	int pending;			/* loop thread only */
	int efd;
	struct wl_event_source *source;
	void (*done_fn)(void *item, size_t pages, int err);
	size_t page;
} pop = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.map_lock = PTHREAD_MUTEX_INITIALIZER,
	.wake = PTHREAD_COND_INITIALIZER,
	.efd = -1,
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

static void *populate_main(void *arg)
{
	uint64_t one = 1;

	(void)arg;
	pthread_mutex_lock(&pop.lock);
	for (;;) {
		struct job *j;

		while (!pop.todo && !pop.stopping)
			pthread_cond_wait(&pop.wake, &pop.lock);
		if (pop.stopping)
			break;	/* what is left is dropped by stop */
		j = pop.todo;
		pop.todo = j->next;
		if (!pop.todo)
			pop.todo_tail = &pop.todo;
		pthread_mutex_unlock(&pop.lock);
		if (j->run)
			j->run(j->item);
		else
			populate(j);
		pthread_mutex_lock(&pop.lock);
		j->next = pop.done;
		pop.done = j;
		if (write(pop.efd, &one, sizeof(one)) != sizeof(one))
			wlseal_log("populate eventfd: %s", strerror(errno));
	}
	pthread_mutex_unlock(&pop.lock);
	return NULL;
}

static void finish(struct job *j)
{
	pop.pending--;
	if (j->done)
		j->done(j->item, j->err);
	else
		pop.done_fn(j->item, j->pages, j->err);
	free(j->ranges);
	free(j);
}

/* On the loop: run @done for every finished job. */
static void collect(void)
{
	struct job *j, *next;
	uint64_t n;

	if (read(pop.efd, &n, sizeof(n)) < 0 && errno != EAGAIN)
		wlseal_log("populate eventfd: %s", strerror(errno));
	pthread_mutex_lock(&pop.lock);
	j = pop.done;
	pop.done = NULL;
	pthread_mutex_unlock(&pop.lock);
	for (; j; j = next) {
		next = j->next;
		finish(j);
	}
}

static int populate_ready(int fd, uint32_t mask, void *data)
{
	wlseal_cpu_loop();
	(void)fd;
	(void)mask;
	(void)data;
	collect();
	return 0;
}

bool wlseal_populate_start(struct wl_event_loop *loop,
			   void (*done)(void *item, size_t pages, int err))
{
	sigset_t all, old;
	long page = sysconf(_SC_PAGESIZE);
	int err;

	/* A fresh start each time, as closer.c's (tests/wlcs/). */
	pop.stopping = false;
	pop.todo = NULL;
	pop.done = NULL;
	pop.pending = 0;
	pop.done_fn = done;
	pop.todo_tail = &pop.todo;
	pop.page = page > 0 ? (size_t)page : 4096;
	pop.efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (pop.efd < 0)
		return false;
	pop.source = wl_event_loop_add_fd(loop, pop.efd, WL_EVENT_READABLE,
					  populate_ready, NULL);
	/* No signals on this thread (closer.c says why). */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pop.source ?
	      pthread_create(&pop.thread, NULL, populate_main, NULL) : -1;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err != 0) {
		if (pop.source)
			wl_event_source_remove(pop.source);
		close(pop.efd);
		pop.source = NULL;
		pop.efd = -1;
		return false;
	}
	pop.running = true;
	return true;
}

bool wlseal_populate_put(void *const *base,
			 const struct wlseal_populate_range *ranges, int n,
			 void *item)
{
	struct job *j;

	if (!pop.running || n <= 0)
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
	j->n = n;
	j->base = base;
	j->item = item;
	pop.pending++;
	pthread_mutex_lock(&pop.lock);
	*pop.todo_tail = j;
	pop.todo_tail = &j->next;
	pthread_cond_signal(&pop.wake);
	pthread_mutex_unlock(&pop.lock);
	return true;
}

bool wlseal_populate_call(void (*run)(void *item),
			  void (*done)(void *item, int err), void *item)
{
	struct job *j;

	if (!pop.running)
		return false;
	j = calloc(1, sizeof(*j));
	if (!j)
		return false;
	j->run = run;
	j->done = done;
	j->item = item;
	pop.pending++;
	pthread_mutex_lock(&pop.lock);
	*pop.todo_tail = j;
	pop.todo_tail = &j->next;
	pthread_cond_signal(&pop.wake);
	pthread_mutex_unlock(&pop.lock);
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
	return pop.pending;
}

void wlseal_populate_stop(void)
{
	struct job *j, *next;

	if (!pop.running)
		return;
	pthread_mutex_lock(&pop.lock);
	pop.stopping = true;
	pthread_cond_signal(&pop.wake);
	pthread_mutex_unlock(&pop.lock);
	pthread_join(pop.thread, NULL);
	pop.running = false;
	collect();
	/* Jobs never begun: done, with nothing populated. */
	for (j = pop.todo; j; j = next) {
		next = j->next;
		j->err = ECANCELED;
		finish(j);
	}
	pop.todo = NULL;
	pop.todo_tail = &pop.todo;
	wl_event_source_remove(pop.source);
	close(pop.efd);
	pop.source = NULL;
	pop.efd = -1;
}
