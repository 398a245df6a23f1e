/* SPDX-License-Identifier: MIT */
/*
 * resident.c - a view of a pool is drawn only when the pages it samples
 * are in memory.
 *
 * A sealed pool may be sparse: SEAL_SHRINK keeps the file's size, not its
 * pages, and a hole costs its client nothing. Reading a hole is a page
 * fault that allocates and zeroes a page, about 3 us on the host; a
 * viewport that samples a tall buffer sparsely (hole-charge) made one
 * repaint fault 48 MiB of holes: 26-44 ms of the loop thread's CPU, time
 * in which no other client is served. So before a view of a mapped pool
 * is drawn, the pages its drawn part samples are looked up with mincore()
 * (which takes no fault); if all are in memory it is drawn, otherwise it
 * is not drawn this repaint: the ranges not in memory go to the populate
 * thread (populate.c), whose CPU is not the loop's, and when it reports
 * back the view is damaged and drawn again (the waiter's @populated).
 * A repaint then never faults in a page that was not in memory when it
 * began, with one exception, below. (A page in memory that the
 * compositor has not mapped yet, one its client wrote, still costs the
 * draw a fault that only maps it: no allocation, and the kernel maps the
 * 16 pages around it that are in memory too, about 15 ns a page on the
 * host. Populated pages are mapped already.)
 *
 * What a draw samples (sampled_spans): the rows of the buffer that the
 * drawn part's rows (columns, for a quarter turn) map to, at most three
 * per output row (a bilinear filter reads two; one more for rounding),
 * each from the first to the last column sampled: a span of pages. Rows
 * whose spans lie at most GAP pages apart are looked up in one mincore()
 * call. The lookup of one view in one repaint costs:
 *
 *   - one step of arithmetic per output row (or column) drawn;
 *   - at most one mincore() call per buffer row sampled, about 1 us each
 *     on the host: at most 3 per output row;
 *   - at most VIEW_PAGES pages looked up (plus GAP per call), 2 ns a page
 *     mapped here, 3 ns a hole, 40 ns a page in memory not yet mapped
 *     here: at most 1.3 ms.
 *
 * A view whose drawn part samples more than VIEW_PAGES pages (128 MiB;
 * a 4K buffer shown 1:1 samples 32 MiB) is not drawn at all, and its
 * client is told once. What the lookups of all views of a repaint cost
 * together is charged to the overdraw budget with their pixels
 * (wlseal_buffer_sample_cost_ns, scene/render.c), at what a call and a
 * page cost on the machine at hand: measured at start in the loop
 * thread's CPU time (calibrate()), since a system call's price varies
 * twentyfold between hosts (0.1 us on bare metal, 1.5 us for mincore()
 * under a paravirtualised guest kernel, more under TCG) and a guess
 * made on one host let a repaint of 108 turned views on another spend
 * 13 ms in mincore() alone. So a client's views, and all clients',
 * look up no more than the budget lets them draw.
 *
 * Populations are bounded per client: WLSEAL_POPULATE_PER_CLIENT jobs in
 * flight (account/pools.c), one per view at a time, each at most
 * VIEW_PAGES pages, so the thread's queue holds at most that many jobs a
 * client, in the order they came. A view that finds its client's slots
 * taken is not drawn, and waits on the starved list, whose views are all
 * damaged again whenever any job finishes (one of its client's will).
 * A population that fails (the kernel refuses: a permissive policy's
 * truncated file) marks its pool: the pool's views are not drawn.
 *
 * Memory: the populate thread faults in pages of the pool's mapping,
 * which the pool budget charged whole when it was mapped (account/
 * memory.c): the same pages the repaint would have faulted, in the same
 * process and memory cgroup. Nothing is charged twice or bypassed.
 *
 * Lifetime: a job holds a reference on its pool, so the pool's mapping is
 * neither released (closer.c) nor sliced by the reaper (pool.c) until its
 * report is back on the loop; a resize that moves the mapping waits for
 * the thread's chunk (populate.c). A view that goes (its surface is
 * destroyed) leaves its job to finish unobserved.
 *
 * The exception: a page can leave memory between the lookup and the
 * draw. Its client can punch a hole (FALLOC_FL_PUNCH_HOLE: SEAL_SHRINK
 * does not forbid it, and no seal that a client may keep writing under
 * does), and memory pressure can swap a page out. Then the draw faults it
 * in again, as before. The bound: per repaint, at most the pages the
 * drawn views sample, each view at most VIEW_PAGES, all of them within
 * what the overdraw budget lets the repaint sample; that is, bounded by
 * the output's area (times the budget), never by the pool's size. To
 * keep the gap small, the lookup is made right before the view is drawn
 * (scene/render.c, check_ready), so a client must punch inside that gap,
 * every repaint, for every page it wants faulted; the pages it punched
 * before a lookup are populated off the loop again.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <wayland-server-core.h>

#include "account.h"
#include "copy-read.h"
#include "log.h"
#include "pool.h"
#include "populate.h"
#include "resident.h"
#include "shm.h"

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22	/* Linux 5.14 */
#endif

