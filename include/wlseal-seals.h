/* SPDX-License-Identifier: MIT */
/*
 * wlseal-seals.h - the seed ABI of the 2014 file-sealing series, as ported
 * by kernel-patches/, beside the upstream API that glibc already exposes.
 *
 * The seed ABI lives at numbers no released kernel uses, so on a stock
 * kernel every call below fails cleanly (EINVAL from fcntl, ENOSYS from the
 * syscall) and wlseal_seed_abi_available() reports false.
 */
#ifndef WLSEAL_SEALS_H
#define WLSEAL_SEALS_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef F_LINUX_SPECIFIC_BASE
#define F_LINUX_SPECIFIC_BASE 1024
#endif

/* Upstream (3.17+) sealing, in case the libc headers predate it. */
#ifndef F_ADD_SEALS
#define F_ADD_SEALS (F_LINUX_SPECIFIC_BASE + 9)
#define F_GET_SEALS (F_LINUX_SPECIFIC_BASE + 10)
#endif
#ifndef F_SEAL_SEAL
#define F_SEAL_SEAL 0x0001
#define F_SEAL_SHRINK 0x0002
#define F_SEAL_GROW 0x0004
#define F_SEAL_WRITE 0x0008
#endif
#ifndef F_SEAL_FUTURE_WRITE
#define F_SEAL_FUTURE_WRITE 0x0010
#endif
#ifndef MFD_CLOEXEC
#define MFD_CLOEXEC 0x0001U
#define MFD_ALLOW_SEALING 0x0002U
#endif

/* The seed ABI (kernel-patches/): replace / read the seal set. */
#ifndef SHMEM_SET_SEALS
#define SHMEM_SET_SEALS (F_LINUX_SPECIFIC_BASE + 64)
#define SHMEM_GET_SEALS (F_LINUX_SPECIFIC_BASE + 65)
#endif
#ifndef SHMEM_SEAL_SHRINK
#define SHMEM_SEAL_SHRINK 0x0001
#define SHMEM_SEAL_GROW 0x0002
#define SHMEM_SEAL_WRITE 0x0004
#endif

/* memfd_create_sized(name, size, flags): x86_64 only. */
#ifndef __NR_memfd_create_sized
#if defined(__x86_64__) && !defined(__ILP32__)
#define __NR_memfd_create_sized 1000
#endif
#endif

/* Returns a new fd, or -1 with errno set (ENOSYS on a stock kernel). */
static inline int wlseal_memfd_create_sized(const char *name, uint64_t size,
					    uint64_t flags)
{
#ifdef __NR_memfd_create_sized
	return (int)syscall(__NR_memfd_create_sized, name, size, flags);
#else
	(void)name;
	(void)size;
	(void)flags;
	errno = ENOSYS;
	return -1;
#endif
}

/* Seed seal bits <-> upstream F_SEAL_* bits. */
static inline int wlseal_seed_to_upstream(int seed)
{
	return ((seed & SHMEM_SEAL_SHRINK) ? F_SEAL_SHRINK : 0) |
	       ((seed & SHMEM_SEAL_GROW) ? F_SEAL_GROW : 0) |
	       ((seed & SHMEM_SEAL_WRITE) ? F_SEAL_WRITE : 0);
}

static inline int wlseal_upstream_to_seed(int up)
{
	return ((up & F_SEAL_SHRINK) ? SHMEM_SEAL_SHRINK : 0) |
	       ((up & F_SEAL_GROW) ? SHMEM_SEAL_GROW : 0) |
	       ((up & F_SEAL_WRITE) ? SHMEM_SEAL_WRITE : 0);
}

/*
 * Does the running kernel carry the seed ABI? Creates a one-page file with
 * memfd_create_sized() and reads its seals back with SHMEM_GET_SEALS; both
 * must work. errno is preserved.
 */
static inline bool wlseal_seed_abi_available(void)
{
	int saved = errno;
	bool ok = false;
	int fd = wlseal_memfd_create_sized("wlseal-probe", 4096, MFD_CLOEXEC);

	if (fd >= 0) {
		ok = fcntl(fd, SHMEM_GET_SEALS) >= 0;
		close(fd);
	}
	errno = saved;
	return ok;
}

/*
 * The upstream way to a sealable memfd of @size bytes: memfd_create() with
 * MFD_ALLOW_SEALING, then ftruncate(). Close-on-exec. Returns a new fd, or
 * -1 with errno set.
 */
static inline int wlseal_memfd_create_upstream(const char *name, uint64_t size)
{
	int fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
	int saved;

	if (fd < 0)
		return -1;
	if (ftruncate(fd, (off_t)size) < 0) {
		saved = errno;
		close(fd);
		errno = saved;
		return -1;
	}
	return fd;
}

/*
 * A sealable memfd of @size bytes, whatever the kernel: memfd_create_sized()
 * where the seed ABI exists, else wlseal_memfd_create_upstream(). The file
 * is close-on-exec and accepts F_ADD_SEALS either way. Returns a new fd, or
 * -1 with errno set.
 */
static inline int wlseal_memfd_create_sealable(const char *name,
					       uint64_t size)
{
	int fd = wlseal_memfd_create_sized(name, size, MFD_CLOEXEC);

	if (fd >= 0 || errno != ENOSYS)
		return fd;
	return wlseal_memfd_create_upstream(name, size);
}

#endif /* WLSEAL_SEALS_H */
