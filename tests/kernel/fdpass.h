/* SPDX-License-Identifier: MIT */
/*
 * fdpass.h - passing an fd over a unix socket (SCM_RIGHTS) with a few
 * bytes of payload, for the kernel seal tests whose holders, watchers and
 * messages in flight receive the memfd that way.
 */
#ifndef WLSEAL_FDPASS_H
#define WLSEAL_FDPASS_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Send @len bytes from @buf on @s with sendmsg(@flags), @fd attached
 * unless it is negative. Returns what sendmsg() returned (errno as it
 * left it).
 */
ssize_t fdpass_send(int s, const void *buf, size_t len, int fd, int flags);

/*
 * Receive up to @len bytes into @buf with recvmsg(@flags). When all @len
 * bytes arrived with an fd and @fd is not NULL, the fd is stored in *@fd
 * (else *@fd is left alone). Returns what recvmsg() returned (errno as it
 * left it).
 */
ssize_t fdpass_recv(int s, void *buf, size_t len, int *fd, int flags);

#endif
