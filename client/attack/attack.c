/* SPDX-License-Identifier: MIT */
/*
 * wlseal-attack - a hostile Wayland client. Each scenario abuses wl_shm the
 * way a buggy or malicious client could, then reports what the compositor
 * did as one machine-readable OUTCOME line:
 *
 *   accepted      the compositor took it and still answers this client
 *   refused       a protocol error was posted (code, interface, message)
 *   disconnected  the connection dropped without a protocol error while
 *                 the compositor stays up
 *   compositor-gone  the compositor process died or stopped listening
 *
 * After the attack a fresh, well-behaved connection asks for a few frames
 * (--probe-frames), so the line also says whether the compositor still
 * presents frames to clients that play fair.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "attack.h"
#include "wlseal-seals.h"

/*
 * libwayland-client prints the error event it receives ("wl_shm@3: error 2:
 * message") through wl_log and offers no other way to read the message, so
 * the log handler keeps the last such line.
 */
static char last_log[512];
static bool log_verbose;

static void log_handler(const char *fmt, va_list ap)
{
	char line[512];

	vsnprintf(line, sizeof(line), fmt, ap);
	if (strstr(line, ": error "))
		snprintf(last_log, sizeof(last_log), "%s", line);
	if (log_verbose)
		fprintf(stderr, "libwayland: %s", line);
}

/* Append to the outcome's note, "; "-separated. */
static void vnote(struct outcome *o, const char *fmt, va_list ap)
{
	size_t len = strlen(o->note);

	if (len && len + 2 < sizeof(o->note)) {
		strcat(o->note, "; ");
		len += 2;
	}
	vsnprintf(o->note + len, sizeof(o->note) - len, fmt, ap);
}

void att_note(struct outcome *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vnote(o, fmt, ap);
	va_end(ap);
}

