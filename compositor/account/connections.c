/* SPDX-License-Identifier: MIT */
/*
 * connections.c - admission control: who may be connected, and what a
 * connection may cost the compositor's fd table before it is let in.
 *
 * Every connection holds two of the compositor's fds (the socket, and
 * the copy libwayland's event loop makes for its source) and can park
 * up to 28 more (fd-guard.c); idle connections cost their maker nothing.
 * With no limit, 2048 idle connections filled a 4096-fd table, and one
 * byte with 28 fds per connection did it with 140: every new client was
 * locked out, and libwayland's accept() failed with EMFILE in a loop
 * (epoll wakes it again at once for the connection still queued) at
 * 96% CPU, logging "failed to accept" 84 MB in 25 s. So:
 *
 *  - The compositor accepts on its own socket (socket.c), here.
 *  - At most --max-clients connections (default below), and the fds they
 *    hold or may take, parked ones included, within the share of the
 *    table that goes with it (over_budget() has the argument). A new
 *    connection past that evicts the one to lose least (pick_victim());
 *    when every connection has mapped a window, the new one is refused.
 *  - accept() failing for want of an fd never spins: a spare fd is given
 *    up to take the connection off the queue and close it
 *    (out_of_fds()); without a spare the socket is not watched until an
 *    fd is released.
 *  - The connect and disconnect lines, and those about admission, are
 *    rate-limited, with a count of what was not logged.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "connections.h"
#include "log.h"

/*
 * What one connection may hold of the table's last quarter:
 *  2: its socket, and the dup libwayland's event loop keeps of it;
 *  2: the pools a light client may still get there (shm/check.c refuses
 *     a client holding two or more pool fds once the fd number reaches
 *     the last quarter; below it, only a client's own budget applies).
 */
#define FDS_PER_CONNECTION 4
/* Kept free for what the compositor opens for a moment: the accept()
 * that comes before an eviction, a keymap for a client, a screenshot. */
#define TRANSIENT_FDS 32
#define MIN_CLIENTS 16
/* A message's fds held this long (it never completed, or came with a
 * request that takes none) make the connection the first to go. */
#define PARKED_GRACE_MS 1000
/* Connect and disconnect lines a second; eviction, refusal and accept
 * failure lines a second. */
#define LINES_BURST 32
#define ADMIT_BURST 10
#define LOG_WINDOW_MS 1000
/* Listening paused for want of an fd: tried again this often. */
#define RETRY_MS 100
#define ACCEPT_BATCH 16

struct limiter {
	const char *what;
	int burst;
	int64_t start_ms;
	int lines;
	unsigned long dropped;
};

struct conn {
	struct wl_listener destroy;
	struct wl_list link;		/* st.conns: oldest first */
	struct wl_client *client;
	pid_t pid;
	int64_t since_ms;		/* connected */
	int64_t parked_since_ms;	/* fds held since; 0: none */
	unsigned int parked;		/* fds held no request took */
	bool mapped;			/* has ever mapped a toplevel */
	bool logged;			/* its connect line was logged */
};

static struct {
	struct wl_display *display;
	struct wl_event_loop *loop;
	int listen_fd;
	struct wl_event_source *listen_src, *retry, *summary, *recheck;
	struct wl_listener client_created;
	struct wl_list conns;
	int count;
	unsigned long long parked;	/* of all connections */
	int max;
	int spare;			/* /dev/null, given up on EMFILE */
	bool paused, summary_armed;
	struct limiter lines, admit;
} st = { .listen_fd = -1, .spare = -1 };

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* --- rate-limited lines ------------------------------------------------------ */

/* May @l log another line now? @force: yes, but it counts. */
static bool limiter_take(struct limiter *l, bool force)
{
	int64_t now = now_ms();

	if (now - l->start_ms >= LOG_WINDOW_MS) {
		l->start_ms = now;
		l->lines = 0;
	}
	if (force || l->lines < l->burst) {
		l->lines++;
		return true;
	}
	l->dropped++;
	if (!st.summary_armed && st.summary) {
		st.summary_armed = true;
		wl_event_source_timer_update(st.summary,
			(int)(LOG_WINDOW_MS - (now - l->start_ms)) + 1);
	}
	return false;
}

