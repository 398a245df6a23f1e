/* SPDX-License-Identifier: MIT */
/*
 * seal-fuzz: a seeded, reproducible fuzzer of the seal ABIs of the patched
 * kernel (SHMEM_SET_SEALS / SHMEM_GET_SEALS, F_ADD_SEALS / F_GET_SEALS,
 * memfd_create_sized()).
 *
 * One driver process applies a random sequence of operations, chosen by
 * a xorshift generator from --seed, to a few memfds: memfd_create and
 * memfd_create_sized, F_ADD_SEALS, SHMEM_SET_SEALS, dup, close, dup2,
 * close_range, /proc/self/fd reopen (read-write and read-only), SCM_RIGHTS
 * messages kept in flight, mmap/munmap (shared writable and read-only),
 * ftruncate, fallocate, write, vmsplice (pages pinned by a pipe), fork()
 * children that try to change seals, watcher processes (forked, or fed
 * through SCM_RIGHTS) that hold an fd or only a read-only mapping, and
 * races: a thread calls SHMEM_SET_SEALS while the driver empties the slot
 * and another thread holds inode_lock with fallocate().
 *
 * The driver keeps a model of every file (seals, size, its fds, mappings,
 * watchers, messages in flight, pinned pages) and predicts each result.
 * After each step it checks:
 *  - fail-open (fatal): a seal change or a truncation, write or mapping the
 *    model forbids succeeded, e.g. SHMEM_SET_SEALS changed set seals while
 *    another reference existed;
 *  - the kernel's seals are what the model expects after the call, and
 *    F_GET_SEALS agrees with SHMEM_GET_SEALS;
 *  - every watcher still sees the seals it verified (or more) and what
 *    they promise: no shrink, no growth, unchanged contents under
 *    SEAL_WRITE|SEAL_SHRINK; a watcher holding only a mapping reads every
 *    page it verified, without a SIGBUS handler;
 *  - fail-closed (reported, not fatal): the kernel refused what the model
 *    allowed (e.g. a transiently busy page).
 * The op sequence depends only on the seed; races and thread timing do
 * not change which operation comes next. Exit 0 if no fatal finding.
 */
#include <getopt.h>
#include <inttypes.h>
#include <linux/falloc.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>

#include "ktest.h"

#define MAXF 4		/* files */
#define MAXFD 1024	/* fd numbers tracked */
#define MAXMAP 12
#define MAXWATCH 4
#define MAXFLIGHT 4
#define MAXPIN 3
#define MAXSIZE (256 * 1024)
#define ALL_UP (F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | \
		F_SEAL_FUTURE_WRITE)
#define SEEDBITS (F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE)

static uint64_t rng;

static uint64_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 2685821657736338717ULL;
}

static unsigned int pick(unsigned int n)
{
	return n ? (unsigned int)(rnd() % n) : 0;
}

struct mfile {
	bool live;
	unsigned int seals;	/* upstream bits */
	off_t size;
	int id;			/* for messages */
};

struct fdinfo {
	int file;		/* -1: not ours */
	bool writable;
};

/*
 * @writable: PROT_WRITE. @shared_w: VM_SHARED, i.e. MAP_SHARED through an
 * fd open for writing, even read-only: 6.1 counts such a mapping in
 * i_mmap_writable (it could be mprotect()ed writable), so it blocks
 * SEAL_WRITE (EBUSY) and SHMEM_SET_SEALS (EPERM) like a writable one;
 * unless it was made while F_SEAL_WRITE or F_SEAL_FUTURE_WRITE was set:
 * then mmap() clears VM_MAYWRITE and it does not count (Debian's 6.1 has
 * the upstream 6.7 change, vma_is_shared_maywrite()). Found by this
 * fuzzer: the model first counted every MAP_SHARED mapping.
 */
struct map {
	char *p;
	size_t len;
	int file;
	bool writable;
	bool shared_w;
};

struct watcher {
	pid_t pid;
	int sock;
	int file;
	bool shared_w;	/* its mapping counts in i_mmap_writable */
};

struct flight {
	int sv[2];
	int file;
};

struct pin {
	int pipe[2];
	int file;
};

static struct mfile files[MAXF];
static struct fdinfo fds[MAXFD];
static struct map maps[MAXMAP];
static struct watcher watchers[MAXWATCH];
static struct flight flights[MAXFLIGHT];
static struct pin pins[MAXPIN];
static int nmaps, nwatch, nflight, npins;
static long step, fatal, closed_findings, ops_done;
static bool verbose;
static int next_id;
static const char *opname;

