/* SPDX-License-Identifier: MIT */
/*
 * options.c - wlseal-compositor's command line: its defaults, its usage,
 * and the parse into struct wlseal_options (wlseal.h). Values are checked
 * here (common/options.h); what they mean is each layer's.
 */
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "options.h"
#include "wlseal.h"

void wlseal_options_defaults(struct wlseal_options *o)
{
	*o = (struct wlseal_options){
		.drm_device = "/dev/dri/card0",
		.max_pools_per_client = 1024,
		.oom_score_adj = -1000,
		.residency_check = true,
		.shm = WLSEAL_SHM_WLSEAL,
		.policy = WLSEAL_POLICY_SECURE,
	};
	for (int k = 0; k < WLSEAL_BUDGET_KINDS; k++)
		o->max_objects[k] = wlseal_budget_info[k].def;
}

void wlseal_options_usage(FILE *f)
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
"  --list-globals           print every global the compositor offers (its\n"
"                           interface, version, file, what it charges,\n"
"                           whether it is privileged) and exit\n"
"  --help                   show this help\n"
"\n"
"Log lines go to stderr: one per client connect/disconnect and per refused\n"
"request (client pid, reason), at most a few dozen a second, with a count\n"
"of the lines not logged. The line 'wlseal-compositor: ready\n"
"WAYLAND_DISPLAY=NAME' is printed once clients can connect.\n");
}

/* --exit-after in seconds, armed as an int of milliseconds. */
#define MAX_EXIT_AFTER (INT_MAX / 1000)

/* wlseal_option_bad()'s message, and the verdict. */
#define bad(...) (wlseal_option_bad(__VA_ARGS__), WLSEAL_PARSE_BAD)

enum wlseal_parse wlseal_options_parse(int argc, char **argv,
				       struct wlseal_options *o)
{
	enum { O_BACKEND = 256, O_DRM_DEVICE, O_SIZE, O_SOCKET, O_SHM, O_POLICY,
	       O_PRINT_FRAMES, O_SCREENSHOT, O_SCREENSHOT_FRAME, O_EXIT_AFTER,
	       O_MAX_POOLS_PER_CLIENT, O_MAX_POOL_MEMORY, O_OOM_SCORE_ADJ,
	       O_VERBOSE, O_HELP, O_REQUIRE_SEALS, O_ACCEPT_SEALS,
	       O_MAX_POOL_SIZE, O_UNSEALED, O_POLICY_FILE, O_INPUT, O_MAX_CLIENTS,
	       O_SCANOUT,
	       O_XDG_EARLY_BUFFER,
	       O_RESIDENCY_CHECK, O_POOL_RESIZE, O_LIST_GLOBALS,
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
		{ "list-globals", no_argument, NULL, O_LIST_GLOBALS },
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
				return bad("unknown backend '%s'", optarg);
			o->backend = optarg;
			break;
		case O_DRM_DEVICE:
			o->drm_device = optarg;
			break;
		case O_SIZE:
			if (!wlseal_option_size(optarg, 16384, &o->width,
						&o->height))
				return bad("bad --size '%s' (want WxH)", optarg);
			break;
		case O_SOCKET:
			o->socket = optarg;
			break;
		case O_SHM:
			/* The names in the order of enum wlseal_shm_mode. */
			c = wlseal_option_choice(optarg, shms);
			if (c < 0)
				return bad("unknown --shm '%s'", optarg);
			o->shm = (enum wlseal_shm_mode)c;
			break;
		case O_POLICY:
			/* The names in the order of enum wlseal_policy. */
			c = wlseal_option_choice(optarg, policies);
			if (c < 0)
				return bad("unknown --policy '%s'", optarg);
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
				return bad("too many policy options");
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
				return bad("unknown --scanout '%s' (want direct or composite)", optarg);
			o->composite_only = c == 1;
			break;
		case O_INPUT:
			if (o->n_inputs == (int)(sizeof(o->inputs) / sizeof(o->inputs[0])))
				return bad("too many --input options");
			o->inputs[o->n_inputs++] = optarg;
			break;
		case O_MAX_CLIENTS:
			if (!wlseal_option_uint(optarg, 1, 1000000, &n))
				return bad("--max-clients must be a "
							 "number from 1 to 1000000");
			o->max_clients = (int)n;
			break;
		case O_XDG_EARLY_BUFFER:
			c = wlseal_option_choice(optarg, early);
			if (c < 0)
				return bad("unknown --xdg-early-buffer "
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
				return bad("bad --screenshot-frame '%s' "
							 "(want a frame number)", optarg);
			break;
		case O_EXIT_AFTER:
			if (!wlseal_option_uint(optarg, 0, MAX_EXIT_AFTER, &n))
				return bad("bad --exit-after '%s' (want 0 "
							 "to %d seconds)", optarg,
							 MAX_EXIT_AFTER);
			o->exit_after = (int)n;
			break;
		case O_MAX_POOLS_PER_CLIENT:
			if (!wlseal_option_uint(optarg, 1, INT_MAX, &n))
				return bad("--max-pools-per-client must "
							 "be a number from 1 to %d",
							 INT_MAX);
			o->max_pools_per_client = (int)n;
			break;
		case O_MAX_POOL_MEMORY:
			if (!wlseal_option_uint(optarg, 1ull << 20, UINT64_MAX / 2,
						&o->max_pool_memory))
				return bad("--max-pool-memory must "
							 "be a byte count of at "
							 "least 1 MiB");
			break;
		case O_OOM_SCORE_ADJ: {
			/* -1000 to 1000: a sign, then what option_uint takes. */
			bool neg = optarg[0] == '-';

			if (!wlseal_option_uint(optarg + neg, 0, 1000, &n))
				return bad("--oom-score-adj must be "
							 "from -1000 to 1000");
			o->oom_score_adj = neg ? -(int)n : (int)n;
			break;
		}
		case O_RESIDENCY_CHECK:
			if (strcmp(optarg, "on") && strcmp(optarg, "off"))
				return bad("--residency-check must be on or off");
			o->residency_check = !strcmp(optarg, "on");
			break;
		case O_POOL_RESIZE:
			if (strcmp(optarg, "grow") && strcmp(optarg, "move"))
				return bad("--pool-resize must be grow or move");
			o->resize_moves = !strcmp(optarg, "move");
			break;
		case O_VERBOSE:
			o->verbose = true;
			wlseal_log_set_verbose(true);
			break;
		case O_HELP:
			wlseal_options_usage(stdout);
			return WLSEAL_PARSE_HELP;
		case O_LIST_GLOBALS:
			o->list_globals = true;
			break;
		default:
			if (c >= O_BUDGET && c < O_BUDGET + WLSEAL_BUDGET_KINDS) {
				if (!wlseal_option_uint(optarg, 1, INT_MAX, &n))
					return bad("--%s must be a number "
								 "from 1 to %d",
								 longopts[idx].name,
								 INT_MAX);
				o->max_objects[c - O_BUDGET] = (int)n;
				break;
			}
			wlseal_options_usage(stderr);
			return WLSEAL_PARSE_BAD;
		}
	}
	if (optind < argc)
		return bad("unexpected argument '%s'", argv[optind]);
	return WLSEAL_PARSE_OK;
}