void att_fail_setup(struct outcome *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vnote(o, fmt, ap);
	va_end(ap);
	o->result = RES_ERROR;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Dispatch events until *flag is set. Returns 0 when it is, 1 on timeout,
 * -1 when the connection failed (wl_display_get_error() says how).
 * A plain wl_display_roundtrip() would block forever on a compositor that
 * hangs, and a hang is one of the outcomes we want to see.
 */
static int dispatch_until(struct wl_display *d, bool *flag, int timeout_ms)
{
	int64_t deadline = now_ms() + timeout_ms;
	struct pollfd pfd = { .fd = wl_display_get_fd(d) };

	while (!*flag) {
		int left, ret;

		if (wl_display_get_error(d))
			return -1;
		if (wl_display_prepare_read(d) != 0) {
			if (wl_display_dispatch_pending(d) < 0)
				return -1;
			continue;
		}
		pfd.events = POLLIN;
		if (wl_display_flush(d) < 0) {
			if (errno != EAGAIN) {
				wl_display_cancel_read(d);
				return -1;
			}
			pfd.events |= POLLOUT;
		}
		left = (int)(deadline - now_ms());
		if (left <= 0) {
			wl_display_cancel_read(d);
			return 1;
		}
		ret = poll(&pfd, 1, left);
		if (ret < 0 && errno != EINTR) {
			wl_display_cancel_read(d);
			return -1;
		}
		if (ret > 0 && (pfd.revents & (POLLIN | POLLERR | POLLHUP))) {
			if (wl_display_read_events(d) < 0)
				return -1;
		} else {
			wl_display_cancel_read(d);
		}
		if (wl_display_dispatch_pending(d) < 0)
			return -1;
	}
	return 0;
}

static void sync_done(void *data, struct wl_callback *cb, uint32_t serial)
{
	(void)serial;
	if (data)
		*(bool *)data = true;
	wl_callback_destroy(cb);
}

static const struct wl_callback_listener sync_listener = {
	.done = sync_done,
};

static int roundtrip_display(struct wl_display *d, int timeout_ms)
{
	bool done = false;
	struct wl_callback *cb = wl_display_sync(d);
	int ret;

	wl_callback_add_listener(cb, &sync_listener, &done);
	ret = dispatch_until(d, &done, timeout_ms);
	/* On failure the callback may still fire later; keep it from
	 * writing to this stack frame. */
	if (ret != 0 && !done)
		wl_proxy_set_user_data((struct wl_proxy *)cb, NULL);
	return ret;
}

int att_roundtrip(struct attack *a)
{
	return roundtrip_display(a->display, a->timeout_ms);
}

int att_dispatch_until(struct attack *a, bool *flag)
{
	return dispatch_until(a->display, flag, a->timeout_ms);
}

int att_raw_fd(struct attack *a)
{
	return wl_display_get_fd(a->display);
}

/* --- registry -------------------------------------------------------------- */

static void shm_format(void *data, struct wl_shm *shm, uint32_t format)
{
	struct attack *a = data;

	(void)shm;
	if (a->n_formats < (int)(sizeof(a->formats) / sizeof(a->formats[0])))
		a->formats[a->n_formats++] = format;
}

static const struct wl_shm_listener shm_listener = {
	.format = shm_format,
};

static void wm_base_ping(void *data, struct xdg_wm_base *wm, uint32_t serial)
{
	(void)data;
	xdg_wm_base_pong(wm, serial);
}

static const struct xdg_wm_base_listener wm_base_listener = {
	.ping = wm_base_ping,
};

static void policy_event(void *data, struct wlseal_shm_policy_v1 *p,
			 uint32_t required, uint32_t accepted, uint32_t max_hi,
			 uint32_t max_lo, uint32_t flags)
{
	struct attack *a = data;

	(void)p;
	a->policy_known = true;
	a->required_seals = required;
	a->accepted_seals = accepted;
	a->max_pool_size = ((uint64_t)max_hi << 32) | max_lo;
	a->policy_flags = flags;
}

static const struct wlseal_shm_policy_v1_listener policy_listener = {
	.policy = policy_event,
};

static void registry_global(void *data, struct wl_registry *reg,
			    uint32_t name, const char *iface, uint32_t version)
{
	struct attack *a = data;

	if (strcmp(iface, wl_compositor_interface.name) == 0) {
		/* Version 4 for damage_buffer; not 5, so attach may still
		 * carry an offset (one of the attacks). */
		a->compositor_version = version < 4 ? version : 4;
		a->compositor = wl_registry_bind(reg, name,
			&wl_compositor_interface, a->compositor_version);
	} else if (strcmp(iface, wl_shm_interface.name) == 0) {
		a->shm = wl_registry_bind(reg, name, &wl_shm_interface, 1);
		wl_shm_add_listener(a->shm, &shm_listener, a);
	} else if (strcmp(iface, xdg_wm_base_interface.name) == 0) {
		a->wm_base = wl_registry_bind(reg, name,
					      &xdg_wm_base_interface, 1);
		xdg_wm_base_add_listener(a->wm_base, &wm_base_listener, a);
	} else if (strcmp(iface, wlseal_shm_policy_v1_interface.name) == 0) {
		a->shm_policy = wl_registry_bind(reg, name,
						 &wlseal_shm_policy_v1_interface, 1);
		wlseal_shm_policy_v1_add_listener(a->shm_policy,
						  &policy_listener, a);
	}
}

static void registry_global_remove(void *data, struct wl_registry *reg,
				   uint32_t name)
{
	(void)data;
	(void)reg;
	(void)name;
}

static const struct wl_registry_listener registry_listener = {
	.global = registry_global,
	.global_remove = registry_global_remove,
};

int att_connect(struct attack *a)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	/* A compositor creates its socket file (bind) just before it
	 * listens; a connection refused in between is not an outcome. */
	for (int i = 0; i < 20; i++) {
		a->display = wl_display_connect(NULL);
		if (a->display || (errno != ECONNREFUSED && errno != ENOENT))
			break;
		usleep(50000);
	}
	if (!a->display)
		return -1;
	if (getsockopt(wl_display_get_fd(a->display), SOL_SOCKET, SO_PEERCRED,
		       &cred, &len) == 0)
		a->compositor_pid = cred.pid;
	a->registry = wl_display_get_registry(a->display);
	wl_registry_add_listener(a->registry, &registry_listener, a);
	/* Twice: globals, then the events of the objects we bound. */
	if (att_roundtrip(a) != 0 || att_roundtrip(a) != 0)
		return -1;
	if (!a->compositor || !a->shm)
		return -1;
	return 0;
}

void att_disconnect(struct attack *a)
{
	if (a->display)
		wl_display_disconnect(a->display);
	a->display = NULL;
}