/* The pages one view may sample in one repaint: 128 MiB. */
#define VIEW_PAGES 32768
/* Spans this close share one mincore() call: the pages between cost
 * less than a call. */
#define GAP 64
/* One mincore() call at most: its vector. */
#define VEC_PAGES 4096
/* The calibration (calibrate()): calls of one page, and calls of
 * CAL_PAGES holes, CAL_ROUNDS of each. */
#define CAL_PAGES 1024
#define CAL_ROUNDS 32

struct job {
	struct wlseal_pool *pool;	/* referenced until done */
	struct wlseal_account *account;	/* holding one populate slot */
	struct wlseal_resident_waiter *waiter;	/* NULL once it went */
};

/* Pages [p1, p2) of a pool mapping. */
struct span {
	size_t p1, p2;
};

static struct {
	bool on;
	size_t page;
	struct wl_list starved;		/* waiter.starved_link */
	/* Scratch of the loop thread, kept for the process's life. */
	struct span *spans;
	size_t spans_cap;
	struct wlseal_populate_range *ranges;
	size_t ranges_cap;
	unsigned char vec[VEC_PAGES];
	/* What a lookup costs on this machine, measured at start
	 * (calibrate()): a mincore() call, and a page looked up. */
	uint64_t call_ns, page_ns;
} res;

static int64_t floor64(double v)
{
	int64_t i = (int64_t)v;

	return i - (v < (double)i);
}

/*
 * The buffer indices (rows or columns, @n of them) sampled at output
 * index @i, whose centre maps to @k * (i + 0.5) + @o: pixman reads
 * floor(u - e) without a filter, floor(u - 0.5) and the next one with
 * the bilinear filter; a margin of 1/256 takes rounding in. PAD repeat:
 * what is outside reads the edge.
 */
static void sampled_at(double k, double o, int64_t i, bool bilinear,
		       int64_t n, int64_t *lo, int64_t *hi)
{
	double u = k * ((double)i + 0.5) + o;
	double r = (bilinear ? 0.5 : 0.0) + 1.0 / 256;

	*lo = floor64(u - r);
	*hi = floor64(u + r);
	if (*lo < 0)
		*lo = 0;
	if (*hi > n - 1)
		*hi = n - 1;
	if (*lo > n - 1)
		*lo = n - 1;
	if (*hi < 0)
		*hi = 0;
}

