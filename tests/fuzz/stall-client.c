/* SPDX-License-Identifier: MIT */
/*
 * stall-client.c - one hostile connection of wlseal-fuzz --stall: raw
 * wire requests gathered into bursts (one burst is what the compositor
 * reads at once: its requests are one dispatch), each sent with a
 * wl_display.sync and measured by the compositor thread's CPU time from
 * before the send to the sync's answer; the events that matter read back
 * (errors, globals, configures, pings, frame and feedback answers); and
 * the standing state every connection keeps at its budgets: a mapped
 * toplevel, 1024 subsurfaces with viewports (a chain of 30 nested and
 * the rest side by side), 64 wl_output binds, one sealed pool with
 * buffers from 2x2 to 2048x2048.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "stall.h"
#include "viewporter-client-protocol.h"
#include "wlseal-seals.h"

/* Premultiplied, nearly transparent: blends, never occludes. */
#define TRANSLUCENT 0x20101820u

uint64_t stall_cpu_ns(struct stall_env *e)
{
	char buf[128];
	ssize_t n = pread(e->stat_fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return 0;
	buf[n] = 0;
	return strtoull(buf, NULL, 10);
}

static void set_kind(struct sclient *c, uint32_t id, int kind)
{
	if (id >= c->kind_len) {
		size_t len = c->kind_len ? c->kind_len : 4096;
		uint8_t *k;

		while (len <= id)
			len *= 2;
		k = realloc(c->kind, len);
		if (!k)
			abort();
		memset(k + c->kind_len, 0, len - c->kind_len);
		c->kind = k;
		c->kind_len = len;
	}
	c->kind[id] = (uint8_t)kind;
}

static int kind_of(const struct sclient *c, uint32_t id)
{
	return id < c->kind_len ? c->kind[id] : K_NONE;
}

/* ---- events ---- */

static void handle(struct sclient *c, const uint32_t *p, size_t size)
{
	uint32_t id = p[0], opcode = p[1] & 0xffff;
	size_t words = size / 4;

	if (id == 1) {
		if (opcode == 0 && words >= 6) {
			uint32_t len = p[4];
			size_t max = (words - 5) * 4;

			snprintf(c->error, sizeof(c->error), "error on object %u code %u: %.*s",
				 p[2], p[3], (int)(len && len <= max ? len - 1 : 0),
				 (const char *)&p[5]);
			c->dead = true;
		}
		return;
	}
	switch (kind_of(c, id)) {
	case K_REGISTRY:
		if (opcode == 0 && words >= 5 &&
		    c->n_globals < (int)(sizeof(c->globals) / sizeof(c->globals[0]))) {
			uint32_t len = p[3];

			if (len == 0 || len > 47 || words < 4 + (len + 3) / 4 + 1)
				return;
			c->globals[c->n_globals].name = p[2];
			memcpy(c->globals[c->n_globals].iface, &p[4], len);
			c->globals[c->n_globals].iface[len - 1] = 0;
			c->globals[c->n_globals].version = p[4 + (len + 3) / 4];
			c->n_globals++;
		}
		break;
	case K_SYNC:
		if (id == c->sync_id)
			c->sync_done = true;
		break;
	case K_FRAME:
		c->frames_pending--;
		break;
	case K_FEEDBACK:
		if (opcode == 1 || opcode == 2)	/* presented, discarded */
			c->feedbacks_pending--;
		break;
	case K_XDG_SURFACE:
		if (opcode == 0 && words >= 3 && id == c->xdg_surface) {
			c->configure_serial = p[2];
			c->configured = true;
			c->need_ack = true;
		}
		break;
	case K_WM_BASE:
		if (opcode == 0 && words >= 3)
			c->ping_serial = p[2];
		break;
	}
}

/* Read what there is; false on EOF. */
static bool read_events(struct sclient *c)
{
	char cmsg_buf[CMSG_SPACE(sizeof(int) * MAX_FDS)];
	struct iovec iov = { c->in + c->in_len, sizeof(c->in) - c->in_len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = cmsg_buf,
			     .msg_controllen = sizeof(cmsg_buf) };
	ssize_t n = recvmsg(c->fd, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return true;
	/* A failed recvmsg() (ECONNRESET when the compositor cut the
	 * connection) leaves the control buffer as it was, uninitialized:
	 * walking it closed whatever fds its garbage named, stdout among
	 * them. Only a message received carries fds. */
	if (n < 0)
		mh.msg_controllen = 0;
	for (struct cmsghdr *cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm)) {
		if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS) {
			size_t k = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
			int fds[MAX_FDS];

			if (k > MAX_FDS)
				k = MAX_FDS;
			memcpy(fds, CMSG_DATA(cm), k * sizeof(int));
			for (size_t i = 0; i < k; i++)
				close(fds[i]);
		}
	}
	if (n <= 0) {
		c->dead = true;
		if (!c->error[0])
			snprintf(c->error, sizeof(c->error), "disconnected");
		return false;
	}
	c->in_len += (size_t)n;
	for (;;) {
		uint32_t words[sizeof(c->in) / 4], bad;
		long n = wire_event_size(c->in, c->in_len, sizeof(c->in), &bad);
		size_t size = (size_t)n;

		if (n < 0) {
			snprintf(c->error, sizeof(c->error), "bad event size %u", bad);
			c->dead = true;
			return false;
		}
		if (n == 0)
			break;
		memcpy(words, c->in, size);
		handle(c, words, size);
		memmove(c->in, c->in + size, c->in_len - size);
		c->in_len -= size;
	}
	return true;
}

