/* SPDX-License-Identifier: MIT */
/*
 * worker.c - one thread running a queue of jobs off the event loop, for
 * closer.c (a pool's last munmap() and close()) and populate.c (pages
 * faulted in, and copy-read.c's reads).
 *
 * The loop queues a job (FIFO, under the worker's mutex) and signals the
 * condition variable; the thread takes one job at a time, runs it
 * without the mutex, puts it on the done list and writes an eventfd,
 * whose readiness brings the loop back here to run each finished job's
 * @done. So a job's @done always runs on the loop, after its @run. What
 * a job's @run may touch, and why that is safe off the loop, is its
 * owner's argument (closer.c, populate.c): this file touches nothing but
 * its own queues, under its mutex, and the eventfd.
 *
 * At stop the thread finishes the job it is running, then either runs
 * the rest of the queue first (@drain: closer.c, whose jobs must happen)
 * or leaves them (populate.c's, which may be dropped): those get their
 * @done with @ran false after the join. Then every finished job's @done
 * runs, and the worker is gone.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <wayland-server-core.h>

#include "account.h"
#include "log.h"
#include "worker.h"

struct wlseal_worker {
	const char *name;
	bool drain;
	pthread_t thread;
	bool stopping;			/* under lock */
	bool closed;			/* loop thread only: no more jobs */
	pthread_mutex_t lock;
	pthread_cond_t wake;
	struct wlseal_worker_job *todo, **todo_tail;	/* FIFO, under lock */
	struct wlseal_worker_job *done;			/* under lock */
	int pending;			/* loop thread only */
	int efd;
	struct wl_event_source *source;
};

static void *worker_main(void *arg)
{
	struct wlseal_worker *w = arg;
	uint64_t one = 1;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		struct wlseal_worker_job *j;

		while (!w->todo && !w->stopping)
			pthread_cond_wait(&w->wake, &w->lock);
		/* Stopping: a draining worker ends once the queue is empty,
		 * the other at once (what is left is dropped by stop). */
		if (!w->todo || (w->stopping && !w->drain))
			break;
		j = w->todo;
		w->todo = j->next;
		if (!w->todo)
			w->todo_tail = &w->todo;
		pthread_mutex_unlock(&w->lock);
		j->run(j);
		pthread_mutex_lock(&w->lock);
		j->next = w->done;
		w->done = j;
		if (write(w->efd, &one, sizeof(one)) != sizeof(one))
			wlseal_log("%s eventfd: %s", w->name, strerror(errno));
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

/* On the loop: run @done for every finished job. */
static void collect(struct wlseal_worker *w)
{
	struct wlseal_worker_job *j, *next;
	uint64_t n;

	if (read(w->efd, &n, sizeof(n)) < 0 && errno != EAGAIN)
		wlseal_log("%s eventfd: %s", w->name, strerror(errno));
	pthread_mutex_lock(&w->lock);
	j = w->done;
	w->done = NULL;
	pthread_mutex_unlock(&w->lock);
	for (; j; j = next) {
		next = j->next;
		w->pending--;
		j->done(j, true);
	}
}

static int worker_ready(int fd, uint32_t mask, void *data)
{
	wlseal_cpu_loop();
	(void)fd;
	(void)mask;
	collect(data);
	return 0;
}

struct wlseal_worker *wlseal_worker_start(struct wl_event_loop *loop,
					  const char *name, bool drain)
{
	struct wlseal_worker *w = calloc(1, sizeof(*w));
	sigset_t all, old;
	int err;

	/* A fresh worker each time: a process may run servers one after
	 * another (the WLCS module, tests/wlcs/). */
	if (!w)
		return NULL;
	w->name = name;
	w->drain = drain;
	w->todo_tail = &w->todo;
	if (pthread_mutex_init(&w->lock, NULL) != 0) {
		free(w);
		return NULL;
	}
	if (pthread_cond_init(&w->wake, NULL) != 0)
		goto no_cond;
	w->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (w->efd < 0)
		goto no_efd;
	w->source = wl_event_loop_add_fd(loop, w->efd, WL_EVENT_READABLE,
					 worker_ready, w);
	/* The thread takes no signal: the loop reads them from a signalfd
	 * (server.c), and a thread with them unblocked would take SIGTERM's
	 * default action for the whole process. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = w->source ?
	      pthread_create(&w->thread, NULL, worker_main, w) : -1;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err != 0) {
		if (w->source)
			wl_event_source_remove(w->source);
		close(w->efd);
		goto no_efd;
	}
	return w;

no_efd:
	pthread_cond_destroy(&w->wake);
no_cond:
	pthread_mutex_destroy(&w->lock);
	free(w);
	return NULL;
}

bool wlseal_worker_submit(struct wlseal_worker *w,
			  struct wlseal_worker_job *job)
{
	if (!w || w->closed)
		return false;
	job->next = NULL;
	w->pending++;
	pthread_mutex_lock(&w->lock);
	*w->todo_tail = job;
	w->todo_tail = &job->next;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
	return true;
}

int wlseal_worker_pending(const struct wlseal_worker *w)
{
	return w ? w->pending : 0;
}

void wlseal_worker_stop(struct wlseal_worker *w)
{
	struct wlseal_worker_job *j, *next;

	if (!w)
		return;
	w->closed = true;
	pthread_mutex_lock(&w->lock);
	w->stopping = true;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	collect(w);
	/* Jobs never begun (a worker without @drain): done, not run. */
	j = w->todo;
	w->todo = NULL;
	w->todo_tail = &w->todo;
	for (; j; j = next) {
		next = j->next;
		w->pending--;
		j->done(j, false);
	}
	wl_event_source_remove(w->source);
	close(w->efd);
	pthread_cond_destroy(&w->wake);
	pthread_mutex_destroy(&w->lock);
	free(w);
}
