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
 *
 * This file holds main(): the options, the run of connections and the
 * checks after each; the rest is in wire.c, objects.c, values.c and
 * requests.c (fuzz.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <linux/input.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"
#include "stall.h"

static void vlog(const struct options *o, const char *fmt, ...)
{
	va_list ap;

	if (!o->verbose)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}
enum verdict { CONN_OK, CONN_STALLED, CONN_NOCONNECT };

/* The display is object 1; ask it for the registry, object 2. */
static void get_registry(struct conn *c)
{
	struct msg m = { .len = 8 };

	c->obj[1] = (struct object){ .iface = &wl_display_interface, .version = 1,
				     .live = true };
	c->next_id = 2;
	put32(&m, c->next_id);
	new_object(c, c->next_id++, &wl_registry_interface, 1);
	send_msg(c, &m, 1, WL_DISPLAY_GET_REGISTRY);
}

/* One input record into the compositor's FIFO (--input); a full FIFO
 * drops it (the compositor reads at its pace, the fuzzer never waits). */
static void input_record(int fd, uint16_t type, uint16_t code, int32_t value)
{
	struct input_event ev = { .type = type, .code = code, .value = value };
	/* A record is less than PIPE_BUF: written whole or not at all. */
	ssize_t n = write(fd, &ev, sizeof(ev));

	(void)n;
}

/* A click somewhere (the FIFO's ABS values are output pixels, kept
 * inside it): on a window, a popup or nothing; so that popup grabs are
 * broken, or not, while the connection's requests go on. Now and then
 * a mouse's relative motion instead. */
static void input_click(int fd, struct rng *r)
{
	if (chance(r, 200)) {
		input_record(fd, EV_REL, REL_X, (int32_t)below(r, 41) - 20);
		input_record(fd, EV_REL, REL_Y, (int32_t)below(r, 41) - 20);
		input_record(fd, EV_SYN, SYN_REPORT, 0);
		return;
	}
	input_record(fd, EV_ABS, ABS_X, (int32_t)below(r, 340));
	input_record(fd, EV_ABS, ABS_Y, (int32_t)below(r, 260));
	input_record(fd, EV_SYN, SYN_REPORT, 0);
	input_record(fd, EV_KEY, BTN_LEFT, 1);
	input_record(fd, EV_SYN, SYN_REPORT, 0);
	input_record(fd, EV_KEY, BTN_LEFT, 0);
	input_record(fd, EV_SYN, SYN_REPORT, 0);
}

static enum verdict fuzz_connection(const struct options *o, uint64_t index,
				    struct stats *st, uint64_t budget)
{
	static struct conn c;	/* large: not on the stack */
	static const unsigned levels[] = { 0, 2, 10, 30, 100, 300 };
	uint64_t n;
	enum verdict v = CONN_OK;

	memset(&c, 0, sizeof(c));
	c.rng.s = o->seed ^ (index * 0xd1342543de82ef95ull);
	rnd(&c.rng);
	c.hostility = levels[below(&c.rng, sizeof(levels) / sizeof(levels[0]))];
	c.linger = chance(&c.rng, 100);
	c.scanout = o->scanout;
	c.shoot_pid = o->scanout ? o->pid : 0;
	c.fd = connect_socket(o->socket);
	if (c.fd < 0)
		return CONN_NOCONNECT;
	fcntl(c.fd, F_SETFL, O_NONBLOCK);
	get_registry(&c);
	st->requests++;
	if (!roundtrip(&c, o->timeout_ms)) {
		v = c.dead ? CONN_OK : CONN_STALLED;
		goto out;
	}
	bind_all(&c, st);
	n = 1 + below(&c.rng, (uint32_t)(o->per_connection < budget ? o->per_connection : budget));
	for (uint64_t i = 0; i < n && !c.dead; i++) {
		if (below(&c.rng, 16) == 0) {
			scaffold(&c, st);
			if (c.scanout && chance(&c.rng, 250))
				scanout_scaffold(&c, st);
		} else
			one_request(&c, st);
		if (o->input_fd >= 0 && below(&c.rng, 24) == 0)
			input_click(o->input_fd, &c.rng);
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

	memset(&c, 0, sizeof(c));
	c.fd = connect_socket(o->socket);
	if (c.fd < 0) {
		snprintf(why, len, "cannot connect: %s", strerror(errno));
		return false;
	}
	get_registry(&c);
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
"  --input=PATH         the compositor's --input FIFO: clicks and mouse\n"
"                       motion are written into it between requests\n"
"  --scanout            now and then a fullscreen window scanned out as it\n"
"                       is, then its pool grown, its pages written, holes\n"
"                       punched, subsurfaces and popups put over it, its\n"
"                       buffer and pool destroyed on screen; with --pid,\n"
"                       screenshots asked for (SIGUSR1) meanwhile\n"
"  --verbose            one line per connection on stderr\n"
"  --help               this text\n"
"\n"
"The stall fuzzer (--stall): hostile connections kept at their budgets\n"
"send sequences of request bursts, each scored by the CPU time the\n"
"compositor's thread spent on it (/proc/PID/task/PID/schedstat, so --pid\n"
"is required); the costliest are kept and mutated, while a victim client\n"
"redraws on every frame callback.\n"
"  --stall              run the stall fuzzer instead\n"
"  --clients=N          hostile connections (default 4, at most %d)\n"
"  --iterations=N       sequences to run (default 100)\n"
"  --long               20000 sequences (a search of hours; cap it with\n"
"                       --seconds)\n"
"  --keep=N             the costliest sequences kept and mutated (default 16)\n"
"  --out=FILE           write the kept sequences and their costs to FILE\n"
"  --replay=FILE        run the sequences of FILE (as --out writes them)\n"
"                       --iterations times each instead of searching\n"
"  --output-size=WxH    the compositor's output size (default 320x240):\n"
"                       the size of the buffers that cover it\n"
"  --exclude=OPS        leave these operations (comma-separated) out of\n"
"                       new sequences: the search for the next worst case\n"
"Operations a sequence is made of:\n",
		MAX_CLIENTS);
	for (int k = 0; k < op_kinds(); k++)
		fprintf(f, "  %-14s %s\n", op_name(k), op_what(k));
	fprintf(f,
"\n"
"Exit status: 0 when the compositor answered after every connection (with\n"
"--stall: answered every burst, and the victim got frames after the\n"
"search), 1 when it stopped answering or died (the reproducer is printed),\n"
"2 on usage errors.\n");
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
	       O_PER, O_SECONDS, O_TIMEOUT, O_PID, O_VERBOSE, O_HELP,
	       O_STALL, O_CLIENTS, O_ITERATIONS, O_LONG, O_KEEP, O_OUT, O_REPLAY,
	       O_OUTPUT_SIZE, O_EXCLUDE, O_INPUT, O_SCANOUT };
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
		{ "input", required_argument, NULL, O_INPUT },
		{ "scanout", no_argument, NULL, O_SCANOUT },
		{ "stall", no_argument, NULL, O_STALL },
		{ "clients", required_argument, NULL, O_CLIENTS },
		{ "iterations", required_argument, NULL, O_ITERATIONS },
		{ "long", no_argument, NULL, O_LONG },
		{ "keep", required_argument, NULL, O_KEEP },
		{ "out", required_argument, NULL, O_OUT },
		{ "replay", required_argument, NULL, O_REPLAY },
		{ "output-size", required_argument, NULL, O_OUTPUT_SIZE },
		{ "exclude", required_argument, NULL, O_EXCLUDE },
		{ 0 },
	};
	int ch;
	uint64_t v;
	bool iterations_given = false, long_run = false;

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
		case O_SCANOUT: o->scanout = true; break;
		case O_INPUT:
			/* The compositor has the read end open already. */
			o->input_fd = open(optarg, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
			if (o->input_fd < 0) {
				fprintf(stderr, "wlseal-fuzz: --input=%s: %s\n",
					optarg, strerror(errno));
				return 2;
			}
			break;
		case O_HELP: usage(stdout); exit(0);
		case O_STALL: o->stall = true; break;
		case O_CLIENTS:
			ok = parse_u64(optarg, &v) && v >= 1 && v <= MAX_CLIENTS;
			o->clients = (int)v;
			break;
		case O_ITERATIONS:
			ok = parse_u64(optarg, &o->iterations) && o->iterations;
			iterations_given = true;
			break;
		case O_LONG: long_run = true; break;
		case O_KEEP:
			ok = parse_u64(optarg, &v) && v >= 1 && v <= 32;
			o->keep = (int)v;
			break;
		case O_OUT: o->out = optarg; break;
		case O_EXCLUDE: o->exclude = optarg; ok = op_exclude(optarg); break;
		case O_REPLAY: o->replay = optarg; break;
		case O_OUTPUT_SIZE: {
			char x;

			ok = sscanf(optarg, "%d%c%d", &o->out_w, &x, &o->out_h) == 3 &&
			     x == 'x' && o->out_w >= 16 && o->out_h >= 16 &&
			     o->out_w <= 8192 && o->out_h <= 8192 &&
			     o->out_w % 2 == 0 && o->out_h % 2 == 0;
			break;
		}
		default: usage(stderr); return 2;
		}
		if (!ok) {
			fprintf(stderr, "wlseal-fuzz: bad value '%s' for --%s\n", optarg,
				longopts[ch - O_SOCKET].name);
			return 2;
		}
	}
	/* --iterations wins over --long, whatever their order */
	if (long_run && !iterations_given)
		o->iterations = 20000;
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
			     .timeout_ms = 5000, .clients = 4, .iterations = 100,
			     .keep = 16, .out_w = 320, .out_h = 240,
			     .input_fd = -1 };
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
	if (o.stall)
		return stall_main(&o);
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
