/* SPDX-License-Identifier: MIT */
/*
 * seal-write-pin: SHMEM_SEAL_WRITE treats writable mappings and pinned
 * pages exactly like F_ADD_SEALS(F_SEAL_WRITE). Pages are pinned the way
 * userspace can do it without a block device: vmsplice() a mapped page
 * into a pipe, unmap it, and the pipe keeps a reference to the page (as a
 * pending O_DIRECT or AIO request would). Adding SEAL_WRITE waits for the
 * reference and fails with EBUSY; so does removing any seal. Draining the
 * pipe releases the page and the same call succeeds.
 */
#include <sys/uio.h>

#include "ktest.h"

#define PAGE 4096
#define SZ (4 * PAGE)

/* Put a reference to the first page of @p into a new pipe; return it. */
static int pin_page(void *p, int pipefd[2])
{
	struct iovec iov = { .iov_base = p, .iov_len = PAGE };

	if (pipe(pipefd) < 0)
		ktest_bail("pipe");
	if (vmsplice(pipefd[1], &iov, 1, 0) != PAGE)
		ktest_bail("vmsplice");
	return 0;
}

static void unpin(int pipefd[2])
{
	char buf[PAGE];

	if (read(pipefd[0], buf, sizeof(buf)) != PAGE)
		ktest_bail("drain pipe");
	close(pipefd[0]);
	close(pipefd[1]);
}

static int new_file(void)
{
	static char data[SZ];
	int fd = ktest_sized("pin", SZ);

	memset(data, 0x5a, sizeof(data));
	if (pwrite(fd, data, sizeof(data), 0) != SZ)
		ktest_bail("pwrite");
	return fd;
}

static void test_writable_mapping(void)
{
	int fd = new_file();
	void *p = mmap(NULL, SZ, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	int e_seed, e_up;

	if (p == MAP_FAILED)
		ktest_bail("mmap");
	e_seed = ktest_set(fd, SHMEM_SEAL_WRITE);
	e_up = ktest_add(fd, F_SEAL_WRITE);
	munmap(p, SZ);
	ktest(e_seed == EPERM && e_up == EBUSY && ktest_get(fd) == 0,
	      "a writable shared mapping refuses SHMEM_SEAL_WRITE (%s) as it refuses F_SEAL_WRITE (%s)",
	      ktest_err(e_seed), ktest_err(e_up));
	close(fd);
}

static void test_add_write_pinned(void)
{
	int fd = new_file(), pp[2], e_seed, e_up, e_after;
	bool map_ok, map_denied;
	void *p = mmap(NULL, SZ, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED)
		ktest_bail("mmap");
	pin_page(p, pp);
	munmap(p, SZ);

	e_seed = ktest_set(fd, SHMEM_SEAL_WRITE);
	e_up = ktest_add(fd, F_SEAL_WRITE);
	/* the failed calls must have undone their mapping_deny_writable() */
	map_ok = ktest_can_map_writable(fd, SZ);
	ktest(e_seed == EBUSY && e_up == EBUSY && ktest_get(fd) == 0 && map_ok,
	      "pinned page: SHMEM_SET_SEALS(WRITE) %s, F_ADD_SEALS(F_SEAL_WRITE) %s, writable mappings still allowed",
	      ktest_err(e_seed), ktest_err(e_up));

	unpin(pp);
	e_after = ktest_set(fd, SHMEM_SEAL_WRITE);
	map_denied = !ktest_can_map_writable(fd, SZ);
	ktest(!e_after && map_denied && ktest_get_upstream(fd) == F_SEAL_WRITE,
	      "pin released: SHMEM_SET_SEALS(WRITE) %s and writable mappings are refused",
	      ktest_err(e_after));

	e_after = ktest_set(fd, 0);
	ktest(!e_after && ktest_can_map_writable(fd, SZ),
	      "removing SHMEM_SEAL_WRITE allows writable mappings again (%s)",
	      ktest_err(e_after));
	close(fd);
}

/* A private read-only mapping reads the page cache page: pin that one. */
static void test_remove_pinned(int seed_seals, int upstream_seals,
			       const char *name)
{
	int fd = new_file(), pp[2], e_set, e_rm, e_after;
	void *p;

	e_set = upstream_seals ? ktest_add(fd, upstream_seals)
			       : ktest_set(fd, seed_seals);
	p = mmap(NULL, SZ, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		ktest_bail("mmap");
	pin_page(p, pp);
	munmap(p, SZ);

	e_rm = ktest_set(fd, 0);
	ktest(!e_set && e_rm == EBUSY && ktest_get(fd) == seed_seals,
	      "%s: removing it while a page is pinned fails with %s; seals unchanged",
	      name, ktest_err(e_rm));

	unpin(pp);
	e_after = ktest_set(fd, 0);
	ktest(!e_after && ktest_get(fd) == 0 && ktest_get_upstream(fd) == 0,
	      "%s: removed after the pin is released (%s)", name,
	      ktest_err(e_after));
	close(fd);
}

int main(void)
{
	const int planned = 1 + 3 + 2 * 3;

	ktest_plan(planned);
	test_writable_mapping();
	test_add_write_pinned();
	test_remove_pinned(SHMEM_SEAL_SHRINK, 0, "SHMEM_SEAL_SHRINK");
	test_remove_pinned(SHMEM_SEAL_WRITE | SHMEM_SEAL_GROW, 0,
			   "SHMEM_SEAL_WRITE|GROW");
	test_remove_pinned(SHMEM_SEAL_WRITE, F_SEAL_WRITE,
			   "F_SEAL_WRITE set through F_ADD_SEALS");
	return ktest_done(planned);
}
