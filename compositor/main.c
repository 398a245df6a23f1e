/* SPDX-License-Identifier: MIT */
/*
 * main.c - wlseal-compositor: command line, logging, and the event loop.
 *
 * Signals are handled through signalfd (wl_event_loop_add_signal), never
 * through a handler, so the compositor's SigCgt mask stays empty: with
 * the secure shm policy there is no SIGBUS to catch, and nothing here
 * pretends otherwise.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <wayland-server-core.h>

#include "account.h"
#include "backend.h"
#include "cpu.h"
#include "connections.h"
#include "embed.h"
#include "fd-guard.h"
#include "heap.h"
#include "input.h"
#include "log.h"
#include "options.h"
#include "repaint.h"
#include "server.h"
#include "shm.h"
#include "socket.h"
#include "wl.h"

/* The command line; the other layers get what they need of it, each
 * its own part, from main(). */
struct wlseal_options {
	const char *backend;	/* "drm" or "headless" */
	const char *drm_device;
	int width, height;	/* headless size; preferred DRM mode */
	const char *socket;
	int max_clients;	/* --max-clients, 0: derived from the fd table */
	enum wlseal_shm_mode shm;
	enum wlseal_policy policy;
	/* Policy settings from the command line, applied over the --policy
	 * preset; --policy-file is applied last (and again on SIGHUP). */
	struct wlseal_policy_setting policy_settings[16];
	int n_policy_settings;
	const char *policy_file;
	bool verbose;
	bool print_frames;
	bool composite_only;	/* --scanout=composite */
	const char *screenshot;	/* PNG path */
	uint64_t screenshot_frame; /* 0: only on SIGUSR1 */
	int exit_after;		/* seconds, 0: never */
	int max_pools_per_client; /* live wl_shm_pools per client */
	uint64_t max_pool_memory;  /* --max-pool-memory, 0: derived */
	bool residency_check;	/* --residency-check=on|off */
	bool resize_moves;	/* --pool-resize=move */
	int oom_score_adj;
	int max_objects[WLSEAL_BUDGET_KINDS]; /* --max-*-per-client */
	/* --input paths (input/): streams of struct input_event. */
	const char *inputs[8];
	int n_inputs;
	bool xdg_early_map;	/* --xdg-early-buffer=map */
};


static struct wlseal_options *options;

/* Per-client bookkeeping of main.c: the heap is trimmed after a client
 * leaves. The connect and disconnect lines are account/connections.c's. */
struct wlseal_client {
	struct wl_listener destroy;
};

static void client_destroyed(struct wl_listener *listener, void *data)
{
	struct wlseal_client *c = wl_container_of(listener, c, destroy);

	wl_list_remove(&c->destroy.link);
	free(c);
	wlseal_heap_client_gone();
}

