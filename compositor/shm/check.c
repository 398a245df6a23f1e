/* SPDX-License-Identifier: MIT */
/*
 * check.c - the seal check, the budgets and the refusal log: the verdicts
 * every new or resized pool needs before it is mapped (shm.h).
 *
 * libwayland's wl_display_init_shm() maps whatever fd a client sends and
 * relies on a SIGBUS handler to survive a client that later truncates the
 * file under the mapping. wlseal instead looks at the fd *before* mapping
 * it, and installs no handler at all. SIGBUS-free means: every page of
 * every mapping the compositor reads can always be faulted in. The
 * argument, for every kind of file a client can pass:
 *
 * - memfd (shmem, the internal tmpfs mount): F_SEAL_SHRINK and a file at
 *   least as large as the pool mean no page of the mapping can ever lie
 *   past the end of the file. Holes (never written, punched, zeroed,
 *   collapse-range is refused under SHRINK) are refilled on fault with a
 *   fresh page: the internal mount has no size limit, so the fault cannot
 *   fail with ENOSPC; if memory runs out the fault is an OOM, not a
 *   SIGBUS. Variants: MFD_NOEXEC_SEAL/MFD_EXEC (6.3+, not in 6.1) add
 *   F_SEAL_EXEC, which freezes the mode bits only and is always
 *   tolerated; transparent huge pages (shmem_enabled, MADV_HUGEPAGE) fall
 *   back to small pages when no huge page is free, so a hole still fills.
 * - memfd with MFD_HUGETLB (hugetlbfs): a hole is refilled only from the
 *   huge page pool, which may be empty; punching one also returns its
 *   reservation. So a hugetlbfs file must not be able to lose pages: it
 *   needs F_SEAL_WRITE or F_SEAL_FUTURE_WRITE (both make hugetlbfs refuse
 *   FALLOC_FL_PUNCH_HOLE) besides SHRINK; without one it is refused with
 *   reason missing_seal, naming F_SEAL_WRITE. With them, what our mmap
 *   reserved (all of the range: shared mappings reserve what is not yet
 *   reserved, private ones the whole range) stays reserved, and a fault
 *   never needs a page nobody set aside. Requiring the seal rather than
 *   refusing hugetlbfs outright keeps immutable huge-page buffers usable.
 *   Huge pages also set the mapping granularity: mmap rounds the length
 *   up to the huge page size and munmap of any other length fails with
 *   EINVAL, so pools are mapped and unmapped with the size rounded up to
 *   st_blksize (verdict->page; the file size is always a multiple of it).
 * - every other file: F_ADD_SEALS exists only on shmem and hugetlbfs in
 *   6.1, so F_GET_SEALS fails (pipes, sockets, eventfds, /dev/zero and
 *   other device files, O_PATH fds, disk files, memfd_secret) and the file
 *   is refused as not sealable. A tmpfs file (/dev/shm, a huge= mount)
 *   answers F_GET_SEALS with F_SEAL_SEAL alone, so it lacks SHRINK and
 *   can never gain it, through either ABI (the seed's SHMEM_SET_SEALS
 *   refuses files carrying F_SEAL_SEAL). Should a later kernel let another
 *   file system carry seals, wlseal has no argument for it and refuses it
 *   (fstatfs names the file system).
 * - a sealed memfd reopened through /proc/self/fd is the same inode with
 *   the same seals: the argument is the inode's, not the fd's. Opened
 *   O_WRONLY it passes the check and fails the PROT_READ mmap (refused,
 *   map_failed).
 * - removable seals (the seed ABI): removing a seal needs an exclusive
 *   reference, and the fd we hold from the check on, then our mapping,
 *   are references. As defense in depth the seals are read again after
 *   mmap, and a pool whose seals or size changed in between is refused.
 *
 * Fairness is here too ("Budgets" below): every pool is charged to the
 * client that created it, for as long as the pool object lives.
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <linux/magic.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#include <wayland-server-core.h>

#include "account.h"
#include "log.h"
#include "shm.h"
#include "wlseal-shm-policy-v1-server-protocol.h"
#include "seal-list.h"

#ifndef F_SEAL_EXEC
#define F_SEAL_EXEC 0x0020	/* 6.3+: the mode's exec bits are frozen */
#endif

