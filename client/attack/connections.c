/* SPDX-License-Identifier: MIT */
/*
 * connections.c - connections: many of them, idle, half-sent or coming
 * and going, to lock every new client out of the compositor or to fill
 * its log and its CPU.
 *
 * Each connection costs the compositor two fds and its maker one, plus
 * whatever fds it parks in the compositor with a message that never
 * completes. The attacker's connections are raw sockets: a wl_display
 * costs the attacker memory and adds nothing the compositor would see.
 * Every scenario maps a window on its main connection first (a window on
 * screen is never evicted to make room), and closes all its other
 * connections before it returns.
 *
 * The compositor under test runs under a 4096-fd table
 * (tests/attack/run-scenario), a VM's default, whatever the host's; the
 * attacker raises its own limit to its hard one.
 */
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define ATT_CATEGORY ATT_CAT_CONNECTIONS
#include "scenario.h"

/* The compositor may use at most this much CPU time while the attack's
 * connections sit idle for IDLE_MS: accepting must not spin. */
#define IDLE_MS 1000
#define IDLE_CPU_MAX_MS 500

/* Open fds of @pid (same user: readable), -1 if unreadable. */
static int compositor_fds(struct attack *a)
{
	char path[64];
	struct dirent *e;
	int n = 0;
	DIR *d;

	if (!a->compositor_pid)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/fd", (int)a->compositor_pid);
	d = opendir(path);
	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/* The compositor's CPU time (user + system) in ms, -1 if unreadable. */
static long long compositor_cpu_ms(struct attack *a)
{
	char path[64], buf[1024], *p;
	unsigned long long ut, st;
	size_t n;
	FILE *f;

	if (!a->compositor_pid)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)a->compositor_pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	/* After the name: state (3), ..., utime (14), stime (15). */
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			 &ut, &st) != 2)
		return -1;
	return (long long)((ut + st) * 1000 / (unsigned long long)sysconf(_SC_CLK_TCK));
}

/*
 * A connection to the compositor's socket, not a wl_display: -1 with
 * errno when connect() fails (non-blocking: EAGAIN when its backlog is
 * full; blocking: waits for room at most 5 s).
 */
static int raw_connect(bool nonblock)
{
	const char *dir = getenv("XDG_RUNTIME_DIR");
	const char *name = getenv("WAYLAND_DISPLAY");
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	struct timeval tv = { .tv_sec = 5 };
	int fd, err;

	if (!name)
		name = "wayland-0";
	if (name[0] == '/')
		snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", name);
	else
		snprintf(addr.sun_path, sizeof(addr.sun_path), "%s/%s",
			 dir ? dir : "", name);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC |
			     (nonblock ? SOCK_NONBLOCK : 0), 0);
	if (fd < 0)
		return -1;
	/* A unix socket's blocking connect() waits up to SO_SNDTIMEO. */
	if (!nonblock)
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

/* wl_display.sync(new id 2): the compositor answers a live client. */
static void send_sync(int fd)
{
	uint32_t msg[3] = { 1, (12u << 16) | 0u, 2 };

	(void)!send(fd, msg, sizeof(msg), MSG_DONTWAIT | MSG_NOSIGNAL);
}

/* The attacker's connections, and what became of them. */
struct herd {
	int *fds;
	int n, cap;
	int opened, evicted, refused, closed;
	char said[160];		/* the first error text the compositor sent */
};

static bool herd_add(struct herd *h, int fd)
{
	if (h->n == h->cap) {
		int cap = h->cap ? h->cap * 2 : 256;
		int *grown = realloc(h->fds, sizeof(*grown) * (size_t)cap);

		if (!grown)
			return false;
		h->fds = grown;
		h->cap = cap;
	}
	h->fds[h->n++] = fd;
	h->opened++;
	return true;
}

/* What came on a connection: 1 when it is over (an error, or the end),
 * with the counts updated; 0 while it lives. */
static int herd_read(struct herd *h, int fd)
{
	uint32_t words[128];	/* messages are whole words */
	uint8_t *buf = (uint8_t *)words;
	size_t len = 0;
	ssize_t r;
	bool end = false;

	while (len < sizeof(words)) {
		r = recv(fd, buf + len, sizeof(words) - len, MSG_DONTWAIT);
		if (r > 0) {
			len += (size_t)r;
			continue;
		}
		end = r == 0 || (errno != EAGAIN && errno != EINTR);
		break;
	}
	/* wl_display.error: object 1, opcode 0; object, code, string. */
	for (size_t at = 0; at + 8 <= len;) {
		uint32_t *m = &words[at / 4];
		size_t size = m[1] >> 16;

		if (size < 8 || at + size > len)
			break;
		if (m[0] == 1 && (m[1] & 0xffff) == 0 && size > 20) {
			const char *text = (const char *)&m[5];
			size_t tlen = strnlen(text, size - 20);

			if (!h->said[0])
				snprintf(h->said, sizeof(h->said), "%.*s",
					 (int)tlen, text);
			if (!strncmp(text, "refused", 7))
				h->refused++;
			else
				h->evicted++;
			return 1;
		}
		at += size;
	}
	if (end)
		h->closed++;
	return end;
}

