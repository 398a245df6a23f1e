/* SPDX-License-Identifier: MIT */
/*
 * pools.c - the pool budget: how many wl_shm pools, fds and mapped bytes
 * one client may hold, and all clients together.
 *
 * Own limits first: at most --max-pools-per-client pool objects and
 * CLIENT_MAX_BYTES mapped bytes per client (one INT32_MAX pool fits).
 * Then the totals of all clients: mappings against vm.max_map_count
 * (minus what the compositor itself maps), bytes against the memory the
 * compositor can afford (memory.c: what was available at its start, or
 * --max-pool-memory). Bytes matter beyond address space: reading a hole
 * of a sparse file allocates a page that is charged to the compositor,
 * every page it reads counts in its RSS, and what the compositor can ever
 * be made to hold through a pool is bounded by the pool's mapped bytes,
 * so the byte total bounds it.
 *
 * The last quarter of every total (of the fds at least WLSEAL_FD_RESERVE,
 * down to FD_HARD_RESERVE) is kept for light clients: a client already
 * above the light allowance (LIGHT_POOLS pools, LIGHT_BYTES, LIGHT_FDS
 * pools holding fds) is refused once a total reaches its reserve, a light
 * one only at the very limit (wlseal_fair). However many clients
 * misbehave within their own budgets, they cannot push a total past the
 * reserve, so a well-behaved client (one or two pools of a few MiB) still
 * gets its pool. What no rule here can prevent is a flood of new
 * connections, each light, filling the reserve itself; the reserve is
 * sized so that this takes hundreds of them (a quarter of 4096 fds at two
 * pools and a socket each: 330; a quarter of 4 GiB at 16 MiB: 64, at a
 * typical few MiB several hundred; a quarter of the mappings at 4 pools:
 * thousands), and every one of them costs a connection fd of the same
 * table.
 */
#include <stdio.h>
#include <sys/resource.h>

#include "account-private.h"

#define CLIENT_MAX_BYTES (4ull << 30)
#define LIGHT_POOLS 4
#define LIGHT_FDS 2
#define LIGHT_BYTES (16ull << 20)
#define FD_HARD_RESERVE 32	/* never handed to pools: accept(), DRM */

/* The fds no heavy client may take: a quarter, at least WLSEAL_FD_RESERVE. */
static rlim_t fd_reserve(rlim_t limit)
{
	return limit / 4 > WLSEAL_FD_RESERVE ? limit / 4 : WLSEAL_FD_RESERVE;
}

/* The byte rules, for a new pool or the bytes a resize adds. */
static bool bytes_admit(const struct wlseal_account *a, size_t more,
			char *why, size_t len)
{
	const struct wlseal_pool_ledger *t = &a->ledger->pools;

	if (a->pools.bytes + more > CLIENT_MAX_BYTES) {
		snprintf(why, len, "too many pool bytes (%llu mapped + %zu, limit %llu per client)",
			 (unsigned long long)a->pools.bytes, more,
			 (unsigned long long)CLIENT_MAX_BYTES);
		return false;
	}
	if (!wlseal_fair(a->pools.bytes + more, t->bytes + more, t->max_bytes,
			 t->max_bytes / 4, LIGHT_BYTES)) {
		snprintf(why, len, "compositor near its pool memory limit (%llu of %llu bytes mapped, this client %llu)",
			 (unsigned long long)t->bytes,
			 (unsigned long long)t->max_bytes,
			 (unsigned long long)a->pools.bytes);
		return false;
	}
	return true;
}

bool wlseal_pool_admit(struct wlseal_account *a, int fd, size_t map_len,
		       char *why, size_t len)
{
	const struct wlseal_pool_ledger *t = &a->ledger->pools;
	struct rlimit rl;

	/* The kernel hands out the lowest free fd number, so the number
	 * this fd arrived on tells how full the table is. */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    (rlim_t)fd + fd_reserve(rl.rlim_cur) >= rl.rlim_cur &&
	    !(a->pools.fds < LIGHT_FDS && (rlim_t)fd + FD_HARD_RESERVE < rl.rlim_cur)) {
		snprintf(why, len, "compositor near its file descriptor limit (fd %d of %llu)",
			 fd, (unsigned long long)rl.rlim_cur);
		return false;
	}
	if (a->pools.pools >= t->per_client) {
		snprintf(why, len, "too many pools (%d live, limit %d per client)",
			 a->pools.pools, t->per_client);
		return false;
	}
	if (!wlseal_fair((uint64_t)a->pools.pools + 1, (uint64_t)t->pools + 1,
			 (uint64_t)t->max_pools, (uint64_t)t->max_pools / 4,
			 LIGHT_POOLS)) {
		snprintf(why, len, "compositor near its mapping limit (%d pools of %d, this client %d)",
			 t->pools, t->max_pools, a->pools.pools);
		return false;
	}
	return bytes_admit(a, map_len, why, len);
}

void wlseal_pool_charge(struct wlseal_account *a, size_t map_len)
{
	struct wlseal_pool_ledger *t = &a->ledger->pools;

	wlseal_account_ref(a);
	a->pools.pools++;
	a->pools.fds++;
	a->pools.bytes += map_len;
	t->pools++;
	t->bytes += map_len;
}

void wlseal_pool_uncharge(struct wlseal_account *a, size_t map_len,
			  bool fd_open)
{
	struct wlseal_pool_ledger *t = &a->ledger->pools;

	a->pools.pools--;
	a->pools.bytes -= map_len;
	if (fd_open)
		a->pools.fds--;
	t->pools--;
	t->bytes -= map_len;
	wlseal_account_unref(a);
}

void wlseal_pool_fd_closed(struct wlseal_account *a)
{
	a->pools.fds--;
}

bool wlseal_pool_recharge(struct wlseal_account *a, size_t from, size_t to,
			  char *why, size_t len)
{
	struct wlseal_pool_ledger *t = &a->ledger->pools;

	if (to <= from) {
		a->pools.bytes -= from - to;
		t->bytes -= from - to;
		return true;
	}
	/* The rules of a new pool, for the added bytes only: the pool
	 * count and its fd do not change. */
	if (!bytes_admit(a, to - from, why, len))
		return false;
	a->pools.bytes += to - from;
	t->bytes += to - from;
	return true;
}

bool wlseal_pool_populate_take(struct wlseal_account *a)
{
	if (a->pools.populating >= WLSEAL_POPULATE_PER_CLIENT)
		return false;
	a->pools.populating++;
	return true;
}

void wlseal_pool_populate_put(struct wlseal_account *a)
{
	a->pools.populating--;
}

bool wlseal_pool_copy_take(struct wlseal_account *a)
{
	if (a->pools.copying >= WLSEAL_COPY_READS_PER_CLIENT)
		return false;
	a->pools.copying++;
	return true;
}

void wlseal_pool_copy_put(struct wlseal_account *a)
{
	a->pools.copying--;
}