static bool span_push(size_t p1, size_t p2, size_t *n)
{
	struct span *s;

	/* Adjacent or overlapping (rows come in order): one span. */
	if (*n > 0 && p1 <= res.spans[*n - 1].p2 &&
	    p2 - res.spans[*n - 1].p1 <= VEC_PAGES) {
		if (p2 > res.spans[*n - 1].p2)
			res.spans[*n - 1].p2 = p2;
		return true;
	}
	if (*n == res.spans_cap) {
		size_t cap = res.spans_cap ? res.spans_cap * 2 : 256;

		s = realloc(res.spans, cap * sizeof(*s));
		if (!s)
			return false;
		res.spans = s;
		res.spans_cap = cap;
	}
	res.spans[(*n)++] = (struct span){ p1, p2 };
	return true;
}

/* Rows [@r1, @r2] of @b, columns [@c1, @c2]: their pages, counted into
 * *@pages; false past VIEW_PAGES (or short of memory). */
static bool rows_spans(const struct wlseal_shm_buffer *b, int64_t r1,
		       int64_t r2, int64_t c1, int64_t c2, size_t *n,
		       size_t *pages)
{
	size_t page = res.page;

	for (int64_t r = r1; r <= r2; r++) {
		size_t row = (size_t)b->offset + (size_t)r * (size_t)b->stride;
		size_t p1 = (row + (size_t)c1 * 4) / page;
		size_t p2 = (row + ((size_t)c2 + 1) * 4 + page - 1) / page;

		*pages += p2 - p1;
		if (*pages > VIEW_PAGES)
			return false;
		for (size_t p = p1; p < p2; p += VEC_PAGES)
			if (!span_push(p, p2 - p > VEC_PAGES ? p + VEC_PAGES : p2,
				       n))
				return false;
	}
	return true;
}

/*
 * The spans of pages @s samples of @b, in order, into res.spans: their
 * number, or -1 when they pass VIEW_PAGES pages (or memory is short).
 * *@pages receives the pages counted (a page two rows share counts
 * twice).
 */
static long sampled_spans(const struct wlseal_shm_buffer *b,
			  const struct wlseal_sampling *s, size_t *pages)
{
	double kc, oc, kr, orow;
	int32_t c1, c2, r1, r2;		/* output ranges: columns, rows */
	int64_t lo, hi, clo, chi, cur_lo = 0, cur_hi = 0, first, last, step;
	bool bilinear = s->transformed && s->bilinear, have = false;
	size_t n = 0;

	*pages = 0;
	if (s->x1 >= s->x2 || s->y1 >= s->y2)
		return 0;
	if (!s->transformed) {
		kc = kr = 1;
		oc = orow = 0;
		c1 = s->x1, c2 = s->x2, r1 = s->y1, r2 = s->y2;
	} else if (s->m[0][1] == 0 && s->m[1][0] == 0) {
		kc = s->m[0][0] / 65536.0, oc = s->m[0][2] / 65536.0;
		kr = s->m[1][1] / 65536.0, orow = s->m[1][2] / 65536.0;
		c1 = s->x1, c2 = s->x2, r1 = s->y1, r2 = s->y2;
	} else if (s->m[0][0] == 0 && s->m[1][1] == 0) {
		/* A quarter turn: buffer rows follow output columns. */
		kc = s->m[0][1] / 65536.0, oc = s->m[0][2] / 65536.0;
		kr = s->m[1][0] / 65536.0, orow = s->m[1][2] / 65536.0;
		c1 = s->y1, c2 = s->y2, r1 = s->x1, r2 = s->x2;
	} else {
		/* surface/surface-geometry.c makes no other kind of map. */
		return -1;
	}
	/* Columns: from the first to the last sampled (the map is linear:
	 * its ends are the extremes). */
	sampled_at(kc, oc, c1, bilinear, b->width, &clo, &chi);
	sampled_at(kc, oc, c2 - 1, bilinear, b->width, &lo, &hi);
	if (lo < clo)
		clo = lo;
	if (hi > chi)
		chi = hi;
	/* Rows in the buffer's order (a flip walks the output backwards),
	 * each output row's merged with the rows before when they touch. */
	step = kr < 0 ? -1 : 1;
	first = step > 0 ? r1 : r2 - 1;
	last = step > 0 ? r2 - 1 : r1;
	for (int64_t j = first;; j += step) {
		sampled_at(kr, orow, j, bilinear, b->height, &lo, &hi);
		if (have && lo <= cur_hi + 1) {
			if (hi > cur_hi)
				cur_hi = hi;
		} else {
			if (have && !rows_spans(b, cur_lo, cur_hi, clo, chi, &n,
						pages))
				return -1;
			cur_lo = lo;
			cur_hi = hi;
			have = true;
		}
		if (j == last)
			break;
	}
	if (!rows_spans(b, cur_lo, cur_hi, clo, chi, &n, pages))
		return -1;
	return (long)n;
}