void sc_pump_all(struct stall_env *e, int timeout_ms)
{
	struct pollfd p[MAX_CLIENTS];
	int n = 0, idx[MAX_CLIENTS];

	for (int i = 0; i < e->n_clients; i++) {
		if (e->clients[i].fd < 0 || e->clients[i].dead)
			continue;
		p[n] = (struct pollfd){ .fd = e->clients[i].fd, .events = POLLIN };
		idx[n++] = i;
	}
	if (poll(p, (nfds_t)n, timeout_ms) <= 0)
		return;
	for (int i = 0; i < n; i++)
		if (p[i].revents)
			read_events(&e->clients[idx[i]]);
}

/* ---- requests ---- */

static void put(struct sclient *c, const void *data, size_t n)
{
	memcpy(c->out + c->out_len, data, n);
	c->out_len += n;
}

static void put_u32(struct sclient *c, uint32_t v)
{
	put(c, &v, 4);
}

static void send_burst(struct sclient *c)
{
	char cmsg_buf[CMSG_SPACE(sizeof(int) * MAX_FDS)];
	struct iovec iov;
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	size_t off = 0;

	if (c->n_fds) {
		struct cmsghdr *cm;

		memset(cmsg_buf, 0, sizeof(cmsg_buf));
		mh.msg_control = cmsg_buf;
		mh.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)c->n_fds);
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)c->n_fds);
		memcpy(CMSG_DATA(cm), c->fds, sizeof(int) * (size_t)c->n_fds);
	}
	while (off < c->out_len && !c->dead) {
		ssize_t n;

		iov.iov_base = c->out + off;
		iov.iov_len = c->out_len - off;
		n = sendmsg(c->fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0 && (errno == EINTR || errno == EAGAIN)) {
			struct pollfd p = { .fd = c->fd, .events = POLLOUT | POLLIN };

			if (poll(&p, 1, 1000) > 0 && (p.revents & POLLIN))
				read_events(c);
			continue;
		}
		if (n <= 0) {
			c->dead = true;
			break;
		}
		off += (size_t)n;
		mh.msg_control = NULL;
		mh.msg_controllen = 0;
	}
	for (int i = 0; i < c->n_fds; i++)
		close(c->fds[i]);
	c->n_fds = 0;
	c->out_len = 0;
}

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int sc_flush(struct stall_env *e, struct sclient *c)
{
	uint64_t t0, spent;
	double deadline;

	if (c->dead)
		return -1;
	c->sync_done = false;
	c->sync_id = c->next_id++;
	set_kind(c, c->sync_id, K_SYNC);
	put_u32(c, 1);
	put_u32(c, (12u << 16) | WL_DISPLAY_SYNC);
	put_u32(c, c->sync_id);
	c->requests++;
	/* What the compositor has to do for others first is not this
	 * burst's: let it settle, then measure. */
	sc_pump_all(e, 0);
	t0 = stall_cpu_ns(e);
	send_burst(c);
	deadline = now_ms() + e->timeout_ms;
	while (!c->sync_done && !c->dead && now_ms() < deadline)
		sc_pump_all(e, 100);
	spent = stall_cpu_ns(e) - t0;
	if (spent > e->window_worst)
		e->window_worst = spent;
	e->window_total += spent;
	e->windows++;
	if (c->dead)
		return -1;
	if (!c->sync_done) {
		snprintf(e->why, sizeof(e->why), "connection %d: wl_display.sync not answered within %d ms",
			 (int)(c - e->clients), e->timeout_ms);
		return -2;
	}
	return 0;
}