/*
 * Budgets. Own limits first: at most --max-pools-per-client pool objects
 * and WLSEAL_CLIENT_MAX_BYTES mapped bytes per client (one INT32_MAX pool
 * fits). Then the totals of all clients: mappings against vm.max_map_count
 * (minus what the compositor itself maps), bytes against the memory the
 * compositor can afford (memory.c: what was available at its start, or
 * --max-pool-memory). Bytes matter beyond address space: reading a
 * hole of a sparse file allocates a page that is charged to the
 * compositor, every page it reads counts in its RSS, and what the
 * compositor can ever be made to hold through a pool is bounded by the
 * pool's mapped bytes, so the byte total bounds it.
 *
 * The last quarter of every total (of the fds at least WLSEAL_FD_RESERVE,
 * down to FD_HARD_RESERVE) is kept for light clients: a client already
 * above the light allowance (LIGHT_POOLS pools, LIGHT_BYTES, LIGHT_FDS
 * pools holding fds) is refused once a total reaches its reserve, a light
 * one only at the very limit. However many clients misbehave within their
 * own budgets, they cannot push a total past the reserve, so a
 * well-behaved client (one or two pools of a few MiB) still gets its pool.
 * What no rule can prevent is a flood of new connections, each light,
 * filling the reserve itself; the reserve is sized so that this takes
 * hundreds of them (a quarter of 4096 fds at two pools and a socket
 * each: 330; a quarter of 4 GiB at 16 MiB: 64, at a typical few MiB
 * several hundred; a quarter of the mappings at 4 pools: thousands), and
 * every one of them costs a connection fd of the same table.
 */
#define WLSEAL_CLIENT_MAX_BYTES (4ull << 30)
#define LIGHT_POOLS 4
#define LIGHT_FDS 2
#define LIGHT_BYTES (16ull << 20)
#define FD_HARD_RESERVE 32	/* never handed to pools: accept(), DRM */

/* Refusal lines: at most 10 a second per client, 50 for all clients. */
#define WLSEAL_LOG_BURST 10
#define WLSEAL_LOG_BURST_ALL 50
#define WLSEAL_LOG_WINDOW_MS 1000

void wlseal_shm_account_unref(struct wlseal_shm_account *a)
{
	if (--a->refs > 0)
		return;
	free(a);
}

static void account_client_gone(struct wl_listener *listener, void *data)
{
	struct wlseal_shm_account *a =
		wl_container_of(listener, a, client_destroy);

	if (a->log_dropped)
		wlseal_log("client pid=%d: %d more refusal lines were not logged",
			   (int)a->pid, a->log_dropped);
	wl_list_remove(&a->client_destroy.link);
	wl_list_remove(&a->resource_created.link);
	wl_list_init(&a->resource_created.link);
	a->gone = true;
	/* The client's resources (and so its pools) are destroyed after
	 * this signal; the pools keep the account until then. */
	wlseal_shm_account_unref(a);
}

struct wlseal_shm_account *wlseal_shm_account(struct wl_client *client)
{
	struct wl_listener *l;
	struct wlseal_shm_account *a;