/* --- a window to show buffers in ---------------------------------------------
 * A compositor reads a buffer's pixels only when it composites the surface,
 * and it composites only mapped surfaces, so attacks that need the pixels
 * read give their surface the xdg_toplevel role. */

static void xdg_surface_configure(void *data, struct xdg_surface *xs,
				  uint32_t serial)
{
	struct attack *a = data;

	xdg_surface_ack_configure(xs, serial);
	a->configured = true;
}

static const struct xdg_surface_listener xdg_surface_listener = {
	.configure = xdg_surface_configure,
};

static void toplevel_configure(void *data, struct xdg_toplevel *t, int32_t w,
			       int32_t h, struct wl_array *states)
{
	(void)data;
	(void)t;
	(void)w;
	(void)h;
	(void)states;
}

static void toplevel_close(void *data, struct xdg_toplevel *t)
{
	struct attack *a = data;

	(void)t;
	a->closed = true;
}

static const struct xdg_toplevel_listener toplevel_listener = {
	.configure = toplevel_configure,
	.close = toplevel_close,
};

int att_window(struct attack *a)
{
	a->surface = wl_compositor_create_surface(a->compositor);
	if (!a->wm_base)
		return 0; /* a bare surface; some compositors never show it */
	a->xdg_surface = xdg_wm_base_get_xdg_surface(a->wm_base, a->surface);
	xdg_surface_add_listener(a->xdg_surface, &xdg_surface_listener, a);
	a->toplevel = xdg_surface_get_toplevel(a->xdg_surface);
	xdg_toplevel_add_listener(a->toplevel, &toplevel_listener, a);
	xdg_toplevel_set_title(a->toplevel, "wlseal-attack");
	wl_surface_commit(a->surface);
	return dispatch_until(a->display, &a->configured, a->timeout_ms);
}

/*
 * Attach, damage everything, commit, and wait for the frame callback: once
 * it fires the compositor has composited (read) the buffer. Returns 0 on the
 * callback, 1 on timeout, -1 when the connection failed.
 */
int att_present(struct attack *a, struct wl_buffer *buffer, int w, int h)
{
	bool done = false;
	struct wl_callback *cb;
	int ret;

	wl_surface_attach(a->surface, buffer, 0, 0);
	if (a->compositor_version >= 4)
		wl_surface_damage_buffer(a->surface, 0, 0, w, h);
	else
		wl_surface_damage(a->surface, 0, 0, w, h);
	cb = wl_surface_frame(a->surface);
	wl_callback_add_listener(cb, &sync_listener, &done);
	wl_surface_commit(a->surface);
	ret = dispatch_until(a->display, &done, a->timeout_ms);
	if (ret != 0 && !done)
		wl_proxy_set_user_data((struct wl_proxy *)cb, NULL);
	return ret;
}

/* --- files ------------------------------------------------------------------- */

int att_fill(int fd, size_t offset, size_t size, uint32_t pixel)
{
	uint32_t row[1024];
	size_t done = 0;

	for (size_t i = 0; i < sizeof(row) / sizeof(row[0]); i++)
		row[i] = pixel;
	/* pwrite rather than a shared mapping: F_SEAL_WRITE cannot be added
	 * while a writable mapping exists. */
	while (done < size) {
		size_t n = size - done < sizeof(row) ? size - done : sizeof(row);
		ssize_t w = pwrite(fd, row, n, (off_t)(offset + done));

		if (w <= 0)
			return -1;
		done += (size_t)w;
	}
	return 0;
}

int att_memfd(size_t size, unsigned int mfd_flags, int seals)
{
	int fd = memfd_create("wlseal-attack", MFD_CLOEXEC | mfd_flags);

	if (fd < 0)
		return -1;
	if (ftruncate(fd, (off_t)size) < 0 || att_fill(fd, 0, size, 0xff3060c0))
		goto fail;
	if (seals && fcntl(fd, F_ADD_SEALS, seals) < 0)
		goto fail;
	return fd;
fail:
	close(fd);
	return -1;
}

int att_memfd_or_fail(struct outcome *o, size_t size, unsigned int mfd_flags,
		      int seals)
{
	int fd = att_memfd(size, mfd_flags, seals);

	if (fd < 0)
		att_fail_setup(o, "memfd: %s", strerror(errno));
	return fd;
}