/* Room for one more message of @size with @fds fds (and the sync). */
static void make_room(struct sclient *c, size_t size, int fds)
{
	if (c->out_len + size + 12 > MAX_MSG || c->n_fds + fds > MAX_FDS) {
		int rc = sc_flush(c->env, c);

		if (rc == -2)
			c->env->stalled = true;
	}
}

uint32_t sc_req(struct sclient *c, uint32_t id, uint32_t opcode,
		const char *fmt, ...)
{
	va_list ap;
	size_t size = 8;
	int fds = 0;
	uint32_t created = 0;

	va_start(ap, fmt);
	for (const char *f = fmt; *f; f++) {
		if (*f == 's') {
			const char *s = va_arg(ap, const char *);

			size += 4 + (s ? (strlen(s) + 1 + 3) & ~(size_t)3 : 0);
		} else if (*f == 'h') {
			(void)va_arg(ap, int);
			fds++;
		} else {
			(void)va_arg(ap, int);
			size += 4;
		}
	}
	va_end(ap);
	if (size > MAX_MSG - 12)
		abort();	/* a bug of ours: never sent */
	make_room(c, size, fds);
	if (c->dead) {
		/* not sent: the fds are still ours to close */
		va_start(ap, fmt);
		for (const char *f = fmt; *f; f++) {
			if (*f == 's')
				(void)va_arg(ap, const char *);
			else if (*f == 'h')
				close(va_arg(ap, int));
			else
				(void)va_arg(ap, int);
		}
		va_end(ap);
		return 0;
	}
	put_u32(c, id);
	put_u32(c, (uint32_t)(size << 16) | opcode);
	va_start(ap, fmt);
	for (const char *f = fmt; *f; f++) {
		switch (*f) {
		case 's': {
			const char *s = va_arg(ap, const char *);
			uint32_t len = s ? (uint32_t)strlen(s) + 1 : 0;

			put_u32(c, len);
			if (len) {
				size_t pad = ((len + 3) & ~3u) - len;

				put(c, s, len);
				memset(c->out + c->out_len, 0, pad);
				c->out_len += pad;
			}
			break;
		}
		case 'h':
			c->fds[c->n_fds++] = va_arg(ap, int);
			break;
		case 'n':
			created = c->next_id++;
			set_kind(c, created, va_arg(ap, int));
			put_u32(c, created);
			break;
		default:
			put_u32(c, (uint32_t)va_arg(ap, int));
			break;
		}
	}
	va_end(ap);
	c->requests++;
	c->env->requests++;
	return created;
}