static void client_created(struct wl_listener *listener, void *data)
{
	struct wlseal_server *server =
		wl_container_of(listener, server, client_created);
	struct wl_client *client = data;
	struct wlseal_client *c;

	/* Every object of the client is counted from its first request
	 * on (account/objects.c); without memory for that, no client. */
	if (!wlseal_account_open(&server->ledger, client)) {
		wl_client_post_no_memory(client);
		return;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return;
	c->destroy.notify = client_destroyed;
	wl_client_add_destroy_listener(client, &c->destroy);
}

static bool shm_releasing(void *data)
{
	return wlseal_shm_releasing(data);
}

static int on_term(int sig, void *data)
{
	struct wlseal_server *server = data;

	wlseal_log("signal %d, exiting", sig);
	wl_display_terminate(server->display);
	return 0;
}

static int on_usr1(int sig, void *data)
{
	struct wlseal_server *server = data;

	wlseal_screenshot(server, server->screenshot ?
				 server->screenshot : "wlseal-screenshot.png");
	return 0;
}

static bool build_policy(const struct wlseal_options *o,
			 struct wlseal_shm_policy *p, char *err, size_t len)
{
	return wlseal_policy_build(o->policy, o->policy_settings,
				   o->n_policy_settings, o->policy_file, p,
				   err, len);
}

/*
 * SIGHUP: read --policy-file again and announce the result. A file that
 * does not parse leaves the policy as it was; an unchanged policy is not
 * announced again.
 */
static int on_hup(int sig, void *data)
{
	struct wlseal_server *server = data;
	struct wlseal_shm_policy next;
	char err[256];

	if (!options->policy_file) {
		wlseal_log("SIGHUP: no --policy-file, policy unchanged");
		return 0;
	}
	if (!build_policy(options, &next, err, sizeof(err))) {
		wlseal_log("SIGHUP: policy unchanged: %s", err);
		return 0;
	}
	if (wlseal_policy_equal(&next, &server->shm.policy)) {
		wlseal_log("SIGHUP: %s: policy unchanged", options->policy_file);
		return 0;
	}
	wlseal_shm_policy_update(&server->shm, &next);
	return 0;
}

static int on_exit_timer(void *data)
{
	struct wlseal_server *server = data;

	wlseal_log("--exit-after reached, exiting");
	wl_display_terminate(server->display);
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
"Usage: wlseal-compositor [OPTION]...\n"
"A minimal Wayland compositor that maps only SEAL_SHRINK-sealed shm pools.\n"
"\n"
"  --backend=drm|headless   output backend (default: drm if /dev/dri/card0\n"
"                           exists, else headless)\n"
"  --drm-device=PATH        KMS device (default /dev/dri/card0)\n"
"                           (environment WLSEAL_DRM_UPDATE=dirty: one buffer,\n"
"                           drmModeDirtyFB of the damage instead of flips)\n"
"  --size=WxH               headless output size; preferred DRM mode size\n"
"                           (default 1024x768 headless)\n"
"  --socket=NAME            socket name in $XDG_RUNTIME_DIR (default: first\n"
"                           free wayland-N); NAME.lock beside it is held\n"
"                           while the compositor runs\n"
"  --max-clients=N          connections at once (default: what a quarter of\n"
"                           the fd table holds at 4 fds each, 16 to 1024);\n"
"                           past it a new connection evicts the oldest one\n"
"                           that never mapped a window, or is refused when\n"
"                           all have\n"
"  --shm=wlseal|libwayland  wl_shm implementation (default wlseal)\n"
"  --policy=secure|permissive\n"
"                           wlseal shm policy: secure requires F_SEAL_SHRINK\n"
"                           and a file covering the pool; permissive maps\n"
"                           anything, without a SIGBUS handler (default secure)\n"
"  --require-seals=LIST     seals a pool's file must carry (secure default:\n"
"                           shrink); LIST: comma list of seal, shrink, grow,\n"
"                           write, future-write, or none, all\n"
"  --accept-seals=LIST      seals a file may carry (default all; required\n"
"                           seals are always accepted; without write,\n"
"                           write-sealed buffers are refused)\n"
"  --max-pool-size=BYTES    largest pool mapped (default 2147483647)\n"
"  --unsealed=refuse|seal|copy\n"
"                           a pool whose file lacks a required seal: refuse\n"
"                           it (default); seal: add F_SEAL_SHRINK/GROW\n"
"                           ourselves when the file is sealable, else\n"
"                           refuse; copy: as seal, and a file that cannot\n"
"                           be sealed is never mapped, its buffers are read\n"
"                           with pread() at commit (damaged rows only)\n"
"  --policy-file=PATH       the same settings, one 'key = value' per line\n"
"                           (policy, require-seals, accept-seals,\n"
"                           max-pool-size, unsealed; '#' comments), applied after the\n"
"                           options and read again on SIGHUP; a change is\n"
"                           announced to wlseal_shm_policy_v1 clients\n"
"  --scanout=direct|composite\n"
"                           direct (default): when one opaque surface covers\n"
"                           the output at 1:1, show its buffer as it is (drm:\n"
"                           a udmabuf of the client's sealed pages, flipped\n"
"                           to; 0 bytes copied, presentation kind zero_copy);\n"
"                           composite: always draw the frame\n"
"  --print-frames           print 'WLSEAL-FRAME <seq> <crc32>' on stdout for\n"
"                           every frame shown (zlib crc32 of the XRGB8888\n"
"                           rows, w*4 bytes each, X byte counted as 0)\n"
"  --screenshot=PATH        PNG written on SIGUSR1 and at --screenshot-frame\n"
"  --screenshot-frame=N     write --screenshot when frame N is shown\n"
"  --exit-after=SECONDS     exit after that long\n"
"  --max-pool-memory=BYTES  bytes all clients' pools may map together (default:\n"
"                           the memory available at start, within the\n"
"                           compositor's memory cgroup): every mapped byte\n"
"                           is one the compositor can be charged for\n"
"  --residency-check=on|off on (the default): a view of a pool is drawn once\n"
"                           the pages it samples are in memory, and a thread\n"
"                           brings in those that are not (holes of a sparse\n"
"                           file); off: the repaint faults them in itself\n"
"  --pool-resize=grow|move  grow (the default): a pool's mapping grows where\n"
"                           it lies when it can, else it moves, and one the\n"
"                           display holds is left in place (shm/pool.c);\n"
"                           move: every growth moves it, as a crowded\n"
"                           address space would (for tests)\n"
"  --oom-score-adj=N        written to /proc/self/oom_score_adj at start\n"
"                           (-1000 to 1000, default -1000: the kernel's OOM\n"
"                           killer takes clients before the compositor;\n"
"                           lowering needs CAP_SYS_RESOURCE, else kept)\n"
"  --max-pools-per-client=N pools one client may hold (default 1024), counted\n"
"                           while the pool or any of its buffers lives: each\n"
"                           is a mapping (and an fd until wl_shm_pool.destroy)\n"
"  --max-surfaces-per-client=N, --max-subsurfaces-per-client=N,\n"
"  --max-regions-per-client=N, --max-callbacks-per-client=N,\n"
"  --max-feedbacks-per-client=N, --max-outputs-per-client=N,\n"
"  --max-objects-per-client=N\n"
"                           protocol objects one client may hold at once\n"
"                           (defaults 4096, 1024, 1024, 4096, 4096, 64, 65536;\n"
"                           callbacks: wl_surface.frame, feedbacks:\n"
"                           wp_presentation_feedback, objects: all of any\n"
"                           kind); past one the client gets wl_display.error\n"
"                           no_memory naming the limit. All clients together\n"
"                           may hold 16 times each, the last quarter only\n"
"                           for clients holding few\n"
"  --max-string-bytes-per-client=N\n"
"                           bytes of window titles and mime types one client\n"
"                           may make the compositor keep (default 1048576,\n"
"                           each string counted with 32 bytes of overhead;\n"
"                           the same rules)\n"
"  --xdg-early-buffer=error|map\n"
"                           a buffer an xdg_toplevel or xdg_popup client\n"
"                           attaches before its first configure: error\n"
"                           (default, as xdg_surface says: the client gets\n"
"                           unconfigured_buffer); map: a toplevel's first\n"
"                           configure goes out when the role is made, and a\n"
"                           buffer committed before any configure was acked\n"
"                           is taken as if the newest one had been, mapping\n"
"                           the window (for clients written against\n"
"                           compositors that allow it); a buffer attached\n"
"                           to an xdg_surface without a role is an error\n"
"                           in both\n"
"  --input=PATH             read keys and pointer motion from PATH, any file\n"
"                           of struct input_event records (an evdev node, a\n"
"                           FIFO); repeatable, up to 8. A stream that is no\n"
"                           evdev node counts as keyboard and pointer, its\n"
"                           EV_ABS values as output pixels. The drm backend\n"
"                           also opens every keyboard, tablet and mouse in\n"
"                           /dev/input at start\n"
"  --verbose                log mapping, the seals of accepted pools, buffer\n"
"                           commits and per-frame details\n"
"  --help                   show this help\n"
"\n"
"Log lines go to stderr: one per client connect/disconnect and per refused\n"
"request (client pid, reason), at most a few dozen a second, with a count\n"
"of the lines not logged. The line 'wlseal-compositor: ready\n"
"WAYLAND_DISPLAY=NAME' is printed once clients can connect.\n");
}

