/* SPDX-License-Identifier: MIT */
/*
 * seal-slot-race: the regression test of the slot-emptying race, made
 * deterministic.
 *
 * SHMEM_SET_SEALS may change seals only through an exclusive reference.
 * With a shared file table, fdget() takes a reference of its own, so the
 * count the caller may hold is "slot + lookup" = 2. The caller sleeps in
 * inode_lock() before it counts; if a sibling thread empties the slot
 * meanwhile (close(), dup2() over it, close_range()), a reference held by
 * another process stands in for the slot and an unfixed kernel accepts the
 * count of 2.
 *
 * Each round, step by step, with every step confirmed before the next:
 *  1. holder H (its own single-threaded process) receives the memfd
 *     through SCM_RIGHTS and checks SEAL_SHRINK and the size,
 *  2. H starts a long fallocate() on its fd: H holds inode_lock, and its
 *     only reference is its file table slot (a single-threaded table takes
 *     no lookup reference), which it keeps,
 *  3. thread T of the owner calls SHMEM_SET_SEALS(fd, 0) and is seen
 *     asleep in the fcntl (state D, /proc/self/task/T/syscall),
 *  4. the owner's main thread empties the slot (close / dup2 / close_range)
 *     and confirms that T is still asleep in the fcntl, so the slot was
 *     gone before T counted,
 *  5. H's fallocate() ends; T counts.
 * The call must fail with EPERM, H must still read SEAL_SHRINK through its
 * fd, and truncating through a reopen of H's fd must fail with EPERM. If
 * a step cannot be confirmed (H's fallocate() ended too early), the round
 * is repeated with a longer fallocate(); a round that cannot be set up in
 * five tries fails the check.
 *
 * Checked against the race itself (2026-12-04): on the series with the
 * slot check of memfd_is_exclusive() disabled (the count-only check of
 * before the fix), rounds 1-3 fail under TCG every time: SHMEM_SET_SEALS(0)
 * succeeds, the holder reads SEAL_SHRINK gone and ftruncate(0) through
 * its fd succeeds. Round 4 is refused there too, by the count alone: the
 * refilled slot is a reference of its own.
 */
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

#define SZ (1 << 20)
#define HOLDER_FD 100	/* the holder keeps the memfd here */

enum empty_slot { BY_CLOSE, BY_DUP2, BY_CLOSE_RANGE, BY_CLOSE_REFILL };
static const char *const how_names[] = {
	"close()", "dup2() over it", "close_range()",
	"close() and refill from the holder (pidfd_getfd)",
};

enum outcome { REFUSED, LIFTED, NOT_SET_UP };

static int sfd_send(int s, int fd, char c)
{
	return fdpass_send(s, &c, 1, fd, MSG_NOSIGNAL) == 1 ? 0 : -1;
}

/* Receive one byte (and an fd into *@fd if @fd). Returns the byte or -1. */
static int sfd_recv(int s, int *fd)
{
	char c;

	if (fdpass_recv(s, &c, 1, fd, MSG_CMSG_CLOEXEC) != 1)
		return -1;
	return (unsigned char)c;
}

/*
 * The holder: receive, verify, report; on 'G' fallocate @falloc bytes
 * (inode_lock held throughout), report 'D'; on 'Q' report whether
 * SEAL_SHRINK is still set ('1') or not ('0').
 */
static void holder(int s, off_t falloc)
{
	int fd = -1, c;

	if (sfd_recv(s, &fd) != 'F' || fd < 0)
		_exit(2);
	if (fd != HOLDER_FD) {
		if (dup2(fd, HOLDER_FD) < 0)
			_exit(2);
		close(fd);
		fd = HOLDER_FD;
	}
	if (!(ktest_get_upstream(fd) & F_SEAL_SHRINK) || ktest_size(fd) != SZ)
		_exit(3);
	sfd_send(s, -1, 'R');
	if (sfd_recv(s, NULL) != 'G')
		_exit(4);
	sfd_send(s, -1, 'S');
	if (fallocate(fd, FALLOC_FL_KEEP_SIZE, SZ, falloc) < 0)
		_exit(5);
	sfd_send(s, -1, 'D');
	while ((c = sfd_recv(s, NULL)) == 'Q')
		sfd_send(s, -1, (ktest_get_upstream(fd) & F_SEAL_SHRINK) ? '1' : '0');
	_exit(0);
}

/* First field of /proc/<path>/syscall: the syscall number, or -1. */
static long in_syscall(const char *path)
{
	char buf[64] = "";
	FILE *f = fopen(path, "re");
	long nr = -1;

	if (f && fgets(buf, sizeof(buf), f))
		if (sscanf(buf, "%ld", &nr) != 1)
			nr = -1;
	if (f)
		fclose(f);
	return nr;
}

/* The state letter of a task from its stat file, or '?'. */
static char task_state(pid_t tid)
{
	char path[64], buf[512] = "", *p;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	f = fopen(path, "re");
	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : '?';
}

static void tick(void)
{
	struct timespec ts = { 0, 200 * 1000 };

	nanosleep(&ts, NULL);	/* a poll interval, not a condition */
}

struct setter {
	int fd;
	atomic_int tid;
	atomic_int done;
	int err;
};

static void *setter_main(void *arg)
{
	struct setter *st = arg;

	atomic_store(&st->tid, (int)syscall(SYS_gettid));
	st->err = ktest_set(st->fd, 0);
	atomic_store(&st->done, 1);
	return NULL;
}

