/* SPDX-License-Identifier: MIT */
/*
 * closer.c - the last munmap() and close() of a pool, on a thread of its
 * own.
 *
 * Releasing a pool drops the compositor's references to the client's
 * file: the mapping and, while the resource lived, the fd. When those are
 * the last references (the client has closed its own and gone), the
 * kernel frees the whole file right there, in that munmap() or close()
 * (the final fput runs before the call returns to user space): every page
 * of a 1 GiB sparse file the compositor was made to read through, seconds
 * on the debug kernel under TCG, during which the event loop serves no
 * one and new clients cannot even connect. The reaper (pool.c) slices the
 * page table teardown of a large mapping across loop turns, but freeing
 * the file cannot be sliced: it is one call.
 *
 * So the calls that may free a file run here. The loop hands over the
 * mapping and the fd; this thread unmaps and closes them, in order, and
 * tells the loop through an eventfd, which then runs the job's @done
 * (pool.c's: the pool's, or a retired mapping's): the budget is
 * uncharged only now, so the totals never undercount what the compositor
 * still holds. Nothing else is shared: the thread touches no pool, no
 * account and no Wayland object, only the two queues under the mutex.
 * The mapping is read by nobody once handed over (the pool's last buffer
 * is gone, or the retired mapping's last pin), and the fd number is not
 * reused before close() returns, so handing them to another thread
 * changes no answer the loop gets.
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
#include "closer.h"
#include "log.h"

struct job {
	struct job *next;
	void *data;
	size_t len;
	int fd;
	void (*done)(void *item);
	void *item;
};

static struct {
	pthread_t thread;
	bool running, stopping;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	struct job *todo, **todo_tail;	/* FIFO, under lock */
	struct job *done;		/* under lock */
	int pending;			/* loop thread only */
	int efd;
	struct wl_event_source *source;
} closer = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.wake = PTHREAD_COND_INITIALIZER,
	.efd = -1,
};

static void release(const struct job *j)
{
	/* The length mapped: on hugetlbfs any other fails with EINVAL. */
	if (j->data && munmap(j->data, j->len) < 0)
		wlseal_log("munmap of a %zu-byte pool mapping failed: %s",
			   j->len, strerror(errno));
	if (j->fd >= 0)
		close(j->fd);
}

static void *closer_main(void *arg)
{
	uint64_t one = 1;

	(void)arg;
	pthread_mutex_lock(&closer.lock);
	for (;;) {
		struct job *j;

		while (!closer.todo && !closer.stopping)
			pthread_cond_wait(&closer.wake, &closer.lock);
		if (!closer.todo)
			break;
		j = closer.todo;
		closer.todo = j->next;
		if (!closer.todo)
			closer.todo_tail = &closer.todo;
		pthread_mutex_unlock(&closer.lock);
		release(j);
		pthread_mutex_lock(&closer.lock);
		j->next = closer.done;
		closer.done = j;
		if (write(closer.efd, &one, sizeof(one)) != sizeof(one))
			wlseal_log("closer eventfd: %s", strerror(errno));
	}
	pthread_mutex_unlock(&closer.lock);
	return NULL;
}

/* On the loop: run @done for every finished item. */
static void collect(void)
{
	struct job *j, *next;
	uint64_t n;

	if (read(closer.efd, &n, sizeof(n)) < 0 && errno != EAGAIN)
		wlseal_log("closer eventfd: %s", strerror(errno));
	pthread_mutex_lock(&closer.lock);
	j = closer.done;
	closer.done = NULL;
	pthread_mutex_unlock(&closer.lock);
	for (; j; j = next) {
		next = j->next;
		closer.pending--;
		j->done(j->item);
		free(j);
	}
}

static int closer_ready(int fd, uint32_t mask, void *data)
{
	wlseal_cpu_loop();
	(void)fd;
	(void)mask;
	(void)data;
	collect();
	return 0;
}

bool wlseal_closer_start(struct wl_event_loop *loop)
{
	sigset_t all, old;
	int err;

	/* A fresh start each time: a process may run servers one after
	 * another (the WLCS module, tests/wlcs/), and the last stop left
	 * stopping set. */
	closer.stopping = false;
	closer.todo = NULL;
	closer.done = NULL;
	closer.pending = 0;
	closer.todo_tail = &closer.todo;
	closer.efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (closer.efd < 0)
		return false;
	closer.source = wl_event_loop_add_fd(loop, closer.efd, WL_EVENT_READABLE,
					     closer_ready, NULL);
	/* The thread takes no signal: the loop reads them from a signalfd
	 * (main.c), and a thread with them unblocked would take SIGTERM's
	 * default action for the whole process. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = closer.source ?
	      pthread_create(&closer.thread, NULL, closer_main, NULL) : -1;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err != 0) {
		wlseal_log("no closer thread: pools are released on the event loop");
		if (closer.source)
			wl_event_source_remove(closer.source);
		close(closer.efd);
		closer.source = NULL;
		closer.efd = -1;
		return false;
	}
	closer.running = true;
	return true;
}

void wlseal_closer_put(void *data, size_t len, int fd,
		       void (*done)(void *item), void *item)
{
	struct job *j = calloc(1, sizeof(*j));

	if (j) {
		*j = (struct job){ .data = data, .len = len, .fd = fd,
				   .done = done, .item = item };
	}
	if (!j || !closer.running) {
		/* No thread (or no memory for the job): at once. */
		struct job now = { .data = data, .len = len, .fd = fd };

		release(&now);
		free(j);
		done(item);
		return;
	}
	closer.pending++;
	pthread_mutex_lock(&closer.lock);
	*closer.todo_tail = j;
	closer.todo_tail = &j->next;
	pthread_cond_signal(&closer.wake);
	pthread_mutex_unlock(&closer.lock);
}

int wlseal_closer_pending(void)
{
	return closer.pending;
}

void wlseal_closer_stop(void)
{
	if (!closer.running)
		return;
	pthread_mutex_lock(&closer.lock);
	closer.stopping = true;
	pthread_cond_signal(&closer.wake);
	pthread_mutex_unlock(&closer.lock);
	/* The thread finishes every job queued before it stops. */
	pthread_join(closer.thread, NULL);
	closer.running = false;
	collect();
	wl_event_source_remove(closer.source);
	close(closer.efd);
	closer.source = NULL;
	closer.efd = -1;
}
