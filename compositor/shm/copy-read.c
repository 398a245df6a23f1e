/* SPDX-License-Identifier: MIT */
/*
 * copy-read.c - when and where a copied buffer's rows are read
 * (--unsealed=copy): on the loop if they are few, otherwise on the
 * populate thread, with the buffer's views waiting for it.
 *
 * copy.c reads a commit's damaged rows with pread() into the buffer's
 * image; the whole buffer at its first commit. On the loop that costs
 * the commit's dispatch about 0.5 ms of CPU a MiB on the host, most of
 * it the faults of the image's fresh pages (64 MiB of a file's holes:
 * 30 ms; copy-hole-charge's dispatch took 46-49 ms, three frames in
 * which no other client was served). So a commit whose rows are more than
 * what a turn may read inline (INLINE_TURN_BYTES) is read on the populate thread (populate.c), whose CPU is
 * not the loop's; fewer rows are read at once, as before, and a small
 * client's new content shows with the next frame.
 *
 * While a read is in flight the image is the thread's: the loop neither
 * reads it nor writes it. The buffer's views are not drawn (their
 * residency check, wlseal_buffer_resident, is false: the scene shows
 * what it shows for any view that is not ready) and wait on the copy's
 * list; when the read is back they are damaged and drawn. The simplest
 * correct choice: keeping the previous content on screen would need a
 * second image, twice the memory the budget charges for the buffer, or
 * a copy of it on the loop, the cost this file takes off it. A commit
 * while a read is in flight (or while one waits for a slot) adds its
 * rows to the copy's dirty rows, one span from the first to the last,
 * read by the next read when this one is back: so the thread writes the
 * image alone, one read at a time per buffer.
 *
 * Bounds: at most WLSEAL_COPY_READS_PER_CLIENT reads in flight a client
 * (account/pools.c), one per buffer, each at most the buffer's
 * stride * height bytes, so the thread's queue holds at most that many
 * reads a client, in the order they came. A copy that finds its
 * client's slots taken waits on the starved list, RETRY_PER_REPORT of
 * it retried, in turn, whenever a read is back (one of its client's will be). What runs on the loop is
 * at most INLINE_TURN_BYTES of pread() a turn, and a few list operations.
 *
 * Lifetimes: a read holds a reference on the buffer's pool (its fd, its
 * account: the budget the image is charged to). The buffer, and its
 * client, may go while it is in flight: the copy is then freed by the
 * read's report (copy.c's wlseal_copy_free leaves it to it). A file
 * found too short (truncated) ends the client with wl_shm.error.
 * invalid_fd on the wl_buffer from the report, on the loop, and only if
 * the buffer is still there: as at commit before, and as libwayland's
 * wl_shm does when its SIGBUS handler catches the same truncation.
 */
#include <errno.h>
#include <stdlib.h>

#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "account.h"
#include "copy.h"
#include "log.h"
#include "pool.h"
#include "populate.h"
#include "shm.h"

/*
 * Rows read on the loop, in all, in one turn of it (account/cpu.c's
 * stretch: one client's requests, the loop's own work): about 4 ms of CPU
 * on the host, a quarter of a frame. A budget per turn, not per commit:
 * one read of a client's socket brings up to about 80 commits, and a
 * budget per commit would let them add up to many frames. Within it a
 * window's commit is read at once and its content shows with the next
 * frame, as before (a 1024x768 window is 3 MiB); past it the rows go to
 * the thread and the window waits for them.
 */
#define INLINE_TURN_BYTES (8u << 20)

static unsigned long long inline_turn;
static size_t inline_used;

/* May @bytes more be read on the loop in this turn? Counts them if so. */
static bool inline_allowed(size_t bytes)
{
	unsigned long long turn = wlseal_cpu_stretch();

	if (turn != inline_turn) {
		inline_turn = turn;
		inline_used = 0;
	}
	if (bytes > INLINE_TURN_BYTES - inline_used)
		return false;
	inline_used += bytes;
	return true;
}

