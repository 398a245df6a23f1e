/* SPDX-License-Identifier: MIT */
/*
 * wlseal-fuzz - a seeded Wayland protocol fuzzer that speaks the wire
 * protocol itself.
 *
 * It does not use libwayland-client's connection code (which refuses to
 * send most of what is interesting here); it only borrows the interface
 * tables that wayland-scanner generated from the protocol XML at build
 * time (wl_interface: every request's signature and the interface of each
 * object and new_id argument). From those it builds well-formed messages
 * with hostile argument values: new_id reuse, destroyed and wrong-typed
 * objects, huge and negative integers, empty and long strings and arrays,
 * requests out of order, and fds of every kind a client can pass (none,
 * pipes, sockets, O_PATH, directories, unsealed and sealed memfds of odd
 * sizes). A few hand-written hints (pool sizes, buffer geometry, configure
 * serials) keep most connections deep enough to reach the compositor's
 * own code instead of libwayland's argument checks.
 *
 * Every connection c draws from its own generator seeded by (seed, c), so
 * `--seed S --first C --connections 1` replays one connection exactly.
 * After each connection a fresh connection must get wl_display.sync
 * answered within --timeout, and the process given by --pid must be alive;
 * otherwise the run stops and prints the reproducer.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <wayland-client-protocol.h>
#include "xdg-shell-client-protocol.h"
#include "presentation-time-client-protocol.h"
#include "wlseal-shm-policy-v1-client-protocol.h"

#ifndef MFD_ALLOW_SEALING
#define MFD_ALLOW_SEALING 0x0002U
#endif

#define MAX_OBJECTS 4096
#define MAX_MSG 4096		/* libwayland's connection buffer */
#define MAX_FDS 28		/* libwayland's per-message fd limit */
#define SERVER_ID_BASE 0xff000000u

/* Every interface the compositor may advertise or create. */
static const struct wl_interface *const interfaces[] = {
	&wl_display_interface, &wl_registry_interface, &wl_callback_interface,
	&wl_compositor_interface, &wl_surface_interface, &wl_region_interface,
	&wl_shm_interface, &wl_shm_pool_interface, &wl_buffer_interface,
	&wl_output_interface, &xdg_wm_base_interface, &xdg_surface_interface,
	&xdg_toplevel_interface, &xdg_popup_interface, &xdg_positioner_interface,
	&wp_presentation_interface, &wp_presentation_feedback_interface,
	&wlseal_shm_policy_v1_interface, &wlseal_shm_pool_request_v1_interface,
};
#define N_INTERFACES (sizeof(interfaces) / sizeof(interfaces[0]))

static const struct wl_interface *interface_by_name(const char *name)
{
	for (size_t i = 0; i < N_INTERFACES; i++)
		if (!strcmp(interfaces[i]->name, name))
			return interfaces[i];
	return NULL;
}

/* splitmix64: small, fast, and the same on every host. */
struct rng {
	uint64_t s;
};