uint32_t sc_bind(struct sclient *c, const char *iface, uint32_t version,
		 int kind)
{
	for (int i = 0; i < c->n_globals; i++) {
		if (strcmp(c->globals[i].iface, iface))
			continue;
		if (version > c->globals[i].version)
			version = c->globals[i].version;
		return sc_req(c, c->registry, WL_REGISTRY_BIND, "usun",
			      (int)c->globals[i].name, iface, (int)version, kind);
	}
	return 0;
}

/* ---- the connection and its standing state ---- */

int sc_connect(struct stall_env *e, struct sclient *c)
{
	uint8_t *kind = c->kind;
	size_t kind_len = c->kind_len;

	*c = (struct sclient){ .env = e, .kind = kind, .kind_len = kind_len };
	if (c->kind)
		memset(c->kind, 0, c->kind_len);
	c->fd = connect_socket(e->socket);
	if (c->fd < 0) {
		c->dead = true;
		return -1;
	}
	fcntl(c->fd, F_SETFL, O_NONBLOCK);
	c->next_id = 2;
	c->registry = sc_req(c, 1, WL_DISPLAY_GET_REGISTRY, "n", K_REGISTRY);
	return sc_flush(e, c);
}

void sc_close(struct sclient *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->dead = true;
	for (int i = 0; i < c->n_fds; i++)
		close(c->fds[i]);
	c->n_fds = 0;
	c->out_len = 0;
}

/* The pool: one sealed memfd, every buffer side by side, filled so that
 * reading them faults in no new page. */
static int make_pool(struct stall_env *e, struct sclient *c)
{
	const int w[N_BUFS] = { 2, 256, e->out_w, 2048, 2 };
	const int h[N_BUFS] = { 2, 256, e->out_h, 2048, 8192 };
	size_t off[N_BUFS], size = 0;
	uint32_t *px;
	int fd;

	for (int i = 0; i < N_BUFS; i++) {
		off[i] = size;
		size += (size_t)w[i] * (size_t)h[i] * 4;
		c->buf_w[i] = w[i];
		c->buf_h[i] = h[i];
	}
	fd = wlseal_memfd_create_upstream("wlseal-fuzz-stall", size);
	if (fd < 0)
		return -1;
	px = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (px == MAP_FAILED) {
		close(fd);
		return -1;
	}
	for (size_t i = 0; i < size / 4; i++)
		px[i] = TRANSLUCENT;
	munmap(px, size);
	if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW) != 0) {
		close(fd);
		return -1;
	}
	c->pool = sc_req(c, c->shm, WL_SHM_CREATE_POOL, "nhi", K_OTHER, fd, (int)size);
	for (int i = 0; i < N_BUFS; i++)
		c->buffers[i] = sc_req(c, c->pool, WL_SHM_POOL_CREATE_BUFFER, "niiiiu",
				       K_OTHER, (int)off[i], w[i], h[i], w[i] * 4,
				       (int)WL_SHM_FORMAT_ARGB8888);
	return 0;
}

/* The index-th subsurface: a surface with a viewport and a small buffer,
 * under the toplevel or (the chain) under the one before. */
void sc_make_sub(struct sclient *c, int i)
{
	struct sub *s = &c->subs[i];
	uint32_t parent;

	s->parent = i > 0 && i < CHAIN ? i - 1 : -1;
	parent = s->parent < 0 ? c->surface : c->subs[s->parent].surface;
	s->surface = sc_req(c, c->compositor, WL_COMPOSITOR_CREATE_SURFACE, "n", K_OTHER);
	s->subsurface = sc_req(c, c->subcompositor, WL_SUBCOMPOSITOR_GET_SUBSURFACE,
			       "noo", K_OTHER, (int)s->surface, (int)parent);
	s->viewport = sc_req(c, c->viewporter, WP_VIEWPORTER_GET_VIEWPORT, "no",
			     K_OTHER, (int)s->surface);
	s->sync = true;
	s->buffer = BUF_SMALL;
	sc_req(c, s->surface, WL_SURFACE_ATTACH, "oii", (int)c->buffers[BUF_SMALL], 0, 0);
	sc_req(c, s->surface, WL_SURFACE_DAMAGE_BUFFER, "iiii", 0, 0, 2, 2);
	sc_req(c, s->subsurface, WL_SUBSURFACE_SET_POSITION, "ii",
	       (i * 37) % (c->env->out_w - 2), (i * 53) % (c->env->out_h - 2));
	sc_req(c, s->surface, WL_SURFACE_COMMIT, "");
}

