/* SPDX-License-Identifier: MIT */
/*
 * seal-fuzz-ops.c - seal-fuzz's operations: each changes the files or
 * their references the way a process can (seal calls, dup, close, dup2,
 * close_range, reopen, SCM_RIGHTS, mmap, ftruncate, write, fallocate,
 * vmsplice, watchers, fork children, the slot-emptying race of
 * seal-slot-race.c), predicts the result from the model and reports what
 * differs.
 */
#include <linux/falloc.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include "fdpass.h"
#include "ktest.h"
#include "seal-fuzz.h"

int new_file(void)
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

void op_set_seals(void)
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
	/* A read-only udmabuf's pages cannot have left the file (it
	 * refuses truncation and holes): EBUSY is certain there. */
	else if (got == 0 && (files[f].seals & ~new_up & F_SEAL_WRITE) &&
		 ro_pinned(f))
		finding(true, "SHMEM_SET_SEALS(0x%x) removed F_SEAL_WRITE behind a read-only udmabuf",
			seed);
	else if (got && !want)
		finding(false, "SHMEM_SET_SEALS(0x%x) on fd %d: %s, expected success",
			seed, fd, strerror(got));
	if (!got)
		files[f].seals = new_up;
	check_seals(f, fd);
}

void op_add_seals(void)
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

void op_dup(void)
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

void op_close(void)
{
	int fd = some_fd(-1);

	if (fd < 0)
		return;
	close(fd);
	untrack(fd);
}

void op_dup2(void)
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

void op_close_range(void)
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

void op_reopen(void)
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

void op_scm(void)
{
	struct flight *fl;
	int fd, r = -1;
	char b;

	if (nflight && pick(2)) {	/* receive or drop one in flight */
		int i = pick(nflight), f = flights[i].file;

		fl = &flights[i];
		if (pick(3)) {
			fdpass_recv(fl->sv[1], &b, 1, &r, MSG_CMSG_CLOEXEC);
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
	if (fdpass_send(fl->sv[0], "x", 1, fd, MSG_NOSIGNAL) != 1) {
		finding(true, "SCM_RIGHTS send: %s", strerror(errno));
		close(fl->sv[0]);
		close(fl->sv[1]);
		return;
	}
	fl->file = fds[fd].file;
	nflight++;
}

void op_mmap(void)
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

void op_truncate(void)
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

void op_write(void)
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

void op_fallocate(void)
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

void op_vmsplice(void)
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
	pn->dmabuf = -1;
	pn->readonly = false;
	npins++;
}

void op_watch(void)
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
void op_fork_try(void)
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

/* --- the slot-emptying race (seal-slot-race.c) ----------------------------- */

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

void op_race(void)
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
		finding(true, "SHMEM_SET_SEALS(0x%x) changed seals 0x%x while its slot was emptied and %d other references existed (the slot-emptying race)",
			r.seed, old, rest);
	if (r.err == 0)
		files[f].seals = (old & ~SEEDBITS) | seed_to_up(r.seed);
	fd = some_fd(f);
	if (fd >= 0)
		check_seals(f, fd);
}