struct wl_buffer *att_buffer(struct attack *a, struct wl_shm_pool *pool,
			     int32_t offset, int32_t w, int32_t h,
			     int32_t stride, uint32_t format)
{
	(void)a;
	return wl_shm_pool_create_buffer(pool, offset, w, h, stride, format);
}

/* --- outcome ------------------------------------------------------------------- */

/* State and exit code of a process we are not the parent of; the exit
 * code (field 52 of /proc/PID/stat) is readable while it is a zombie. */
static char proc_state(pid_t pid, int *exit_code)
{
	char path[64], buf[1024], *p;
	FILE *f;
	size_t n;
	int field = 3;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ')
		return 0;
	p += 2;
	char state = *p;
	while (*p && field < 52) {
		if (*p++ == ' ')
			field++;
	}
	if (field == 52 && exit_code)
		*exit_code = atoi(p);
	return state;
}

/* Does the compositor still accept and answer a new client? */
bool att_alive(struct attack *a)
{
	struct wl_display *d;
	bool ok;
	char st;

	if (a->compositor_pid > 0) {
		st = proc_state(a->compositor_pid, NULL);
		if (st == 0 || st == 'Z' || st == 'X')
			return false;
	}
	d = wl_display_connect(NULL);
	if (!d)
		return false;
	ok = roundtrip_display(d, a->timeout_ms) == 0;
	wl_display_disconnect(d);
	return ok;
}

static void classify(struct attack *a, struct outcome *o, int rt)
{
	struct wl_display *d = a->display;
	const struct wl_interface *iface = NULL;
	uint32_t id;
	int err = wl_display_get_error(d);

	if (rt == 1 && !err) {
		o->result = RES_UNRESPONSIVE;
		return;
	}
	if (!err) {
		o->result = RES_ACCEPTED;
		return;
	}
	if (err == EPROTO) {
		const char *m;

		o->result = RES_REFUSED;
		o->code = (int)wl_display_get_protocol_error(d, &iface, &id);
		snprintf(o->interface, sizeof(o->interface), "%s",
			 iface ? iface->name : "unknown");
		m = strstr(last_log, ": error ");
		if (m) {
			m += strlen(": error ");
			while (*m && *m != ':')
				m++;
			if (*m == ':')
				m++;
			while (*m == ' ')
				m++;
			snprintf(o->message, sizeof(o->message), "%s", m);
			o->message[strcspn(o->message, "\n")] = '\0';
		}
		return;
	}
	/* The connection broke without a protocol error: either the
	 * compositor dropped us or it is gone. Give a dying process a moment
	 * to finish (a core dump can take a while) before asking. */
	att_note(o, "connection error: %s", strerror(err));
	for (int i = 0; i < 20; i++) {
		int code = 0;
		char st = a->compositor_pid > 0 ?
				  proc_state(a->compositor_pid, &code) : 'R';

		if (st == 'Z') {
			if (WIFSIGNALED(code))
				o->signal = WTERMSIG(code);
			break;
		}
		if (st == 0)
			break;
		if (i == 19 || att_alive(a))
			break;
		usleep(50000);
	}
	o->result = att_alive(a) ? RES_DISCONNECTED : RES_GONE;
}

/* Decide the outcome of everything sent so far: flush, round-trip, look. */
void att_conclude(struct attack *a, struct outcome *o)
{
	int rt = 0;

	if (o->result == RES_ERROR || o->result == RES_SKIPPED)
		return;
	if (!wl_display_get_error(a->display))
		rt = att_roundtrip(a);
	classify(a, o, rt);
}

/* --- probe: does a well-behaved client still get frames? --------------------- */

/* The probe's frames: how many arrived, and the slowest one (commit to
 * frame callback, in ms): the well-behaved client's view of fairness. */