/* Reads every connection that has something to say; closes the ones the
 * compositor ended. */
static void herd_reap(struct herd *h)
{
	struct pollfd *p = calloc((size_t)h->n, sizeof(*p));
	int kept = 0;

	if (!p)
		return;
	for (int i = 0; i < h->n; i++)
		p[i] = (struct pollfd){ .fd = h->fds[i], .events = POLLIN };
	if (poll(p, (nfds_t)h->n, 0) > 0) {
		for (int i = 0; i < h->n; i++) {
			if ((p[i].revents & (POLLIN | POLLHUP | POLLERR)) &&
			    herd_read(h, h->fds[i])) {
				close(h->fds[i]);
				h->fds[i] = -1;
			}
		}
	}
	for (int i = 0; i < h->n; i++)
		if (h->fds[i] >= 0)
			h->fds[kept++] = h->fds[i];
	h->n = kept;
	free(p);
}

static void herd_close(struct herd *h)
{
	for (int i = 0; i < h->n; i++)
		close(h->fds[i]);
	free(h->fds);
	h->fds = NULL;
	h->n = h->cap = 0;
}

/* A window on the main connection: never evicted for the attack's own
 * connections. False (and the outcome says why) when it cannot be had. */
static bool map_main(struct attack *a, struct outcome *o)
{
	struct wl_buffer *buf = NULL;
	int fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);

	if (fd < 0)
		return false;
	att_show_fd(a, fd, ATT_SIZE, 0, 1, &buf);
	close(fd);
	if (wl_display_get_error(a->display) || !buf) {
		att_fail_setup(o, "the main connection could not show a window");
		return false;
	}
	return true;
}

/*
 * With the attack's connections still open: the compositor settles to at
 * most IDLE_CPU_MAX_MS of CPU in IDLE_MS (asserted: accept() must not
 * spin), and a fresh well-behaved client gets its first frame (asserted).
 * Settling may take a few windows on a slow machine (the debug kernel
 * under TCG still tears down the evicted connections); a spin never
 * settles, so up to SETTLE_WINDOWS windows are watched, and it is a
 * failure only when every one of them was busy.
 */
#define SETTLE_WINDOWS 20

static void while_they_stay(struct attack *a, struct outcome *o)
{
	long long cpu0 = compositor_cpu_ms(a), cpu = -1;
	char why[64] = "";
	int worst = 0, fd, w;

	for (w = 1; w <= SETTLE_WINDOWS && cpu0 >= 0; w++) {
		usleep(IDLE_MS * 1000);
		cpu = compositor_cpu_ms(a);
		if (cpu < 0 || cpu - cpu0 <= IDLE_CPU_MAX_MS)
			break;
		cpu0 = cpu;
	}
	if (cpu0 >= 0 && cpu >= 0) {
		att_note(o, "compositor CPU %lld ms in %d ms with the connections idle (window %d)",
			 cpu - cpu0, IDLE_MS, w > SETTLE_WINDOWS ? SETTLE_WINDOWS : w);
		if (cpu - cpu0 > IDLE_CPU_MAX_MS)
			att_fail_setup(o, "the compositor spun: %lld ms of CPU in each of %d windows of %d ms",
				       cpu - cpu0, SETTLE_WINDOWS, IDLE_MS);
	}
	/* wl_display_connect() would block on a full backlog: ask first. */
	fd = raw_connect(true);
	if (fd < 0) {
		att_fail_setup(o, "a fresh client cannot connect: %s", strerror(errno));
		return;
	}
	close(fd);
	if (att_probe_frames(1, a->timeout_ms, why, sizeof(why), &worst) != 1)
		att_fail_setup(o, "a fresh well-behaved client got no first frame (%s)", why);
	else
		att_note(o, "a fresh well-behaved client got its first frame");
}

/* --- connection-flood ---------------------------------------------------------- */

#define FLOOD_CONNECTIONS 3000
/* connect() finding the backlog full this many times in a row: nobody
 * accepts any more (the compositor is locked out). */
#define FLOOD_STUCK 200

ATT_SCENARIO(run_connection_flood, "connection-flood",
	     "3000 idle connections (2 compositor fds each; 2048 filled a 4096-fd table): new ones evict the oldest that never mapped a window, accept() never spins, and with the flood still connected a fresh client gets its first frame (asserted)",
	     SURVIVES)
{
	struct herd h = { 0 };
	int before = compositor_fds(a), most = before, stuck = 0, n;

	att_raise_nofile();
	if (!map_main(a, o))
		return;
	while (h.opened < FLOOD_CONNECTIONS && stuck < FLOOD_STUCK) {
		int fd = raw_connect(true);

		if (fd < 0) {
			if (errno != EAGAIN) {
				att_note(o, "connect: %s", strerror(errno));
				break;
			}
			stuck++;
			usleep(1000);
			herd_reap(&h);
			continue;
		}
		stuck = 0;
		send_sync(fd);
		if (!herd_add(&h, fd)) {
			close(fd);
			break;
		}
		if (h.opened % 100 == 0) {
			herd_reap(&h);
			n = compositor_fds(a);
			most = n > most ? n : most;
		}
	}
	/* The compositor has seen them all once our own roundtrip returns. */
	att_roundtrip(a);
	herd_reap(&h);
	att_note(o, "%d connections: %d evicted, %d refused, %d closed, %d open%s; compositor fds %d before, at most %d",
		 h.opened, h.evicted, h.refused, h.closed, h.n,
		 stuck >= FLOOD_STUCK ? " (backlog full: not accepting)" : "",
		 before, most);
	if (h.said[0])
		att_note(o, "compositor said: %s", h.said);
	while_they_stay(a, o);
	herd_close(&h);
}

