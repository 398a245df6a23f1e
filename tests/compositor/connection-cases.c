/* SPDX-License-Identifier: MIT */
/*
 * connection-cases.c - the compositor's own socket and admission control
 * (compositor/socket.c, compositor/account/connections.c): the lock and
 * a stale socket as libwayland has them, who --max-clients evicts and
 * when a connection is refused, and accept() on a full fd table.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test-compositor.h"

/* The compositor on the same socket as comp_start's, in the same
 * XDG_RUNTIME_DIR (comp_start set it for us). */
static void spawn_second(struct proc *p)
{
	char *argv[] = { (char *)bin_compositor(), "--backend=headless",
			 "--socket=wlseal-test", NULL };

	proc_spawn(p, argv);
}

static bool exists(const char *dir, const char *name)
{
	char path[160];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

void test_socket_lock(void)
{
	struct comp c;
	struct proc second;

	comp_start(&c, NULL);
	check(exists(c.dir, "wlseal-test") && exists(c.dir, "wlseal-test.lock"),
	      "the socket and its lock file exist");
	spawn_second(&second);
	if (!proc_wait_exit(&second, TIMEOUT_MS))
		fail("a second compositor on the same socket did not exit");
	check(WIFEXITED(second.status) && WEXITSTATUS(second.status) != 0 &&
	      proc_contains(&second, "is locked, another compositor serves it"),
	      "a second compositor on the same name refuses to start (status 0x%x)",
	      second.status);
	expect_alive(&c);
	comp_stop(&c);
	check(!exists(c.dir, "wlseal-test") && !exists(c.dir, "wlseal-test.lock"),
	      "socket and lock file removed at exit");
}

void test_socket_stale(void)
{
	struct comp c;
	struct proc next;
	struct raw raw;

	comp_start(&c, NULL);
	proc_kill(&c.p, SIGKILL);
	if (!proc_wait_exit(&c.p, TIMEOUT_MS))
		fail("the compositor did not die of SIGKILL");
	check(exists(c.dir, "wlseal-test"), "a killed compositor leaves its socket");
	spawn_second(&next);
	check(proc_wait(&next, NULL, "removed the stale socket", TIMEOUT_MS, NULL, 0) &&
	      proc_wait(&next, NULL, "ready WAYLAND_DISPLAY=wlseal-test", TIMEOUT_MS,
			NULL, 0),
	      "the next compositor removes the stale socket and starts");
	raw_connect(&raw);
	expect_accepted(&raw, "a client of the next compositor");
	raw_disconnect(&raw);
	proc_kill(&next, SIGTERM);
	check(proc_wait_exit(&next, TIMEOUT_MS) && WIFEXITED(next.status) &&
	      WEXITSTATUS(next.status) == 0, "it exits on SIGTERM");
}

/* A wlseal-client window; returns once the compositor mapped it. */
static void mapped_client(struct comp *c, struct proc *p)
{
	static const char *const args[] = { "--size=64x48", NULL };
	char needle[64];

	client_spawn(p, args);
	snprintf(needle, sizeof(needle), "mapped pid=%d toplevel", (int)p->pid);
	if (!proc_wait(&c->p, NULL, needle, TIMEOUT_MS, NULL, 0))
		fail("wlseal-client pid=%d never mapped its window", (int)p->pid);
}

/* @d ended with wl_display.error no_memory whose text holds @msg. */
static void expect_display_error(struct wl_display *d, const char *what,
				 const char *msg)
{
	const struct wl_interface *iface = NULL;
	uint32_t code, id;
	int err;

	last_client_log[0] = '\0';
	if (wl_display_roundtrip(d) >= 0)
		fail("%s: still connected", what);
	err = wl_display_get_error(d);
	code = wl_display_get_protocol_error(d, &iface, &id);
	check(err == ENOMEM && iface && !strcmp(iface->name, "wl_display") &&
	      code == WL_DISPLAY_ERROR_NO_MEMORY && strstr(last_client_log, msg),
	      "%s: wl_display error %u (errno %d), '%s' (want no_memory '%s')",
	      what, code, err, strtok(last_client_log, "\n"), msg);
}

void test_evict_unmapped(void)
{
	static const char *const args[] = { "--max-clients=3", "--verbose", NULL };
	struct comp c;
	struct proc window;
	struct raw idle1, idle2, late;

	comp_start(&c, args);
	check(proc_contains(&c.p, "connections: at most 3 at once"),
	      "--max-clients=3 in force");
	mapped_client(&c, &window);
	raw_connect(&idle1);
	raw_connect(&idle2);
	/* The fourth: the oldest connection without a window goes. */
	raw_connect(&late);
	expect_display_error(idle1.display, "the oldest idle connection",
			     "evicted: compositor at its limit of 3 connections, and this one never mapped a window");
	expect_accepted(&idle2, "the younger idle connection");
	expect_accepted(&late, "the new connection");
	check(proc_alive(&window), "the window's client was not evicted");
	check(proc_contains(&c.p, "evicted: compositor at its limit of 3"),
	      "the eviction is logged");
	raw_disconnect(&idle1);
	raw_disconnect(&idle2);
	raw_disconnect(&late);
	proc_kill(&window, SIGTERM);
	comp_stop(&c);
}

void test_refuse_all_mapped(void)
{
	static const char *const args[] = { "--max-clients=2", "--verbose", NULL };
	struct comp c;
	struct proc w1, w2;
	struct wl_display *d;

	comp_start(&c, args);
	mapped_client(&c, &w1);
	mapped_client(&c, &w2);
	d = connect_display();
	expect_display_error(d, "a third connection beside two windows",
			     "refused: compositor at its limit of 2 connections, all of which have mapped a window");
	wl_display_disconnect(d);
	check(proc_alive(&w1) && proc_alive(&w2), "both windows' clients live on");
	proc_kill(&w1, SIGTERM);
	proc_kill(&w2, SIGTERM);
	comp_stop(&c);
}

/* One byte of a message that never completes, with one fd. */
static void send_half_message(int sock)
{
	int efd = eventfd(0, EFD_CLOEXEC);
	uint8_t byte = 1;
	char control[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = control,
			     .msg_controllen = sizeof(control) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);

	if (efd < 0)
		fail("eventfd: %s", strerror(errno));
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &efd, sizeof(int));
	if (sendmsg(sock, &mh, MSG_NOSIGNAL) != 1)
		fail("sendmsg: %s", strerror(errno));
	close(efd);
}