static int probe_frames(int want, int timeout_ms, char *why, size_t whylen,
			int *worst_ms)
{
	struct attack p = { .timeout_ms = timeout_ms };
	struct wl_shm_pool *pool;
	struct wl_buffer *buf;
	int fd, got = 0;

	snprintf(why, whylen, "ok");
	if (att_connect(&p) != 0) {
		snprintf(why, whylen, "cannot connect");
		att_disconnect(&p);
		return 0;
	}
	fd = att_memfd(ATT_SIZE, MFD_ALLOW_SEALING,
		       F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
	if (fd < 0 || att_window(&p) != 0) {
		snprintf(why, whylen, "setup failed");
		if (fd >= 0)
			close(fd);
		att_disconnect(&p);
		return 0;
	}
	pool = wl_shm_create_pool(p.shm, fd, ATT_SIZE);
	close(fd);
	buf = wl_shm_pool_create_buffer(pool, 0, ATT_W, ATT_H, ATT_STRIDE,
					WL_SHM_FORMAT_XRGB8888);
	*worst_ms = 0;
	/* The first frame also maps the window; time the ones after it. */
	for (; got < want; got++) {
		int64_t t0 = now_ms();
		int r = att_present(&p, buf, ATT_W, ATT_H);

		if (r == 0 && got > 0 && now_ms() - t0 > *worst_ms)
			*worst_ms = (int)(now_ms() - t0);

		if (r != 0) {
			snprintf(why, whylen, "%s",
				 r > 0 ? "frame timeout" : "connection error");
			break;
		}
	}
	att_disconnect(&p);
	return got;
}

/* --- output ------------------------------------------------------------------- */

static const char *result_name(enum result r)
{
	switch (r) {
	case RES_ACCEPTED: return "accepted";
	case RES_REFUSED: return "refused";
	case RES_DISCONNECTED: return "disconnected";
	case RES_GONE: return "compositor-gone";
	case RES_UNRESPONSIVE: return "unresponsive";
	case RES_SKIPPED: return "skipped";
	case RES_ERROR: return "error";
	case RES_POLICY_REFUSED: return "policy-refused";
	case RES_SURVIVES: return "accepted|refused";
	case RES_NONE: break;
	}
	return "none";
}

/* Quote a value for the key="value" fields: no quotes or newlines inside. */
static void print_quoted(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			putchar('\'');
		else if (*s == '\n' || *s == '\t')
			putchar(' ');
		else
			putchar(*s);
	}
	putchar('"');
}

static void print_expect(const struct expect *e)
{
	printf("result=%s", result_name(e->result));
	if (e->code >= 0)
		printf(" code=%d", e->code);
	if (e->interface)
		printf(" interface=%s", e->interface);
	if (e->message) {
		printf(" message=");
		print_quoted(e->message);
	}
}

static bool contains_ci(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++)
		if (strncasecmp(hay, needle, n) == 0)
			return true;
	return n == 0;
}

/* Does an observed outcome match the declared secure-policy expectation? */
static bool matches(const struct expect *e, const struct outcome *o)
{
	if (o->result == RES_SKIPPED)
		return true;
	if (e->result == RES_SURVIVES)
		return o->result == RES_ACCEPTED || o->result == RES_REFUSED;
	if (e->result != o->result)
		return false;
	if (e->result != RES_REFUSED && e->result != RES_POLICY_REFUSED)
		return true;
	if (e->code >= 0 && e->code != o->code)
		return false;
	if (e->interface && strcmp(e->interface, o->interface) != 0)
		return false;
	if (e->message && !contains_ci(o->message, e->message))
		return false;
	return true;
}

static const struct scenario *find(const char *name)
{
	size_t n;
	const struct scenario *const *all = att_scenarios(&n);

	for (size_t i = 0; i < n; i++)
		if (strcmp(all[i]->name, name) == 0)
			return all[i];
	return NULL;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: wlseal-attack [OPTIONS] SCENARIO\n"
"       wlseal-attack --list | --expect SCENARIO | --help\n"
"\n"
"A hostile Wayland client: runs one wl_shm attack against $WAYLAND_DISPLAY\n"
"and prints one line\n"
"  OUTCOME scenario=NAME result=R [code=N interface=I message=\"...\"]\n"
"          [signal=N] probe-frames=GOT/WANT [probe-worst-ms=MS] match=yes|no\n"
"          note=\"...\"\n"
"R is accepted, refused (a protocol error), policy-refused (a\n"
"wlseal_shm_policy_v1 refusal event, code = reason, client still connected),\n"
"disconnected (dropped without\n"
"an error, compositor alive), compositor-gone (the compositor died; signal=N\n"
"when its death signal could be read), unresponsive, skipped (not\n"
"applicable, e.g. no seed ABI) or error (the attack could not be set up).\n"
"match= compares with the outcome the scenario declares for wlseal's secure\n"
"policy; probe-frames counts frame callbacks a fresh well-behaved client\n"
"received after the attack, probe-worst-ms is the slowest of them after the\n"
"first (commit to frame callback).\n"
"\n"
"  --list              every scenario: name, expected secure outcome, why\n"
"  --expect SCENARIO   the declared secure-policy outcome of SCENARIO\n"
"  --check             exit 1 when the outcome does not match the declared one\n"
"  --probe-frames N    frames the well-behaved probe waits for (default 3, 0: none)\n"
"  --timeout MS        per-wait timeout (default 3000)\n"
"  -v, --verbose       libwayland's log and progress on stderr\n"
"  --help              this text\n"
"\n"
"Exit status: 0 when an outcome was printed (and matched, with --check),\n"
"1 on a mismatch with --check, 2 on usage errors.\n");
}

