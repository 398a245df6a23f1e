/* SPDX-License-Identifier: MIT */
/*
 * interpose.c - the three C library functions whose calls from
 * libwayland-server the accounting layer must see, defined in the
 * executable so that they win over the C library's (the dynamic linker
 * looks in the program first). Linked into wlseal-compositor only, never
 * into the library (compositor/meson.build): a program that links the
 * library without this file (the WLCS module) gets the C library's, and
 * says so with wlseal_options.interposed false.
 *
 * - recvmsg(): a client's read starts its turn, is paced, and the fds
 *   it brings are counted (account/fd-guard.c, account/cpu.c);
 * - sendmsg(): the fds sent to a client that does not read are counted
 *   (account/fd-guard.c);
 * - epoll_wait(): the loop's sleep is charged to nobody (account/cpu.c).
 *
 * Each goes to the kernel with syscall(2), never to the C library's
 * wrapper, which would be this very function again.
 */
#include <errno.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cpu.h"
#include "fd-guard.h"

ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
	return wlseal_fd_guard_recvmsg(fd, msg, flags);
}

ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	return wlseal_fd_guard_sendmsg(fd, msg, flags);
}

int epoll_wait(int epfd, struct epoll_event *events, int maxevents,
	       int timeout)
{
	int n, saved;

	wlseal_cpu_wait_begin();
	n = (int)syscall(SYS_epoll_wait, epfd, events, maxevents, timeout);
	saved = errno;
	wlseal_cpu_wait_end();
	errno = saved;
	return n;
}