__attribute__((format(printf, 2, 3)))
static void finding(bool is_fatal, const char *fmt, ...)
{
	va_list ap;

	if (is_fatal)
		fatal++;
	else
		closed_findings++;
	if (!is_fatal && closed_findings > 20)
		return;
	printf("# %s at step %ld (%s): ", is_fatal ? "FAIL" : "note", step, opname);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* --- the model -------------------------------------------------------- */

static int fd_count(int f)
{
	int n = 0;

	for (int i = 0; i < MAXFD; i++)
		n += fds[i].file == f;
	return n;
}

static int map_count(int f, bool writable_only)
{
	int n = 0;

	for (int i = 0; i < nmaps; i++)
		n += maps[i].file == f && (!writable_only || maps[i].shared_w);
	for (int i = 0; writable_only && i < nwatch; i++)
		n += watchers[i].file == f && watchers[i].shared_w;
	return n;
}

static int others(int f, int count_of_own_fds)
{
	int n = fd_count(f) - count_of_own_fds + map_count(f, false);

	for (int i = 0; i < nwatch; i++)
		n += watchers[i].file == f;
	for (int i = 0; i < nflight; i++)
		n += flights[i].file == f;
	return n;
}

static bool pinned(int f)
{
	for (int i = 0; i < npins; i++)
		if (pins[i].file == f)
			return true;
	return false;
}

/* A random fd of ours for file @f (any file if @f < 0), or -1. */
static int some_fd(int f)
{
	int cand[MAXFD], n = 0;

	for (int i = 0; i < MAXFD; i++)
		if (fds[i].file >= 0 && (f < 0 || fds[i].file == f))
			cand[n++] = i;
	return n ? cand[pick(n)] : -1;
}

static void track(int fd, int f, bool writable)
{
	if (fd >= 0 && fd < MAXFD) {
		fds[fd].file = f;
		fds[fd].writable = writable;
	} else if (fd >= MAXFD) {
		close(fd);
	}
}

/* No reference left: the file is gone, and so are our pins of it. */
static void maybe_dead(int f)
{
	if (f < 0 || !files[f].live || others(f, 0))
		return;
	files[f].live = false;
	for (int i = 0; i < npins; i++) {
		if (pins[i].file != f)
			continue;
		close(pins[i].pipe[0]);
		close(pins[i].pipe[1]);
		pins[i--] = pins[--npins];
	}
}

static void untrack(int fd)
{
	if (fd >= 0 && fd < MAXFD) {
		int f = fds[fd].file;

		fds[fd].file = -1;
		maybe_dead(f);
	}
}

static unsigned int seed_to_up(unsigned int s)
{
	return (s & SHMEM_SEAL_SHRINK ? F_SEAL_SHRINK : 0) |
	       (s & SHMEM_SEAL_GROW ? F_SEAL_GROW : 0) |
	       (s & SHMEM_SEAL_WRITE ? F_SEAL_WRITE : 0);
}

/* Compare the kernel's seals of @f (read through @fd) with the model. */
static void check_seals(int f, int fd)
{
	int up = ktest_get_upstream(fd), seed = ktest_get(fd);
	off_t size = ktest_size(fd);

	if (up < 0 || seed < 0) {
		finding(true, "F_GET_SEALS %d, SHMEM_GET_SEALS %d on fd %d", up, seed, fd);
		return;
	}
	if ((unsigned int)(up & SEEDBITS) != seed_to_up(seed))
		finding(true, "F_GET_SEALS 0x%x and SHMEM_GET_SEALS 0x%x disagree", up, seed);
	if ((unsigned int)up != files[f].seals) {
		finding(true, "file %d: kernel seals 0x%x, expected 0x%x", f, up, files[f].seals);
		files[f].seals = up;
	}
	if (size != files[f].size) {
		finding(true, "file %d: size %lld, expected %lld", f,
			(long long)size, (long long)files[f].size);
		files[f].size = size;
	}
}

/* --- watchers: other processes that rely on what they verified ---------- */

static void watcher_main(int sock, int fd, bool map_only)
{
	unsigned int s0 = (unsigned int)ktest_get_upstream(fd), s;
	off_t size0 = ktest_size(fd), size;
	const volatile uint64_t *p = NULL;
	uint64_t sum0 = 0, sum;
	size_t len = size0 > 0 ? (size_t)size0 : 0, words = len / 8;
	char c;

	/* the fd is only the starting point: keep or drop it */
	if (len) {
		p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
		if (p != MAP_FAILED && len > words * 8)
			sum0 += ((const volatile char *)p)[len - 1];
		if (p == MAP_FAILED)
			p = NULL;
	}
	for (size_t i = 0; p && i < words; i++)
		sum0 += p[i] * (i + 1);
	if (map_only && p) {
		close(fd);
		fd = -1;
	}
	while (read(sock, &c, 1) == 1) {
		char bad = 0;

		if (fd >= 0) {
			s = (unsigned int)ktest_get_upstream(fd);
			size = ktest_size(fd);
			if ((s & s0) != s0)
				bad = 's';	/* a seal seen has gone */
			if ((s0 & F_SEAL_SHRINK) && size < size0)
				bad = 'h';
			if ((s0 & F_SEAL_GROW) && size > size0)
				bad = 'g';
		}
		/* under SHRINK every page verified stays: no SIGBUS here */
		if (p && (s0 & F_SEAL_SHRINK)) {
			sum = 0;
			for (size_t i = 0; i < words; i++)
				sum += p[i] * (i + 1);
			if (len > words * 8)	/* the last partial page */
				sum += ((const volatile char *)p)[len - 1];
			if ((s0 & F_SEAL_WRITE) && sum != sum0)
				bad = 'w';
		}
		if (write(sock, bad ? &bad : "k", 1) != 1)
			break;
	}
	_exit(0);
}

static void add_watcher(int f, int fd, bool via_scm, bool map_only)
{
	int sv[2];
	pid_t pid;

	if (nwatch == MAXWATCH ||
	    socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return;
	pid = fork();
	if (pid < 0) {
		close(sv[0]);
		close(sv[1]);
		return;
	}
	if (pid == 0) {
		int keep = fd;

		if (via_scm) {
			char cbuf[CMSG_SPACE(sizeof(int))] = { 0 }, b;
			struct iovec iov = { .iov_base = &b, .iov_len = 1 };
			struct msghdr msg = {
				.msg_iov = &iov, .msg_iovlen = 1,
				.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
			};
			struct cmsghdr *cm;

			/* drop every inherited reference first */
			for (int i = 0; i < MAXFD; i++)
				if (fds[i].file >= 0)
					close(i);
			for (int i = 0; i < nmaps; i++)
				munmap(maps[i].p, maps[i].len);
			keep = -1;
			if (recvmsg(sv[1], &msg, 0) == 1 &&
			    (cm = CMSG_FIRSTHDR(&msg)) && cm->cmsg_type == SCM_RIGHTS)
				memcpy(&keep, CMSG_DATA(cm), sizeof(int));
			if (keep < 0)
				_exit(1);
		} else {
			for (int i = 0; i < MAXFD; i++)
				if (fds[i].file >= 0 && i != fd)
					close(i);
			for (int i = 0; i < nmaps; i++)
				munmap(maps[i].p, maps[i].len);
		}
		for (int i = 0; i < nwatch; i++)
			close(watchers[i].sock);
		for (int i = 0; i < nflight; i++) {
			close(flights[i].sv[0]);
			close(flights[i].sv[1]);
		}
		for (int i = 0; i < npins; i++) {
			close(pins[i].pipe[0]);
			close(pins[i].pipe[1]);
		}
		close(sv[0]);
		watcher_main(sv[1], keep, map_only);
	}
	close(sv[1]);
	if (via_scm) {
		char cbuf[CMSG_SPACE(sizeof(int))] = { 0 }, b = 'f';
		struct iovec iov = { .iov_base = &b, .iov_len = 1 };
		struct msghdr msg = {
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
		};
		struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);

		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &fd, sizeof(int));
		if (sendmsg(sv[0], &msg, MSG_NOSIGNAL) != 1)
			finding(true, "SCM_RIGHTS to a watcher: %s", strerror(errno));
	}
	/* the watcher maps the file if it is not empty, MAP_SHARED */
	watchers[nwatch++] = (struct watcher){ pid, sv[0], f,
					       files[f].size > 0 && fds[fd].writable &&
					       !(files[f].seals & (F_SEAL_WRITE | F_SEAL_FUTURE_WRITE)) };
	/* the watcher holds its reference once it answers */
	if (write(sv[0], "c", 1) != 1 || read(sv[0], &(char){ 0 }, 1) != 1)
		finding(true, "watcher %d did not start", pid);
}

