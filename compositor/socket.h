/* SPDX-License-Identifier: MIT */
/*
 * socket.h - the listening socket $XDG_RUNTIME_DIR/NAME and its lock
 * (socket.c). Accepting on it is account/connections.c's.
 */
#ifndef WLSEAL_SOCKET_H
#define WLSEAL_SOCKET_H

#include <stdbool.h>
#include <sys/un.h>

struct wlseal_socket {
	int fd;				/* listening, non-blocking; -1 */
	int lock_fd;			/* NAME.lock, flock()ed; -1 */
	struct sockaddr_un addr;	/* sun_path: the socket's path */
	char lock_path[sizeof(((struct sockaddr_un *)0)->sun_path) + 5];
	const char *name;		/* NAME, inside addr.sun_path */
};

/* Listen on @name (absolute, or in $XDG_RUNTIME_DIR), or, when @name is
 * NULL, on the first free wayland-0 ... wayland-32. False, with a log
 * line saying why, when it cannot be had. */
bool wlseal_socket_open(struct wlseal_socket *s, const char *name);
/* Removes the socket and the lock file, closes both. */
void wlseal_socket_close(struct wlseal_socket *s);

#endif
