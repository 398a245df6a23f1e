/* SPDX-License-Identifier: MIT */
/*
 * fd-guard.c - a file descriptor a client sends must be taken by a
 * request, or the client goes.
 *
 * libwayland-server reads every fd that comes with a client's bytes into
 * the connection's queue (up to 1024) and hands them out, in order, to
 * requests with an fd argument (wl_shm.create_pool, the extension's
 * create_pool, wl_data_offer.receive). Fds that come with requests that
 * take none (wl_surface.commit with 28 fds attached) are never handed
 * out: they stay open in the compositor until the connection closes.
 * They cost the sender nothing (one eventfd, its own copies closed at
 * once), and five connections fill a 4096-fd table: accept() fails for
 * every new client, pools and keymaps cannot be had. That is a lock-out
 * through the fd-passing that shared memory rides on.
 *
 * The count, per connection: recvmsg() (interpose.c, below) is the C library's, as
 * libwayland-server calls it (the executable's definition interposes on
 * the shared library's), and adds the fds each read brings; the protocol
 * logger, called for every request libwayland dispatches, adds those the
 * request takes ('h' in its signature). Once the requests of a read are
 * dispatched (an idle callback of the event loop, which runs after the
 * sources), a connection may still hold only the fds of a message whose
 * bytes have not all arrived yet: at most one sendmsg's worth
 * (libwayland-client's MAX_FDS_OUT, 28; a unix stream read never merges
 * two messages' fds). More, and the client is disconnected with an error
 * naming the count, and libwayland closes every fd it held.
 *
 * What a connection holds within that limit is reported to admission
 * control (account/connections.c) at the same moment, and again when a
 * request takes some: fds held for long are a message that never
 * completes, and they count against the connections' share of the table.
 *
 * The two C library functions are defined in compositor/interpose.c,
 * linked into wlseal-compositor only, which hands them to
 * wlseal_fd_guard_recvmsg() and _sendmsg() below. A program without them
 * (the WLCS module, tests/wlcs/; wlseal_options.interposed false) has
 * neither guard of this file on. A module loaded with dlopen() does
 * not interpose: libwayland-server's calls are bound in the global scope
 * first, where the C library's definitions are (cpu.c has the lookup
 * order), so these would never see the compositor's reads. Were they
 * made to (a preload, RTLD_GLOBAL), they would also run for the WLCS
 * clients' own connections in the same process, on other threads, and
 * count into tables only the compositor's thread may touch. Counting
 * only the fds requests take, without those received, would be wrong
 * the other way (a negative count held), so such a program counts
 * neither: its clients are the suite's, not attackers, and the guards
 * are tested on the executable (tests/attack/). What stays is the
 * protocol logger, which charges the CPU of each request to its client
 * (cpu.c), as the read did.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/sockios.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <wayland-server-core.h>

#include "cpu.h"
#include "connections.h"
#include "fd-guard.h"
#include "log.h"

struct guarded {
	struct wl_client *client;	/* NULL: not a client connection */
	uint64_t received, taken;
	struct wl_listener destroy;
	bool checking;			/* in the checking list already */
	struct wl_list check_link;	/* checking */
	/* Fds we sent that the client has not read yet: counted from the
	 * last moment its socket was seen empty (sendmsg below). */
	uint64_t unread_sent;
};

static struct wl_display *guard_display;
static struct guarded **by_fd;		/* indexed by the socket's fd */
static int n_by_fd;
static struct wl_protocol_logger *logger;
static struct wl_listener client_created;
static struct wl_event_source *idle;
/* interpose.c hands us the reads (wlseal_fd_guard_init). */
static bool interposed;
/* Connections that received fds since the last check: the check after
 * dispatch looks at them only, never at every connection. */
static struct wl_list checking = { &checking, &checking };

static struct guarded *lookup(int fd)
{
	return fd >= 0 && fd < n_by_fd ? by_fd[fd] : NULL;
}

static void check_all(void *data);

/* Look at @g once the requests read so far are handled. */
static void watch(struct guarded *g)
{
	if (g->checking)
		return;
	g->checking = true;
	wl_list_insert(checking.prev, &g->check_link);
	if (!idle)
		idle = wl_event_loop_add_idle(
			wl_display_get_event_loop(guard_display), check_all, NULL);
}