/* Spans [@i, return) are looked up in one mincore() call. */
static size_t group_end(size_t i, size_t n)
{
	size_t start = res.spans[i].p1, end = res.spans[i].p2, k = i + 1;

	while (k < n && res.spans[k].p1 <= end + GAP &&
	       res.spans[k].p2 - start <= VEC_PAGES)
		end = res.spans[k++].p2;
	return k;
}

static bool range_push(const struct wlseal_pool *pool, size_t p1, size_t p2,
		       size_t *n)
{
	size_t off = p1 * res.page / pool->page * pool->page;
	size_t end = (p2 * res.page + pool->page - 1) / pool->page * pool->page;
	struct wlseal_populate_range *r;

	if (end > pool->map_len)
		end = pool->map_len;
	if (*n > 0 && off <= res.ranges[*n - 1].off + res.ranges[*n - 1].len) {
		r = &res.ranges[*n - 1];
		if (end > r->off + r->len)
			r->len = end - r->off;
		return true;
	}
	if (*n == res.ranges_cap) {
		size_t cap = res.ranges_cap ? res.ranges_cap * 2 : 64;

		r = realloc(res.ranges, cap * sizeof(*r));
		if (!r)
			return false;
		res.ranges = r;
		res.ranges_cap = cap;
	}
	res.ranges[(*n)++] = (struct wlseal_populate_range){ off, end - off };
	return true;
}

/*
 * Looks up the @n spans of @pool's mapping in res.spans: the pages not in
 * memory, whose ranges (from the first to the last of each span) go to
 * res.ranges, *@nranges of them (-1: no memory for them).
 */
static size_t missing_pages(const struct wlseal_pool *pool, size_t n,
			    long *nranges)
{
	size_t missing = 0, nr = 0;

	for (size_t i = 0; i < n;) {
		size_t k = group_end(i, n), start = res.spans[i].p1;
		size_t end = res.spans[k - 1].p2;
		/* mincore() fails only for a range not mapped, which a
		 * pool's never is: should it, nothing counts as there. */
		bool none = mincore((char *)pool->data + start * res.page,
				    (end - start) * res.page, res.vec) < 0;

		for (size_t g = i; g < k; g++) {
			size_t f = SIZE_MAX, l = 0;

			for (size_t p = res.spans[g].p1; p < res.spans[g].p2; p++) {
				if (!none && (res.vec[p - start] & 1))
					continue;
				if (f == SIZE_MAX)
					f = p;
				l = p;
				missing++;
			}
			if (f != SIZE_MAX && nr != SIZE_MAX &&
			    !range_push(pool, f, l + 1, &nr))
				nr = SIZE_MAX;
		}
		i = k;
	}
	*nranges = nr == SIZE_MAX ? -1 : (long)nr;
	return missing;
}

uint64_t wlseal_buffer_sample_cost_ns(struct wl_resource *buffer,
				      const struct wlseal_sampling *s)
{
	struct wlseal_shm_buffer *b = wlseal_shm_buffer_from_resource(buffer);
	uint64_t calls = 0;
	size_t pages;
	long n;

	if (!res.on || !b || b->copy || !b->pool->data)
		return 0;
	n = sampled_spans(b, s, &pages);
	if (n <= 0)
		return 0;	/* nothing, or not drawn at all */
	for (size_t i = 0; i < (size_t)n; i = group_end(i, (size_t)n))
		calls++;
	return (uint64_t)pages * res.page_ns + calls * res.call_ns;
}