static void list(void)
{
	size_t n;
	const struct scenario *const *all = att_scenarios(&n);

	for (size_t i = 0; i < n; i++) {
		printf("%-32s ", all[i]->name);
		print_expect(&all[i]->expect);
		printf("\n    %s\n", all[i]->rationale);
	}
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "list", no_argument, NULL, 'l' },
		{ "expect", required_argument, NULL, 'e' },
		{ "check", no_argument, NULL, 'c' },
		{ "probe-frames", required_argument, NULL, 'p' },
		{ "timeout", required_argument, NULL, 't' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct attack a = { .timeout_ms = 3000 };
	struct outcome o = { .code = -1 };
	const struct scenario *s;
	int probe_want = 3, probe_got = 0, probe_ms = 0, c;
	bool check = false;
	char why[64] = "";

	while ((c = getopt_long(argc, argv, "vh", opts, NULL)) != -1) {
		switch (c) {
		case 'l':
			list();
			return 0;
		case 'e':
			s = find(optarg);
			if (!s) {
				fprintf(stderr, "unknown scenario '%s'\n", optarg);
				return 2;
			}
			print_expect(&s->expect);
			putchar('\n');
			return 0;
		case 'c': check = true; break;
		case 'p': probe_want = atoi(optarg); break;
		case 't': a.timeout_ms = atoi(optarg); break;
		case 'v': a.verbose = log_verbose = true; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	s = find(argv[optind]);
	if (!s) {
		fprintf(stderr, "unknown scenario '%s' (see --list)\n",
			argv[optind]);
		return 2;
	}

	/* A write to a socket the compositor closed must not kill us. */
	signal(SIGPIPE, SIG_IGN);
	wl_log_set_handler_client(log_handler);

	if (att_connect(&a) != 0) {
		att_fail_setup(&o, "cannot connect to the compositor (WAYLAND_DISPLAY=%s)",
			   getenv("WAYLAND_DISPLAY") ? getenv("WAYLAND_DISPLAY") : "");
	} else {
		s->run(&a, &o);
		if (o.result == RES_NONE)
			att_conclude(&a, &o);
	}
	if (a.display)
		att_disconnect(&a);

	if (probe_want > 0 && o.result != RES_GONE && o.result != RES_SKIPPED &&
	    !(o.result == RES_ERROR && !a.registry))
		probe_got = probe_frames(probe_want, a.timeout_ms, why, sizeof(why),
					 &probe_ms);

	printf("OUTCOME scenario=%s result=%s", s->name, result_name(o.result));
	if (o.result == RES_REFUSED || o.result == RES_POLICY_REFUSED) {
		printf(" code=%d interface=%s message=", o.code, o.interface);
		print_quoted(o.message);
	}
	if (o.signal)
		printf(" signal=%d", o.signal);
	printf(" probe-frames=%d/%d", probe_got, probe_want);
	if (probe_got > 1)
		printf(" probe-worst-ms=%d", probe_ms);
	if (probe_want > 0 && probe_got < probe_want && why[0])
		printf(" probe=\"%s\"", why);
	printf(" match=%s", matches(&s->expect, &o) ? "yes" : "no");
	if (o.note[0]) {
		printf(" note=");
		print_quoted(o.note);
	}
	putchar('\n');
	fflush(stdout);
	if (o.result == RES_ERROR)
		return check ? 1 : 0;
	return check && !matches(&s->expect, &o) ? 1 : 0;
}