static void end_watcher(int i)
{
	int status;

	int f = watchers[i].file;

	close(watchers[i].sock);
	waitpid(watchers[i].pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		finding(true, "watcher %d ended with status 0x%x", watchers[i].pid, status);
	watchers[i] = watchers[--nwatch];
	maybe_dead(f);
}

static void check_watchers(void)
{
	for (int i = 0; i < nwatch; i++) {
		char r = 0;

		if (write(watchers[i].sock, "c", 1) != 1 ||
		    read(watchers[i].sock, &r, 1) != 1) {
			int status = 0;

			waitpid(watchers[i].pid, &status, 0);
			finding(true, "watcher %d of file %d died (status 0x%x%s)",
				watchers[i].pid, watchers[i].file, status,
				WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS ?
				", SIGBUS: its file shrank under its mapping" : "");
			close(watchers[i].sock);
			watchers[i] = watchers[--nwatch];
			i--;
			continue;
		}
		if (r != 'k')
			finding(true, "watcher of file %d: promise broken ('%c')",
				watchers[i].file, r);
	}
}

/* --- operations ------------------------------------------------------------ */

static int new_file(void)
{
	int f, fd;

	for (f = 0; f < MAXF && files[f].live; f++)
		;
	if (f == MAXF)
		return -1;
	files[f] = (struct mfile){ .live = true, .id = next_id++ };
	files[f].size = pick(4) ? (off_t)pick(MAXSIZE / 4096) * 4096 + pick(2) * pick(4096) : 0;
	if (pick(2)) {
		fd = wlseal_memfd_create_sized("fuzz", files[f].size, MFD_CLOEXEC);
	} else {
		fd = memfd_create("fuzz", MFD_CLOEXEC | MFD_ALLOW_SEALING);
		if (fd >= 0 && ftruncate(fd, files[f].size) < 0) {
			finding(true, "ftruncate of a new memfd: %s", strerror(errno));
			close(fd);
			fd = -1;
		}
	}
	if (fd < 0) {
		finding(true, "creating a memfd: %s", strerror(errno));
		files[f].live = false;
		return -1;
	}
	track(fd, f, true);
	return fd;
}

/* Would changing the seals of @f through @fd to @new be allowed? errno */
static int predict_set(int fd, unsigned int new_up)
{
	int f = fds[fd].file;
	unsigned int old = files[f].seals;
	unsigned int removed = old & ~new_up, added = new_up & ~old;

	if (!fds[fd].writable)
		return EPERM;
	if (old & F_SEAL_SEAL)
		return EPERM;
	if (map_count(f, true))
		return EPERM;
	if (old && others(f, 1))
		return EPERM;
	if (((added & F_SEAL_WRITE) || removed) && pinned(f))
		return EBUSY;
	return 0;
}

static void op_set_seals(void)
{
	int fd = some_fd(-1), f, want, got;
	unsigned int seed = pick(8), new_up;

	if (fd < 0)
		return;
	f = fds[fd].file;
	new_up = (files[f].seals & ~SEEDBITS) | seed_to_up(seed);
	want = predict_set(fd, new_up);
	got = ktest_set(fd, seed);
	if (got == 0 && want && want != EBUSY)
		finding(true, "SHMEM_SET_SEALS(0x%x) on fd %d succeeded, expected %s (seals 0x%x, %d other references)",
			seed, fd, strerror(want), files[f].seals, others(f, 1));
	else if (got && !want)
		finding(false, "SHMEM_SET_SEALS(0x%x) on fd %d: %s, expected success",
			seed, fd, strerror(got));
	if (!got)
		files[f].seals = new_up;
	check_seals(f, fd);
}

static void op_add_seals(void)
{
	int fd = some_fd(-1), f, want = 0, got;
	unsigned int add = pick(ALL_UP + 1) & ALL_UP;
	bool by_pin = false;

	if (fd < 0)
		return;
	if (pick(4))
		add &= ~F_SEAL_SEAL;	/* keep most files changeable */
	f = fds[fd].file;
	if (!fds[fd].writable || (files[f].seals & F_SEAL_SEAL))
		want = EPERM;
	else if ((add & F_SEAL_WRITE) && !(files[f].seals & F_SEAL_WRITE) &&
		 (map_count(f, true) || pinned(f))) {
		want = EBUSY;
		/* a truncation or hole punch may have let go of pinned pages */
		by_pin = !map_count(f, true);
	}
	got = ktest_add(fd, add);
	if (!got && want && !by_pin && verbose) {
		for (int i = 0; i < nmaps; i++)
			printf("# map %p+%zu file %d w %d shared_w %d\n", (void *)maps[i].p,
			       maps[i].len, maps[i].file, maps[i].writable, maps[i].shared_w);
		for (int i = 0; i < nwatch; i++)
			printf("# watcher %d file %d shared_w %d\n", watchers[i].pid,
			       watchers[i].file, watchers[i].shared_w);
		printf("# fd %d file %d seals before 0x%x\n", fd, f, files[f].seals);
	}
	if (!got && want && !by_pin)
		finding(true, "F_ADD_SEALS(0x%x) succeeded, expected %s (%d VM_SHARED mappings, %d watchers, size %lld)",
			add, strerror(want), map_count(f, true), nwatch,
			(long long)files[f].size);
	else if (got && !want)
		finding(false, "F_ADD_SEALS(0x%x): %s, expected success", add, strerror(got));
	if (!got)
		files[f].seals |= add;
	check_seals(f, fd);
}

static void op_dup(void)
{
	int fd = some_fd(-1), d;

	if (fd < 0)
		return;
	d = pick(2) ? dup(fd) : fcntl(fd, F_DUPFD_CLOEXEC, 3 + pick(40));
	if (d < 0)
		finding(true, "dup: %s", strerror(errno));
	else
		track(d, fds[fd].file, fds[fd].writable);
}

static void op_close(void)
{
	int fd = some_fd(-1);

	if (fd < 0)
		return;
	close(fd);
	untrack(fd);
}

static void op_dup2(void)
{
	int a = some_fd(-1), b = pick(2) ? some_fd(-1) : 3 + (int)pick(60);

	if (a < 0 || b < 0 || b >= MAXFD || a == b)
		return;
	if (fds[b].file < 0 && fcntl(b, F_GETFD) >= 0)
		return;		/* not ours: stdio, sockets, pipes */
	if (dup2(a, b) != b) {
		finding(true, "dup2: %s", strerror(errno));
		return;
	}
	untrack(b);
	track(b, fds[a].file, fds[a].writable);
}

static void op_close_range(void)
{
	int a = some_fd(-1), b;

	if (a < 0)
		return;
	b = a + (int)pick(4);
	for (int i = a; i <= b && i < MAXFD; i++)
		if (fds[i].file < 0 && fcntl(i, F_GETFD) >= 0)
			b = i - 1;	/* stop before anything not ours */
	if (b < a)
		return;
	if (syscall(SYS_close_range, a, b, 0) < 0) {
		finding(true, "close_range: %s", strerror(errno));
		return;
	}
	for (int i = a; i <= b; i++)
		untrack(i);
}

static void op_reopen(void)
{
	int fd = some_fd(-1), r;
	bool rw = pick(3);
	char path[64];

	if (fd < 0)
		return;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	r = open(path, (rw ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	if (r < 0)
		finding(true, "reopen %s: %s", path, strerror(errno));
	else
		track(r, fds[fd].file, rw);
}

static void op_scm(void)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 }, b = 'x';
	struct iovec iov = { .iov_base = &b, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm;
	struct flight *fl;
	int fd, r = -1;

	if (nflight && pick(2)) {	/* receive or drop one in flight */
		int i = pick(nflight), f = flights[i].file;

		fl = &flights[i];
		if (pick(3)) {
			if (recvmsg(fl->sv[1], &msg, MSG_CMSG_CLOEXEC) == 1 &&
			    (cm = CMSG_FIRSTHDR(&msg)) && cm->cmsg_type == SCM_RIGHTS)
				memcpy(&r, CMSG_DATA(cm), sizeof(int));
			if (r < 0)
				finding(true, "SCM_RIGHTS receive failed");
		}
		/* closing both ends drops a message still in flight */
		close(fl->sv[0]);
		close(fl->sv[1]);
		flights[i] = flights[--nflight];
		track(r, f, true);
		maybe_dead(f);
		return;
	}
	fd = some_fd(-1);
	if (fd < 0 || nflight == MAXFLIGHT || !fds[fd].writable)
		return;
	fl = &flights[nflight];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fl->sv) < 0)
		return;
	cm = CMSG_FIRSTHDR(&msg);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	if (sendmsg(fl->sv[0], &msg, MSG_NOSIGNAL) != 1) {
		finding(true, "SCM_RIGHTS send: %s", strerror(errno));
		close(fl->sv[0]);
		close(fl->sv[1]);
		return;
	}
	fl->file = fds[fd].file;
	nflight++;
}