/* --exit-after in seconds, armed as an int of milliseconds. */
#define MAX_EXIT_AFTER (INT_MAX / 1000)

static bool parse_options(int argc, char **argv, struct wlseal_options *o)
{
	enum { O_BACKEND = 256, O_DRM_DEVICE, O_SIZE, O_SOCKET, O_SHM, O_POLICY,
	       O_PRINT_FRAMES, O_SCREENSHOT, O_SCREENSHOT_FRAME, O_EXIT_AFTER,
	       O_MAX_POOLS_PER_CLIENT, O_MAX_POOL_MEMORY, O_OOM_SCORE_ADJ,
	       O_VERBOSE, O_HELP, O_REQUIRE_SEALS, O_ACCEPT_SEALS,
	       O_MAX_POOL_SIZE, O_UNSEALED, O_POLICY_FILE, O_INPUT, O_MAX_CLIENTS,
	       O_SCANOUT,
	       O_XDG_EARLY_BUFFER,
	       O_RESIDENCY_CHECK, O_POOL_RESIZE,
	       O_BUDGET /* + enum wlseal_budget: the --max-*-per-client */ };
	/* Not static: the budget options take their names from objects.c. */
	const struct option longopts[] = {
		{ "backend", required_argument, NULL, O_BACKEND },
		{ "drm-device", required_argument, NULL, O_DRM_DEVICE },
		{ "size", required_argument, NULL, O_SIZE },
		{ "socket", required_argument, NULL, O_SOCKET },
		{ "shm", required_argument, NULL, O_SHM },
		{ "policy", required_argument, NULL, O_POLICY },
		{ "print-frames", no_argument, NULL, O_PRINT_FRAMES },
		{ "screenshot", required_argument, NULL, O_SCREENSHOT },
		{ "screenshot-frame", required_argument, NULL, O_SCREENSHOT_FRAME },
		{ "exit-after", required_argument, NULL, O_EXIT_AFTER },
		{ "max-pools-per-client", required_argument, NULL, O_MAX_POOLS_PER_CLIENT },
		{ "max-pool-memory", required_argument, NULL, O_MAX_POOL_MEMORY },
		{ "oom-score-adj", required_argument, NULL, O_OOM_SCORE_ADJ },
		{ "residency-check", required_argument, NULL, O_RESIDENCY_CHECK },
		{ "pool-resize", required_argument, NULL, O_POOL_RESIZE },
		{ "verbose", no_argument, NULL, O_VERBOSE },
		{ "help", no_argument, NULL, O_HELP },
		{ "require-seals", required_argument, NULL, O_REQUIRE_SEALS },
		{ "accept-seals", required_argument, NULL, O_ACCEPT_SEALS },
		{ "max-pool-size", required_argument, NULL, O_MAX_POOL_SIZE },
		{ "unsealed", required_argument, NULL, O_UNSEALED },
		{ "policy-file", required_argument, NULL, O_POLICY_FILE },
		{ "input", required_argument, NULL, O_INPUT },
		{ "max-clients", required_argument, NULL, O_MAX_CLIENTS },
		{ "scanout", required_argument, NULL, O_SCANOUT },
		{ "xdg-early-buffer", required_argument, NULL, O_XDG_EARLY_BUFFER },
#define BUDGET_OPT(k) { wlseal_budget_info[k].option, required_argument, NULL, O_BUDGET + (k) }
		BUDGET_OPT(WLSEAL_BUDGET_SURFACES),
		BUDGET_OPT(WLSEAL_BUDGET_SUBSURFACES),
		BUDGET_OPT(WLSEAL_BUDGET_REGIONS),
		BUDGET_OPT(WLSEAL_BUDGET_CALLBACKS),
		BUDGET_OPT(WLSEAL_BUDGET_FEEDBACKS),
		BUDGET_OPT(WLSEAL_BUDGET_OUTPUTS),
		BUDGET_OPT(WLSEAL_BUDGET_OBJECTS),
		BUDGET_OPT(WLSEAL_BUDGET_STRING_BYTES),
#undef BUDGET_OPT
		{ 0 },
	};
	static const char *const backends[] = { "drm", "headless", NULL };
	static const char *const shms[] = { "wlseal", "libwayland", NULL };
	static const char *const policies[] = { "secure", "permissive", NULL };
	static const char *const scanouts[] = { "direct", "composite", NULL };
	static const char *const early[] = { "error", "map", NULL };
	uint64_t n;
	int c, idx = 0;

	while ((c = getopt_long(argc, argv, "", longopts, &idx)) != -1) {
		switch (c) {
		case O_BACKEND:
			if (wlseal_option_choice(optarg, backends) < 0)
				return wlseal_option_bad("unknown backend '%s'", optarg);
			o->backend = optarg;
			break;
		case O_DRM_DEVICE:
			o->drm_device = optarg;
			break;
		case O_SIZE:
			if (!wlseal_option_size(optarg, 16384, &o->width,
						&o->height))
				return wlseal_option_bad("bad --size '%s' (want WxH)", optarg);
			break;
		case O_SOCKET:
			o->socket = optarg;
			break;
		case O_SHM:
			/* The names in the order of enum wlseal_shm_mode. */
			c = wlseal_option_choice(optarg, shms);
			if (c < 0)
				return wlseal_option_bad("unknown --shm '%s'", optarg);
			o->shm = (enum wlseal_shm_mode)c;
			break;
		case O_POLICY:
			/* The names in the order of enum wlseal_policy. */
			c = wlseal_option_choice(optarg, policies);
			if (c < 0)
				return wlseal_option_bad("unknown --policy '%s'", optarg);
			o->policy = (enum wlseal_policy)c;
			break;
		case O_REQUIRE_SEALS:
		case O_ACCEPT_SEALS:
		case O_MAX_POOL_SIZE:
		case O_UNSEALED:
			/* Kept in order; applied over the --policy preset
			 * by build_policy(). */
			if (o->n_policy_settings == (int)(sizeof(o->policy_settings) /
							 sizeof(o->policy_settings[0])))
				return wlseal_option_bad("too many policy options");
			o->policy_settings[o->n_policy_settings].key =
				longopts[idx].name;
			o->policy_settings[o->n_policy_settings++].value = optarg;
			break;
		case O_POLICY_FILE:
			o->policy_file = optarg;
			break;
		case O_SCANOUT:
			c = wlseal_option_choice(optarg, scanouts);
			if (c < 0)
				return wlseal_option_bad("unknown --scanout '%s' (want direct or composite)", optarg);
			o->composite_only = c == 1;
			break;
		case O_INPUT:
			if (o->n_inputs == (int)(sizeof(o->inputs) / sizeof(o->inputs[0])))
				return wlseal_option_bad("too many --input options");
			o->inputs[o->n_inputs++] = optarg;
			break;
		case O_MAX_CLIENTS:
			if (!wlseal_option_uint(optarg, 1, 1000000, &n))
				return wlseal_option_bad("--max-clients must be a "
							 "number from 1 to 1000000");
			o->max_clients = (int)n;
			break;
		case O_XDG_EARLY_BUFFER:
			c = wlseal_option_choice(optarg, early);
			if (c < 0)
				return wlseal_option_bad("unknown --xdg-early-buffer "
							 "'%s' (want error or map)",
							 optarg);
			o->xdg_early_map = c == 1;
			break;
		case O_PRINT_FRAMES:
			o->print_frames = true;
			break;
		case O_SCREENSHOT:
			o->screenshot = optarg;
			break;
		case O_SCREENSHOT_FRAME:
			if (!wlseal_option_uint(optarg, 0, UINT64_MAX,
						&o->screenshot_frame))
				return wlseal_option_bad("bad --screenshot-frame '%s' "
							 "(want a frame number)", optarg);
			break;
		case O_EXIT_AFTER:
			if (!wlseal_option_uint(optarg, 0, MAX_EXIT_AFTER, &n))
				return wlseal_option_bad("bad --exit-after '%s' (want 0 "
							 "to %d seconds)", optarg,
							 MAX_EXIT_AFTER);
			o->exit_after = (int)n;
			break;
		case O_MAX_POOLS_PER_CLIENT:
			if (!wlseal_option_uint(optarg, 1, INT_MAX, &n))
				return wlseal_option_bad("--max-pools-per-client must "
							 "be a number from 1 to %d",
							 INT_MAX);
			o->max_pools_per_client = (int)n;
			break;
		case O_MAX_POOL_MEMORY:
			if (!wlseal_option_uint(optarg, 1ull << 20, UINT64_MAX / 2,
						&o->max_pool_memory))
				return wlseal_option_bad("--max-pool-memory must "
							 "be a byte count of at "
							 "least 1 MiB");
			break;
		case O_OOM_SCORE_ADJ: {
			/* -1000 to 1000: a sign, then what option_uint takes. */
			bool neg = optarg[0] == '-';

			if (!wlseal_option_uint(optarg + neg, 0, 1000, &n))
				return wlseal_option_bad("--oom-score-adj must be "
							 "from -1000 to 1000");
			o->oom_score_adj = neg ? -(int)n : (int)n;
			break;
		}
		case O_RESIDENCY_CHECK:
			if (strcmp(optarg, "on") && strcmp(optarg, "off"))
				return wlseal_option_bad("--residency-check must be on or off");
			o->residency_check = !strcmp(optarg, "on");
			break;
		case O_POOL_RESIZE:
			if (strcmp(optarg, "grow") && strcmp(optarg, "move"))
				return wlseal_option_bad("--pool-resize must be grow or move");
			o->resize_moves = !strcmp(optarg, "move");
			break;
		case O_VERBOSE:
			o->verbose = true;
			wlseal_log_set_verbose(true);
			break;
		case O_HELP:
			usage(stdout);
			exit(0);
		default:
			if (c >= O_BUDGET && c < O_BUDGET + WLSEAL_BUDGET_KINDS) {
				if (!wlseal_option_uint(optarg, 1, INT_MAX, &n))
					return wlseal_option_bad("--%s must be a number "
								 "from 1 to %d",
								 longopts[idx].name,
								 INT_MAX);
				o->max_objects[c - O_BUDGET] = (int)n;
				break;
			}
			usage(stderr);
			return false;
		}
	}
	if (optind < argc)
		return wlseal_option_bad("unexpected argument '%s'", argv[optind]);
	return true;
}