static uint64_t rnd(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t below(struct rng *r, uint32_t n)
{
	return n ? (uint32_t)(rnd(r) % n) : 0;
}

/* chance(r, p): true with probability p/1000. */
static bool chance(struct rng *r, unsigned p)
{
	return below(r, 1000) < p;
}

struct options {
	const char *socket;
	uint64_t seed;
	bool seed_given;
	uint64_t first, connections;
	uint64_t max_requests;	/* stop after this many requests in total */
	uint64_t per_connection;
	double seconds;
	int timeout_ms;
	pid_t pid;
	bool verbose;
};

struct object {
	const struct wl_interface *iface;
	uint32_t version;
	bool live;		/* created and not yet destroyed by us */
	int32_t pool_size;	/* wl_shm_pool: the size we told it */
	uint32_t serial;	/* xdg_surface: last configure; xdg_wm_base: ping */
	bool taken;		/* wl_surface with a role or buffer, xdg_surface
				 * with a role: a gentle request leaves it be */
};

struct global {
	uint32_t name, version;
	const struct wl_interface *iface;
};

struct conn {
	int fd;
	struct rng rng;
	unsigned hostility;	/* per mille: how often a value is hostile */
	struct object obj[MAX_OBJECTS];
	uint32_t next_id;
	struct global globals[64];
	int n_globals;
	uint32_t last_serial;
	uint32_t sync_id;
	bool sync_done;
	uint64_t frames_done;	/* frame callbacks answered */
	bool linger;		/* wait for frames: let composition see us */
	bool dead;		/* error event or EOF */
	bool desync;		/* we sent a message the server may wait on */
	char error[256];
	unsigned char in[MAX_MSG * 2];
	size_t in_len;
	uint64_t requests;
};

struct stats {
	uint64_t connections, requests, errors, eofs, fds;
};

static void vlog(const struct options *o, const char *fmt, ...)
{
	va_list ap;

	if (!o->verbose)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

static int connect_socket(const char *name)
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

static bool pump(struct conn *c, int timeout_ms);

/* ---- sending ---- */

struct msg {
	uint32_t w[MAX_MSG / 4];
	size_t len;		/* bytes */
	int fds[MAX_FDS];
	int n_fds;
};

static void put32(struct msg *m, uint32_t v)
{
	if (m->len + 4 <= MAX_MSG)
		m->w[m->len / 4] = v;
	m->len += 4;
}

static void put_bytes(struct msg *m, const void *data, uint32_t n, uint32_t wire_len)
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
static bool send_msg(struct conn *c, struct msg *m, uint32_t id, uint32_t opcode)
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

/* ---- receiving ---- */

static uint32_t new_object(struct conn *c, uint32_t id,
			   const struct wl_interface *iface, uint32_t version)
{
	if (id == 0 || id >= MAX_OBJECTS)
		return id;
	c->obj[id] = (struct object){ .iface = iface, .version = version, .live = true };
	return id;
}

/* The events that matter to us: errors, deletions, globals, serials and
 * server-created objects. Everything is bounds-checked: the fuzzer must
 * not crash whatever the compositor sends. */
static void handle_event(struct conn *c, const uint32_t *p, size_t size)
{
	uint32_t id = p[0], opcode = p[1] & 0xffff;
	const struct wl_interface *iface;
	const struct wl_message *ev;
	size_t pos = 2, words = size / 4;
	int ti = 0;

	if (id == 1) {
		iface = &wl_display_interface;
	} else if (id < MAX_OBJECTS && c->obj[id].iface) {
		iface = c->obj[id].iface;
	} else {
		return;
	}
	if ((int)opcode >= iface->event_count)
		return;
	ev = &iface->events[opcode];

	if (iface == &wl_display_interface && opcode == 0 /* error */ && words >= 6) {
		uint32_t len = p[4];
		const char *s = (const char *)&p[5];
		size_t max = (words - 5) * 4;

		snprintf(c->error, sizeof(c->error), "error on object %u code %u: %.*s",
			 p[2], p[3], (int)(len && len <= max ? len - 1 : 0), s);
		c->dead = true;
		return;
	}
	if (iface == &wl_display_interface && opcode == 1 /* delete_id */ && words >= 3) {
		if (p[2] < MAX_OBJECTS) {
			c->obj[p[2]].live = false;
			c->obj[p[2]].iface = NULL;
		}
		return;
	}
	if (iface == &wl_registry_interface && opcode == 0 /* global */ && words >= 5) {
		uint32_t len = p[3];
		size_t max = (words - 4) * 4;
		char name[128];

		if (len == 0 || len > max || len > sizeof(name) ||
		    words < 4 + (len + 3) / 4 + 1)
			return;
		memcpy(name, &p[4], len);
		name[len - 1] = 0;
		if (c->n_globals < (int)(sizeof(c->globals) / sizeof(c->globals[0])))
			c->globals[c->n_globals++] = (struct global){
				.name = p[2], .version = p[4 + (len + 3) / 4],
				.iface = interface_by_name(name),
			};
		return;
	}
	if (iface == &wl_callback_interface && id == c->sync_id) {
		c->sync_done = true;
		return;
	}
	if (iface == &wl_callback_interface) {
		c->frames_done++;
		return;
	}
	if ((iface == &xdg_surface_interface || iface == &xdg_wm_base_interface) && words >= 3) {
		c->obj[id].serial = p[2];
		c->last_serial = p[2];
	}

	/* Server-created objects (new_id in an event): remember them. */
	for (const char *s = ev->signature; *s && pos < words; s++) {
		switch (*s) {
		case '?':
			continue;
		case 'n':
			if (p[pos] >= SERVER_ID_BASE && p[pos] - SERVER_ID_BASE < 64 &&
			    ev->types[ti]) {
				/* kept in the top of our table */
				uint32_t slot = MAX_OBJECTS - 64 + (p[pos] - SERVER_ID_BASE);

				c->obj[slot] = (struct object){ .iface = ev->types[ti],
								.version = 1, .live = true };
			}
			pos++;
			break;
		case 's':
		case 'a':
			pos += 1 + (p[pos] + 3) / 4;
			break;
		case 'h':
			break;
		default:
			if (*s >= '0' && *s <= '9')
				continue;
			pos++;
			break;
		}
		ti++;
	}
}

/* Read what is there (or wait up to timeout_ms for something); close any
 * fds the server sends. Returns false on EOF or error. */
static bool pump(struct conn *c, int timeout_ms)
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
		uint32_t hdr[2], size;

		if (c->in_len < 8)
			break;
		memcpy(hdr, c->in, 8);
		size = hdr[1] >> 16;
		if (size < 8 || size % 4 || size > sizeof(c->in)) {
			snprintf(c->error, sizeof(c->error), "bad event size %u", size);
			c->dead = true;
			return false;
		}
		if (c->in_len < size)
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

static bool roundtrip(struct conn *c, int timeout_ms)
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

/* ---- values ---- */

static int32_t hostile_int(struct rng *r)
{
	static const int32_t special[] = {
		0, 1, -1, 2, 3, 4, 7, 8, 15, 16, 64, 255, 256, 4095, 4096, 4097,
		65535, 65536, 16384, 16385, 32767, 32768, INT32_MAX, INT32_MIN,
		INT32_MAX - 1, INT32_MIN + 1, 0x40000000, 0x3fffffff, -4096,
		0x10000000, 46341 /* sqrt(2^31) */, -46341, 0x7fff, -0x8000,
	};

	switch (below(r, 4)) {
	case 0:
		return special[below(r, sizeof(special) / sizeof(special[0]))];
	case 1:
		return (int32_t)below(r, 1024) - 512;
	case 2:
		return (int32_t)(1u << below(r, 31)) + (int32_t)below(r, 3) - 1;
	default:
		return (int32_t)rnd(r);
	}
}

static int32_t gentle_int(struct rng *r)
{
	return (int32_t)below(r, 128);
}

/* ---- fds ---- */

static int memfd_of_size(struct rng *r, off_t size, unsigned seals)
{
	int fd = memfd_create("wlseal-fuzz", MFD_CLOEXEC | MFD_ALLOW_SEALING);

	if (fd < 0)
		return -1;
	if (size > 0 && ftruncate(fd, size) < 0) {
		close(fd);
		return -1;
	}
	/* Some content, so that reads see more than holes. */
	if (size >= 4096 && chance(r, 500)) {
		char page[4096];

		memset(page, (int)below(r, 256), sizeof(page));
		if (pwrite(fd, page, sizeof(page), 0) < 0) {
			close(fd);
			return -1;
		}
	}
	if (seals)
		fcntl(fd, F_ADD_SEALS, seals);
	return fd;
}

static off_t odd_size(struct rng *r)
{
	static const off_t sizes[] = { 0, 1, 3, 4095, 4096, 4097, 8192,
				       65535, 65536, 1 << 20, (1 << 20) + 1,
				       4 << 20, 16 << 20 };

	return sizes[below(r, sizeof(sizes) / sizeof(sizes[0]))];
}

enum fd_kind { FD_NONE = -2 };

/* A hostile fd (or FD_NONE: send the message without one). */
static int hostile_fd(struct rng *r, off_t want_size)
{
	int p[2], fd, mfd;
	char path[64];

	switch (below(r, 14)) {
	case 0:
		return FD_NONE;
	case 1: /* a pipe whose writer is gone */
		if (pipe2(p, O_CLOEXEC) < 0)
			return -1;
		close(p[1]);
		return p[0];
	case 2:
		if (pipe2(p, O_CLOEXEC) < 0)
			return -1;
		close(p[0]);
		return p[1];
	case 3: /* a socket whose peer is gone */
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, p) < 0)
			return -1;
		close(p[1]);
		return p[0];
	case 4:
		return open("/tmp", O_PATH | O_CLOEXEC);
	case 5:
		return open("/tmp", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	case 6:
		return open("/dev/null", O_RDWR | O_CLOEXEC);
	case 7:
		return open("/dev/zero", O_RDWR | O_CLOEXEC);
	case 8:
		return eventfd(0, EFD_CLOEXEC);
	case 9: /* unsealed memfd */
		return memfd_of_size(r, below(r, 2) ? want_size : odd_size(r), 0);
	case 10: /* sealed, but of an odd size */
		return memfd_of_size(r, odd_size(r), F_SEAL_SHRINK |
				     (below(r, 2) ? F_SEAL_GROW : 0) |
				     (below(r, 4) ? 0 : F_SEAL_WRITE));
	case 11: /* O_PATH or write-only reopening of a sealed memfd */
	case 12:
		mfd = memfd_of_size(r, want_size, F_SEAL_SHRINK);
		if (mfd < 0)
			return -1;
		snprintf(path, sizeof(path), "/proc/self/fd/%d", mfd);
		fd = open(path, (below(r, 2) ? O_PATH : O_WRONLY) | O_CLOEXEC);
		close(mfd);
		return fd;
	default: /* memfd without sealing at all */
		fd = memfd_create("wlseal-fuzz-nosealing", MFD_CLOEXEC);
		if (fd >= 0 && want_size > 0 && ftruncate(fd, want_size) < 0) {
			close(fd);
			return -1;
		}
		return fd;
	}
}

/* ---- requests ---- */

/* A live object of this interface (or of any, when iface is NULL);
 * with free, one that is not taken. */
static uint32_t pick_object_of(struct conn *c, const struct wl_interface *iface, bool free)
{
	uint32_t cand[64], n = 0, newest = 0;

	for (uint32_t id = 2; id < MAX_OBJECTS; id++)
		if (c->obj[id].live && c->obj[id].iface &&
		    (!iface || c->obj[id].iface == iface) &&
		    (!free || !c->obj[id].taken)) {
			if (n < 64)
				cand[n++] = id;
			newest = id;
		}
	/* The newest half the time: chains (surface, xdg_surface, toplevel,
	 * pool, buffer, attach) then use the objects made for each other. */
	if (newest && chance(&c->rng, 500))
		return newest;
	return n ? cand[below(&c->rng, n)] : 0;
}

static uint32_t pick_object(struct conn *c, const struct wl_interface *iface)
{
	return pick_object_of(c, iface, false);
}

static uint32_t wire_id(uint32_t slot)
{
	return slot >= MAX_OBJECTS - 64 ? SERVER_ID_BASE + (slot - (MAX_OBJECTS - 64)) : slot;
}

/* Hints: argument values that make a request likely to succeed, so the
 * connection gets past it to the next. Return true when filled in. */
struct hint {
	int32_t ints[8];
	int n;
	off_t fd_size;
	bool skip;		/* a gentle connection would not send this now */
};

static bool hint_for(struct conn *c, uint32_t target, const struct wl_interface *iface,
		     uint32_t opcode, struct hint *h)
{
	struct rng *r = &c->rng;
	int32_t w = 1 + (int32_t)below(r, 64), hh = 1 + (int32_t)below(r, 64);

	memset(h, 0, sizeof(*h));
	if ((iface == &wl_shm_interface && opcode == WL_SHM_CREATE_POOL) ||
	    (iface == &wlseal_shm_policy_v1_interface &&
	     opcode == WLSEAL_SHM_POLICY_V1_CREATE_POOL)) {
		h->fd_size = 4096 * (1 + below(r, 64));
		h->ints[0] = (int32_t)h->fd_size;
		h->n = 1;
		return true;
	}
	if (iface == &wl_shm_pool_interface && opcode == WL_SHM_POOL_CREATE_BUFFER) {
		int32_t size = target < MAX_OBJECTS ? c->obj[target].pool_size : 0;

		if (size <= 0)
			size = 4096;
		while ((int64_t)w * hh * 4 > size && hh > 1)
			hh /= 2;
		while ((int64_t)w * hh * 4 > size && w > 1)
			w /= 2;
		h->ints[0] = 0;
		h->ints[1] = w;
		h->ints[2] = hh;
		h->ints[3] = w * 4;
		h->ints[4] = (int32_t)below(r, 2); /* argb8888, xrgb8888 */
		h->n = 5;
		return true;
	}
	if (iface == &wl_shm_pool_interface && opcode == WL_SHM_POOL_RESIZE) {
		/* a pool the server made (wlseal_shm_policy_v1): size unknown */
		h->skip = target >= MAX_OBJECTS || c->obj[target].pool_size <= 0;
		/* the file is as large as the pool: growing past it is
		 * left to hostile values */
		if (!h->skip)
			h->ints[0] = c->obj[target].pool_size;
		h->n = 1;
		return true;
	}
	if (iface == &xdg_surface_interface &&
	    (opcode == XDG_SURFACE_GET_TOPLEVEL || opcode == XDG_SURFACE_GET_POPUP)) {
		h->skip = c->obj[target].taken;
		return true;
	}
	if ((iface == &xdg_surface_interface && opcode == XDG_SURFACE_ACK_CONFIGURE) ||
	    (iface == &xdg_wm_base_interface && opcode == XDG_WM_BASE_PONG)) {
		/* this object's serial; none yet: not this request */
		h->ints[0] = (int32_t)c->obj[target].serial;
		h->n = 1;
		h->skip = !c->obj[target].serial;
		return true;
	}
	if (iface == &wl_surface_interface &&
	    (opcode == WL_SURFACE_DAMAGE || opcode == WL_SURFACE_DAMAGE_BUFFER ||
	     opcode == WL_SURFACE_ATTACH)) {
		for (int i = 0; i < 4; i++)
			h->ints[i] = gentle_int(r);
		h->n = 4;
		return true;
	}
	if (iface == &wl_surface_interface && opcode == WL_SURFACE_SET_BUFFER_TRANSFORM) {
		h->ints[0] = 0;
		h->n = 1;
		return true;
	}
	if (iface == &wl_surface_interface && opcode == WL_SURFACE_SET_BUFFER_SCALE) {
		h->ints[0] = 1;
		h->n = 1;
		return true;
	}
	return false;
}

/* A request's first version: the digits that open its signature. */
static uint32_t since(const struct wl_message *m)
{
	uint32_t v = 0;

	for (const char *s = m->signature; *s >= '0' && *s <= '9'; s++)
		v = v * 10 + (uint32_t)(*s - '0');
	return v ? v : 1;
}

/* wl_registry.bind of global g; hostile: a wrong version, interface name
 * or id. */
static void bind_one(struct conn *c, struct stats *st, struct global *g, bool hostile)
{
	struct rng *r = &c->rng;
	struct msg m = { .len = 8 };
	uint32_t id = c->next_id;
	uint32_t version = 1 + below(r, g->version ? g->version : 1);
	const char *name = g->iface ? g->iface->name : "unknown";
	unsigned what = hostile ? 1 + below(r, 4) : 0;

	if (!g->iface && !hostile)
		return;
	if (what == 1)
		version = below(r, 2) ? 0 : g->version + 1 + below(r, 3);
	else if (what == 2)
		name = interfaces[below(r, N_INTERFACES)]->name;
	else if (what == 3)
		id = below(r, 2) ? 0 : c->next_id + 1 + below(r, 50);
	else if (what == 4)
		id = 1 + below(r, c->next_id);
	put32(&m, g->name);
	put_bytes(&m, name, (uint32_t)strlen(name) + 1, (uint32_t)strlen(name) + 1);
	put32(&m, version);
	put32(&m, id);
	if (id == c->next_id) {
		c->next_id++;
		if (g->iface)
			new_object(c, id, g->iface, version);
	}
	send_msg(c, &m, 2, WL_REGISTRY_BIND);
	st->requests++;
}

/* Build and send one request on object slot `target`. */
static void send_request(struct conn *c, struct stats *st, uint32_t target, uint32_t opcode)
{
	struct rng *r = &c->rng;
	const struct wl_interface *iface = c->obj[target].iface;
	const struct wl_message *req = &iface->methods[opcode];
	struct msg m = { .len = 8 };
	struct hint h;
	bool hinted = hint_for(c, target, iface, opcode, &h) && !chance(r, c->hostility);
	/* get_xdg_surface wants a surface without role or buffer */
	bool want_free = iface == &xdg_wm_base_interface &&
			 opcode == XDG_WM_BASE_GET_XDG_SURFACE;
	uint32_t taken = 0;

	if (hinted && h.skip)
		return;
	/* Requests newer than the bound version: only as a hostile act. */
	if (since(req) > c->obj[target].version && !chance(r, c->hostility))
		return;
	int ni = 0, ti = 0;
	bool nullable = false;
	uint32_t created = 0;
	const struct wl_interface *created_iface = NULL;
	uint32_t created_version = 1;
	int32_t pool_size = 0;
	bool skip = false;

	for (const char *s = req->signature; *s; s++) {
		bool hostile = chance(r, c->hostility);

		if (*s >= '0' && *s <= '9')
			continue;
		if (*s == '?') {
			nullable = true;
			continue;
		}
		switch (*s) {
		case 'i':
		case 'u':
		case 'f': {
			int32_t v;

			if (hinted && ni < h.n)
				v = h.ints[ni];
			else
				v = hostile ? hostile_int(r) : gentle_int(r);
			if (ni == 0)
				pool_size = v;
			ni++;
			put32(&m, (uint32_t)v);
			break;
		}
		case 's': {
			char buf[3000];
			uint32_t n;

			if (nullable && !hostile && chance(r, 300)) {
				put32(&m, 0);
				break;
			}
			/* gentle: 1..32 (a wire length of 0 is a null string) */
			n = hostile ? (below(r, 4) ? below(r, 3000) : below(r, 2)) : 1 + below(r, 32);
			for (uint32_t i = 0; i < n; i++)
				buf[i] = hostile ? (char)below(r, 256) : (char)('a' + below(r, 26));
			if (n)
				buf[n - 1] = 0;
			/* wire length counts the NUL; a hostile one may lie */
			put_bytes(&m, buf, n, hostile && chance(r, 200) ? n + 1 : n);
			break;
		}
		case 'a': {
			unsigned char buf[3000];
			uint32_t n = hostile ? below(r, 3000) : below(r, 16) * 4;

			for (uint32_t i = 0; i < n; i++)
				buf[i] = (unsigned char)below(r, 256);
			put_bytes(&m, buf, n, n);
			break;
		}
		case 'o': {
			uint32_t id = pick_object_of(c, req->types[ti], want_free);

			if (hostile) {
				switch (below(r, 4)) {
				case 0: id = 0; break;
				case 1: id = pick_object(c, NULL); break;
				case 2: id = below(r, c->next_id + 2); break;
				default: id = (uint32_t)rnd(r); break;
				}
			} else if (!id && !nullable) {
				/* nothing to refer to yet: not this request */
				skip = true;
			} else if (nullable && chance(r, 100)) {
				id = 0;
			}
			if (id && id < MAX_OBJECTS && (want_free ||
			    (iface == &wl_surface_interface && opcode == WL_SURFACE_ATTACH)))
				taken = id;
			put32(&m, id < MAX_OBJECTS ? wire_id(id) : id);
			break;
		}
		case 'n': {
			uint32_t id = c->next_id;
			const struct wl_interface *ni_iface = req->types[ti];
			uint32_t version = c->obj[target].version; /* children inherit it */

			/* wl_registry.bind (the only untyped new_id) is
			 * bind_one()'s; here an untyped one stays untracked. */
			if (hostile) {
				switch (below(r, 3)) {
				case 0: id = pick_object(c, NULL); break; /* reuse */
				case 1: id = 0; break;
				default: id = c->next_id + 1 + below(r, 100); break;
				}
			} else {
				c->next_id++;
				created = id;
				created_iface = ni_iface;
				created_version = version;
			}
			put32(&m, id);
			break;
		}
		case 'h': {
			int fd;

			if (hinted && !hostile)
				fd = memfd_of_size(r, h.fd_size, F_SEAL_SHRINK |
						   (below(r, 3) ? 0 : F_SEAL_GROW));
			else
				fd = hostile_fd(r, h.fd_size ? h.fd_size : 4096);
			if (fd == FD_NONE)
				break;
			if (fd < 0) /* out of fds or memory here: send none */
				break;
			if (m.n_fds < MAX_FDS)
				m.fds[m.n_fds++] = fd;
			else
				close(fd);
			st->fds++;
			break;
		}
		}
		nullable = false;
		ti++;
	}
	/* Now and then an fd that no argument asked for. */
	if (chance(r, c->hostility / 4) && m.n_fds < MAX_FDS) {
		int fd = hostile_fd(r, 4096);

		if (fd >= 0)
			m.fds[m.n_fds++] = fd;
	}
	if (m.len > MAX_MSG || skip) {
		/* Too long for libwayland's buffer, or missing an object
		 * that a gentle request needs: do not send it. */
		for (int i = 0; i < m.n_fds; i++)
			close(m.fds[i]);
		if (created)
			c->next_id--;
		return;
	}
	if (created && created < MAX_OBJECTS && created_iface) {
		new_object(c, created, created_iface, created_version);
		if (created_iface == &wl_shm_pool_interface)
			c->obj[created].pool_size = pool_size;
	}
	if (iface == &wl_shm_pool_interface && opcode == WL_SHM_POOL_RESIZE)
		c->obj[target].pool_size = pool_size;
	if (taken && want_free)
		c->obj[taken].taken = true;	/* the surface has a role now */
	if (taken && !want_free)
		c->obj[target].taken = true;	/* a buffer was attached */
	if (iface == &xdg_surface_interface &&
	    (opcode == XDG_SURFACE_GET_TOPLEVEL || opcode == XDG_SURFACE_GET_POPUP))
		c->obj[target].taken = true;
	/* Destructors: by name, as wl_message does not say. */
	if (!strcmp(req->name, "destroy") || !strcmp(req->name, "release"))
		c->obj[target].live = false;
	send_msg(c, &m, wire_id(target), opcode);
	st->requests++;
}

/* One request: mostly on a live object, sometimes on a dead or random
 * one, or out of the version's range. */
static void one_request(struct conn *c, struct stats *st)
{
	struct rng *r = &c->rng;
	uint32_t target = 0, opcode;
	const struct wl_interface *iface;

	if (chance(r, c->hostility / 2)) {
		/* a destroyed object: still known to us by interface */
		for (int i = 0; i < 8 && !target; i++) {
			uint32_t id = 2 + below(r, c->next_id > 2 ? c->next_id - 2 : 1);

			if (id < MAX_OBJECTS && c->obj[id].iface && !c->obj[id].live)
				target = id;
		}
	}
	if (!target)
		target = pick_object(c, NULL);
	if (!target)
		return;
	iface = c->obj[target].iface;
	if (!iface->method_count)
		return;
	opcode = below(r, (uint32_t)iface->method_count);
	/* Destructors less often, so that objects live long enough. */
	if ((!strcmp(iface->methods[opcode].name, "destroy") ||
	     !strcmp(iface->methods[opcode].name, "release")) && !chance(r, 150))
		opcode = below(r, (uint32_t)iface->method_count);
	if (iface == &wl_registry_interface && opcode == WL_REGISTRY_BIND) {
		if (c->n_globals)
			bind_one(c, st, &c->globals[below(r, (uint32_t)c->n_globals)],
				 chance(r, c->hostility));
		return;
	}
	send_request(c, st, target, opcode);
}

/* Bind every global once (a fuzzer that only binds some never gets far). */
static void bind_all(struct conn *c, struct stats *st)
{
	for (int i = 0; i < c->n_globals && !c->dead; i++)
		if (c->globals[i].iface)
			bind_one(c, st, &c->globals[i], false);
}

/* A little structure: a surface with a role and a buffer, the path that
 * reaches composition. */
static void scaffold(struct conn *c, struct stats *st)
{
	uint32_t comp = pick_object(c, &wl_compositor_interface);
	uint32_t wm = pick_object(c, &xdg_wm_base_interface);

	if (comp)
		send_request(c, st, comp, WL_COMPOSITOR_CREATE_SURFACE);
	if (wm && chance(&c->rng, 700)) {
		uint32_t surf = pick_object(c, &wl_surface_interface);

		if (surf) {
			uint32_t xs;

			send_request(c, st, wm, XDG_WM_BASE_GET_XDG_SURFACE);
			xs = pick_object(c, &xdg_surface_interface);
			if (xs)
				send_request(c, st, xs, XDG_SURFACE_GET_TOPLEVEL);
			/* the initial commit, answered by a configure */
			send_request(c, st, surf, WL_SURFACE_COMMIT);
			/* A lingering connection stays until the compositor
			 * has composed a frame with it (or 50 ms). */
			for (uint64_t f = c->frames_done, i = 0;
			     c->linger && !c->dead && c->frames_done == f && i < 5; i++)
				pump(c, 10);
		}
	}
	if (chance(&c->rng, 500)) {
		/* pump first: the configure serial for ack_configure */
		uint32_t surf = pick_object(c, &wl_surface_interface);
		uint32_t xs = pick_object(c, &xdg_surface_interface);

		pump(c, 0);
		if (xs)
			send_request(c, st, xs, XDG_SURFACE_ACK_CONFIGURE);
		if (surf && pick_object(c, &wl_buffer_interface)) {
			send_request(c, st, surf, WL_SURFACE_ATTACH);
			send_request(c, st, surf, WL_SURFACE_DAMAGE_BUFFER);
			send_request(c, st, surf, WL_SURFACE_FRAME);
			send_request(c, st, surf, WL_SURFACE_COMMIT);
		}
	}
	{
		uint32_t shm = pick_object(c, &wl_shm_interface);

		if (shm) {
			uint32_t pool;

			send_request(c, st, shm, WL_SHM_CREATE_POOL);
			pool = pick_object(c, &wl_shm_pool_interface);
			if (pool)
				send_request(c, st, pool, WL_SHM_POOL_CREATE_BUFFER);
		}
	}
}

enum verdict { CONN_OK, CONN_STALLED, CONN_NOCONNECT };

static enum verdict fuzz_connection(const struct options *o, uint64_t index,
				    struct stats *st, uint64_t budget)
{
	static struct conn c;	/* large: not on the stack */
	struct msg m = { .len = 8 };
	static const unsigned levels[] = { 0, 2, 10, 30, 100, 300 };
	uint64_t n;
	enum verdict v = CONN_OK;

	memset(&c, 0, sizeof(c));
	c.rng.s = o->seed ^ (index * 0xd1342543de82ef95ull);
	rnd(&c.rng);
	c.hostility = levels[below(&c.rng, sizeof(levels) / sizeof(levels[0]))];
	c.linger = chance(&c.rng, 100);
	c.fd = connect_socket(o->socket);
	if (c.fd < 0)
		return CONN_NOCONNECT;
	fcntl(c.fd, F_SETFL, O_NONBLOCK);
	c.obj[1] = (struct object){ .iface = &wl_display_interface, .version = 1, .live = true };
	c.next_id = 2;
	put32(&m, c.next_id);
	new_object(&c, c.next_id++, &wl_registry_interface, 1);
	send_msg(&c, &m, 1, WL_DISPLAY_GET_REGISTRY);
	st->requests++;
	if (!roundtrip(&c, o->timeout_ms)) {
		v = c.dead ? CONN_OK : CONN_STALLED;
		goto out;
	}
	bind_all(&c, st);
	n = 1 + below(&c.rng, (uint32_t)(o->per_connection < budget ? o->per_connection : budget));
	for (uint64_t i = 0; i < n && !c.dead; i++) {
		if (below(&c.rng, 16) == 0)
			scaffold(&c, st);
		else
			one_request(&c, st);
		if (c.next_id >= MAX_OBJECTS - 80)
			break;
		if (i % 8 == 7)
			pump(&c, 0);
	}
	/* The connection itself must still be answered, unless it was
	 * disconnected for a protocol error. */
	if (!c.dead && !roundtrip(&c, o->timeout_ms) && !c.dead)
		v = CONN_STALLED;
out:
	if (c.error[0]) {
		st->errors++;
		vlog(o, "connection %" PRIu64 ": %s\n", index, c.error);
	} else if (c.dead) {
		st->eofs++;
	}
	vlog(o, "connection %" PRIu64 ": hostility %u, %" PRIu64 " requests, %" PRIu64
	     " frames%s\n", index, c.hostility, c.requests, c.frames_done,
	     v == CONN_STALLED ? ", STALLED" : "");
	close(c.fd);
	return v;
}

/* A fresh, well-behaved connection: wl_display.sync must be answered. */
static bool probe(const struct options *o, char *why, size_t len)
{
	static struct conn c;
	struct msg m = { .len = 8 };

	memset(&c, 0, sizeof(c));
	c.fd = connect_socket(o->socket);
	if (c.fd < 0) {
		snprintf(why, len, "cannot connect: %s", strerror(errno));
		return false;
	}
	c.obj[1] = (struct object){ .iface = &wl_display_interface, .version = 1, .live = true };
	c.next_id = 2;
	put32(&m, c.next_id);
	new_object(&c, c.next_id++, &wl_registry_interface, 1);
	send_msg(&c, &m, 1, WL_DISPLAY_GET_REGISTRY);
	if (!roundtrip(&c, o->timeout_ms)) {
		snprintf(why, len, "wl_display.sync not answered within %d ms%s%s",
			 o->timeout_ms, c.error[0] ? ": " : "", c.error);
		close(c.fd);
		return false;
	}
	if (c.n_globals == 0) {
		snprintf(why, len, "no globals advertised");
		close(c.fd);
		return false;
	}
	close(c.fd);
	return true;
}

static bool pid_alive(pid_t pid, char *why, size_t len)
{
	char path[64], buf[512], *p;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f) {
		snprintf(why, len, "compositor pid %d is gone", (int)pid);
		return false;
	}
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	p = strrchr(buf, ')');
	if (p && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X')) {
		snprintf(why, len, "compositor pid %d is a zombie (it died)", (int)pid);
		return false;
	}
	return true;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: wlseal-fuzz [OPTIONS]\n"
"Seeded Wayland protocol fuzzer: raw wire messages with hostile values and\n"
"fds against the compositor on WAYLAND_DISPLAY, many short connections,\n"
"each followed by a check that a fresh connection gets wl_display.sync\n"
"answered.\n"
"\n"
"  --socket=NAME        socket name in $XDG_RUNTIME_DIR or absolute path\n"
"                       (default $WAYLAND_DISPLAY)\n"
"  --seed=N             run seed (default: from the clock; always printed)\n"
"  --first=C            first connection index (default 0); with\n"
"                       --connections=1 replays connection C of a seed\n"
"  --connections=N      connections to run (default unlimited)\n"
"  --requests=N         stop after about N requests in all (default 100000)\n"
"  --per-connection=N   at most N fuzzed requests per connection (default 400)\n"
"  --seconds=S          stop after S seconds (default unlimited)\n"
"  --timeout=MS         how long a sync may take (default 5000)\n"
"  --pid=PID            the compositor's pid: must stay alive\n"
"  --verbose            one line per connection on stderr\n"
"  --help               this text\n"
"\n"
"Exit status: 0 when the compositor answered after every connection,\n"
"1 when it stopped answering or died (the reproducer is printed), 2 on\n"
"usage errors.\n");
}