static void op_mmap(void)
{
	int fd = some_fd(-1), f, want = 0;
	bool wr = pick(2);
	size_t len;
	char *p;

	if (nmaps && pick(2)) {
		int i = pick(nmaps), f = maps[i].file;

		munmap(maps[i].p, maps[i].len);
		maps[i] = maps[--nmaps];
		maybe_dead(f);
		return;
	}
	if (fd < 0 || nmaps == MAXMAP)
		return;
	f = fds[fd].file;
	len = 4096 * (1 + pick(16));
	if (wr && !fds[fd].writable)
		want = EACCES;
	else if (wr && (files[f].seals & (F_SEAL_WRITE | F_SEAL_FUTURE_WRITE)))
		want = EPERM;
	p = mmap(NULL, len, PROT_READ | (wr ? PROT_WRITE : 0), MAP_SHARED, fd, 0);
	if (p != MAP_FAILED && want) {
		finding(true, "%s mapping allowed, expected %s (seals 0x%x)",
			wr ? "writable" : "read-only", strerror(want), files[f].seals);
	} else if (p == MAP_FAILED && !want) {
		finding(false, "mmap: %s, expected success", strerror(errno));
		return;
	}
	if (p == MAP_FAILED)
		return;
	maps[nmaps++] = (struct map){ p, len, f, wr, fds[fd].writable &&
		!(files[f].seals & (F_SEAL_WRITE | F_SEAL_FUTURE_WRITE)) };
	/* touch page 0 only while the file covers it */
	if (wr && files[f].size >= 4096)
		p[0]++;
}

