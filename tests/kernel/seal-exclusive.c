/* SPDX-License-Identifier: MIT */
/*
 * seal-exclusive: once a seal is set, SHMEM_SET_SEALS needs an exclusive
 * reference. Every kind of other reference blocks a change: a dup(), a
 * fork() child, a /proc/self/fd reopen (read-only, read-write, O_PATH), a
 * mapping (even a private read-only one, or one made through another open
 * file that was closed since), and an fd in flight in an SCM_RIGHTS
 * message. Initial sealing works with such references alive, but not with
 * a writable shared mapping. F_ADD_SEALS stays add-only and unaffected.
 * Everything runs twice: single-threaded, and with an idle thread sharing
 * the file table, so that the kernel's fd lookup takes a reference of its
 * own that the check has to account for.
 */
#include <pthread.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "fdpass.h"
#include "ktest.h"

#define SZ 8192

struct blocker {
	const char *name;
	void (*make)(struct blocker *b, int fd);
	void (*drop)(struct blocker *b);
	int fd, fd2;
	void *map;
	pid_t pid;
};

static void proc_path(char *buf, size_t len, int fd)
{
	snprintf(buf, len, "/proc/self/fd/%d", fd);
}

static void make_dup(struct blocker *b, int fd)
{
	b->fd = dup(fd);
	if (b->fd < 0)
		ktest_bail("dup");
}

static void drop_fd(struct blocker *b)
{
	close(b->fd);
}

/* The child holds the inherited fd until the pipe to it closes. */
static void make_fork(struct blocker *b, int fd)
{
	int p[2];
	char c;

	(void)fd;
	if (pipe(p) < 0)
		ktest_bail("pipe");
	b->pid = fork();
	if (b->pid < 0)
		ktest_bail("fork");
	if (b->pid == 0) {
		close(p[1]);
		while (read(p[0], &c, 1) > 0)
			;
		_exit(0);
	}
	close(p[0]);
	b->fd = p[1];
}

static void drop_fork(struct blocker *b)
{
	close(b->fd);
	waitpid(b->pid, NULL, 0);
}

static void reopen(struct blocker *b, int fd, int flags)
{
	char path[64];

	proc_path(path, sizeof(path), fd);
	b->fd = open(path, flags | O_CLOEXEC);
	if (b->fd < 0)
		ktest_bail("open %s", path);
}

static void make_reopen_ro(struct blocker *b, int fd)
{
	reopen(b, fd, O_RDONLY);
}

static void make_reopen_rw(struct blocker *b, int fd)
{
	reopen(b, fd, O_RDWR);
}

static void make_reopen_path(struct blocker *b, int fd)
{
	reopen(b, fd, O_PATH);
}

static void make_map_private(struct blocker *b, int fd)
{
	b->map = mmap(NULL, SZ, PROT_READ, MAP_PRIVATE, fd, 0);
	if (b->map == MAP_FAILED)
		ktest_bail("mmap");
}

/* A mapping that outlives the open file it was made through. */
static void make_map_other_file(struct blocker *b, int fd)
{
	reopen(b, fd, O_RDONLY);
	b->map = mmap(NULL, SZ, PROT_READ, MAP_SHARED, b->fd, 0);
	if (b->map == MAP_FAILED)
		ktest_bail("mmap");
	close(b->fd);
}

static void drop_map(struct blocker *b)
{
	munmap(b->map, SZ);
}

/* An fd sent over a socket and not yet received. */
static void make_scm_rights(struct blocker *b, int fd)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		ktest_bail("socketpair");
	if (fdpass_send(sv[0], "x", 1, fd, 0) != 1)
		ktest_bail("sendmsg");
	b->fd = sv[0];
	b->fd2 = sv[1];
}

/* Receive the fd, then close it and both sockets. */
static void drop_scm_rights(struct blocker *b)
{
	char c;
	int got = -1;

	if (fdpass_recv(b->fd2, &c, 1, &got, MSG_CMSG_CLOEXEC) != 1)
		ktest_bail("recvmsg");
	if (got >= 0)
		close(got);
	close(b->fd);
	close(b->fd2);
}