static void limiter_flush(struct limiter *l)
{
	if (!l->dropped)
		return;
	wlseal_log("%lu %s lines not logged (at most %d a second)",
		   l->dropped, l->what, l->burst);
	l->dropped = 0;
}

static int on_summary(void *data)
{
	st.summary_armed = false;
	limiter_flush(&st.lines);
	limiter_flush(&st.admit);
	return 0;
}

#define log_admit(...) \
	do { if (limiter_take(&st.admit, false)) wlseal_log(__VA_ARGS__); } while (0)

/* --- connections ------------------------------------------------------------- */

static void on_client_destroyed(struct wl_listener *l, void *data);

static struct conn *find(struct wl_client *client)
{
	struct wl_listener *l =
		wl_client_get_destroy_listener(client, on_client_destroyed);
	struct conn *c;

	return l ? wl_container_of(l, c, destroy) : NULL;
}

static void on_client_created(struct wl_listener *l, void *data)
{
	struct wl_client *client = data;
	struct conn *c = calloc(1, sizeof(*c));

	if (!c) {
		wl_client_post_no_memory(client);
		return;
	}
	c->client = client;
	c->pid = wlseal_client_pid(client);
	c->since_ms = now_ms();
	c->destroy.notify = on_client_destroyed;
	wl_client_add_destroy_listener(client, &c->destroy);
	wl_list_insert(st.conns.prev, &c->link);
	st.count++;
	if (limiter_take(&st.lines, false)) {
		c->logged = true;
		wlseal_log("client connected pid=%d", (int)c->pid);
	}
}

static void on_client_destroyed(struct wl_listener *l, void *data)
{
	struct conn *c = wl_container_of(l, c, destroy);

	/* Paired: whoever counts connect lines finds the same disconnects. */
	if (c->logged && limiter_take(&st.lines, true))
		wlseal_log("client disconnected pid=%d", (int)c->pid);
	st.count--;
	st.parked -= c->parked;
	wl_list_remove(&c->link);
	wl_list_remove(&c->destroy.link);
	free(c);
	/* Its fds are closed once this signal is done: listen again then. */
	if (st.paused && st.retry)
		wl_event_source_timer_update(st.retry, 1);
}

void wlseal_connections_mark_mapped(struct wl_client *client)
{
	struct conn *c = find(client);

	if (c)
		c->mapped = true;
}

/* --- the budget and eviction ------------------------------------------------- */

/*
 * The cap and the fd budget are one rule: connections, counted at
 * FDS_PER_CONNECTION each, plus every fd they hold parked, may use at
 * most max x FDS_PER_CONNECTION fds; with nothing parked that is max
 * connections. @extra: connections about to come.
 *
 * Why that keeps a new client's way in open, on a table of T fds:
 * shm/check.c grants a heavy client's pool only below fd number 3T/4,
 * so every fd at or above 3T/4 belongs to the compositor itself, to a
 * connection (its 2), to a light client's pool (at most 2 a connection)
 * or is parked by a connection. The default max (wlseal_connections_
 * default_max) gives exactly that quarter, less the compositor's own fds
 * and TRANSIENT_FDS, to max x FDS_PER_CONNECTION: held to this budget,
 * the table never fills, and accept(), a pool and the keymap of a new
 * client still find fds. Parked fds only ever come after admission, on
 * a connection already counted; fd-guard.c disconnects a connection
 * parking more than 28, and reports what each holds once its complete
 * requests are handled, and then (wlseal_connections_parked()) the
 * budget is checked again: whatever the connections parked since the
 * last check is taken back by evicting parking connections until it
 * fits. A --max-clients above the default trades this guarantee for
 * more connections; accept() then still cannot spin (out_of_fds()).
 */
