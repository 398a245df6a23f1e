/* SPDX-License-Identifier: MIT */
/*
 * seal-holder: the end-to-end invariant of sealing, from the side of the
 * process that relies on it.
 *
 * A holder process receives a memfd through SCM_RIGHTS, checks that
 * F_SEAL_SHRINK is set and the size is what it expects, maps it read-only,
 * closes its fd and reads every page for a few seconds, with no SIGBUS
 * handler: if the file ever shrank under the mapping, the holder dies.
 * Meanwhile the owner tries every way it has to lift the seal or truncate,
 * in four modes, each its own process:
 *   single     one thread: SHMEM_SET_SEALS (to 0, to GROW, to WRITE),
 *              ftruncate() to 0 and to one page less, truncate() by path,
 *   threaded   setters, truncaters, a locker (long fallocate() on a dup,
 *              holding inode_lock) and a slot shuffler that closes, dup2()s
 *              and close_range()s the owner's fds while the setters wait
 *              and refills them from the holder (pidfd_getfd(), its
 *              /proc/PID/fd and /proc/PID/map_files entries),
 *   forking    children that inherit the fd try while the parent has
 *              closed its own,
 *   reopen     reopens through /proc/self/fd, /proc/HOLDER/fd and
 *              /proc/HOLDER/map_files, with every other fd closed.
 * Every attempt while the holder holds its fd or mapping must fail, and
 * the holder must exit normally having read every page on every pass.
 */
#include <linux/falloc.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

#include "fdpass.h"
#include "ktest.h"

#define PAGES 64
#define SZ (PAGES * 4096)
#define HOLDER_FD 100
#define READ_SECONDS 2

enum mode { SINGLE, THREADED, FORKING, REOPEN, NMODES };
static const char *const mode_names[] = { "single", "threaded", "forking", "reopen" };

struct hmsg {
	char tag;		/* 'F' fd, 'M' mapped (fd closed), 'E' end, 'X' error */
	uintptr_t start, end;	/* the mapping, with 'M' */
	long passes;		/* with 'E' */
};

static int msg_send(int s, const struct hmsg *m, int fd)
{
	return fdpass_send(s, m, sizeof(*m), fd, MSG_NOSIGNAL) ==
	       (ssize_t)sizeof(*m) ? 0 : -1;
}

