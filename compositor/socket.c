/* SPDX-License-Identifier: MIT */
/*
 * socket.c - the compositor's own listening socket, made the way
 * libwayland's wl_display_add_socket() makes it, so that clients,
 * scripts and a second compositor see no difference:
 *
 *  - NAME relative: $XDG_RUNTIME_DIR/NAME (unset or not absolute: no
 *    socket); absolute: used as it is. The path and its NUL must fit
 *    sun_path (108 bytes).
 *  - The lock, NAME.lock next to it: opened (created 0660) and locked
 *    with flock(LOCK_EX | LOCK_NB), held for the compositor's life.
 *    Held by someone else: another compositor serves NAME, and this one
 *    refuses to start (without --socket: tries the next wayland-N, up to
 *    wayland-32). The lock goes with the process, however it ends.
 *  - With the lock ours, a file at NAME is a leftover of a compositor
 *    that died without cleaning up (its lock went with it): removed when
 *    its owner or group may write it, as a socket bind() made is. Then
 *    bind() and listen() with a backlog of 128.
 *  - At exit the socket and the lock file are removed.
 *
 * The socket is non-blocking: a connection that went away between
 * epoll's wakeup and accept() makes accept() fail with EAGAIN instead of
 * stopping the compositor. Accepting is account/connections.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "socket.h"

#define AUTO_LAST 32		/* wayland-0 ... wayland-32 */
#define BACKLOG 128

/* The paths of @name; false when they do not fit or there is no runtime
 * directory. */
static bool set_paths(struct wlseal_socket *s, const char *name)
{
	const char *dir = "", *sep = "";
	int n;

	if (name[0] != '/') {
		dir = getenv("XDG_RUNTIME_DIR");
		if (!dir || dir[0] != '/') {
			wlseal_log("cannot create socket '%s': XDG_RUNTIME_DIR is not set or not absolute",
				   name);
			return false;
		}
		sep = "/";
	}
	s->addr.sun_family = AF_UNIX;
	n = snprintf(s->addr.sun_path, sizeof(s->addr.sun_path), "%s%s%s",
		     dir, sep, name);
	if (n < 0 || (size_t)n >= sizeof(s->addr.sun_path)) {
		wlseal_log("cannot create socket '%s': the path %s%s%s is longer than %zu bytes",
			   name, dir, sep, name, sizeof(s->addr.sun_path) - 1);
		s->addr.sun_path[0] = '\0';
		return false;
	}
	snprintf(s->lock_path, sizeof(s->lock_path), "%s.lock", s->addr.sun_path);
	s->name = s->addr.sun_path + n - strlen(name);
	return true;
}

/* The lock of s->addr's path: 1 ours, 0 held by another compositor,
 * -1 another failure (logged). */
static int take_lock(struct wlseal_socket *s)
{
	struct stat st;

	s->lock_fd = open(s->lock_path, O_CREAT | O_RDWR | O_CLOEXEC, 0660);
	if (s->lock_fd < 0) {
		wlseal_log("cannot open the lock file %s: %m", s->lock_path);
		return -1;
	}
	if (flock(s->lock_fd, LOCK_EX | LOCK_NB) < 0) {
		int held = errno == EWOULDBLOCK;

		if (!held)
			wlseal_log("cannot lock %s: %m", s->lock_path);
		close(s->lock_fd);
		s->lock_fd = -1;
		return held ? 0 : -1;
	}
	/* Nobody else serves the name: what is there is stale. */
	if (lstat(s->addr.sun_path, &st) == 0) {
		if (st.st_mode & (S_IWUSR | S_IWGRP)) {
			if (unlink(s->addr.sun_path) == 0)
				wlseal_log("removed the stale socket %s", s->addr.sun_path);
		}
	} else if (errno != ENOENT) {
		wlseal_log("cannot stat %s: %m", s->addr.sun_path);
		close(s->lock_fd);
		s->lock_fd = -1;
		return -1;
	}
	return 1;
}

static bool listen_on(struct wlseal_socket *s)
{
	s->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (s->fd < 0) {
		wlseal_log("cannot create a socket: %m");
		return false;
	}
	if (bind(s->fd, (struct sockaddr *)&s->addr, sizeof(s->addr)) < 0) {
		wlseal_log("cannot bind %s: %m", s->addr.sun_path);
		close(s->fd);
		s->fd = -1;
		return false;
	}
	if (listen(s->fd, BACKLOG) < 0) {
		wlseal_log("cannot listen on %s: %m", s->addr.sun_path);
		wlseal_socket_close(s);
		return false;
	}
	return true;
}

bool wlseal_socket_open(struct wlseal_socket *s, const char *name)
{
	char auto_name[16];
	int r;

	memset(s, 0, sizeof(*s));
	s->fd = s->lock_fd = -1;
	if (name) {
		if (!set_paths(s, name))
			return false;
		r = take_lock(s);
		if (r == 0)
			wlseal_log("cannot create socket '%s': %s is locked, another compositor serves it",
				   name, s->lock_path);
		return r == 1 && listen_on(s);
	}
	for (int i = 0; i <= AUTO_LAST; i++) {
		snprintf(auto_name, sizeof(auto_name), "wayland-%d", i);
		if (!set_paths(s, auto_name))
			return false;
		r = take_lock(s);
		if (r < 0)
			return false;
		if (r == 1)
			return listen_on(s);
	}
	wlseal_log("cannot create a socket: wayland-0 to wayland-%d are all taken",
		   AUTO_LAST);
	return false;
}

void wlseal_socket_close(struct wlseal_socket *s)
{
	if (s->fd >= 0) {
		unlink(s->addr.sun_path);
		close(s->fd);
		s->fd = -1;
	}
	if (s->lock_fd >= 0) {
		unlink(s->lock_path);
		close(s->lock_fd);
		s->lock_fd = -1;
	}
}
