/* SPDX-License-Identifier: MIT */
/*
 * seal-race: threads race SHMEM_SET_SEALS / F_ADD_SEALS against mmap,
 * write, ftruncate, fallocate, dup, /proc reopen and fork on one memfd.
 * Receivers take a reference (dup() in a thread, an fd passed through
 * SCM_RIGHTS, an inherited fd in a fork() child), read the seals and then
 * watch the file while they hold the reference. The guarantee under test: seals a receiver has seen stay
 * set while it holds its reference, and what they promise holds (the size
 * does not shrink or grow, the contents do not change under WRITE|SHRINK);
 * a writable shared mapping and SEAL_WRITE never coexist. At the end the
 * writable-mapping counter must be balanced.
 */
#include <linux/falloc.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "fdpass.h"
#include "ktest.h"

#define SZ (64 * 1024)
#define SEALER_ROUNDS 10000
#define WATCH 20		/* re-checks per held reference */

static int fd;
static atomic_bool stop;
static atomic_long set_ok, set_eperm, set_ebusy, set_other;
static atomic_long recv_rounds, recv_violations;
static atomic_long fork_rounds, fork_violations;
static atomic_long scm_rounds, scm_violations;
static atomic_long map_rounds, map_violations;
static char why[256];
static pthread_mutex_t why_lock = PTHREAD_MUTEX_INITIALIZER;

/* Count a broken promise; @counter NULL in fork children: no locking. */
static void violation(atomic_long *counter, const char *fmt, int a, int b)
{
	if (!counter)
		return;
	atomic_fetch_add(counter, 1);
	pthread_mutex_lock(&why_lock);
	if (!why[0])
		snprintf(why, sizeof(why), fmt, a, b);
	pthread_mutex_unlock(&why_lock);
}

static uint32_t checksum(int f, off_t size)
{
	static _Thread_local char buf[4096];
	ssize_t n = pread(f, buf, size < 4096 ? size : 4096, 0);
	uint32_t h = 2166136261u;

	for (ssize_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)buf[i]) * 16777619u;
	return h;
}

/*
 * Hold @f, check what its seals promise WATCH times. Returns the number of
 * broken promises and describes the first one through violation().
 */
static int watch(int f, atomic_long *counter)
{
	int s0 = ktest_get(f), bad = 0;
	off_t size0 = ktest_size(f);
	uint32_t sum0 = checksum(f, size0);
	bool frozen = (s0 & (SHMEM_SEAL_WRITE | SHMEM_SEAL_SHRINK)) ==
		      (SHMEM_SEAL_WRITE | SHMEM_SEAL_SHRINK);

	if (s0 <= 0)
		return 0;	/* nothing promised; initial sealing may follow */

	for (int i = 0; i < WATCH; i++) {
		int s = ktest_get(f);
		off_t size = ktest_size(f);

		if ((s & s0) != s0) {
			violation(counter, "seals 0x%x seen, later 0x%x", s0, s);
			bad++;
		}
		if ((s0 & SHMEM_SEAL_SHRINK) && size < size0) {
			violation(counter, "SHRINK seen, size %d -> %d",
				  (int)size0, (int)size);
			bad++;
		}
		if ((s0 & SHMEM_SEAL_GROW) && size > size0) {
			violation(counter, "GROW seen, size %d -> %d",
				  (int)size0, (int)size);
			bad++;
		}
		if (frozen && checksum(f, size0) != sum0) {
			violation(counter, "WRITE|SHRINK seen (0x%x), contents changed (%d)",
				  s0, i);
			bad++;
		}
		sched_yield();
	}
	return bad;
}

static void *sealer(void *arg)
{
	static const int sets[] = {
		SHMEM_SEAL_SHRINK | SHMEM_SEAL_GROW | SHMEM_SEAL_WRITE,
		SHMEM_SEAL_SHRINK, 0,
		SHMEM_SEAL_SHRINK | SHMEM_SEAL_WRITE, SHMEM_SEAL_GROW, 0,
		SHMEM_SEAL_WRITE, 0,
	};

	(void)arg;
	for (int i = 0; i < SEALER_ROUNDS; i++) {
		int e = (i % 7 == 6) ? ktest_add(fd, F_SEAL_SHRINK)
				     : ktest_set(fd, sets[i % 8]);

		if (!e)
			atomic_fetch_add(&set_ok, 1);
		else if (e == EPERM)
			atomic_fetch_add(&set_eperm, 1);
		else if (e == EBUSY)
			atomic_fetch_add(&set_ebusy, 1);
		else
			atomic_fetch_add(&set_other, 1);
		sched_yield();
	}
	atomic_store(&stop, true);
	return NULL;
}

static void *receiver(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop)) {
		int f = dup(fd);

		if (f < 0)
			continue;
		watch(f, &recv_violations);
		close(f);
		atomic_fetch_add(&recv_rounds, 1);
		sched_yield();
	}
	return NULL;
}

static void *forker(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop)) {
		int status;
		pid_t pid = fork();

		if (pid == 0)
			_exit(watch(fd, NULL) ? 1 : 0);
		if (pid < 0)
			continue;
		if (waitpid(pid, &status, 0) == pid &&
		    (!WIFEXITED(status) || WEXITSTATUS(status)))
			violation(&fork_violations,
				  "fork child saw a broken promise (status %d, pid %d)",
				  status, pid);
		atomic_fetch_add(&fork_rounds, 1);
	}
	return NULL;
}