static void check_all(void *data)
{
	(void)data;
	idle = NULL;
	/* One at a time from the head: handling one may destroy other
	 * clients (an eviction), whose entries then leave the list. */
	while (!wl_list_empty(&checking)) {
		struct guarded *g = wl_container_of(checking.next, g, check_link);
		uint64_t held = g->received - g->taken;

		if (g->unread_sent > WLSEAL_FDS_UNREAD_MAX) {
			wl_list_remove(&g->check_link);
			wl_list_init(&g->check_link);
			g->checking = false;
			wlseal_log("client pid=%d left %llu file descriptors we sent unread in its socket (at most %d): disconnected",
				   (int)wlseal_client_pid(g->client),
				   (unsigned long long)g->unread_sent,
				   WLSEAL_FDS_UNREAD_MAX);
			wl_client_post_implementation_error(g->client,
				"%llu file descriptors sent to you are unread in your socket (at most %d)",
				(unsigned long long)g->unread_sent,
				WLSEAL_FDS_UNREAD_MAX);
			wl_client_flush(g->client);
			wl_client_destroy(g->client);	/* frees g */
			continue;
		}

		wl_list_remove(&g->check_link);
		wl_list_init(&g->check_link);
		g->checking = false;
		if (held <= WLSEAL_FDS_WAITING_MAX) {
			/* May evict clients, this one too: g is not used
			 * after it. */
			wlseal_connections_parked(g->client, (unsigned int)held);
			continue;
		}
		wlseal_log("client pid=%d sent %llu file descriptors with requests that take none (at most %d may wait for their request): disconnected",
			   (int)wlseal_client_pid(g->client),
			   (unsigned long long)held, WLSEAL_FDS_WAITING_MAX);
		wl_client_post_implementation_error(g->client,
			"%llu file descriptors sent with requests that take none",
			(unsigned long long)held);
		wl_client_flush(g->client);
		wl_client_destroy(g->client);	/* frees g */
	}
}

/* The C library's recvmsg() as interpose.c hands it on, counting the
 * fds of client connections. */
ssize_t wlseal_fd_guard_recvmsg(int fd, struct msghdr *msg, int flags)
{
	struct guarded *g = lookup(fd);
	struct cmsghdr *cm;
	uint64_t fds = 0;
	ssize_t n;

	struct iovec iov[4];
	struct msghdr paced;

	/* The read and the requests that follow are this client's turn. */
	if (g) {
		wlseal_cpu_dispatch(g->client);
		/* No more than its pace allows (cpu.c, read pacing): the
		 * rest stays in the socket for a later turn. */
		if (msg->msg_iovlen <= 4) {
			size_t cap = wlseal_cpu_read_cap(g->client), len;

			paced = *msg;
			paced.msg_iov = iov;
			for (size_t i = 0; i < msg->msg_iovlen; i++) {
				len = msg->msg_iov[i].iov_len;
				iov[i].iov_base = msg->msg_iov[i].iov_base;
				iov[i].iov_len = len < cap ? len : cap;
				cap -= iov[i].iov_len;
			}
			n = syscall(SYS_recvmsg, fd, &paced, flags);
			msg->msg_flags = paced.msg_flags;
			msg->msg_controllen = paced.msg_controllen;
			goto read;
		}
	}
	n = syscall(SYS_recvmsg, fd, msg, flags);
read:
	if (n > 0 && g)
		wlseal_cpu_read_done(g->client, (size_t)n);
	if (n <= 0 || !g || !msg->msg_controllen)
		return n;
	for (cm = CMSG_FIRSTHDR(msg); cm; cm = CMSG_NXTHDR(msg, cm))
		if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS)
			fds += (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
	if (!fds)
		return n;
	g->received += fds;
	watch(g);
	return n;
}

/*
 * The C library's sendmsg(), as libwayland-server flushes a client's
 * events: the fds in flight to a client that does not read.
 *
 * An fd passed over a unix socket stays open, and is charged by the
 * kernel to the sender's user (unix_inflight: past RLIMIT_NOFILE of them
 * every later send with an fd fails with ETOOMANYREFS), until the peer
 * reads it. A client that asks for a keymap thousands of times and never
 * reads would thus make the compositor hold thousands of files it cannot
 * close, and then refuse every other client its keymap. The kernel tells
 * how much of what we sent is still queued (SIOCOUTQ): when nothing is,
 * every fd we sent was read, and the count starts again; otherwise the
 * fds of every send add up, and past WLSEAL_FDS_UNREAD_MAX the client is
 * disconnected once the current dispatch is done (check_all), with an
 * error that says why. An honest client reads its socket whenever it is
 * readable and gets a few fds in its life (a keymap per keyboard).
 */