struct read {
	struct wlseal_copy *copy;
	struct wlseal_pool *pool;	/* referenced until the report */
	struct wlseal_account *account;	/* holding one read slot */
	int fd;
	int64_t offset;
	int32_t stride;
	struct wlseal_row_span rows[WLSEAL_ROW_SPANS_MAX];
	int n;
	struct wlseal_copy_result result;
};

/* Copies a report retries at most (read_done). */
#define RETRY_PER_REPORT 8

/* Copies with dirty rows whose client had no read slot free. */
static struct wl_list starved = { &starved, &starved };

static void truncated(struct wl_resource *buffer)
{
	wl_resource_post_error(buffer, WL_SHM_ERROR_INVALID_FD,
			       "the pool's file is shorter than the buffer (truncated)");
}

/* On the populate thread: only the image and the read. */
static void read_run(void *item)
{
	struct read *r = item;

	wlseal_copy_fill(r->copy, r->fd, r->offset, r->stride, r->rows, r->n,
			 &r->result);
}

static void read_done(void *item, int err);

enum start { STARTED, NO_SLOT, NOT_QUEUED };

/* Hands @rows of @b's image to the thread. */
static enum start start(struct wlseal_shm_buffer *b,
			const struct wlseal_row_span *rows, int n)
{
	struct wlseal_account *account = b->pool->account;
	struct read *r;

	if (account && !wlseal_pool_copy_take(account))
		return NO_SLOT;
	r = calloc(1, sizeof(*r));
	if (!r)
		goto fail;
	r->copy = b->copy;
	r->pool = b->pool;
	r->account = account;
	r->fd = b->pool->fd;
	r->offset = b->offset;
	r->stride = b->stride;
	r->n = n;
	for (int i = 0; i < n; i++)
		r->rows[i] = rows[i];
	b->copy->reading = true;
	if (!wlseal_populate_call(read_run, read_done, r)) {
		b->copy->reading = false;
		free(r);
		goto fail;
	}
	wlseal_pool_ref(b->pool);
	wlseal_debug("copy pid=%d: rows of %d spans read off the loop",
		     (int)wlseal_client_pid(wl_resource_get_client(b->resource)),
		     n);
	return STARTED;
fail:
	if (account)
		wlseal_pool_copy_put(account);
	return NOT_QUEUED;
}

/* On the loop, the rows read at once (few, or no thread to take them).
 * false: the client was ended. */
static bool read_here(struct wlseal_shm_buffer *b,
		      const struct wlseal_row_span *rows, int n)
{
	struct wlseal_copy_result res;

	wlseal_copy_fill(b->copy, b->pool->fd, b->offset, b->stride, rows, n,
			 &res);
	if (wlseal_copy_report(wl_resource_get_client(b->resource), &res))
		return true;
	truncated(b->resource);
	return false;
}

/* Adds rows [y1, y2) to @c's dirty rows. */
static void add_dirty(struct wlseal_copy *c, int32_t y1, int32_t y2)
{
	if (y1 >= y2)
		return;
	if (!c->dirty) {
		c->dirty = true;
		c->dirty_y1 = y1;
		c->dirty_y2 = y2;
		return;
	}
	if (y1 < c->dirty_y1)
		c->dirty_y1 = y1;
	if (y2 > c->dirty_y2)
		c->dirty_y2 = y2;
}

/* Reads @c's dirty rows: on the thread, or waits for a slot. */
static void start_dirty(struct wlseal_copy *c)
{
	struct wlseal_shm_buffer *b = c->buffer;
	struct wlseal_row_span rows[1] = { { c->dirty_y1, c->dirty_y2 } };

	if (!b || c->reading || !c->dirty)
		return;
	switch (start(b, rows, 1)) {
	case STARTED:
		c->dirty = false;
		wl_list_remove(&c->starved_link);
		wl_list_init(&c->starved_link);
		return;
	case NO_SLOT:
		if (wl_list_empty(&c->starved_link))
			wl_list_insert(starved.prev, &c->starved_link);
		return;
	case NOT_QUEUED:
		c->dirty = false;
		wl_list_remove(&c->starved_link);
		wl_list_init(&c->starved_link);
		read_here(b, rows, 1);
		return;
	}
}