static bool over_budget(int extra)
{
	unsigned long long want = (unsigned long long)(st.count + extra) *
					  FDS_PER_CONNECTION + st.parked;

	return want > (unsigned long long)st.max * FDS_PER_CONNECTION;
}

enum pick { PICK_ANY, PICK_PARKED };

/*
 * The connection to evict, or NULL: first one whose fds have been parked
 * for PARKED_GRACE_MS (a message that never completes: it counts as
 * never mapped, whatever it did before), longest parked first; then one
 * that never mapped and parks fds now; then (PICK_ANY) the one that
 * never mapped and has been connected longest. A connection that mapped
 * a window, and parks nothing stale, is never evicted: a flood of new
 * connections cannot push out the applications on screen.
 */
static struct conn *pick_victim(enum pick kind, int64_t now)
{
	struct conn *c, *best = NULL;
	int best_rank = 3, rank;
	int64_t best_key = 0, key;

	wl_list_for_each(c, &st.conns, link) {
		if (c->parked && now - c->parked_since_ms >= PARKED_GRACE_MS) {
			rank = 0;
			key = c->parked_since_ms;
		} else if (c->mapped) {
			continue;
		} else if (c->parked) {
			rank = 1;
			key = c->parked_since_ms;
		} else if (kind == PICK_ANY) {
			rank = 2;
			key = c->since_ms;
		} else {
			continue;
		}
		if (rank < best_rank || (rank == best_rank && key < best_key)) {
			best = c;
			best_rank = rank;
			best_key = key;
		}
	}
	return best;
}

/* wl_display.error no_memory with @why, then the client goes. */
static void evict(struct conn *c, int64_t now)
{
	struct wl_client *client = c->client;
	struct wl_resource *display = wl_client_get_object(client, 1);
	char why[128];

	if (c->parked) {
		snprintf(why, sizeof(why),
			 "evicted: %u file descriptors held %lld ms by a message that never completed",
			 c->parked, (long long)(now - c->parked_since_ms));
	} else {
		snprintf(why, sizeof(why),
			 "evicted: compositor at its limit of %d connections, and this one never mapped a window",
			 st.max);
	}
	log_admit("client pid=%d %s (connected %lld ms; %d connections, --max-clients=%d)",
		  (int)c->pid, why, (long long)(now - c->since_ms), st.count,
		  st.max);
	if (display)
		wl_resource_post_error(display, WL_DISPLAY_ERROR_NO_MEMORY, "%s", why);
	else
		wl_client_post_no_memory(client);
	wl_client_flush(client);
	wl_client_destroy(client);	/* frees c */
}

/* Parked fds over the budget: the parking connections go. */
static void check_parked(void)
{
	int64_t now = now_ms();
	struct conn *v;

	while (over_budget(0)) {
		v = pick_victim(PICK_PARKED, now);
		if (!v) {
			/* Only windows' fds, for now: look again once they
			 * have been held long enough to be stale. */
			wl_event_source_timer_update(st.recheck, PARKED_GRACE_MS);
			return;
		}
		evict(v, now);
	}
}

static int on_recheck(void *data)
{
	check_parked();
	return 0;
}

void wlseal_connections_parked(struct wl_client *client, unsigned int held)
{
	struct conn *c = find(client);

	if (!c || c->parked == held)
		return;
	st.parked = st.parked - c->parked + held;
	if (!held)
		c->parked_since_ms = 0;
	else if (!c->parked)
		c->parked_since_ms = now_ms();
	c->parked = held;
	if (held)
		check_parked();
}

/* --- accepting ----------------------------------------------------------------- */

/*
 * wl_display.error(wl_display, no_memory, @msg), written straight onto a
 * connection that will not become a client: it is closed next, and its
 * client learns why instead of reading a bare end of file.
 */