static enum outcome round_once(enum empty_slot how, off_t falloc, char *why,
			       size_t whylen)
{
	int sv[2], fd, other, got, reply, status, pidfd = -1;
	char path[64];
	struct setter st = { .fd = -1 };
	enum outcome res = NOT_SET_UP;
	pthread_t t;
	pid_t pid;
	int waited;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		ktest_bail("socketpair");
	pid = fork();
	if (pid < 0)
		ktest_bail("fork");
	if (pid == 0) {
		close(sv[0]);
		holder(sv[1], falloc);
	}
	close(sv[1]);

	fd = ktest_memfd("slot-race", SZ);
	other = ktest_memfd("slot-race-other", 4096);
	if (ktest_set(fd, SHMEM_SEAL_SHRINK))
		ktest_bail("initial SHMEM_SET_SEALS(SHRINK)");
	if (sfd_send(sv[0], fd, 'F') || sfd_recv(sv[0], NULL) != 'R') {
		snprintf(why, whylen, "holder did not confirm SEAL_SHRINK and size");
		res = LIFTED;	/* cannot happen before any lift: report it */
		goto out;
	}

	/* 2. H in fallocate(), holding inode_lock */
	sfd_send(sv[0], -1, 'G');
	if (sfd_recv(sv[0], NULL) != 'S')
		goto out;

	/* 3. T asleep in SHMEM_SET_SEALS */
	st.fd = fd;
	if (pthread_create(&t, NULL, setter_main, &st))
		ktest_bail("pthread_create");
	for (waited = 0;; waited++) {
		int tid = atomic_load(&st.tid);

		if (atomic_load(&st.done))
			break;
		if (tid) {
			snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", tid);
			if (task_state(tid) == 'D' && in_syscall(path) == SYS_fcntl)
				break;
		}
		if (waited > 100000)
			break;
		tick();
	}

	/* 4. empty the slot while T sleeps */
	switch (how) {
	case BY_CLOSE:
	case BY_CLOSE_REFILL:
		close(fd);
		break;
	case BY_DUP2:
		dup2(other, fd);
		break;
	case BY_CLOSE_RANGE:
		syscall(SYS_close_range, fd, fd, 0);
		break;
	}
	if (how == BY_CLOSE_REFILL) {
		/* a new copy of the file in the same slot, from the holder */
		pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
		got = pidfd < 0 ? -1 : (int)syscall(SYS_pidfd_getfd, pidfd, HOLDER_FD, 0);
		if (got >= 0 && got != fd) {
			dup2(got, fd);
			close(got);
		}
	}
	/*
	 * T was asleep in the fcntl before the slot was emptied; asleep
	 * there now too means it has not counted yet: before counting, the
	 * call sleeps only in inode_lock(), and a count with the slot still
	 * filled fails at once and returns.
	 */
	if (atomic_load(&st.done) || task_state(atomic_load(&st.tid)) != 'D') {
		/* T may have counted before the slot was emptied: no race */
		pthread_join(t, NULL);
		goto out;
	}

	/* 5. H's fallocate() ends, T counts */
	pthread_join(t, NULL);
	if (sfd_recv(sv[0], NULL) != 'D') {
		snprintf(why, whylen, "holder's fallocate() failed");
		goto out;
	}
	sfd_send(sv[0], -1, 'Q');
	reply = sfd_recv(sv[0], NULL);

	/* a reopen of the holder's fd: can it truncate? */
	snprintf(path, sizeof(path), "/proc/%d/fd/%d", pid, HOLDER_FD);
	got = open(path, O_RDWR | O_CLOEXEC);
	status = got < 0 ? errno : (ftruncate(got, 0) < 0 ? errno : 0);
	if (got >= 0)
		close(got);

	snprintf(why, whylen,
		 "SHMEM_SET_SEALS(0): %s; holder reads SEAL_SHRINK %s; ftruncate(0) through /proc/%d/fd/%d: %s",
		 ktest_err(st.err), reply == '1' ? "set" : "GONE", pid, HOLDER_FD,
		 ktest_err(status));
	res = (st.err == EPERM && reply == '1' && status == EPERM) ? REFUSED
								 : LIFTED;
out:
	if (pidfd >= 0)
		close(pidfd);
	close(sv[0]);	/* the holder's recv fails, it exits */
	waitpid(pid, &status, 0);
	close(fd);
	close(other);
	return res;
}

int main(int argc, char **argv)
{
	const int planned = 4;

	if (argc > 1) {
		printf("usage: %s\n"
		       "Regression test of the slot-emptying race: SHMEM_SET_SEALS must stay\n"
		       "refused while a sibling thread empties the caller's fd slot during\n"
		       "its inode_lock() wait and another process holds the memfd. Prints TAP.\n",
		       argv[0]);
		return strcmp(argv[1], "--help") ? 2 : 0;
	}
	signal(SIGPIPE, SIG_IGN);
	ktest_plan(planned);
	for (int how = BY_CLOSE; how <= BY_CLOSE_REFILL; how++) {
		enum outcome r = NOT_SET_UP;
		off_t falloc = 32 << 20;
		char why[256] = "";
		int tries;

		for (tries = 1; tries <= 5; tries++, falloc *= 2) {
			r = round_once(how, falloc, why, sizeof(why));
			if (r != NOT_SET_UP)
				break;
			ktest_diag("%s: round not set up with a %ld MiB fallocate(), again",
				   how_names[how], (long)(falloc >> 20));
		}
		if (r == NOT_SET_UP)
			snprintf(why, sizeof(why), "could not hold the setter in inode_lock() in 5 tries");
		ktest(r == REFUSED,
		      "slot emptied by %s while SHMEM_SET_SEALS waits on inode_lock: refused (%s)",
		      how_names[how], why);
	}
	return ktest_done(planned);
}