ssize_t wlseal_fd_guard_sendmsg(int fd, const struct msghdr *msg, int flags)
{
	struct guarded *g = lookup(fd);
	struct cmsghdr *cm;
	uint64_t fds = 0;
	int queued = 0;
	ssize_t n;

	if (g && msg->msg_controllen) {
		for (cm = CMSG_FIRSTHDR(msg); cm;
		     cm = CMSG_NXTHDR((struct msghdr *)msg, cm))
			if (cm->cmsg_level == SOL_SOCKET &&
			    cm->cmsg_type == SCM_RIGHTS)
				fds += (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		if (fds && ioctl(fd, SIOCOUTQ, &queued) == 0 && queued == 0)
			g->unread_sent = 0;
	}
	n = syscall(SYS_sendmsg, fd, msg, flags);
	if (n > 0 && fds) {
		g->unread_sent += fds;
		if (g->unread_sent > WLSEAL_FDS_UNREAD_MAX)
			watch(g);
	}
	return n;
}

static void log_request(void *data, enum wl_protocol_logger_type type,
			const struct wl_protocol_logger_message *m)
{
	struct guarded *g;
	const char *sig;

	if (type != WL_PROTOCOL_LOGGER_REQUEST || !m->message->signature)
		return;
	if (!interposed) {
		/* No read is seen (above): the turn is the client's from
		 * its first request on. */
		wlseal_cpu_dispatch(wl_resource_get_client(m->resource));
		return;
	}
	for (sig = m->message->signature; *sig; sig++) {
		if (*sig != 'h')
			continue;
		g = lookup(wl_client_get_fd(wl_resource_get_client(m->resource)));
		if (g) {
			g->taken++;
			watch(g);
		}
	}
}

static void guarded_destroy(struct wl_listener *l, void *data)
{
	struct guarded *g = wl_container_of(l, g, destroy);
	int fd = wl_client_get_fd(g->client);

	if (lookup(fd) == g)
		by_fd[fd] = NULL;
	wl_list_remove(&g->check_link);
	wl_list_remove(&g->destroy.link);
	free(g);
}

static void on_client_created(struct wl_listener *l, void *data)
{
	struct wl_client *client = data;
	int fd = wl_client_get_fd(client);
	struct guarded *g;

	if (fd < 0)
		return;
	if (fd >= n_by_fd) {
		int n = fd < 64 ? 64 : fd * 2;
		struct guarded **grown = realloc(by_fd, sizeof(*by_fd) * (size_t)n);

		if (!grown)
			return;	/* unguarded: what the budgets allow still holds */
		memset(grown + n_by_fd, 0, sizeof(*by_fd) * (size_t)(n - n_by_fd));
		by_fd = grown;
		n_by_fd = n;
	}
	g = calloc(1, sizeof(*g));
	if (!g)
		return;
	g->client = client;
	wl_list_init(&g->check_link);
	g->destroy.notify = guarded_destroy;
	wl_client_add_destroy_listener(client, &g->destroy);
	by_fd[fd] = g;
}

bool wlseal_fd_guard_init(struct wl_display *display, bool reads_seen)
{
	guard_display = display;
	interposed = reads_seen;
	logger = wl_display_add_protocol_logger(display, log_request, NULL);
	if (!logger)
		return false;
	client_created.notify = on_client_created;
	wl_display_add_client_created_listener(display, &client_created);
	return true;
}

void wlseal_fd_guard_finish(void)
{
	if (!guard_display)
		return;
	guard_display = NULL;
	if (idle)
		wl_event_source_remove(idle);
	idle = NULL;
	if (logger)
		wl_protocol_logger_destroy(logger);
	logger = NULL;
	wl_list_remove(&client_created.link);
	free(by_fd);
	by_fd = NULL;
	n_by_fd = 0;
}