void test_evict_parked_first(void)
{
	static const char *const args[] = { "--max-clients=5", NULL };
	struct comp c;
	struct raw oldest, half, r3, r4, r5;

	comp_start(&c, args);
	raw_connect(&oldest);
	raw_connect(&half);
	send_half_message(wl_display_get_fd(half.display));
	/* The compositor's grace for a message still arriving is 1 s. */
	expect_accepted(&oldest, "the oldest idle connection");
	usleep(1500 * 1000);
	raw_connect(&r3);
	raw_connect(&r4);
	/* The fifth: 5 x 4 fds and the parked one do not fit 5 x 4. */
	raw_connect(&r5);
	expect_display_error(half.display, "the connection holding a half message",
			     "evicted: 1 file descriptors held");
	expect_accepted(&oldest, "the oldest idle connection, older but parking nothing");
	expect_accepted(&r5, "the new connection");
	raw_disconnect(&half);
	raw_disconnect(&oldest);
	raw_disconnect(&r3);
	raw_disconnect(&r4);
	raw_disconnect(&r5);
	comp_stop(&c);
}

/* ---- a full fd table ---- */

static long long cpu_ms(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long ut, st;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		fail("%s: %s", path, strerror(errno));
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			 &ut, &st) != 2)
		fail("cannot parse %s", path);
	return (long long)((ut + st) * 1000 / (unsigned long long)sysconf(_SC_CLK_TCK));
}

/* A raw connection asking wl_display.sync; -1 when connect() fails. */
static int sync_connect(void)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	uint32_t msg[3] = { 1, 12u << 16, 2 };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s/wlseal-test",
		 getenv("XDG_RUNTIME_DIR"));
	if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0)
		fail("connect: %s", strerror(errno));
	/* A connection refused at once may be closed already (EPIPE): what
	 * it was told is still there to read. */
	if (send(fd, msg, sizeof(msg), MSG_NOSIGNAL) != sizeof(msg) &&
	    errno != EPIPE && errno != ECONNRESET)
		fail("send: %s", strerror(errno));
	return fd;
}

/* What the compositor answered on @fd: 1 the sync's done, 0 an error
 * naming "out of file descriptors" (or none, just the end), -1 nothing
 * within the timeout. */