static const char *shm_name(const struct wlseal_options *o)
{
	if (o->shm == WLSEAL_SHM_LIBWAYLAND)
		return "libwayland";
	return o->policy == WLSEAL_POLICY_SECURE ? "wlseal-secure"
						 : "wlseal-permissive";
}

/*
 * Every page of a pool the compositor reads is in its RSS, and a page it
 * faults into a hole is charged to it too: to the kernel's OOM killer the
 * compositor looks like the biggest process there is, while the client
 * that made those pages (and any memfd pages it keeps unmapped) counts
 * for nothing. The pool budget (account/pools.c) keeps what the compositor maps
 * below what the machine can afford; this keeps the OOM killer, when
 * clients run the machine out of memory by other means, from picking the
 * one process every client needs.
 */
static void set_oom_score_adj(int adj)
{
	FILE *f = fopen("/proc/self/oom_score_adj", "we");

	if (!f || fprintf(f, "%d\n", adj) < 0 || fclose(f) != 0) {
		/* Lowering it needs CAP_SYS_RESOURCE: not fatal. */
		wlseal_log("oom_score_adj %d not set: %s", adj, strerror(errno));
		return;
	}
	wlseal_debug("oom_score_adj %d", adj);
}

/*
 * Every pool keeps its fd while its wl_shm_pool resource lives (resize
 * needs it), every client is a socket, every keymap a file: the default
 * soft limit of 1024 would let a few clients within their budgets fill
 * the table. The pool budget (account/pools.c) keeps a share of whatever
 * the limit is for light clients; raising the soft limit to the hard one
 * makes that share as large as the process may have.
 */
