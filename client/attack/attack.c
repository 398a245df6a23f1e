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
 *
 * This file holds main(): the options, the scenario lookup and the OUTCOME
 * line. The connection is harness.c's, the verdict outcome.c's, the
 * well-behaved client probe.c's.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "attack.h"

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
"The stall scenarios print a line before it:\n"
"  VICTIM frames=N window_ms=5000 worst_gap_ms=G first_frame_ms=F\n"
"         after_first_frame_ms=A worst_gap_at_ms=T\n"
"what a well-behaved client redrawing on every frame callback during the\n"
"attack got (frame callbacks in the window, the worst gap between two),\n"
"and the time to a first frame of a client connecting during (F) and\n"
"after (A) the attack, -1 when none came within 10 s; T is when the\n"
"worst gap ended, in ms from the window's start.\n"
"\n"
"  --list              every scenario: name, expected secure outcome, why\n"
"  --expect SCENARIO   the declared secure-policy outcome of SCENARIO\n"
"  --check             exit 1 when the outcome does not match the declared one\n"
"  --probe-frames N    frames the well-behaved probe waits for (default 3, 0: none)\n"
"  --timeout MS        per-wait timeout (default 3000)\n"
"  --clients N         attacking connections of view-walk (default 4)\n"
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
		{ "clients", required_argument, NULL, 'n' },
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
		case 'n': a.clients = atoi(optarg); break;
		case 'v': a.verbose = true; break;
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
	att_log_init(a.verbose);

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
		probe_got = att_probe_frames(probe_want, a.timeout_ms, why,
					     sizeof(why), &probe_ms);

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