/* Wherever it waited before (a copied buffer's read), it waits for a
 * slot now. */
static void starve(struct wlseal_resident_waiter *w)
{
	wl_list_remove(&w->starved_link);
	wl_list_insert(res.starved.prev, &w->starved_link);
}

bool wlseal_buffer_resident(struct wl_resource *buffer,
			    const struct wlseal_sampling *s,
			    struct wlseal_resident_waiter *w)
{
	struct wlseal_shm_buffer *b = wlseal_shm_buffer_from_resource(buffer);
	struct wlseal_pool *pool;
	struct job *job;
	size_t pages, missing;
	long n, nranges;

	/* A copied buffer: is a read of its rows in flight (copy-read.c)? */
	if (b && b->copy)
		return wlseal_copy_ready(b, w);
	if (!res.on || !b || !b->pool->data)
		return true;
	pool = b->pool;
	if (pool->unpopulated)
		return false;
	n = sampled_spans(b, s, &pages);
	if (n < 0) {
		if (wlseal_account_once(wl_resource_get_client(buffer),
					WLSEAL_ONCE_SAMPLES_TOO_MANY))
			wlseal_account_log(wl_resource_get_client(buffer),
					   "client pid=%d: a view samples more than %d pages of its pool in one repaint; it is not drawn",
					   (int)wlseal_client_pid(wl_resource_get_client(buffer)),
					   VIEW_PAGES);
		return false;
	}
	missing = missing_pages(pool, (size_t)n, &nranges);
	if (missing == 0)
		return true;
	if (w->job)
		return false;	/* its report brings it back */
	if (nranges <= 0)
		return true;	/* no memory to say which: as before */
	if (pool->account && !wlseal_pool_populate_take(pool->account)) {
		starve(w);
		return false;
	}
	job = calloc(1, sizeof(*job));
	if (!job || !wlseal_populate_put(&pool->data, res.ranges, (int)nranges,
					 job)) {
		/* No memory for the job: drawn as before. */
		free(job);
		if (pool->account)
			wlseal_pool_populate_put(pool->account);
		return true;
	}
	wlseal_pool_ref(pool);
	job->pool = pool;
	job->account = pool->account;
	job->waiter = w;
	w->job = job;
	wlseal_debug("resident: client pid=%d: %zu of %zu sampled pages not in memory, %ld ranges populating",
		     (int)wlseal_client_pid(wl_resource_get_client(buffer)),
		     missing, pages, nranges);
	return false;
}

/* On the loop: a job is back (populate.c). */
static void populated(void *item, size_t pages, int err)
{
	struct job *job = item;
	struct wlseal_resident_waiter *w, *tmp;
	struct wl_list woken;

	/* A sealed pool's pages can always be read: a failure is a
	 * permissive policy's truncated file, or no memory. */
	if (err && err != ECANCELED && !job->pool->unpopulated) {
		job->pool->unpopulated = true;
		wlseal_log("resident: the kernel did not populate a pool's pages (%s): its buffers are not drawn",
			   strerror(err));
	}
	wlseal_debug("resident: populated %zu pages", pages);
	if (job->account)
		wlseal_pool_populate_put(job->account);
	if (job->waiter) {
		job->waiter->job = NULL;
		job->waiter->populated(job->waiter);
	}
	wlseal_pool_unref(job->pool);
	free(job);
	/* A slot came free: every view that found none asks again. */
	wl_list_init(&woken);
	wl_list_insert_list(&woken, &res.starved);
	wl_list_init(&res.starved);
	wl_list_for_each_safe(w, tmp, &woken, starved_link) {
		wl_list_remove(&w->starved_link);
		wl_list_init(&w->starved_link);
		w->populated(w);
	}
}

