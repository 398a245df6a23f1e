/* SPDX-License-Identifier: MIT */
/*
 * fd-guard.h - clients may not park file descriptors in the compositor
 * (fd-guard.c).
 */
#ifndef WLSEAL_FD_GUARD_H
#define WLSEAL_FD_GUARD_H

#include <stdbool.h>
#include <sys/socket.h>

struct wl_display;

/* What one sendmsg() of libwayland-client carries at most (MAX_FDS_OUT):
 * the fds a connection may hold once its complete requests are handled. */
#define WLSEAL_FDS_WAITING_MAX 28
/* Fds the compositor sent that a client may leave unread in its socket
 * (fd-guard.c, sendmsg): far above an honest client's few keymaps. */
#define WLSEAL_FDS_UNREAD_MAX 128

/* @reads_seen: the program links compositor/interpose.c, whose
 * recvmsg() and sendmsg() call the two below (fd-guard.c says what
 * is guarded without them). */
bool wlseal_fd_guard_init(struct wl_display *display, bool reads_seen);
/* The C library's calls as libwayland-server makes them, guarded. */
ssize_t wlseal_fd_guard_recvmsg(int fd, struct msghdr *msg, int flags);
ssize_t wlseal_fd_guard_sendmsg(int fd, const struct msghdr *msg, int flags);
/* After wl_display_destroy_clients(). */
void wlseal_fd_guard_finish(void);

#endif