/* --- half-message-fds ---------------------------------------------------------- */

#define HALF_CONNECTIONS 400
#define HALF_FDS 28		/* libwayland-client's MAX_FDS_OUT */

/* One byte of a message that never completes, with @n copies of @efd. */
static int send_half(int sock, int efd, int n)
{
	uint8_t byte = 1;
	char control[CMSG_SPACE(sizeof(int) * HALF_FDS)];
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = control,
			     .msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)n) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
	int *fds = (int *)CMSG_DATA(cm);

	memset(control, 0, sizeof(control));
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)n);
	for (int i = 0; i < n; i++)
		fds[i] = efd;
	return sendmsg(sock, &mh, MSG_NOSIGNAL | MSG_DONTWAIT) == 1 ? 0 : -1;
}

ATT_SCENARIO(run_half_message_fds, "half-message-fds",
	     "400 connections each send 1 byte of a message with 28 fds and never complete it (within the fd guard's 28; 140 of them filled a 4096-fd table): the parked fds count against the connections' budget and such connections are evicted first; with them connected a fresh client gets its first frame (asserted)",
	     SURVIVES)
{
	struct herd h = { 0 };
	int efd = eventfd(0, EFD_CLOEXEC), stuck = 0, n;
	int before = compositor_fds(a), most = before;

	if (efd < 0) {
		att_fail_setup(o, "eventfd: %s", strerror(errno));
		return;
	}
	att_raise_nofile();
	if (!map_main(a, o)) {
		close(efd);
		return;
	}
	while (h.opened < HALF_CONNECTIONS && stuck < FLOOD_STUCK) {
		int fd = raw_connect(true);

		if (fd < 0) {
			if (errno != EAGAIN) {
				att_note(o, "connect: %s", strerror(errno));
				break;
			}
			stuck++;
			usleep(1000);
			herd_reap(&h);
			continue;
		}
		stuck = 0;
		if (send_half(fd, efd, HALF_FDS) != 0 || !herd_add(&h, fd)) {
			close(fd);
			break;
		}
		if (h.opened % 10 == 0) {
			/* Let the compositor read them before more come. */
			att_roundtrip(a);
			herd_reap(&h);
			n = compositor_fds(a);
			most = n > most ? n : most;
		}
	}
	close(efd);
	att_roundtrip(a);
	herd_reap(&h);
	att_note(o, "%d connections with %d fds each: %d evicted, %d refused, %d closed, %d open%s; compositor fds %d before, at most %d",
		 h.opened, HALF_FDS, h.evicted, h.refused, h.closed, h.n,
		 stuck >= FLOOD_STUCK ? " (backlog full: not accepting)" : "",
		 before, most);
	if (h.said[0])
		att_note(o, "compositor said: %s", h.said);
	while_they_stay(a, o);
	herd_close(&h);
}

/* --- connection-churn ---------------------------------------------------------- */

#define CHURN_CONNECTIONS 5000

/*
 * Connect, ask for a sync, close: thousands of times, as fast as the
 * compositor takes them (a blocking connect() waits while its backlog is
 * full, at most a few seconds). Every connection was two log lines; now
 * a few dozen a second are logged with a count of the rest:
 * tests/attack/run-scenario checks the size of the compositor's log.
 * The compositor's CPU time for all of it is noted.
 */
ATT_SCENARIO(run_connection_churn, "connection-churn",
	     "5000 x {connect, wl_display.sync, close} as fast as accepted: connect and disconnect lines are rate-limited (the log's size is checked by the test), the compositor keeps serving",
	     SURVIVES)
{
	long long cpu0 = compositor_cpu_ms(a), cpu;
	int64_t t0 = att_now_ms();
	int done = 0;

	for (; done < CHURN_CONNECTIONS; done++) {
		int fd = raw_connect(false);

		if (fd < 0) {
			att_note(o, "connect %d: %s", done, strerror(errno));
			break;
		}
		send_sync(fd);
		close(fd);
	}
	att_roundtrip(a);
	cpu = compositor_cpu_ms(a);
	att_note(o, "%d connections made and closed in %lld ms", done,
		 (long long)(att_now_ms() - t0));
	if (cpu0 >= 0 && cpu >= 0)
		att_note(o, "compositor CPU %lld ms", cpu - cpu0);
	if (done < CHURN_CONNECTIONS)
		att_fail_setup(o, "the compositor stopped taking connections after %d", done);
}
