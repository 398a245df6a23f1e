/* SPDX-License-Identifier: MIT */
/*
 * seal-fuzz-watchers.c - seal-fuzz's watchers: forked processes (holding
 * an inherited fd, one received through SCM_RIGHTS, or only a read-only
 * mapping) that check, each time the driver asks, that the seals they
 * verified are still set and what they promise still holds.
 */
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "fdpass.h"
#include "ktest.h"
#include "seal-fuzz.h"

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

void add_watcher(int f, int fd, bool via_scm, bool map_only)
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
			char b;

			/* drop every inherited reference first */
			for (int i = 0; i < MAXFD; i++)
				if (fds[i].file >= 0)
					close(i);
			for (int i = 0; i < nmaps; i++)
				munmap(maps[i].p, maps[i].len);
			keep = -1;
			fdpass_recv(sv[1], &b, 1, &keep, 0);
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
		if (fdpass_send(sv[0], "f", 1, fd, MSG_NOSIGNAL) != 1)
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

void end_watcher(int i)
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

void check_watchers(void)
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