void wlseal_resident_waiter_init(struct wlseal_resident_waiter *w,
				 void (*done)(struct wlseal_resident_waiter *))
{
	w->populated = done;
	w->job = NULL;
	wl_list_init(&w->starved_link);
}

void wlseal_resident_waiter_finish(struct wlseal_resident_waiter *w)
{
	if (w->job)
		((struct job *)w->job)->waiter = NULL;
	w->job = NULL;
	wl_list_remove(&w->starved_link);
	wl_list_init(&w->starved_link);
}

static uint64_t thread_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * What a lookup costs here, in the loop thread's CPU time: CAL_ROUNDS
 * calls on one page, and as many on CAL_PAGES pages that are holes (the
 * dearest to look up after a page not yet mapped, which costs a little
 * more and is counted as a hole). The dearer of two passes, so that a
 * pass with the caches warm does not make lookups look cheap; never
 * less than 1 ns a call or a page. @probe: CAL_PAGES pages mapped, none
 * touched.
 */
static void calibrate(unsigned char *probe)
{
	uint64_t call = 0, page = 0;

	for (int pass = 0; pass < 2; pass++) {
		uint64_t t0 = thread_ns(), t1, t2;

		for (int i = 0; i < CAL_ROUNDS; i++)
			(void)!mincore(probe, res.page, res.vec);
		t1 = thread_ns();
		for (int i = 0; i < CAL_ROUNDS; i++)
			(void)!mincore(probe, CAL_PAGES * res.page, res.vec);
		t2 = thread_ns();
		if ((t1 - t0) / CAL_ROUNDS > call)
			call = (t1 - t0) / CAL_ROUNDS;
		if ((t2 - t1) / CAL_ROUNDS > call &&
		    ((t2 - t1) / CAL_ROUNDS - call) / CAL_PAGES > page)
			page = ((t2 - t1) / CAL_ROUNDS - call) / CAL_PAGES;
	}
	res.call_ns = call ? call : 1;
	res.page_ns = page ? page : 1;
	wlseal_log("residency check: a lookup costs %llu ns a call and %llu ns a page here (charged to the overdraw budget)",
		   (unsigned long long)res.call_ns,
		   (unsigned long long)res.page_ns);
}

bool wlseal_resident_init(struct wlseal_shm *shm)
{
	struct wl_event_loop *loop = wl_display_get_event_loop(shm->display);
	long page = sysconf(_SC_PAGESIZE);
	bool thread;
	void *probe;

	res.page = page > 0 ? (size_t)page : 4096;
	wl_list_init(&res.starved);
	res.on = false;
	/* The thread also reads copied buffers (copy-read.c), residency
	 * check or not; without it they are read on the loop. */
	thread = wlseal_populate_start(loop, populated);
	if (!thread)
		wlseal_log("no populate thread: copied buffers are read on the loop");
	if (!shm->residency_check) {
		wlseal_log("residency check off (--residency-check=off): a repaint faults in the pool pages it samples");
		return true;
	}
	/* Linux before 5.14 has no MADV_POPULATE_READ (EINVAL). */
	probe = mmap(NULL, res.page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
		     -1, 0);
	if (probe == MAP_FAILED)
		return false;
	if (madvise(probe, res.page, MADV_POPULATE_READ) < 0) {
		wlseal_log("residency check off: the kernel cannot populate pages (%s)",
			   strerror(errno));
		munmap(probe, res.page);
		return true;
	}
	munmap(probe, res.page);
	if (!thread) {
		wlseal_log("residency check off: no populate thread");
		return true;
	}
	probe = mmap(NULL, CAL_PAGES * res.page, PROT_READ,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (probe == MAP_FAILED)
		return false;
	calibrate(probe);
	munmap(probe, CAL_PAGES * res.page);
	res.on = true;
	return true;
}