	l = wl_client_get_destroy_listener(client, account_client_gone);
	if (l)
		return wl_container_of(l, a, client_destroy);
	a = calloc(1, sizeof(*a));
	if (!a)
		return NULL;
	a->pid = wlseal_client_pid(client);
	a->refs = 1;
	a->client_destroy.notify = account_client_gone;
	wl_client_add_destroy_listener(client, &a->client_destroy);
	wl_list_init(&a->resource_created.link);
	return a;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* One window of the rate limit: true while @w may log another line. */
static bool log_window_take(struct log_window *w, int64_t now, int burst)
{
	if (now - w->start_ms >= WLSEAL_LOG_WINDOW_MS) {
		w->start_ms = now;
		w->lines = 0;
	}
	return w->lines++ < burst;
}

void wlseal_shm_log(struct wl_client *client, const char *fmt, ...)
{
	/* All clients together too: one attacker may open many
	 * connections. One per process, like the log itself. */
	static struct log_window all;
	static int all_dropped;
	struct wlseal_shm_account *a = NULL;
	struct wl_listener *l;
	char line[400];
	va_list ap;
	int64_t now = now_ms();

	/* Clients get an account with their first pool request; one
	 * without (its allocation failed) shares only the global limit. */
	l = wl_client_get_destroy_listener(client, account_client_gone);
	if (l)
		a = wl_container_of(l, a, client_destroy);
	if (a && !log_window_take(&a->log, now, WLSEAL_LOG_BURST)) {
		a->log_dropped++;
		return;
	}
	if (!log_window_take(&all, now, WLSEAL_LOG_BURST_ALL)) {
		all_dropped++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if ((a && a->log_dropped) || all_dropped) {
		wlseal_log("%s (%d lines of this client and %d of all clients not logged)",
			   line, a ? a->log_dropped : 0, all_dropped);
		if (a)
			a->log_dropped = 0;
		all_dropped = 0;
	} else {
		wlseal_log("%s", line);
	}
}

static uint32_t refuse(struct wlseal_shm_verdict *v, uint32_t reason,
		       const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static uint32_t refuse(struct wlseal_shm_verdict *v, uint32_t reason,
		       const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v->message, sizeof(v->message), fmt, ap);
	va_end(ap);
	v->reason = reason;
	return reason;
}

/* The file's page size for mapping: the huge page size on hugetlbfs. */
static size_t file_page(int fd, bool *hugetlb)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct statfs fs;
	struct stat st;

	*hugetlb = false;
	if (fstatfs(fd, &fs) < 0 || fs.f_type != HUGETLBFS_MAGIC ||
	    fstat(fd, &st) < 0)
		return page;
	*hugetlb = true;
	/* hugetlbfs reports the huge page size as st_blksize; anything
	 * else (not a power of two, absurd) keeps the small page, and the
	 * mmap of such a file then fails cleanly. */
	if (st.st_blksize >= (blksize_t)page && st.st_blksize <= (1 << 30) &&
	    !(st.st_blksize & (st.st_blksize - 1)))
		page = (size_t)st.st_blksize;
	return page;
}

static uint64_t round_up(uint64_t n, uint64_t page)
{
	return (n + page - 1) / page * page;
}

uint32_t wlseal_shm_check(const struct wlseal_shm_policy *policy, int fd,
			  int64_t size, struct wlseal_shm_verdict *v)
{
	char names[96];
	struct statfs fs;
	struct stat st;
	uint32_t missing, unexpected;
	bool hugetlb;
	int seals;

	*v = (struct wlseal_shm_verdict){ .file_size = -1, .file_seals = -1 };
	/* The size limit first: it needs nothing from the file. */
	if ((uint64_t)size > policy->max_pool_size)
		return refuse(v, WLSEAL_SHM_POOL_REQUEST_V1_REASON_TOO_LARGE,
			      "pool too large (pool %lld bytes, limit %llu bytes)",
			      (long long)size,
			      (unsigned long long)policy->max_pool_size);
	/* Even a permissive policy must map and unmap with the right
	 * length, or hugetlbfs mappings leak. */
	v->page = file_page(fd, &hugetlb);
	seals = fcntl(fd, F_GET_SEALS);
	v->file_seals = seals;

	if (!policy->enforced) {
		/* Map anything; only learn whether MAP_SHARED can work. */
		v->write_sealed = seals >= 0 && (seals & F_SEAL_WRITE);
		return 0;
	}

	/* Files that cannot carry seals (pipes, sockets, disk files,
	 * /dev/zero, memfd_secret) can shrink under us at any time. */
	if (seals < 0)
		return refuse(v, WLSEAL_SHM_POOL_REQUEST_V1_REASON_NOT_SEALABLE,
			      "not a sealable file (F_GET_SEALS: %s)",
			      strerror(errno));
	missing = policy->required_seals & ~(uint32_t)seals;
	if (missing) {
		wlseal_seal_list_format(missing, names, sizeof(names));
		v->seals = missing;
		return refuse(v, WLSEAL_SHM_POOL_REQUEST_V1_REASON_MISSING_SEAL,
			      "missing %s (file seals 0x%x)", names, seals);
	}
	/* F_SEAL_EXEC says nothing about size or content; newer kernels
	 * set it on every memfd (vm.memfd_noexec), so it never counts. */
	unexpected = (uint32_t)seals & ~policy->accepted_seals & ~F_SEAL_EXEC;
	if (unexpected) {
		wlseal_seal_list_format(unexpected, names, sizeof(names));
		v->seals = unexpected;
		return refuse(v, WLSEAL_SHM_POOL_REQUEST_V1_REASON_UNEXPECTED_SEAL,
			      "unexpected seal %s (file seals 0x%x, accepted 0x%x)",
			      names, seals, policy->accepted_seals);
	}
	/* Only now is the size meaningful: it can no longer go down. */
	if (fstat(fd, &st) < 0 || fstatfs(fd, &fs) < 0)
		return refuse(v, WLSEAL_SHM_POOL_REQUEST_V1_REASON_NOT_SEALABLE,
			      "fstat failed: %s", strerror(errno));
	if (!S_ISREG(st.st_mode))
		return refuse(v, WLSEAL_SHM_POOL_REQUEST_V1_REASON_NOT_SEALABLE,
			      "not a regular file (mode 0%o)",
			      (unsigned int)st.st_mode);
	/* The opening comment argues for these two file systems only. */
	if (fs.f_type != TMPFS_MAGIC && fs.f_type != HUGETLBFS_MAGIC)
		return refuse(v, WLSEAL_SHM_POOL_REQUEST_V1_REASON_NOT_SEALABLE,
			      "seals on a file system wlseal has no argument for (f_type 0x%lx)",
			      (unsigned long)fs.f_type);
	if (hugetlb && !(seals & (F_SEAL_WRITE | F_SEAL_FUTURE_WRITE))) {
		v->seals = F_SEAL_WRITE;
		return refuse(v, WLSEAL_SHM_POOL_REQUEST_V1_REASON_MISSING_SEAL,
			      "hugetlbfs file without F_SEAL_WRITE or F_SEAL_FUTURE_WRITE: "
			      "a punched hole may find no free huge page (file seals 0x%x)",
			      seals);
	}
	v->file_size = st.st_size;
	if (st.st_size < size)
		return refuse(v, WLSEAL_SHM_POOL_REQUEST_V1_REASON_FILE_TOO_SMALL,
			      "file smaller than pool (file %lld bytes, pool %lld bytes)",
			      (long long)st.st_size, (long long)size);
	/* Whole huge pages are mapped: they must all be inside the file. */
	if (hugetlb && (uint64_t)st.st_size < round_up((uint64_t)size, v->page))
		return refuse(v, WLSEAL_SHM_POOL_REQUEST_V1_REASON_FILE_TOO_SMALL,
			      "file smaller than the pool's huge pages (file %lld bytes, pool %lld bytes, page %zu)",
			      (long long)st.st_size, (long long)size, v->page);
	v->write_sealed = seals & F_SEAL_WRITE;
	return 0;
}

/* The fds no heavy client may take: a quarter, at least WLSEAL_FD_RESERVE. */
static rlim_t fd_reserve(rlim_t limit)
{
	return limit / 4 > WLSEAL_FD_RESERVE ? limit / 4 : WLSEAL_FD_RESERVE;
}

/* Own budget always; the last @reserve of @limit only for light users
 * (objects.c applies the same rule to the object totals). */
bool wlseal_shm_fair(uint64_t mine, uint64_t total, uint64_t limit,
		     uint64_t reserve, uint64_t light)
{
	if (total <= limit - reserve)
		return true;
	return mine <= light && total <= limit;
}

uint32_t wlseal_shm_budget(struct wlseal_shm *shm,
			   struct wlseal_shm_account *a, int fd,
			   size_t map_len, struct wlseal_shm_verdict *v)
{
	struct wlseal_shm_totals *t = &shm->totals;
	struct rlimit rl;

	/* The kernel hands out the lowest free fd number, so the number
	 * this fd arrived on tells how full the table is. */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    (rlim_t)fd + fd_reserve(rl.rlim_cur) >= rl.rlim_cur &&
	    !(a->fds < LIGHT_FDS && (rlim_t)fd + FD_HARD_RESERVE < rl.rlim_cur))
		return refuse(v, WLSEAL_SHM_POOL_REQUEST_V1_REASON_OUT_OF_RESOURCES,
			      "compositor near its file descriptor limit (fd %d of %llu)",
			      fd, (unsigned long long)rl.rlim_cur);
	if (a->pools >= shm->max_pools_per_client)
		return refuse(v, WLSEAL_SHM_POOL_REQUEST_V1_REASON_OUT_OF_RESOURCES,
			      "too many pools (%d live, limit %d per client)",
			      a->pools, shm->max_pools_per_client);
	if (a->bytes + map_len > WLSEAL_CLIENT_MAX_BYTES)
		return refuse(v, WLSEAL_SHM_POOL_REQUEST_V1_REASON_OUT_OF_RESOURCES,
			      "too many pool bytes (%llu mapped + %zu, limit %llu per client)",
			      (unsigned long long)a->bytes, map_len,
			      (unsigned long long)WLSEAL_CLIENT_MAX_BYTES);
	if (!wlseal_shm_fair((uint64_t)a->pools + 1, (uint64_t)t->pools + 1,
			     (uint64_t)t->max_pools, (uint64_t)t->max_pools / 4,
			     LIGHT_POOLS))
		return refuse(v, WLSEAL_SHM_POOL_REQUEST_V1_REASON_OUT_OF_RESOURCES,
			      "compositor near its mapping limit (%d pools of %d, this client %d)",
			      t->pools, t->max_pools, a->pools);
	if (!wlseal_shm_fair(a->bytes + map_len, t->bytes + map_len,
			     t->max_bytes, t->max_bytes / 4, LIGHT_BYTES))
		return refuse(v, WLSEAL_SHM_POOL_REQUEST_V1_REASON_OUT_OF_RESOURCES,
			      "compositor near its pool memory limit (%llu of %llu bytes mapped, this client %llu)",
			      (unsigned long long)t->bytes,
			      (unsigned long long)t->max_bytes,
			      (unsigned long long)a->bytes);
	return 0;
}

