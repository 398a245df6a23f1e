/* SPDX-License-Identifier: MIT */
/*
 * fd-guard.h - clients may not park file descriptors in the compositor
 * (fd-guard.c).
 */
#ifndef WLSEAL_FD_GUARD_H
#define WLSEAL_FD_GUARD_H

#include <stdbool.h>

struct wl_display;

/* What one sendmsg() of libwayland-client carries at most (MAX_FDS_OUT):
 * the fds a connection may hold once its complete requests are handled. */
#define WLSEAL_FDS_WAITING_MAX 28
/* Fds the compositor sent that a client may leave unread in its socket
 * (fd-guard.c, sendmsg): far above an honest client's few keymaps. */
#define WLSEAL_FDS_UNREAD_MAX 128

bool wlseal_fd_guard_init(struct wl_display *display);
/* After wl_display_destroy_clients(). */
void wlseal_fd_guard_finish(void);

#endif
