/* SPDX-License-Identifier: MIT */
/*
 * wire.c - wlseal-fuzz's wire encoder: the socket, messages with their fds
 * out (SCM_RIGHTS), events in (framed and handed to the object model), and
 * a wl_display.sync round-trip with a deadline.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"

int connect_socket(const char *name)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	const char *dir = getenv("XDG_RUNTIME_DIR");
	int fd, n;

	if (name[0] == '/')
		n = snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", name);
	else if (dir)
		n = snprintf(addr.sun_path, sizeof(addr.sun_path), "%s/%s", dir, name);
	else {
		errno = ENOENT;
		return -1;
	}
	if (n < 0 || (size_t)n >= sizeof(addr.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* ---- sending ---- */

void put32(struct msg *m, uint32_t v)
{
	if (m->len + 4 <= MAX_MSG)
		m->w[m->len / 4] = v;
	m->len += 4;
}

void put_bytes(struct msg *m, const void *data, uint32_t n, uint32_t wire_len)
{
	put32(m, wire_len);
	if (m->len + ((n + 3) & ~3u) > MAX_MSG) {
		m->len += (n + 3) & ~3u;
		return;
	}
	memset((char *)m->w + m->len, 0, (n + 3) & ~3u);
	memcpy((char *)m->w + m->len, data, n);
	m->len += (n + 3) & ~3u;
}

/* Send one message; closes its fds afterwards (the server holds copies).
 * Returns false when the socket is gone. */
bool send_msg(struct conn *c, struct msg *m, uint32_t id, uint32_t opcode)
{
	char cmsg_buf[CMSG_SPACE(sizeof(int) * MAX_FDS)];
	struct iovec iov;
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	size_t off = 0;
	bool ok = true;

	m->w[0] = id;
	m->w[1] = (uint32_t)(m->len << 16) | (opcode & 0xffff);
	if (m->n_fds) {
		struct cmsghdr *cm;

		memset(cmsg_buf, 0, sizeof(cmsg_buf));
		mh.msg_control = cmsg_buf;
		mh.msg_controllen = CMSG_SPACE(sizeof(int) * m->n_fds);
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int) * m->n_fds);
		memcpy(CMSG_DATA(cm), m->fds, sizeof(int) * m->n_fds);
	}
	while (off < m->len) {
		ssize_t n;

		iov.iov_base = (char *)m->w + off;
		iov.iov_len = m->len - off;
		n = sendmsg(c->fd, &mh, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN) {
			struct pollfd p = { .fd = c->fd, .events = POLLOUT };

			if (poll(&p, 1, 2000) <= 0) {
				ok = false;
				break;
			}
			continue;
		}
		if (n <= 0) {
			ok = false;
			break;
		}
		off += (size_t)n;
		mh.msg_control = NULL;
		mh.msg_controllen = 0;
	}
	for (int i = 0; i < m->n_fds; i++)
		close(m->fds[i]);
	m->n_fds = 0;
	if (!ok) {
		/* The server hung up: read the error it sent first. */
		c->dead = true;
		for (int i = 0; i < 16 && pump(c, 50);)
			i++;
	}
	c->requests++;
	return ok;
}

/* Read what is there (or wait up to timeout_ms for something); close any
 * fds the server sends. Returns false on EOF or error. */
bool pump(struct conn *c, int timeout_ms)
{
	struct pollfd p = { .fd = c->fd, .events = POLLIN };
	char cmsg_buf[CMSG_SPACE(sizeof(int) * MAX_FDS)];
	struct iovec iov;
	struct msghdr mh;
	ssize_t n;

	if (poll(&p, 1, timeout_ms) <= 0)
		return true;
	iov.iov_base = c->in + c->in_len;
	iov.iov_len = sizeof(c->in) - c->in_len;
	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = cmsg_buf;
	mh.msg_controllen = sizeof(cmsg_buf);
	n = recvmsg(c->fd, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return true;
	/* A failed recvmsg() leaves the control buffer uninitialized: only
	 * a message received carries fds (stall-client.c says what walking
	 * it closed). */
	if (n < 0)
		mh.msg_controllen = 0;
	for (struct cmsghdr *cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm)) {
		if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS) {
			size_t k = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
			int fds[MAX_FDS];

			memcpy(fds, CMSG_DATA(cm), k * sizeof(int) > sizeof(fds) ? sizeof(fds) : k * sizeof(int));
			for (size_t i = 0; i < k && i < MAX_FDS; i++)
				close(fds[i]);
		}
	}
	if (n <= 0) {
		c->dead = true;
		return false;
	}
	c->in_len += (size_t)n;
	for (;;) {
		uint32_t bad;
		long n = wire_event_size(c->in, c->in_len, sizeof(c->in), &bad);
		size_t size = (size_t)n;

		if (n < 0) {
			snprintf(c->error, sizeof(c->error), "bad event size %u", bad);
			c->dead = true;
			return false;
		}
		if (n == 0)
			break;
		{
			uint32_t words[MAX_MSG / 4 * 2];

			memcpy(words, c->in, size);
			handle_event(c, words, size);
		}
		memmove(c->in, c->in + size, c->in_len - size);
		c->in_len -= size;
	}
	return true;
}

long wire_event_size(const unsigned char *in, size_t len, size_t cap,
		     uint32_t *bad)
{
	uint32_t hdr[2], size;

	if (len < 8)
		return 0;
	memcpy(hdr, in, 8);
	size = hdr[1] >> 16;
	if (size < 8 || size % 4 || size > cap) {
		*bad = size;
		return -1;
	}
	return len < size ? 0 : (long)size;
}

bool roundtrip(struct conn *c, int timeout_ms)
{
	struct msg m = { .len = 8 };
	struct timespec t0, t;

	c->sync_id = c->next_id++;
	new_object(c, c->sync_id, &wl_callback_interface, 1);
	c->sync_done = false;
	put32(&m, c->sync_id);
	if (!send_msg(c, &m, 1, WL_DISPLAY_SYNC))
		return false;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!c->sync_done && !c->dead) {
		long ms;

		clock_gettime(CLOCK_MONOTONIC, &t);
		ms = (t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000;
		if (ms >= timeout_ms)
			return false;
		pump(c, (int)(timeout_ms - ms));
	}
	return c->sync_done;
}