/* 0, or -1 if nothing is there (MSG_DONTWAIT), or -2 at EOF or error. */
static int msg_recv(int s, struct hmsg *m, int *fd, int flags)
{
	ssize_t n = fdpass_recv(s, m, sizeof(*m), fd, MSG_CMSG_CLOEXEC | flags);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return -1;
	return n == (ssize_t)sizeof(*m) ? 0 : -2;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The holder: verify, map, close, read every page until time is up. */
static void holder(int s)
{
	struct hmsg m = { 0 };
	volatile const unsigned char *p;
	unsigned long sum = 0;
	double end;
	int fd = -1;

	if (msg_recv(s, &m, &fd, 0) || m.tag != 'F' || fd < 0)
		_exit(2);
	if (dup2(fd, HOLDER_FD) < 0)
		_exit(2);
	close(fd);
	fd = HOLDER_FD;
	/* what a careful client checks before trusting the size */
	if (!(ktest_get_upstream(fd) & F_SEAL_SHRINK) || ktest_size(fd) != SZ) {
		m.tag = 'X';
		msg_send(s, &m, -1);
		_exit(3);
	}
	/* keep the fd a moment, so the owner attacks while both exist */
	for (int i = 0; i < 200; i++)
		if (!(ktest_get_upstream(fd) & F_SEAL_SHRINK))
			_exit(4);
	p = mmap(NULL, SZ, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		_exit(5);
	close(fd);
	m.tag = 'M';
	m.start = (uintptr_t)p;
	m.end = (uintptr_t)p + SZ;
	msg_send(s, &m, -1);

	end = now() + READ_SECONDS;
	m.passes = 0;
	while (now() < end) {
		for (int i = 0; i < PAGES; i++)
			sum += p[i * 4096] + p[i * 4096 + 4095];
		m.passes++;
	}
	m.tag = 'E';
	msg_send(s, &m, -1);
	/* keep the mapping until the owner has stopped trying */
	while (msg_recv(s, &m, NULL, 0) != -2)
		;
	_exit(sum == (unsigned long)-1 ? 6 : 0);	/* use sum */
}

/* --- the owner ----------------------------------------------------------- */

static pid_t hpid;
static int hsock;
static atomic_uintptr_t map_start, map_end;
static atomic_bool stop;
static atomic_long attempts, lifted, holder_passes;
static char why[160];
static pthread_mutex_t why_lock = PTHREAD_MUTEX_INITIALIZER;

static void note_lift(const char *what, int fd)
{
	atomic_fetch_add(&lifted, 1);
	pthread_mutex_lock(&why_lock);
	if (!why[0])
		snprintf(why, sizeof(why), "%s on fd %d succeeded", what, fd);
	pthread_mutex_unlock(&why_lock);
}

/* Every lift: seal changes and truncation. Counts successes. */
static void try_lifts(int fd)
{
	static const int sets[] = { 0, SHMEM_SEAL_GROW, SHMEM_SEAL_WRITE };
	char path[64];

	for (unsigned int i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		atomic_fetch_add(&attempts, 1);
		if (!ktest_set(fd, sets[i]))
			note_lift("SHMEM_SET_SEALS", fd);
	}
	atomic_fetch_add(&attempts, 2);
	if (!ftruncate(fd, 0))
		note_lift("ftruncate(0)", fd);
	if (!ftruncate(fd, SZ - 4096))
		note_lift("ftruncate(SZ - 4096)", fd);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	atomic_fetch_add(&attempts, 1);
	if (!truncate(path, 0))
		note_lift("truncate(/proc/self/fd)", fd);
}

/* Has the holder reported the end of its reads? Records its mapping. */
static bool holder_done(void)
{
	struct hmsg m;
	int r;

	while ((r = msg_recv(hsock, &m, NULL, MSG_DONTWAIT)) == 0) {
		if (m.tag == 'M') {
			atomic_store(&map_end, m.end);
			atomic_store(&map_start, m.start);
		} else {
			atomic_store(&holder_passes, m.tag == 'E' ? m.passes : 0);
			atomic_store(&stop, true);
		}
	}
	if (r == -2)	/* the holder is gone */
		atomic_store(&stop, true);
	return atomic_load(&stop);
}

/* A new reference to the file, reached only through the holder. */
static int reacquire(int n)
{
	uintptr_t start = atomic_load(&map_start), end = atomic_load(&map_end);
	char path[96];
	int fd = -1, pidfd;

	switch (n % 3) {
	case 0:
		pidfd = (int)syscall(SYS_pidfd_open, hpid, 0);
		if (pidfd >= 0) {
			fd = (int)syscall(SYS_pidfd_getfd, pidfd, HOLDER_FD, 0);
			close(pidfd);
		}
		break;
	case 1:
		snprintf(path, sizeof(path), "/proc/%d/fd/%d", hpid, HOLDER_FD);
		fd = open(path, O_RDWR | O_CLOEXEC);
		break;
	case 2:
		if (!start)
			break;
		snprintf(path, sizeof(path), "/proc/%d/map_files/%lx-%lx", hpid,
			 (unsigned long)start, (unsigned long)end);
		fd = open(path, O_RDWR | O_CLOEXEC);
		break;
	}
	return fd;
}

static int owner_fd;

static void *setter(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop))
		try_lifts(owner_fd);
	return NULL;
}

static void *locker(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop)) {
		int d = dup(owner_fd);

		if (d < 0)
			continue;
		/* holds inode_lock for the allocation; beyond EOF, size kept */
		if (fallocate(d, FALLOC_FL_KEEP_SIZE, SZ, 8 << 20) == 0)
			fallocate(d, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				  SZ, 8 << 20);
		close(d);
	}
	return NULL;
}

/* Empty the owner's slot while setters wait; refill it from the holder. */
static void *shuffler(void *arg)
{
	int n = 0, fd = owner_fd;

	(void)arg;
	while (!atomic_load(&stop)) {
		int r = reacquire(n);

		switch (n++ % 3) {
		case 0:
			close(fd);
			break;
		case 1:
			if (r >= 0)
				dup2(r, fd);
			break;
		case 2:
			syscall(SYS_close_range, fd, fd, 0);
			break;
		}
		if (r >= 0) {
			if (r != fd && dup2(r, fd) >= 0)
				close(r);
		}
		sched_yield();
	}
	return NULL;
}