static int answer(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char buf[512];
	ssize_t n;

	if (poll(&p, 1, TIMEOUT_MS) <= 0)
		return -1;
	n = recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* The error's text, after its 20 bytes of header and arguments. */
	if (n > 20 && ((uint32_t *)buf)[0] == 1 && (((uint32_t *)buf)[1] & 0xffff) == 0)
		return strstr(buf + 20, "out of file descriptors") ? 0 : -1;
	return 1;
}

static int count_lines(struct proc *p, const char *needle)
{
	int n = 0;

	proc_contains(p, needle);	/* reads what came */
	for (const char *at = p->buf; at && (at = strstr(at, needle)); at++)
		n++;
	return n;
}

/*
 * A table of 64 fds and --max-clients far above what it holds: idle
 * connections fill it, then one parks a file descriptor in the last free
 * slot, so that accept() itself fails with EMFILE. libwayland's accept
 * loop span on the connection left queued; the compositor must take
 * each new connection off the queue with its spare fd, tell it why and
 * close it (asserted: each answered within the timeout), spend little
 * CPU meanwhile (asserted, CPU time), log "failed to accept" a bounded
 * number of times, and take clients again once fds are released.
 */
void test_accept_full_table(void)
{
	static const char *const args[] = { "--max-clients=1000", NULL };
	struct rlimit rl = { .rlim_cur = 64, .rlim_max = 64 };
	int alive[64], n_alive = 0, late[8], fd, r;
	uint32_t sync[3] = { 1, 12u << 16, 2 };
	long long cpu0, cpu;
	size_t from = 0;
	struct comp c;
	struct raw after;

	/* The compositor inherits a table of 64 (and so do we). */
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
		fail("setrlimit: %s", strerror(errno));
	comp_start(&c, args);
	for (;;) {
		if (n_alive == 40)
			fail("40 connections fit a table of 64 fds");
		fd = sync_connect();
		r = answer(fd);
		if (r == 1) {
			alive[n_alive++] = fd;
			continue;
		}
		close(fd);
		if (r < 0)
			fail("connection %d: no answer, yet not closed", n_alive);
		break;
	}
	tap_ok("%d idle connections filled the table, the next was refused with a reason",
	       n_alive);
	/* The last free slot: a parked fd. A second sync tells when the
	 * compositor has read it. */
	send_half_message(alive[0]);
	if (send(alive[1], sync, sizeof(sync), MSG_NOSIGNAL) != sizeof(sync) ||
	    answer(alive[1]) != 1)
		fail("an idle connection no longer answers");
	cpu0 = cpu_ms(c.p.pid);
	for (int i = 0; i < 8; i++)
		late[i] = sync_connect();
	for (int i = 0; i < 8; i++) {
		check(answer(late[i]) == 0,
		      "connection %d on a full table: closed at once, told why", i);
		close(late[i]);
	}
	usleep(500 * 1000);
	cpu = cpu_ms(c.p.pid);
	check(cpu - cpu0 < 300, "the compositor spent %lld ms of CPU meanwhile",
	      cpu - cpu0);
	check(proc_contains(&c.p, "failed to accept: Too many open files: connection closed at once"),
	      "accept() failed with EMFILE and the spare fd took the connection");
	r = count_lines(&c.p, "failed to accept");
	check(r >= 1 && r <= 10, "%d 'failed to accept' lines (at most 10 a second)", r);
	/* Two idle connections go: a client gets in again. */
	close(alive[--n_alive]);
	close(alive[--n_alive]);
	for (int i = 0; i < 2; i++)
		if (!proc_wait(&c.p, &from, "client disconnected", TIMEOUT_MS, NULL, 0))
			fail("the compositor never saw two connections go");
	raw_connect(&after);
	expect_accepted(&after, "a client once fds were released");
	raw_disconnect(&after);
	while (n_alive > 0)
		close(alive[--n_alive]);
	comp_stop(&c);
}

/* --exit-after=1: the compositor ends by itself, cleanly, and says why
 * (the demo's and the benches' compositors rely on it). */
void test_exit_after(void)
{
	static struct comp c;
	const char *args[] = { "--exit-after=1", NULL };

	comp_start(&c, args);
	if (!proc_wait_exit(&c.p, TIMEOUT_MS))
		fail("--exit-after=1: still running after %d ms", TIMEOUT_MS);
	check(WIFEXITED(c.p.status) && WEXITSTATUS(c.p.status) == 0,
	      "--exit-after=1: exit status 0 (wait status 0x%x)", c.p.status);
	check(proc_contains(&c.p, "--exit-after reached"),
	      "--exit-after=1: the log says why it ended");
	comp_stop(&c);
}