static void tell_refused(int fd, const char *msg)
{
	uint32_t buf[5 + 32] = { 0 };
	size_t len = strnlen(msg, 127) + 1;
	size_t size = 5 * sizeof(uint32_t) + ((len + 3) & ~(size_t)3);

	buf[0] = 1;				/* the sender: wl_display */
	buf[1] = (uint32_t)(size << 16) | WL_DISPLAY_ERROR;
	buf[2] = 1;				/* object_id */
	buf[3] = WL_DISPLAY_ERROR_NO_MEMORY;	/* code */
	buf[4] = (uint32_t)len;
	memcpy(&buf[5], msg, len - 1);
	(void)!send(fd, buf, size, MSG_DONTWAIT | MSG_NOSIGNAL);
}

static void admit(int fd)
{
	int64_t now = now_ms();
	struct conn *v;

	while (over_budget(1)) {
		v = pick_victim(PICK_ANY, now);
		if (!v) {
			char why[128];

			snprintf(why, sizeof(why),
				 "refused: compositor at its limit of %d connections, all of which have mapped a window",
				 st.max);
			log_admit("%s (--max-clients)", why);
			tell_refused(fd, why);
			close(fd);
			return;
		}
		evict(v, now);
	}
	if (!wl_client_create(st.display, fd)) {
		int err = errno;

		/* EMFILE: accept() had the last fd, the event source's dup
		 * found none. */
		log_admit("cannot create a client: %s", strerror(err));
		tell_refused(fd, err == EMFILE || err == ENFILE ?
			     "refused: compositor out of file descriptors" :
			     "refused: compositor cannot create a client");
		close(fd);
	}
}

static void pause_listening(void)
{
	if (!st.paused)
		wl_event_source_fd_update(st.listen_src, 0);
	st.paused = true;
	wl_event_source_timer_update(st.retry, RETRY_MS);
}

static int on_retry(void *data)
{
	if (!st.paused)
		return 0;
	if (st.spare < 0)
		st.spare = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (st.spare < 0) {
		wl_event_source_timer_update(st.retry, RETRY_MS);
		return 0;
	}
	st.paused = false;
	wl_event_source_fd_update(st.listen_src, WL_EVENT_READABLE);
	return 0;
}

/*
 * accept() failed with EMFILE or ENFILE: the connection stays queued,
 * and level-triggered epoll would call us again at once, forever. Give
 * up the spare fd, take the connection, tell it why and close it, and
 * take the spare back. Without a spare (someone took its number), stop
 * watching the socket until a client goes or RETRY_MS passes: waiting
 * connections wait in the kernel's backlog, nothing spins.
 */
static void out_of_fds(int err)
{
	int fd;

	if (st.spare < 0) {
		log_admit("failed to accept: %s; not accepting until a file descriptor is released",
			  strerror(err));
		pause_listening();
		return;
	}
	close(st.spare);
	st.spare = -1;
	fd = accept4(st.listen_fd, NULL, NULL, SOCK_CLOEXEC);
	if (fd >= 0) {
		tell_refused(fd, "refused: compositor out of file descriptors");
		close(fd);
	}
	log_admit("failed to accept: %s: connection closed at once (%d connections)",
		  strerror(err), st.count);
	st.spare = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (st.spare < 0)
		pause_listening();
}

static int on_listen(int fd, uint32_t mask, void *data)
{
	for (int i = 0; i < ACCEPT_BATCH; i++) {
		int cfd = accept4(fd, NULL, NULL, SOCK_CLOEXEC);

		if (cfd >= 0) {
			admit(cfd);
			continue;
		}
		switch (errno) {
		case EAGAIN:
			return 0;
		case EINTR:
		case ECONNABORTED:
			continue;
		case EMFILE:
		case ENFILE:
			out_of_fds(errno);
			return 0;
		default:
			log_admit("failed to accept: %m; trying again in %d ms", RETRY_MS);
			pause_listening();
			return 0;
		}
	}
	return 0;
}

/* --- setup ----------------------------------------------------------------------- */