static void run_owner(enum mode mode, int fd)
{
	pthread_t t[6];
	int nt = 0, n = 0;

	owner_fd = fd;
	switch (mode) {
	case SINGLE:
		while (!holder_done())
			try_lifts(fd);
		break;
	case THREADED:
		for (int i = 0; i < 2; i++)
			pthread_create(&t[nt++], NULL, setter, NULL);
		pthread_create(&t[nt++], NULL, locker, NULL);
		pthread_create(&t[nt++], NULL, shuffler, NULL);
		while (!holder_done())
			usleep(1000);	/* poll interval for the holder's message */
		for (int i = 0; i < nt; i++)
			pthread_join(t[i], NULL);
		break;
	case FORKING:
		while (!holder_done()) {
			int status;
			pid_t pid = fork();

			if (pid == 0) {
				try_lifts(fd);
				try_lifts(fd);
				_exit(atomic_load(&lifted) ? 1 : 0);
			}
			/* the parent lets go while the child tries */
			close(fd);
			atomic_fetch_add(&attempts, 12);
			if (pid > 0 && waitpid(pid, &status, 0) == pid &&
			    !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
				note_lift("a fork child's lift", fd);
			do {
				int r = reacquire(n++);

				if (r >= 0 && r != fd) {
					dup2(r, fd);
					close(r);
				}
			} while (fcntl(fd, F_GETFD) < 0 && !holder_done());
		}
		break;
	case REOPEN:
		while (!holder_done()) {
			char path[64];
			int r;

			snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
			r = open(path, O_RDWR | O_CLOEXEC);
			close(fd);
			if (r >= 0) {
				try_lifts(r);
				close(r);
			}
			do {
				r = reacquire(n++);
			} while (r < 0 && !holder_done());
			if (r >= 0) {
				try_lifts(r);
				if (r != fd) {
					dup2(r, fd);
					close(r);
				}
			}
		}
		break;
	default:
		break;
	}
}

struct result {
	long attempts, lifted, passes;
	int holder_status;
	char why[160];
};

/* One mode: holder and owner in processes of their own. */
static void run_mode(enum mode mode, struct result *res)
{
	int sv[2], pfd[2], fd, status;
	struct hmsg m = { .tag = 'F' };
	pid_t opid;

	memset(res, 0, sizeof(*res));
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0 ||
	    pipe2(pfd, O_CLOEXEC) < 0)
		ktest_bail("socketpair/pipe");
	hpid = fork();
	if (hpid < 0)
		ktest_bail("fork");
	if (hpid == 0) {
		close(sv[0]);
		holder(sv[1]);
	}
	close(sv[1]);

	opid = fork();
	if (opid < 0)
		ktest_bail("fork");
	if (opid == 0) {
		struct result r = { 0 };

		hsock = sv[0];
		/* alternate the two ways to make a sized, sealed memfd */
		if (mode % 2) {
			fd = ktest_memfd("holder", SZ);
			if (ktest_add(fd, F_SEAL_SHRINK))
				_exit(2);
		} else {
			fd = ktest_sized("holder", SZ);
			if (ktest_set(fd, SHMEM_SEAL_SHRINK))
				_exit(2);
		}
		if (msg_send(hsock, &m, fd))
			_exit(2);
		run_owner(mode, fd);
		r.attempts = atomic_load(&attempts);
		r.lifted = atomic_load(&lifted);
		r.passes = atomic_load(&holder_passes);
		snprintf(r.why, sizeof(r.why), "%s", why);
		if (write(pfd[1], &r, sizeof(r)) != sizeof(r))
			_exit(3);
		_exit(0);
	}
	close(pfd[1]);
	close(sv[0]);	/* the holder sees EOF once the owner exits */
	if (read(pfd[0], res, sizeof(*res)) != sizeof(*res))
		snprintf(res->why, sizeof(res->why), "the owner died");
	close(pfd[0]);
	waitpid(opid, &status, 0);
	waitpid(hpid, &res->holder_status, 0);
}

int main(int argc, char **argv)
{
	const int planned = NMODES;

	if (argc > 1) {
		printf("usage: %s\n"
		       "A holder maps a memfd it checked for F_SEAL_SHRINK and reads it for\n"
		       "%d s per mode while the owner (single-threaded, threaded, forking,\n"
		       "reopening) tries every way to lift the seal and truncate. Prints TAP.\n",
		       argv[0], READ_SECONDS);
		return strcmp(argv[1], "--help") ? 2 : 0;
	}
	signal(SIGPIPE, SIG_IGN);
	ktest_plan(planned);
	for (int mode = 0; mode < NMODES; mode++) {
		struct result r;
		int hs;

		run_mode(mode, &r);
		hs = r.holder_status;
		ktest(WIFEXITED(hs) && WEXITSTATUS(hs) == 0 && r.lifted == 0 &&
		      r.attempts > 0 && r.passes > 0,
		      "%s owner: %ld lift attempts, %ld succeeded%s%s; holder read all %d pages %ld times, %s %d",
		      mode_names[mode], r.attempts, r.lifted, r.why[0] ? ": " : "",
		      r.why, PAGES, r.passes,
		      WIFSIGNALED(hs) ? "killed by signal" : "exited",
		      WIFSIGNALED(hs) ? WTERMSIG(hs) : WEXITSTATUS(hs));
	}
	return ktest_done(planned);
}