static void op_truncate(void)
{
	int fd = some_fd(-1), f, want = 0, got;
	off_t size;

	if (fd < 0)
		return;
	f = fds[fd].file;
	size = pick(3) ? (off_t)pick(MAXSIZE + 1) : files[f].size - pick(2) * 4096;
	if (size < 0)
		size = 0;
	if (!fds[fd].writable)
		want = EINVAL;
	else if (size < files[f].size && (files[f].seals & F_SEAL_SHRINK))
		want = EPERM;
	else if (size > files[f].size && (files[f].seals & F_SEAL_GROW))
		want = EPERM;
	got = ftruncate(fd, size) < 0 ? errno : 0;
	if (!got && want)
		finding(true, "ftruncate %lld -> %lld succeeded, expected %s (seals 0x%x)",
			(long long)files[f].size, (long long)size, strerror(want),
			files[f].seals);
	else if (got && !want)
		finding(false, "ftruncate to %lld: %s", (long long)size, strerror(got));
	if (!got)
		files[f].size = size;
	check_seals(f, fd);
}

static void op_write(void)
{
	int fd = some_fd(-1), f, want = 0, got;
	char buf[512];
	off_t off;
	size_t len = 1 + pick(sizeof(buf));

	if (fd < 0)
		return;
	f = fds[fd].file;
	/* one page, so that the result is all or nothing */
	off = (off_t)pick((MAXSIZE + 8192) / 4096) * 4096 + pick(4096 - len);
	memset(buf, (int)step, sizeof(buf));
	if (!fds[fd].writable)
		want = EBADF;
	else if (files[f].seals & (F_SEAL_WRITE | F_SEAL_FUTURE_WRITE))
		want = EPERM;
	else if ((files[f].seals & F_SEAL_GROW) && off + (off_t)len > files[f].size)
		want = EPERM;
	got = pwrite(fd, buf, len, off) == (ssize_t)len ? 0 : errno;
	if (!got && want)
		finding(true, "pwrite of %zu at %lld succeeded, expected %s (seals 0x%x)",
			len, (long long)off, strerror(want), files[f].seals);
	else if (got && !want)
		finding(false, "pwrite: %s", strerror(got));
	if (!got && off + (off_t)len > files[f].size)
		files[f].size = off + len;
	check_seals(f, fd);
}

