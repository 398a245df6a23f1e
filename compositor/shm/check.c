/* SPDX-License-Identifier: MIT */
/*
 * check.c - the seal check: the verdict every new or resized pool needs
 * before it is mapped (check.h). What a client may map at all is the
 * accounting layer's (account/pools.c).
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
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <wayland-server-core.h>

#include "account.h"
#include "check.h"
#include "log.h"
#include "wlseal-shm-policy-v1-server-protocol.h"
#include "seal-list.h"

#ifndef F_SEAL_EXEC
#define F_SEAL_EXEC 0x0020	/* 6.3+: the mode's exec bits are frozen */
#endif

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

void wlseal_shm_refuse(struct wl_resource *resource, uint32_t code,
		       const char *request, const char *why)
{
	struct wl_client *client = wl_resource_get_client(resource);

	/* One log line per refusal, naming the client and the reason; the
	 * same reason goes into the protocol error so the client sees it. */
	wlseal_account_log(client, "refused client pid=%d %s: %s",
		       (int)wlseal_client_pid(client), request, why);
	wl_resource_post_error(resource, code, "%s", why);
}