static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
			wlseal_log("cannot raise the fd limit: %m");
	}
}

int main(int argc, char **argv)
{
	struct wlseal_server server = {0};
	struct wlseal_options opts = {0};
	struct wlseal_socket sock = { .fd = -1, .lock_fd = -1 };
	struct wlseal_input input;
	struct wlseal_options *o = &opts;
	int ret = 1;

	options = o;
	o->drm_device = "/dev/dri/card0";
	o->max_pools_per_client = 1024;
	o->oom_score_adj = -1000;
	o->residency_check = true;
	for (int k = 0; k < WLSEAL_BUDGET_KINDS; k++)
		o->max_objects[k] = wlseal_budget_info[k].def;
	o->shm = WLSEAL_SHM_WLSEAL;
	o->policy = WLSEAL_POLICY_SECURE;
	if (!parse_options(argc, argv, o))
		return 2;
	if (!o->backend)
		o->backend = access(o->drm_device, F_OK) == 0 ? "drm" : "headless";
	if (!o->width) {
		if (!strcmp(o->backend, "headless")) {
			o->width = 1024;
			o->height = 768;
		}
	}
	raise_fd_limit();
	/* Lines on stdout (WLSEAL-FRAME) must reach a pipe at once. */
	setvbuf(stdout, NULL, _IOLBF, 0);

	/* The policy, checked before anything starts. */
	{
		char err[256];

		if (!build_policy(o, &server.shm.policy, err, sizeof(err))) {
			fprintf(stderr, "wlseal-compositor: %s\n", err);
			return 2;
		}
	}

	server.display = wl_display_create();
	if (!server.display)
		return 1;
	server.loop = wl_display_get_event_loop(server.display);
	if (!wlseal_fd_guard_init(server.display)) {
		wl_display_destroy(server.display);
		return 1;
	}
	server.shm.display = server.display;
	server.shm.mode = o->shm;
	server.shm.residency_check = o->residency_check;
	server.shm.resize_moves = o->resize_moves;
	server.ledger.pools.per_client = o->max_pools_per_client;
	server.ledger.pools.max_bytes = o->max_pool_memory;	/* 0: derived */
	memcpy(server.ledger.objects.per_client, o->max_objects,
	       sizeof(server.ledger.objects.per_client));
	wlseal_ledger_init(&server.ledger);
	set_oom_score_adj(o->oom_score_adj);
	server.print_frames = o->print_frames;
	server.direct_scanout = !o->composite_only;
	server.screenshot = o->screenshot;
	server.screenshot_frame = o->screenshot_frame;
	server.xdg_early_map = o->xdg_early_map;

	server.backend = wlseal_backend_create(o->backend, server.loop,
					       o->drm_device, o->width,
					       o->height);
	if (!server.backend) {
		wlseal_log("cannot start the %s backend", o->backend);
		goto out_display;
	}

	wlseal_repaint_init(&server);
	/* Pools that can hold a full-screen frame keep their fd for it
	 * (shm/pool.c). */
	if (server.direct_scanout)
		server.shm.scanout_min_bytes = (uint64_t)server.output.width *
					       (uint64_t)server.output.height * 4;
	if (!wlseal_output_init(&server) || !wlseal_compositor_init(&server) ||
	    !wlseal_subcompositor_init(&server) ||
	    !wlseal_data_device_init(&server) ||
	    !(server.seat = wlseal_seat_create(&server)) ||
	    !wlseal_shm_init(&server.shm) || !wlseal_shm_policy_init(&server.shm) ||
	    !wlseal_xdg_shell_init(&server) ||
	    !wlseal_wl_shell_init(&server) ||
	    !wlseal_xdg_decoration_init(&server) ||
	    !wlseal_xdg_output_init(&server) ||
	    !wlseal_relative_pointer_init(&server) ||
	    !wlseal_pointer_constraints_init(&server) ||
	    !wlseal_text_input_init(&server) ||
	    !wlseal_viewporter_init(&server) ||
	    !wlseal_presentation_init(&server) ||
	    !wlseal_heap_init(server.loop, shm_releasing, &server.shm)) {
		wlseal_log("cannot create the globals");
		goto out_backend;
	}

	/* Input: the VM's devices on the drm backend, and --input. */
	wlseal_input_init(&input, server.loop, server.output.width,
			  server.output.height, &wlseal_seat_input, server.seat);
	if (!strcmp(server.backend->name, "drm"))
		wlseal_input_scan(&input, "/dev/input");
	for (int i = 0; i < o->n_inputs; i++)
		if (!wlseal_input_add_path(&input, o->inputs[i]))
			goto out_input;
	wlseal_input_start(&input);

	server.client_created.notify = client_created;
	wl_display_add_client_created_listener(server.display,
					       &server.client_created);
	server.sigterm = wl_event_loop_add_signal(server.loop, SIGTERM, on_term, &server);
	server.sigint = wl_event_loop_add_signal(server.loop, SIGINT, on_term, &server);
	server.sigusr1 = wl_event_loop_add_signal(server.loop, SIGUSR1, on_usr1, &server);
	server.sighup = wl_event_loop_add_signal(server.loop, SIGHUP, on_hup, &server);
	if (o->exit_after > 0) {
		server.exit_timer = wl_event_loop_add_timer(server.loop,
							    on_exit_timer, &server);
		wl_event_source_timer_update(server.exit_timer, o->exit_after * 1000);
	}

	/* Our own socket, accepted by admission control. */
	if (!wlseal_socket_open(&sock, o->socket))
		goto out_input;
	if (!wlseal_connections_init(server.display, sock.fd, o->max_clients)) {
		wlseal_log("cannot listen for clients");
		goto out_input;
	}
	server.socket_name = sock.name;
	wlseal_log("backend=%s size=%dx%d shm=%s",
		   server.backend->name, server.backend->width,
		   server.backend->height, shm_name(o));
	{
		char desc[160];

		wlseal_policy_describe(&server.shm.policy, desc, sizeof(desc));
		wlseal_log("policy %s%s%s", desc,
			   o->policy_file ? " file=" : "",
			   o->policy_file ? o->policy_file : "");
	}
	wlseal_log("ready WAYLAND_DISPLAY=%s", server.socket_name);

	wlseal_cpu_start();
#ifdef WLSEAL_EMBEDDED
	wlseal_embedded_run(&server);
#else
	wl_display_run(server.display);
#endif
	ret = 0;

	wl_display_destroy_clients(server.display);
	wlseal_cpu_report();
	wlseal_shm_finish(&server.shm);
out_input:
	wlseal_input_finish(&input);
out_backend:
	wlseal_seat_destroy(server.seat);
	/* Event sources are not owned by the loop: remove them ourselves. */
	if (server.sigterm)
		wl_event_source_remove(server.sigterm);
	if (server.sigint)
		wl_event_source_remove(server.sigint);
	if (server.sigusr1)
		wl_event_source_remove(server.sigusr1);
	if (server.sighup)
		wl_event_source_remove(server.sighup);
	if (server.exit_timer)
		wl_event_source_remove(server.exit_timer);
	wlseal_heap_finish();
	wlseal_repaint_finish(&server);
out_display:
	wl_display_destroy_clients(server.display);
	wlseal_compositor_finish(&server);
	wlseal_connections_finish();
	wlseal_socket_close(&sock);
	wlseal_fd_guard_finish();
	wl_display_destroy(server.display);
	return ret;
}