static bool parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return !errno && end != s && !*end && s[0] != '-';
}

static int parse_options(int argc, char **argv, struct options *o)
{
	enum { O_SOCKET = 256, O_SEED, O_FIRST, O_CONNECTIONS, O_REQUESTS,
	       O_PER, O_SECONDS, O_TIMEOUT, O_PID, O_VERBOSE, O_HELP };
	static const struct option longopts[] = {
		{ "socket", required_argument, NULL, O_SOCKET },
		{ "seed", required_argument, NULL, O_SEED },
		{ "first", required_argument, NULL, O_FIRST },
		{ "connections", required_argument, NULL, O_CONNECTIONS },
		{ "requests", required_argument, NULL, O_REQUESTS },
		{ "per-connection", required_argument, NULL, O_PER },
		{ "seconds", required_argument, NULL, O_SECONDS },
		{ "timeout", required_argument, NULL, O_TIMEOUT },
		{ "pid", required_argument, NULL, O_PID },
		{ "verbose", no_argument, NULL, O_VERBOSE },
		{ "help", no_argument, NULL, O_HELP },
		{ 0 },
	};
	int ch;
	uint64_t v;

	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		bool ok = true;

		switch (ch) {
		case O_SOCKET: o->socket = optarg; break;
		case O_SEED: ok = parse_u64(optarg, &o->seed); o->seed_given = true; break;
		case O_FIRST: ok = parse_u64(optarg, &o->first); break;
		case O_CONNECTIONS: ok = parse_u64(optarg, &o->connections) && o->connections; break;
		case O_REQUESTS: ok = parse_u64(optarg, &o->max_requests) && o->max_requests; break;
		case O_PER:
			ok = parse_u64(optarg, &v) && v >= 1 && v <= 100000;
			o->per_connection = v;
			break;
		case O_SECONDS: {
			char *end;

			o->seconds = strtod(optarg, &end);
			ok = end != optarg && !*end && o->seconds > 0;
			break;
		}
		case O_TIMEOUT:
			ok = parse_u64(optarg, &v) && v >= 1 && v <= 600000;
			o->timeout_ms = (int)v;
			break;
		case O_PID:
			ok = parse_u64(optarg, &v) && v >= 1 && v <= INT32_MAX;
			o->pid = (pid_t)v;
			break;
		case O_VERBOSE: o->verbose = true; break;
		case O_HELP: usage(stdout); exit(0);
		default: usage(stderr); return 2;
		}
		if (!ok) {
			fprintf(stderr, "wlseal-fuzz: bad value '%s' for --%s\n", optarg,
				longopts[ch - O_SOCKET].name);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "wlseal-fuzz: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	if (!o->socket)
		o->socket = getenv("WAYLAND_DISPLAY");
	if (!o->socket) {
		fprintf(stderr, "wlseal-fuzz: no --socket and no WAYLAND_DISPLAY\n");
		return 2;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct options o = { .max_requests = 100000, .per_connection = 400,
			     .timeout_ms = 5000 };
	struct stats st = { 0 };
	char why[512] = "";
	double t0;
	uint64_t i;
	int rc;

	if ((rc = parse_options(argc, argv, &o)))
		return rc;
	if (!o.seed_given)
		o.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	signal(SIGPIPE, SIG_IGN);
	printf("wlseal-fuzz: seed=%" PRIu64 " socket=%s\n", o.seed, o.socket);
	fflush(stdout);

	t0 = now();
	rc = 0;
	for (i = o.first; ; i++) {
		enum verdict v;

		if (o.connections && i - o.first >= o.connections)
			break;
		if (st.requests >= o.max_requests)
			break;
		if (o.seconds > 0 && now() - t0 >= o.seconds)
			break;
		v = fuzz_connection(&o, i, &st, o.max_requests - st.requests);
		st.connections++;
		if (v == CONN_NOCONNECT) {
			snprintf(why, sizeof(why), "cannot connect to %s: %s", o.socket,
				 strerror(errno));
			rc = 1;
		} else if (v == CONN_STALLED) {
			snprintf(why, sizeof(why), "the fuzzed connection's own "
				 "wl_display.sync was not answered within %d ms", o.timeout_ms);
			rc = 1;
		} else if (o.pid && !pid_alive(o.pid, why, sizeof(why))) {
			rc = 1;
		} else if (!probe(&o, why, sizeof(why))) {
			rc = 1;
		}
		if (rc)
			break;
	}
	{
		double t = now() - t0;

		printf("wlseal-fuzz: %" PRIu64 " connections, %" PRIu64 " requests, "
		       "%" PRIu64 " fds, %" PRIu64 " protocol errors, %" PRIu64
		       " other disconnects, %.1f s, %.0f requests/s\n",
		       st.connections, st.requests, st.fds, st.errors, st.eofs, t,
		       t > 0 ? (double)st.requests / t : 0.0);
	}
	if (rc) {
		printf("wlseal-fuzz: FAIL after connection %" PRIu64 ": %s\n", i, why);
		printf("wlseal-fuzz: reproduce: wlseal-fuzz --seed=%" PRIu64
		       " --first=%" PRIu64 " --connections=1\n", o.seed, i);
		return 1;
	}
	printf("wlseal-fuzz: PASS seed=%" PRIu64 "\n", o.seed);
	return 0;
}