/* Pass the fd to ourselves in an SCM_RIGHTS message, then hold it. */
static void *scm_receiver(void *arg)
{
	int sv[2];

	(void)arg;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return NULL;
	while (!atomic_load(&stop)) {
		char c = 'x';
		int f = -1;

		if (fdpass_send(sv[0], &c, 1, fd, 0) != 1)
			break;
		if (fdpass_recv(sv[1], &c, 1, &f, MSG_CMSG_CLOEXEC) != 1)
			break;
		if (f >= 0) {
			watch(f, &scm_violations);
			close(f);
		}
		atomic_fetch_add(&scm_rounds, 1);
		sched_yield();
	}
	close(sv[0]);
	close(sv[1]);
	return NULL;
}

static void *mutator(void *arg)
{
	unsigned int seed = 1;
	char buf[512];

	(void)arg;
	memset(buf, 0xa5, sizeof(buf));
	while (!atomic_load(&stop)) {
		off_t off = rand_r(&seed) % (2 * SZ);

		switch (rand_r(&seed) % 5) {
		case 0:
			if (pwrite(fd, buf, sizeof(buf), off) < 0)
				break;
			break;
		case 1:
			if (ftruncate(fd, SZ / 2 + off / 2) < 0)
				break;
			break;
		case 2:
			if (fallocate(fd, 0, off, sizeof(buf)) < 0)
				break;
			break;
		case 3:
			if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				      off, 4096) < 0)
				break;
			break;
		case 4:
			if (ftruncate(fd, SZ) < 0)
				break;
			break;
		}
		sched_yield();
	}
	return NULL;
}

static void *mapper(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop)) {
		char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
			       fd, 0);

		if (p != MAP_FAILED) {
			int s = ktest_get(fd);

			if (s > 0 && (s & SHMEM_SEAL_WRITE))
				violation(&map_violations,
					  "writable mapping while seals are 0x%x (round %d)",
					  s, (int)atomic_load(&map_rounds));
			p[0]++;
			munmap(p, 4096);
		}
		atomic_fetch_add(&map_rounds, 1);
		sched_yield();
	}
	return NULL;
}

static void *duper(void *arg)
{
	char path[64];

	(void)arg;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	while (!atomic_load(&stop)) {
		int a = dup(fd), b = open(path, O_RDONLY | O_CLOEXEC);

		if (a >= 0)
			close(a);
		if (b >= 0)
			close(b);
		sched_yield();
	}
	return NULL;
}

int main(void)
{
	void *(*fns[])(void *) = { sealer, receiver, receiver, forker,
				   scm_receiver, mutator, mapper, duper };
	const int nthreads = sizeof(fns) / sizeof(fns[0]);
	const int planned = 6;
	pthread_t t[sizeof(fns) / sizeof(fns[0])];
	int e1, e2, e3;

	ktest_plan(planned);
	fd = ktest_sized("race", SZ);
	for (int i = 0; i < nthreads; i++)
		if (pthread_create(&t[i], NULL, fns[i], NULL))
			ktest_bail("pthread_create");
	for (int i = 0; i < nthreads; i++)
		pthread_join(t[i], NULL);

	ktest_diag("sealer: %ld ok, %ld EPERM, %ld EBUSY, %ld other; receivers %ld, fork children %ld, SCM_RIGHTS %ld, mappings %ld",
		   atomic_load(&set_ok), atomic_load(&set_eperm),
		   atomic_load(&set_ebusy), atomic_load(&set_other),
		   atomic_load(&recv_rounds), atomic_load(&fork_rounds),
		   atomic_load(&scm_rounds), atomic_load(&map_rounds));
	if (why[0])
		ktest_diag("first broken promise: %s", why);

	ktest(atomic_load(&set_ok) > 0 && atomic_load(&set_other) == 0 &&
	      atomic_load(&recv_rounds) > 0 && atomic_load(&fork_rounds) > 0,
	      "the race ran: seals changed %ld times, only EPERM/EBUSY refusals",
	      atomic_load(&set_ok));
	ktest(atomic_load(&recv_violations) == 0,
	      "threads holding a dup() never saw a promise broken (%ld)",
	      atomic_load(&recv_violations));
	ktest(atomic_load(&fork_violations) == 0,
	      "fork() children holding the fd never saw a promise broken (%ld)",
	      atomic_load(&fork_violations));
	ktest(atomic_load(&scm_violations) == 0 && atomic_load(&scm_rounds) > 0,
	      "fds received through SCM_RIGHTS never saw a promise broken (%ld)",
	      atomic_load(&scm_violations));
	ktest(atomic_load(&map_violations) == 0,
	      "a writable shared mapping never coexisted with SEAL_WRITE (%ld)",
	      atomic_load(&map_violations));

	/* alone again: everything removable, the mapping counter balanced */
	e1 = ktest_set(fd, 0);
	e2 = ktest_add(fd, F_SEAL_WRITE);
	e3 = ktest_can_map_writable(fd, 4096) ? -1 : ktest_set(fd, 0);
	ktest(!e1 && !e2 && !e3 && ktest_can_map_writable(fd, 4096),
	      "afterwards the only reference removes all seals and the writable-mapping counter is balanced (%s, %s, %s)",
	      ktest_err(e1), ktest_err(e2), e3 < 0 ? "mapping allowed under WRITE" : ktest_err(e3));
	close(fd);
	return ktest_done(planned);
}