static void op_fallocate(void)
{
	int fd = some_fd(-1), f, want = 0, got, mode;
	off_t off, len;

	if (fd < 0)
		return;
	f = fds[fd].file;
	off = (off_t)pick(MAXSIZE / 4096) * 4096;
	len = 4096 * (off_t)(1 + pick(8));
	mode = (int[]){ 0, FALLOC_FL_KEEP_SIZE,
			FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE }[pick(3)];
	if (!fds[fd].writable)
		want = EBADF;
	else if ((mode & FALLOC_FL_PUNCH_HOLE) &&
		 (files[f].seals & (F_SEAL_WRITE | F_SEAL_FUTURE_WRITE)))
		want = EPERM;
	else if (!(mode & FALLOC_FL_PUNCH_HOLE) && (files[f].seals & F_SEAL_GROW) &&
		 off + len > files[f].size)
		want = EPERM;
	got = fallocate(fd, mode, off, len) < 0 ? errno : 0;
	if (!got && want)
		finding(true, "fallocate(0x%x, %lld, %lld) succeeded, expected %s (seals 0x%x)",
			mode, (long long)off, (long long)len, strerror(want), files[f].seals);
	else if (got && !want)
		finding(false, "fallocate(0x%x): %s", mode, strerror(got));
	if (!got && !mode && off + len > files[f].size)
		files[f].size = off + len;
	check_seals(f, fd);
}