/*
 * The default cap, for a table of @nofile fds. Only the last quarter is
 * the connections' (over_budget() says why): less the compositor's own
 * fds and TRANSIENT_FDS, FDS_PER_CONNECTION each. A 4096-fd table with
 * about 25 of the compositor's own: (1024 - 25 - 32) / 4 = 241. At most
 * WLSEAL_MAX_CLIENTS_DEFAULT_MAX however large the table: libwayland
 * gives every connection four 4 KiB buffers, and the budgets (shm/)
 * an account, so that many idle connections cost about 20 MiB; a desktop
 * has a few dozen clients. At least MIN_CLIENTS: a table so small that
 * the quarter cannot hold them has no room for a promise anyway, and
 * out_of_fds() still keeps accept() from spinning.
 */
int wlseal_connections_default_max(unsigned long long nofile, int own)
{
	long long share = (long long)(nofile / 4) - own - TRANSIENT_FDS;
	long long n = share / FDS_PER_CONNECTION;

	if (n > WLSEAL_MAX_CLIENTS_DEFAULT_MAX)
		n = WLSEAL_MAX_CLIENTS_DEFAULT_MAX;
	return n < MIN_CLIENTS ? MIN_CLIENTS : (int)n;
}

/* The fds open now (the compositor's own, before any client). */
static int own_fds(unsigned long long nofile)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (d) {
		while ((e = readdir(d)))
			n += e->d_name[0] != '.';
		closedir(d);
		return n - 1;	/* the directory's own */
	}
	for (unsigned long long fd = 0; fd < nofile && fd < 65536; fd++)
		n += fcntl((int)fd, F_GETFD) >= 0;
	return n;
}

bool wlseal_connections_init(struct wl_display *display, int listen_fd,
			     int max_clients)
{
	struct rlimit rl = { 0 };
	unsigned long long nofile = 1 << 20;
	int own;

	st.display = display;
	st.loop = wl_display_get_event_loop(display);
	st.listen_fd = listen_fd;
	wl_list_init(&st.conns);
	st.lines = (struct limiter){ .what = "connection", .burst = LINES_BURST };
	st.admit = (struct limiter){ .what = "admission", .burst = ADMIT_BURST };
	st.spare = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (st.spare < 0)
		wlseal_log("no spare fd (/dev/null: %m): a full fd table pauses accepting");
	st.retry = wl_event_loop_add_timer(st.loop, on_retry, NULL);
	st.summary = wl_event_loop_add_timer(st.loop, on_summary, NULL);
	st.recheck = wl_event_loop_add_timer(st.loop, on_recheck, NULL);
	st.listen_src = wl_event_loop_add_fd(st.loop, listen_fd,
					     WL_EVENT_READABLE, on_listen, NULL);
	if (!st.retry || !st.summary || !st.recheck || !st.listen_src) {
		wlseal_connections_finish();
		return false;
	}
	st.client_created.notify = on_client_created;
	wl_display_add_client_created_listener(display, &st.client_created);

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		nofile = rl.rlim_cur;
	own = own_fds(nofile);
	st.max = max_clients > 0 ? max_clients :
		 wlseal_connections_default_max(nofile, own);
	wlseal_log("connections: at most %d at once (--max-clients%s; fd table %llu, %d of them the compositor's)",
		   st.max, max_clients > 0 ? "" : " default", nofile, own);
	return true;
}

void wlseal_connections_finish(void)
{
	struct conn *c, *tmp;

	if (!st.display)
		return;
	on_summary(NULL);
	wl_list_for_each_safe(c, tmp, &st.conns, link) {
		wl_list_remove(&c->link);
		wl_list_remove(&c->destroy.link);
		free(c);
	}
	if (st.client_created.notify)
		wl_list_remove(&st.client_created.link);
	if (st.listen_src)
		wl_event_source_remove(st.listen_src);
	if (st.retry)
		wl_event_source_remove(st.retry);
	if (st.summary)
		wl_event_source_remove(st.summary);
	if (st.recheck)
		wl_event_source_remove(st.recheck);
	if (st.spare >= 0)
		close(st.spare);
	memset(&st, 0, sizeof(st));
	st.listen_fd = st.spare = -1;
}
