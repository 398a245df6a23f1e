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
 * So the calls that may free a file run here, on a thread of the worker
 * (worker.c), which runs every job queued before it stops. The loop
 * hands over the mapping and the fd; the thread unmaps and closes them,
 * in order, and tells the loop, which then runs the job's @done
 * (pool.c's: the pool's, or a retired mapping's): the budget is
 * uncharged only now, so the totals never undercount what the compositor
 * still holds. Nothing else is shared: the thread touches no pool, no
 * account and no Wayland object, only the job and the worker's queues.
 * The mapping is read by nobody once handed over (the pool's last buffer
 * is gone, or the retired mapping's last pin), and the fd number is not
 * reused before close() returns, so handing them to another thread
 * changes no answer the loop gets.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <wayland-server-core.h>

#include "closer.h"
#include "log.h"
#include "worker.h"

struct job {
	struct wlseal_worker_job work;
	void *data;
	size_t len;
	int fd;
	void (*done)(void *item);
	void *item;
};

static struct wlseal_worker *closer;

static void release(const struct job *j)
{
	/* The length mapped: on hugetlbfs any other fails with EINVAL. */
	if (j->data && munmap(j->data, j->len) < 0)
		wlseal_log("munmap of a %zu-byte pool mapping failed: %s",
			   j->len, strerror(errno));
	if (j->fd >= 0)
		close(j->fd);
}

/* On the thread. */
static void job_run(struct wlseal_worker_job *wj)
{
	struct job *j = wl_container_of(wj, j, work);

	release(j);
}

/* On the loop: the mapping and the fd are gone. The worker drains its
 * queue at stop, so every job ran. */
static void job_done(struct wlseal_worker_job *wj, bool ran)
{
	struct job *j = wl_container_of(wj, j, work);

	(void)ran;
	j->done(j->item);
	free(j);
}

bool wlseal_closer_start(struct wl_event_loop *loop)
{
	closer = wlseal_worker_start(loop, "closer", true);
	if (!closer) {
		wlseal_log("no closer thread: pools are released on the event loop");
		return false;
	}
	return true;
}

void wlseal_closer_put(void *data, size_t len, int fd,
		       void (*done)(void *item), void *item)
{
	struct job *j = calloc(1, sizeof(*j));
	struct job now = { .data = data, .len = len, .fd = fd };

	if (j) {
		*j = (struct job){ .work = { .run = job_run, .done = job_done },
				   .data = data, .len = len, .fd = fd,
				   .done = done, .item = item };
		if (wlseal_worker_submit(closer, &j->work))
			return;
	}
	/* No thread (or no memory for the job): at once. */
	release(&now);
	free(j);
	done(item);
}

int wlseal_closer_pending(void)
{
	return wlseal_worker_pending(closer);
}

void wlseal_closer_stop(void)
{
	/* The thread finishes every job queued before it stops; their
	 * @done run (a put from one of them is done at once). */
	wlseal_worker_stop(closer);
	closer = NULL;
}