static void op_vmsplice(void)
{
	struct pin *pn;
	struct iovec iov;
	int i;

	if (npins && pick(2)) {
		i = pick(npins);
		close(pins[i].pipe[0]);
		close(pins[i].pipe[1]);
		pins[i] = pins[--npins];
		return;
	}
	if (!nmaps || npins == MAXPIN || pick(2))
		return;		/* pins cost a 75 ms wait per refused change */
	i = pick(nmaps);
	if (files[maps[i].file].size < 4096)
		return;		/* page 0 must exist */
	pn = &pins[npins];
	if (pipe2(pn->pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		return;
	iov.iov_base = maps[i].p;
	iov.iov_len = 4096;
	if (vmsplice(pn->pipe[1], &iov, 1, 0) != 4096) {
		finding(false, "vmsplice: %s", strerror(errno));
		close(pn->pipe[0]);
		close(pn->pipe[1]);
		return;
	}
	pn->file = maps[i].file;
	npins++;
}

static void op_watch(void)
{
	int fd = some_fd(-1);

	if (nwatch && (nwatch == MAXWATCH || pick(2))) {
		end_watcher(pick(nwatch));
		return;
	}
	if (fd < 0)
		return;
	add_watcher(fds[fd].file, fd, pick(2), pick(2));
}

/* A fork() child that inherits everything tries to change the seals. */
static void op_fork_try(void)
{
	int fd = some_fd(-1), f, status, p[2];
	unsigned int seed = pick(8);
	int res[2] = { -1, -1 };
	pid_t pid;

	if (fd < 0 || pipe2(p, O_CLOEXEC) < 0)
		return;
	f = fds[fd].file;
	pid = fork();
	if (pid == 0) {
		res[0] = ktest_set(fd, seed);
		res[1] = ftruncate(fd, 0) < 0 ? errno : 0;
		_exit(write(p[1], res, sizeof(res)) == sizeof(res) ? 0 : 1);
	}
	close(p[1]);
	if (pid < 0 || read(p[0], res, sizeof(res)) != sizeof(res))
		finding(true, "fork child: no answer");
	close(p[0]);
	if (pid > 0)
		waitpid(pid, &status, 0);
	/* the parent's table still holds the file: never exclusive */
	if (res[0] == 0 && files[f].seals &&
	    (files[f].seals & SEEDBITS) != seed_to_up(seed))
		finding(true, "a fork child changed set seals 0x%x while its parent held the file",
			files[f].seals);
	if (res[0] == 0)
		files[f].seals = (files[f].seals & ~SEEDBITS) | seed_to_up(seed);
	if (res[1] == 0 && files[f].size && (files[f].seals & F_SEAL_SHRINK))
		finding(true, "a fork child truncated a file sealed against shrinking");
	if (res[1] == 0)
		files[f].size = 0;
	check_seals(f, fd);
}

/* --- the race of issue 10 -------------------------------------------------- */

struct racer {
	int fd;
	unsigned int seed;
	int err;
	atomic_int started;
};

static void *race_setter(void *arg)
{
	struct racer *r = arg;

	atomic_store(&r->started, 1);
	r->err = ktest_set(r->fd, r->seed);
	return NULL;
}

static void *race_locker(void *arg)
{
	int d = *(int *)arg;

	/* hold inode_lock a while; beyond EOF and size kept */
	if (fallocate(d, FALLOC_FL_KEEP_SIZE, MAXSIZE, 4 << 20) == 0)
		fallocate(d, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, MAXSIZE, 4 << 20);
	return NULL;
}

static void op_race(void)
{
	int fd = some_fd(-1), f, lockfd, how = pick(3), other = some_fd(-1), rest;
	struct racer r = { .seed = pick(8) };
	unsigned int old;
	pthread_t ts, tl;

	if (fd < 0 || !fds[fd].writable)
		return;
	f = fds[fd].file;
	if (files[f].seals & F_SEAL_GROW)
		return;		/* the locker's fallocate would fail at once */
	old = files[f].seals;
	lockfd = dup(fd);
	if (lockfd < 0)
		return;
	r.fd = fd;
	pthread_create(&tl, NULL, race_locker, &lockfd);
	pthread_create(&ts, NULL, race_setter, &r);
	while (!atomic_load(&r.started))
		sched_yield();
	sched_yield();
	/* references the race does not touch: all but slot fd */
	rest = others(f, 1);
	switch (how) {
	case 0:
		close(fd);
		break;
	case 1:
		if (other >= 0 && other != fd)
			dup2(other, fd);
		else
			close(fd);
		break;
	case 2:
		syscall(SYS_close_range, fd, fd, 0);
		break;
	}
	pthread_join(ts, NULL);
	pthread_join(tl, NULL);
	close(lockfd);
	if (how == 1 && other >= 0 && other != fd) {
		fds[fd].file = -1;	/* f keeps the reference of other */
		track(fd, fds[other].file, fds[other].writable);
		maybe_dead(f);
	} else {
		untrack(fd);
	}
	if (r.err == 0 && old && rest > 0)
		finding(true, "SHMEM_SET_SEALS(0x%x) changed seals 0x%x while its slot was emptied and %d other references existed (issue 10)",
			r.seed, old, rest);
	if (r.err == 0)
		files[f].seals = (old & ~SEEDBITS) | seed_to_up(r.seed);
	fd = some_fd(f);
	if (fd >= 0)
		check_seals(f, fd);
}

/* --- driver ------------------------------------------------------------- */

static const struct {
	const char *name;
	void (*fn)(void);
	int weight;
} ops[] = {
	{ "set_seals", op_set_seals, 12 }, { "add_seals", op_add_seals, 4 },
	{ "dup", op_dup, 6 }, { "close", op_close, 6 }, { "dup2", op_dup2, 4 },
	{ "close_range", op_close_range, 2 }, { "reopen", op_reopen, 4 },
	{ "scm_rights", op_scm, 4 }, { "mmap", op_mmap, 6 },
	{ "ftruncate", op_truncate, 6 }, { "write", op_write, 5 },
	{ "fallocate", op_fallocate, 4 }, { "vmsplice", op_vmsplice, 2 },
	{ "watcher", op_watch, 4 }, { "fork_try", op_fork_try, 2 },
	{ "race", op_race, 2 },
};

static void usage(FILE *out, const char *argv0)
{
	fprintf(out,
		"usage: %s [--seed S] [--ops N] [--verbose] [--help]\n"
		"Seeded fuzzer of the seal ABIs (SHMEM_SET_SEALS, F_ADD_SEALS,\n"
		"memfd_create_sized) on the patched kernel: random operations on a few\n"
		"memfds from threads, fork() children and watcher processes, with the\n"
		"sealing invariants checked after every step. The same seed replays\n"
		"the same operation sequence.\n"
		"  --seed S    64-bit seed (default: from the clock; printed)\n"
		"  --ops N     operations to run (default 2000)\n"
		"  --verbose   print every operation\n"
		"Prints TAP; exit 0 if no invariant was broken.\n", argv0);
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "ops", required_argument, NULL, 'n' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	uint64_t seed = 0;
	long nops = 2000;
	int total = 0, c;
	bool have_seed = false;
	struct timespec t0, t1;
	double secs;
	char *end;

	while ((c = getopt_long(argc, argv, "s:n:vh", lo, NULL)) != -1) {
		switch (c) {
		case 's':
			errno = 0;
			seed = strtoull(optarg, &end, 0);
			if (errno || *end || !*optarg) {
				fprintf(stderr, "seal-fuzz: --seed %s: not a number\n", optarg);
				return 2;
			}
			have_seed = true;
			break;
		case 'n':
			errno = 0;
			nops = strtol(optarg, &end, 0);
			if (errno || *end || nops < 0) {
				fprintf(stderr, "seal-fuzz: --ops %s: not a count\n", optarg);
				return 2;
			}
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			usage(stdout, argv[0]);
			return 0;
		default:
			usage(stderr, argv[0]);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "seal-fuzz: unexpected argument %s\n", argv[optind]);
		return 2;
	}
	if (!have_seed) {
		clock_gettime(CLOCK_REALTIME, &t0);
		seed = (uint64_t)t0.tv_sec * 1000000007ULL ^ (uint64_t)t0.tv_nsec;
	}
	rng = seed ? seed : 1;
	signal(SIGPIPE, SIG_IGN);
	for (int i = 0; i < MAXFD; i++)
		fds[i].file = -1;
	for (unsigned int i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		total += ops[i].weight;

	printf("1..1\n# seal-fuzz --seed %" PRIu64 " --ops %ld\n", seed, nops);
	fflush(stdout);
	c = wlseal_memfd_create_sized("probe", 0, MFD_CLOEXEC);
	if (c < 0 || fcntl(c, SHMEM_GET_SEALS) < 0) {
		printf("not ok 1 - the seed sealing ABI is not available (%s)\n",
		       strerror(errno));
		return 1;
	}
	close(c);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (step = 0; step < nops; step++) {
		int w = pick(total), i = 0;

		/* keep at least one file, at most MAXF */
		if (some_fd(-1) < 0 || !pick(40)) {
			opname = "create";
			new_file();
		}
		while (w >= ops[i].weight)
			w -= ops[i++].weight;
		opname = ops[i].name;
		if (verbose)
			printf("# %ld %s\n", step, opname);
		ops[i].fn();
		ops_done++;
		check_watchers();
		if (fatal > 5)
			break;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	opname = "teardown";
	while (nwatch)
		end_watcher(0);
	secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("# %ld operations in %.2f s (%.0f ops/s), %ld fatal, %ld fail-closed findings\n",
	       ops_done, secs, secs > 0 ? ops_done / secs : 0.0, fatal, closed_findings);
	printf("%sok 1 - seal invariants held over %ld operations (seed %" PRIu64 ")\n",
	       fatal ? "not " : "", ops_done, seed);
	return fatal ? 1 : 0;
}
