/* SPDX-License-Identifier: MIT */
/*
 * memory.c - how many pool bytes the compositor can afford to map: the
 * default of the byte total of the pool budget (pools.c) (--max-pool-memory sets
 * it instead).
 *
 * Why a mapped byte costs the compositor memory, whoever wrote it:
 * - a page a client wrote and then unmapped is in nobody's RSS until the
 *   compositor reads it; from then on it is in the compositor's, and the
 *   kernel's OOM killer ranks processes by RSS;
 * - a hole (never written, or punched: SEAL_SHRINK allows that) is filled
 *   by the compositor's own page fault, so the new page is charged to the
 *   compositor's memory cgroup, and under strict overcommit the fault
 *   itself needs commit charge (failing it would be a SIGBUS).
 * A client can make the compositor read every page of its pools: a new
 * buffer offset each frame, or a viewport that samples a tall buffer
 * sparsely (or make shm/resident.c's populate thread fault them in
 * before a view samples them: the same read faults, the same process and
 * cgroup, off the loop thread). So the sum of all mapped pool bytes is
 * exactly what clients can make the compositor hold, and it must stay below what the machine
 * (and the cgroup the compositor runs in) can give: what is available
 * when the compositor starts. Not less: clients map far more than they
 * touch (foot maps 512 MiB pools, sometimes two at once, and draws a
 * few MiB of them), and the light clients' reserve (pools.c) keeps the
 * last quarter for them anyway, so heavy clients together stop at three
 * quarters of it.
 *
 * The machine's total RAM is not that bound: in a VM whose root file
 * system lives in RAM, the RAM's worth of faulted pool pages is an OOM
 * kill, and the compositor is the process the OOM killer picks.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysinfo.h>

#include "log.h"
#include "account.h"

/* Never less than this, so that a few ordinary windows always fit. */
#define MIN_POOL_MEMORY (64ull << 20)

/* MemAvailable of /proc/meminfo (kernels before 3.14 lack it: free RAM). */
static uint64_t mem_available(void)
{
	char line[128];
	unsigned long long kib;
	struct sysinfo si;
	FILE *f = fopen("/proc/meminfo", "re");

	if (f) {
		while (fgets(line, sizeof(line), f)) {
			if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1) {
				fclose(f);
				return (uint64_t)kib << 10;
			}
		}
		fclose(f);
	}
	if (sysinfo(&si) == 0)
		return ((uint64_t)si.freeram + si.bufferram) * si.mem_unit;
	return MIN_POOL_MEMORY * 2;
}

/* One number from a cgroup file; false for "max" or no such file. */
static bool cgroup_value(const char *dir, const char *file, uint64_t *v)
{
	char path[4200];
	unsigned long long n;
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "/sys/fs/cgroup%s/%s", dir, file);
	f = fopen(path, "re");
	if (!f)
		return false;
	ok = fscanf(f, "%llu", &n) == 1;
	fclose(f);
	*v = n;
	return ok;
}

/*
 * The least headroom (memory.max - memory.current) of the compositor's
 * cgroup v2 and its ancestors: a limit anywhere above applies too.
 * UINT64_MAX when no level has a limit, or there is no cgroup v2.
 */
static uint64_t cgroup_headroom(void)
{
	char line[4096], *dir, *slash;
	uint64_t least = UINT64_MAX, max, cur;
	FILE *f = fopen("/proc/self/cgroup", "re");

	if (!f)
		return least;
	dir = NULL;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "0::", 3)) {
			dir = line + 3;
			dir[strcspn(dir, "\n")] = '\0';
			break;
		}
	}
	fclose(f);
	while (dir && *dir == '/') {
		if (cgroup_value(dir, "memory.max", &max) &&
		    cgroup_value(dir, "memory.current", &cur))
			least = cur >= max ? 0 :
				(max - cur < least ? max - cur : least);
		slash = strrchr(dir, '/');
		if (slash == dir)
			break;	/* the root has no memory.max */
		*slash = '\0';
	}
	return least;
}

void wlseal_pool_memory_budget(struct wlseal_pool_ledger *t)
{
	uint64_t avail, headroom;

	if (t->max_bytes) {
		wlseal_log("pool memory: at most %" PRIu64 " MiB mapped (--max-pool-memory)",
			   t->max_bytes >> 20);
		return;
	}
	avail = mem_available();
	headroom = cgroup_headroom();
	if (headroom < avail)
		avail = headroom;
	t->max_bytes = avail > MIN_POOL_MEMORY ? avail : MIN_POOL_MEMORY;
	wlseal_log("pool memory: at most %" PRIu64 " MiB mapped (what was available%s)",
		   t->max_bytes >> 20,
		   headroom == avail ? " in the memory cgroup" : "");
}