void sc_ack(struct sclient *c)
{
	if (c->need_ack && c->xdg_surface) {
		sc_req(c, c->xdg_surface, XDG_SURFACE_ACK_CONFIGURE, "u",
		       (int)c->configure_serial);
		c->need_ack = false;
	}
	if (c->ping_serial) {
		sc_req(c, c->wm_base, XDG_WM_BASE_PONG, "u", (int)c->ping_serial);
		c->ping_serial = 0;
	}
}

int sc_setup(struct stall_env *e, struct sclient *c)
{
	int rc;

	c->compositor = sc_bind(c, "wl_compositor", 4, K_OTHER);
	c->subcompositor = sc_bind(c, "wl_subcompositor", 1, K_OTHER);
	c->shm = sc_bind(c, "wl_shm", 1, K_OTHER);
	c->wm_base = sc_bind(c, "xdg_wm_base", 3, K_WM_BASE);
	c->presentation = sc_bind(c, "wp_presentation", 1, K_OTHER);
	c->viewporter = sc_bind(c, "wp_viewporter", 1, K_OTHER);
	c->seat = sc_bind(c, "wl_seat", 7, K_OTHER);
	c->ddm = sc_bind(c, "wl_data_device_manager", 3, K_OTHER);
	c->decoration = sc_bind(c, "zxdg_decoration_manager_v1", 1, K_OTHER);
	if (!c->compositor || !c->subcompositor || !c->shm || !c->wm_base ||
	    !c->presentation || !c->viewporter) {
		snprintf(c->error, sizeof(c->error), "a global is missing");
		return -1;
	}
	for (c->n_outputs = 0; c->n_outputs < BUDGET_OUTPUTS; c->n_outputs++)
		c->outputs[c->n_outputs] = sc_bind(c, "wl_output", 4, K_OTHER);
	if (make_pool(e, c) != 0) {
		snprintf(c->error, sizeof(c->error), "pool: %s", strerror(errno));
		return -1;
	}
	c->surface = sc_req(c, c->compositor, WL_COMPOSITOR_CREATE_SURFACE, "n", K_OTHER);
	c->xdg_surface = sc_req(c, c->wm_base, XDG_WM_BASE_GET_XDG_SURFACE, "no",
				K_XDG_SURFACE, (int)c->surface);
	c->toplevel = sc_req(c, c->xdg_surface, XDG_SURFACE_GET_TOPLEVEL, "n", K_OTHER);
	sc_req(c, c->surface, WL_SURFACE_COMMIT, "");
	if ((rc = sc_flush(e, c)) != 0)
		return rc;
	if (!c->configured) {
		snprintf(c->error, sizeof(c->error), "no configure");
		return -1;
	}
	sc_ack(c);
	sc_req(c, c->surface, WL_SURFACE_ATTACH, "oii", (int)c->buffers[BUF_OUTPUT], 0, 0);
	sc_req(c, c->surface, WL_SURFACE_DAMAGE_BUFFER, "iiii", 0, 0, INT32_MAX, INT32_MAX);
	sc_req(c, c->surface, WL_SURFACE_COMMIT, "");
	for (c->n_subs = 0; c->n_subs < SUBS && !c->dead; c->n_subs++)
		sc_make_sub(c, c->n_subs);
	sc_req(c, c->surface, WL_SURFACE_COMMIT, "");
	return sc_flush(e, c);
}
