/* SPDX-License-Identifier: MIT */
/*
 * heap.c - give freed heap memory back once clients have left.
 *
 * Within its budgets a client can make the compositor allocate tens of
 * thousands of small objects (pool and buffer records, libwayland's
 * resources and maps; the attack scenarios many-clients-pools and
 * many-clients-mappings do). They are all freed when the client goes, but
 * glibc keeps freed pages below the top of its heaps, so the compositor's
 * RSS would stay at the attacker's high-water mark for good: memory it is
 * charged for on behalf of a client that no longer exists.
 *
 * One second after a client disconnects (and once the pools it left are
 * released, which shm/pool.c spreads over loop turns), malloc_trim(0)
 * returns every
 * whole free page (also in the middle of a heap, by MADV_DONTNEED). The
 * timer is armed only when it is not already pending, so a storm of
 * connections costs one trim per second at most, and a trim costs time
 * in proportion to the heap, which the budgets bound.
 */
#include <malloc.h>
#include <stdio.h>
#include <unistd.h>

#include <wayland-server-core.h>

#include "heap.h"
#include "log.h"

#define TRIM_DELAY_MS 1000

static struct wl_event_source *trim_timer;
static bool trim_pending;
static bool (*still_freeing)(void *data);
static void *still_freeing_data;

/* Resident set in KiB, from /proc/self/statm (0 when unreadable). */
static long rss_kib(void)
{
	long size, resident = 0;
	FILE *f = fopen("/proc/self/statm", "re");

	if (!f)
		return 0;
	if (fscanf(f, "%ld %ld", &size, &resident) != 2)
		resident = 0;
	fclose(f);
	return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static int trim(void *data)
{
	long before = rss_kib();

	(void)data;
	if (still_freeing && still_freeing(still_freeing_data)) {
		/* Pools of departed clients are still being released
		 * (shm/pool.c's reaper): trim once that is done. */
		wl_event_source_timer_update(trim_timer, 100);
		return 0;
	}
	trim_pending = false;
	malloc_trim(0);
	wlseal_log("heap trimmed after clients left: RSS %ld -> %ld KiB",
		   before, rss_kib());
	return 0;
}

bool wlseal_heap_init(struct wl_event_loop *loop,
		      bool (*busy)(void *data), void *data)
{
	still_freeing = busy;
	still_freeing_data = data;
	trim_timer = wl_event_loop_add_timer(loop, trim, NULL);
	return trim_timer != NULL;
}

void wlseal_heap_client_gone(void)
{
	if (!trim_timer || trim_pending)
		return;
	trim_pending = true;
	wl_event_source_timer_update(trim_timer, TRIM_DELAY_MS);
}

void wlseal_heap_finish(void)
{
	if (trim_timer)
		wl_event_source_remove(trim_timer);
	trim_timer = NULL;
	trim_pending = false;
}