void wlseal_shm_charge(struct wlseal_shm *shm,
		       struct wlseal_shm_account *a, size_t map_len)
{
	a->refs++;
	a->pools++;
	a->fds++;
	a->bytes += map_len;
	shm->totals.pools++;
	shm->totals.bytes += map_len;
}

void wlseal_shm_uncharge(struct wlseal_shm *shm,
			 struct wlseal_shm_account *a, size_t map_len,
			 bool fd_open)
{
	a->pools--;
	a->bytes -= map_len;
	if (fd_open)
		a->fds--;
	shm->totals.pools--;
	shm->totals.bytes -= map_len;
	wlseal_shm_account_unref(a);
}

bool wlseal_shm_account_gone(const struct wlseal_shm_account *a)
{
	return a->gone;
}

void wlseal_shm_fd_closed(struct wlseal_shm_account *a)
{
	a->fds--;
}

bool wlseal_shm_recharge(struct wlseal_shm *shm,
			 struct wlseal_shm_account *a, size_t from, size_t to,
			 struct wlseal_shm_verdict *v)
{
	struct wlseal_shm_totals *t = &shm->totals;
	size_t more = to - from;

	*v = (struct wlseal_shm_verdict){ .file_size = -1, .file_seals = -1 };
	if (to <= from) {
		a->bytes -= from - to;
		t->bytes -= from - to;
		return true;
	}
	/* The rules of a new pool, for the added bytes only: the pool
	 * count and its fd do not change. */
	if (a->bytes + more > WLSEAL_CLIENT_MAX_BYTES)
		refuse(v, WLSEAL_SHM_POOL_REQUEST_V1_REASON_OUT_OF_RESOURCES,
		       "too many pool bytes (%llu mapped + %zu, limit %llu per client)",
		       (unsigned long long)a->bytes, more,
		       (unsigned long long)WLSEAL_CLIENT_MAX_BYTES);
	else if (!wlseal_shm_fair(a->bytes + more, t->bytes + more,
				  t->max_bytes, t->max_bytes / 4, LIGHT_BYTES))
		refuse(v, WLSEAL_SHM_POOL_REQUEST_V1_REASON_OUT_OF_RESOURCES,
		       "compositor near its pool memory limit (%llu of %llu bytes mapped)",
		       (unsigned long long)t->bytes,
		       (unsigned long long)t->max_bytes);
	if (v->reason)
		return false;
	a->bytes += more;
	t->bytes += more;
	return true;
}

void wlseal_shm_refuse(struct wl_resource *resource, uint32_t code,
		       const char *request, const char *why)
{
	struct wl_client *client = wl_resource_get_client(resource);

	/* One log line per refusal, naming the client and the reason; the
	 * same reason goes into the protocol error so the client sees it. */
	wlseal_shm_log(client, "refused client pid=%d %s: %s",
		       (int)wlseal_client_pid(client), request, why);
	wl_resource_post_error(resource, code, "%s", why);
}