static struct blocker blockers[] = {
	{ .name = "dup()", .make = make_dup, .drop = drop_fd },
	{ .name = "fork() child", .make = make_fork, .drop = drop_fork },
	{ .name = "/proc/self/fd reopen O_RDONLY", .make = make_reopen_ro,
	  .drop = drop_fd },
	{ .name = "/proc/self/fd reopen O_RDWR", .make = make_reopen_rw,
	  .drop = drop_fd },
	{ .name = "/proc/self/fd reopen O_PATH", .make = make_reopen_path,
	  .drop = drop_fd },
	{ .name = "private read-only mapping", .make = make_map_private,
	  .drop = drop_map },
	{ .name = "mapping through a since-closed reopen",
	  .make = make_map_other_file, .drop = drop_map },
	{ .name = "fd in flight in SCM_RIGHTS", .make = make_scm_rights,
	  .drop = drop_scm_rights },
};

#define NBLOCKERS (int)(sizeof(blockers) / sizeof(blockers[0]))

static void test_blocker(struct blocker *b, const char *mode)
{
	int fd = ktest_sized("exclusive", SZ);
	int e_init, e_change, e_remove, e_add, g1, g2, e_after, g3;

	b->make(b, fd);
	e_init = ktest_set(fd, SHMEM_SEAL_SHRINK);
	e_change = ktest_set(fd, SHMEM_SEAL_SHRINK | SHMEM_SEAL_WRITE);
	e_remove = ktest_set(fd, 0);
	g1 = ktest_get(fd);
	e_add = ktest_add(fd, F_SEAL_GROW);
	g2 = ktest_get(fd);
	b->drop(b);
	e_after = ktest_set(fd, 0);
	g3 = ktest_get(fd);

	ktest(!e_init && e_change == EPERM && e_remove == EPERM &&
	      g1 == SHMEM_SEAL_SHRINK && !e_add &&
	      g2 == (SHMEM_SEAL_SHRINK | SHMEM_SEAL_GROW) && !e_after && g3 == 0,
	      "%s%s: initial seal %s, change %s, remove %s, F_ADD_SEALS %s; released: remove %s",
	      b->name, mode, ktest_err(e_init), ktest_err(e_change),
	      ktest_err(e_remove), ktest_err(e_add), ktest_err(e_after));
	close(fd);
}

static void test_writable_mapping(const char *mode)
{
	int fd = ktest_sized("exclusive-map", SZ);
	void *p = mmap(NULL, SZ, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	int e_mapped, e_unmapped;

	if (p == MAP_FAILED)
		ktest_bail("mmap");
	e_mapped = ktest_set(fd, SHMEM_SEAL_SHRINK);
	munmap(p, SZ);
	e_unmapped = ktest_set(fd, SHMEM_SEAL_SHRINK);
	ktest(e_mapped == EPERM && !e_unmapped && ktest_get(fd) == SHMEM_SEAL_SHRINK,
	      "writable shared mapping%s blocks initial sealing (%s), unmapped it works (%s)",
	      mode, ktest_err(e_mapped), ktest_err(e_unmapped));
	close(fd);
}

/* The only reference can change and remove seals: the check is not
 * simply always failing.
 */
static void test_exclusive_works(const char *mode)
{
	int fd = ktest_sized("exclusive-only", SZ);
	int e1 = ktest_set(fd, SHMEM_SEAL_WRITE);
	int e2 = ktest_set(fd, SHMEM_SEAL_SHRINK | SHMEM_SEAL_GROW);
	int e3 = ktest_add(fd, F_SEAL_WRITE);
	int e4 = ktest_set(fd, 0);

	ktest(!e1 && !e2 && !e3 && !e4 && ktest_get(fd) == 0 &&
	      ktest_can_map_writable(fd, SZ),
	      "the only reference%s changes and removes seals (%s, %s, %s, %s)",
	      mode, ktest_err(e1), ktest_err(e2), ktest_err(e3), ktest_err(e4));
	close(fd);
}

static void run_all(const char *mode)
{
	test_exclusive_works(mode);
	test_writable_mapping(mode);
	for (int i = 0; i < NBLOCKERS; i++)
		test_blocker(&blockers[i], mode);
}

static int idle_pipe[2];

static void *idle_thread(void *arg)
{
	char c;

	(void)arg;
	while (read(idle_pipe[0], &c, 1) > 0)
		;
	return NULL;
}

int main(void)
{
	const int planned = 2 * (2 + NBLOCKERS);
	pthread_t t;

	ktest_plan(planned);
	run_all("");

	if (pipe(idle_pipe) < 0 || pthread_create(&t, NULL, idle_thread, NULL))
		ktest_bail("idle thread");
	run_all(" (shared file table)");
	close(idle_pipe[1]);
	pthread_join(t, NULL);

	return ktest_done(planned);
}
