/* SPDX-License-Identifier: MIT */
/*
 * outcome.c - what an attack did to the compositor: notes, the error text
 * libwayland logs, whether the compositor process lives, and the verdict
 * (att_conclude) from the state of the connection.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "attack.h"

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

void att_log_init(bool verbose)
{
	log_verbose = verbose;
	wl_log_set_handler_client(log_handler);
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
	ok = att_roundtrip_display(d, a->timeout_ms) == 0;
	wl_display_disconnect(d);
	return ok;
}

static void classify(struct attack *a, struct outcome *o, int rt)
{
	struct wl_display *d = a->display;
	const struct wl_interface *iface = NULL;
	uint32_t id, code;
	int err = wl_display_get_error(d);

	if (rt == 1 && !err) {
		o->result = RES_UNRESPONSIVE;
		return;
	}
	if (!err) {
		o->result = RES_ACCEPTED;
		return;
	}
	/* libwayland-client reports wl_display's own errors (invalid_object,
	 * invalid_method: EINVAL; no_memory, which wlseal's object budgets
	 * post: ENOMEM) with another errno, and keeps the protocol error
	 * all the same: a refusal like any other. */
	code = wl_display_get_protocol_error(d, &iface, &id);
	if (err == EPROTO || iface) {
		const char *m;

		o->result = RES_REFUSED;
		o->code = (int)code;
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

/*
 * A scenario that needs a pool larger than the compositor's pool memory
 * budget allows on this machine (half of its available memory: a 2 GiB
 * pool in a 1 GiB VM) cannot run here: when the connection was refused
 * for that reason, the outcome is skipped, with the compositor's words.
 */
bool att_skip_if_unaffordable(struct attack *a, struct outcome *o)
{
	if (!wl_display_get_error(a->display) ||
	    !strstr(last_log, "pool memory limit"))
		return false;
	o->result = RES_SKIPPED;
	att_note(o, "the compositor cannot afford this pool on this machine: %s",
		 strstr(last_log, "compositor near"));
	o->note[strcspn(o->note, "\n")] = '\0';
	return true;
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