/* Every view waiting for @c's read is damaged and asks again. */
static void wake(struct wlseal_copy *c)
{
	struct wlseal_resident_waiter *w, *tmp;
	struct wl_list woken;

	wl_list_init(&woken);
	wl_list_insert_list(&woken, &c->waiters);
	wl_list_init(&c->waiters);
	wl_list_for_each_safe(w, tmp, &woken, starved_link) {
		wl_list_remove(&w->starved_link);
		wl_list_init(&w->starved_link);
		w->populated(w);
	}
}

/* On the loop: a read is back (or was dropped at exit: ECANCELED). */
static void read_done(void *item, int err)
{
	struct read *r = item;
	struct wlseal_copy *c = r->copy, *s;
	struct wlseal_shm_buffer *b = c->buffer;
	bool alive = true;

	c->reading = false;
	if (r->account)
		wlseal_pool_copy_put(r->account);
	if (!b) {
		/* The buffer went meanwhile: nothing to tell anyone. */
		wlseal_copy_free(c);
	} else if (!err) {
		if (!wlseal_copy_report(wl_resource_get_client(b->resource),
					&r->result)) {
			truncated(b->resource);
			alive = false;
		}
		if (alive && c->dirty)
			start_dirty(c);
		if (!c->reading && !c->dirty)
			wake(c);
	}
	wlseal_pool_unref(r->pool);
	free(r);
	if (err)
		return;
	/*
	 * A slot came free: the first RETRY_PER_REPORT copies that found
	 * none try again, those that still find none go to the back. Not
	 * all of them: they are every client's, and a report's work must
	 * not grow with other clients' buffers. Nothing waits forever: a
	 * copy is starved only while its client has reads in flight, each
	 * of which comes back with a report that turns the list on; and
	 * once no client has a read in flight, every copy left can start,
	 * so each report starts one, whose own report follows.
	 */
	for (int i = 0; i < RETRY_PER_REPORT && !wl_list_empty(&starved); i++) {
		s = wl_container_of(starved.next, s, starved_link);
		wl_list_remove(&s->starved_link);
		wl_list_init(&s->starved_link);
		start_dirty(s);
	}
}

void wlseal_copy_commit(struct wlseal_shm_buffer *b,
			const struct wlseal_row_span *spans, int n)
{
	struct wlseal_copy *c = b->copy;
	struct wlseal_row_span rows[WLSEAL_ROW_SPANS_MAX];
	size_t bytes;
	int nr;

	c->buffer = b;
	nr = wlseal_copy_rows(c, b->height, b->stride, spans, n, rows, &bytes);
	if (nr == 0)
		return;
	if (c->reading || c->dirty) {
		/* The image is the thread's, or rows wait for a slot:
		 * these follow them. */
		add_dirty(c, rows[0].y1, rows[nr - 1].y2);
		return;
	}
	if (!inline_allowed(bytes)) {
		switch (start(b, rows, nr)) {
		case STARTED:
			return;
		case NO_SLOT:
			add_dirty(c, rows[0].y1, rows[nr - 1].y2);
			wl_list_insert(starved.prev, &c->starved_link);
			return;
		case NOT_QUEUED:
			break;
		}
	}
	read_here(b, rows, nr);
}

bool wlseal_copy_ready(struct wlseal_shm_buffer *b,
		       struct wlseal_resident_waiter *w)
{
	struct wlseal_copy *c = b->copy;

	if (!c->reading && !c->dirty)
		return true;
	/* Wherever it waited before (another buffer's read, a populate
	 * slot), it waits for this read now. */
	wl_list_remove(&w->starved_link);
	wl_list_insert(c->waiters.prev, &w->starved_link);
	return false;
}
