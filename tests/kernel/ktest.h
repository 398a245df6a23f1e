/* SPDX-License-Identifier: MIT */
/*
 * ktest.h - TAP output and small helpers shared by the kernel seal tests.
 * The tests run inside the VM on the patched kernel (the stock-kernel probe
 * runs on the host). Output is kselftest-style TAP: "1..N", then one
 * "ok N - name" or "not ok N - name" per check, diagnostics as "# ...".
 */
#ifndef WLSEAL_KTEST_H
#define WLSEAL_KTEST_H

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wlseal-seals.h"

static int ktest_num;
static int ktest_failed;

static inline void ktest_plan(int n)
{
	printf("1..%d\n", n);
	fflush(stdout);
}

__attribute__((format(printf, 2, 3)))
static inline bool ktest(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", ok ? "" : "not ", ++ktest_num);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!ok)
		ktest_failed++;
	return ok;
}

__attribute__((format(printf, 1, 2)))
static inline void ktest_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* Exit status: 0 only if every planned check ran and passed. */
static inline int ktest_done(int planned)
{
	if (ktest_num != planned) {
		ktest_diag("ran %d checks, planned %d", ktest_num, planned);
		return 1;
	}
	return ktest_failed ? 1 : 0;
}

/* Setup failures that make the rest meaningless. */
#define ktest_bail(...) do {						\
	printf("Bail out! ");						\
	printf(__VA_ARGS__);						\
	printf(" (%s)\n", strerror(errno));				\
	exit(1);							\
} while (0)

/* A sealable memfd of @size bytes, created with the upstream API. */
static inline int ktest_memfd(const char *name, off_t size)
{
	int fd = wlseal_memfd_create_upstream(name, (uint64_t)size);

	if (fd < 0)
		ktest_bail("memfd_create(%s)", name);
	return fd;
}

/* A memfd of @size bytes from the seed's memfd_create_sized(). */
static inline int ktest_sized(const char *name, uint64_t size)
{
	int fd = wlseal_memfd_create_sized(name, size, MFD_CLOEXEC);

	if (fd < 0)
		ktest_bail("memfd_create_sized(%s)", name);
	return fd;
}

/* 0 on success, else the errno of the failed call. */
static inline int ktest_set(int fd, int seed_seals)
{
	return fcntl(fd, SHMEM_SET_SEALS, seed_seals) < 0 ? errno : 0;
}

static inline int ktest_add(int fd, int upstream_seals)
{
	return fcntl(fd, F_ADD_SEALS, upstream_seals) < 0 ? errno : 0;
}

/* The seals in seed bits, or -errno. */
static inline int ktest_get(int fd)
{
	int r = fcntl(fd, SHMEM_GET_SEALS);

	return r < 0 ? -errno : r;
}

static inline int ktest_get_upstream(int fd)
{
	int r = fcntl(fd, F_GET_SEALS);

	return r < 0 ? -errno : r;
}

/* Can a writable shared mapping of @fd be created right now? */
static inline bool ktest_can_map_writable(int fd, size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED)
		return false;
	munmap(p, len);
	return true;
}

static inline off_t ktest_size(int fd)
{
	struct stat st;

	return fstat(fd, &st) < 0 ? -1 : st.st_size;
}

static inline const char *ktest_err(int e)
{
	return e ? strerror(e) : "success";
}

#endif /* WLSEAL_KTEST_H */
