/* SPDX-License-Identifier: MIT */
/*
 * wlseal-client - a well-behaved Wayland client that renders into sealed
 * memfds.
 *
 * It draws deterministic frames (pattern.c) into two or three buffers of
 * one SEAL_SHRINK-sealed memfd pool, one frame per frame callback, and
 * reports when its frames reached the screen (wp_presentation). With
 * --seals=...,write every frame gets its own memfd, sealed immutable after
 * drawing: the compositor can then map it privately and nothing the client
 * does afterwards can change what is shown.
 *
 * Lines on stdout (for tests and VM scenarios):
 *   WLSEAL-CLIENT-START seal-api=A seals=0xS size=WxH
 *   WLSEAL-CLIENT-PRESENTED frame=N seq=S kind=0xK (--verbose: every frame)
 *   WLSEAL-CLIENT-LAST frame=N seq=S           (the last of --frames=N)
 *   WLSEAL-CLIENT-SUMMARY ... zero_copy=N      (at exit; N frames shown
 *                                              as drawn, no copy made)
 *
 * When the compositor offers wlseal_shm_policy_v1 (protocol/README.md)
 * the client reads its policy, seals every file with the required seals,
 * and creates pools through the extension: a refusal is an event, not a
 * disconnect, so it can fix the file (add the missing seal, grow the
 * file, start over with a new file) and ask again, once per reason:
 *   WLSEAL-CLIENT-POLICY required=0xR accepted=0xA max-pool-size=N flags=0xF
 *   WLSEAL-CLIENT-POOL via=wlseal_shm_policy_v1|wl_shm size=N seals=0xS
 *   WLSEAL-CLIENT-REFUSED reason=R seals=0xS file-size=N message="..."
 *   WLSEAL-CLIENT-RETRY reason=R action=A
 * Without the global (or with --no-policy-extension) it uses core wl_shm.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <wayland-client.h>

#include "client.h"
#include "options.h"
#include "presentation-time-client-protocol.h"
#include "seal-list.h"
#include "wlseal-shm-policy-v1-client-protocol.h"
#include "xdg-shell-client-protocol.h"

static void wm_base_ping(void *data, struct xdg_wm_base *wm, uint32_t serial)
{
	xdg_wm_base_pong(wm, serial);
}

static const struct xdg_wm_base_listener wm_base_listener = {
	.ping = wm_base_ping,
};

static void shm_format(void *data, struct wl_shm *shm, uint32_t format)
{
	struct display *d = data;

	if (format == WL_SHM_FORMAT_XRGB8888)
		d->has_xrgb = true;
}

static const struct wl_shm_listener shm_listener = {
	.format = shm_format,
};

static void registry_global(void *data, struct wl_registry *registry,
			    uint32_t name, const char *interface,
			    uint32_t version)
{
	struct display *d = data;

	if (!strcmp(interface, wl_compositor_interface.name)) {
		d->compositor = wl_registry_bind(registry, name,
						 &wl_compositor_interface,
						 version < 4 ? version : 4);
	} else if (!strcmp(interface, wl_shm_interface.name)) {
		d->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
		wl_shm_add_listener(d->shm, &shm_listener, d);
	} else if (!strcmp(interface, xdg_wm_base_interface.name)) {
		d->wm_base = wl_registry_bind(registry, name,
					      &xdg_wm_base_interface, 1);
		xdg_wm_base_add_listener(d->wm_base, &wm_base_listener, d);
	} else if (!strcmp(interface, wp_presentation_interface.name)) {
		d->presentation = wl_registry_bind(registry, name,
						   &wp_presentation_interface, 1);
	} else if (!strcmp(interface, wlseal_shm_policy_v1_interface.name) &&
		   !d->no_extension) {
		d->shm_policy = wl_registry_bind(registry, name,
						 &wlseal_shm_policy_v1_interface, 1);
		wlseal_shm_policy_v1_add_listener(d->shm_policy,
						  &policy_listener, d);
	}
}

static void registry_global_remove(void *data, struct wl_registry *r,
				   uint32_t name)
{
}

static const struct wl_registry_listener registry_listener = {
	.global = registry_global,
	.global_remove = registry_global_remove,
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: wlseal-client [OPTION]...\n"
"A Wayland client drawing deterministic frames into sealed memfds.\n"
"\n"
"  --seal-api=auto|upstream|v1  how files are made and sealed: upstream =\n"
"                     memfd_create + F_ADD_SEALS; v1 = the seed ABI\n"
"                     (memfd_create_sized + SHMEM_SET_SEALS, patched kernel\n"
"                     only); auto = v1 when the kernel has it (default)\n"
"  --seals=LIST       comma list of shrink, grow, write (default shrink);\n"
"                     'none' sends an unsealed pool; with write, every frame\n"
"                     is a new immutable file\n"
"  --size=WxH         window size (default 320x240)\n"
"  --frames=N         draw frames 1..N, then keep frame N on screen\n"
"                     (default: forever)\n"
"  --exit             exit once frame N is on screen (with --frames)\n"
"  --buffers=2|3      buffers in the pool (default 3)\n"
"  --fullscreen       ask to be fullscreen and draw at the size the first\n"
"                     configure gives (the output's; else --size); each\n"
"                     buffer starts on a page, so a compositor can scan\n"
"                     it out as it is\n"
"  --full-damage      damage the whole buffer every frame, as a video player\n"
"                     does (default: only what changed)\n"
"  --resize           alternate sizes every 30 frames: grow the sealed pool\n"
"                     in place; shrink in place with the seed ABI (lift\n"
"                     SEAL_SHRINK once the compositor let go), else\n"
"                     through a new pool\n"
"  --unsealable       pool files that can never be sealed (memfd_create\n"
"                     without MFD_ALLOW_SEALING), no seal added whatever\n"
"                     --seals or the compositor's policy say: for\n"
"                     wlseal-compositor --unsealed=copy\n"
"  --no-policy-extension\n"
"                     create pools through core wl_shm even when the\n"
"                     compositor offers wlseal_shm_policy_v1\n"
"  --provoke=LIST     with the extension: make the first pool wrong on\n"
"                     purpose to show refusal and retry; LIST: missing-seal\n"
"                     (without the required seals), file-too-small (file\n"
"                     half the pool size)\n"
"  --verbose          print WLSEAL-CLIENT-PRESENTED for every frame\n"
"  --help             show this help\n"
"\n"
"Prints WLSEAL-CLIENT-LAST frame=N seq=S when frame N is on screen (S is\n"
"the compositor's frame, as in its WLSEAL-FRAME lines) and a timing\n"
"summary (WLSEAL-CLIENT-SUMMARY) at exit.\n");
}

/*
 * --seals: the seal-list grammar of common/seal-list.h, but only the seals
 * both ABIs can set (the seed ABI knows shrink, grow and write).
 */
static bool parse_seals(const char *s, int *seals)
{
	uint32_t bits;

	if (!wlseal_seal_list_parse(s, &bits) ||
	    (bits & ~(uint32_t)(F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE)))
		return false;
	*seals = (int)bits;
	return true;
}

static bool parse_options(int argc, char **argv, struct options *o)
{
	enum { O_API = 256, O_SEALS, O_SIZE, O_FRAMES, O_EXIT, O_BUFFERS,
	       O_RESIZE, O_VERBOSE, O_HELP, O_NO_EXT, O_PROVOKE, O_UNSEALABLE,
	       O_FULLSCREEN, O_FULL_DAMAGE };
	static const struct option longopts[] = {
		{ "seal-api", required_argument, NULL, O_API },
		{ "seals", required_argument, NULL, O_SEALS },
		{ "size", required_argument, NULL, O_SIZE },
		{ "frames", required_argument, NULL, O_FRAMES },
		{ "exit", no_argument, NULL, O_EXIT },
		{ "buffers", required_argument, NULL, O_BUFFERS },
		{ "resize", no_argument, NULL, O_RESIZE },
		{ "fullscreen", no_argument, NULL, O_FULLSCREEN },
		{ "full-damage", no_argument, NULL, O_FULL_DAMAGE },
		{ "verbose", no_argument, NULL, O_VERBOSE },
		{ "help", no_argument, NULL, O_HELP },
		{ "no-policy-extension", no_argument, NULL, O_NO_EXT },
		{ "provoke", required_argument, NULL, O_PROVOKE },
		{ "unsealable", no_argument, NULL, O_UNSEALABLE },
		{ 0 },
	};
	static const char *const apis[] = { "auto", "upstream", "v1", NULL };
	uint64_t n;
	int c;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case O_API:
			/* The names in the order of enum seal_api. */
			c = wlseal_option_choice(optarg, apis);
			if (c < 0)
				return wlseal_option_bad("unknown --seal-api '%s'", optarg);
			o->api = (enum seal_api)c;
			break;
		case O_SEALS:
			if (!parse_seals(optarg, &o->seals))
				return wlseal_option_bad("bad --seals '%s'", optarg);
			break;
		case O_SIZE:
			if (!wlseal_option_size(optarg, 8192, &o->width,
						&o->height))
				return wlseal_option_bad("bad --size '%s'", optarg);
			break;
		case O_FRAMES:
			if (!wlseal_option_uint(optarg, 0, UINT32_MAX, &n))
				return wlseal_option_bad("bad --frames '%s'", optarg);
			o->frames = (uint32_t)n;
			break;
		case O_EXIT:
			o->exit_after = true;
			break;
		case O_BUFFERS:
			if (!wlseal_option_uint(optarg, 2, MAX_BUFFERS, &n))
				return wlseal_option_bad("--buffers must be 2 or 3");
			o->nbuffers = (int)n;
			break;
		case O_RESIZE:
			o->resize = true;
			break;
		case O_FULLSCREEN:
			o->fullscreen = true;
			break;
		case O_FULL_DAMAGE:
			o->full_damage = true;
			break;
		case O_VERBOSE:
			o->verbose = true;
			break;
		case O_NO_EXT:
			o->no_extension = true;
			break;
		case O_UNSEALABLE:
			o->unsealable = true;
			break;
		case O_PROVOKE: {
			char *copy = strdup(optarg), *tok, *save = NULL;
			bool ok = true;

			for (tok = strtok_r(copy, ",", &save); tok;
			     tok = strtok_r(NULL, ",", &save)) {
				if (!strcmp(tok, "missing-seal"))
					o->provoke_missing = true;
				else if (!strcmp(tok, "file-too-small"))
					o->provoke_small = true;
				else
					ok = false;
			}
			free(copy);
			if (!ok)
				return wlseal_option_bad("bad --provoke '%s'", optarg);
			break;
		}
		case O_HELP:
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return false;
		}
	}
	return true;
}

/* The event loop: the Wayland socket plus a signalfd, so that SIGTERM
 * ends the client cleanly with its summary. */
static int run(struct display *d, struct window *w)
{
	struct pollfd fds[2];
	sigset_t mask;
	int sfd;

	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	sfd = signalfd(-1, &mask, SFD_CLOEXEC);
	fds[0] = (struct pollfd){ .fd = wl_display_get_fd(d->display), .events = POLLIN };
	fds[1] = (struct pollfd){ .fd = sfd, .events = POLLIN };

	while (w->running) {
		while (wl_display_prepare_read(d->display) != 0)
			if (wl_display_dispatch_pending(d->display) < 0)
				goto error;
		if (wl_display_flush(d->display) < 0 && errno != EAGAIN) {
			wl_display_cancel_read(d->display);
			goto error;
		}
		if (poll(fds, 2, -1) < 0) {
			wl_display_cancel_read(d->display);
			if (errno == EINTR)
				continue;
			goto error;
		}
		if (fds[0].revents & (POLLIN | POLLERR | POLLHUP)) {
			if (wl_display_read_events(d->display) < 0)
				goto error;
		} else {
			wl_display_cancel_read(d->display);
		}
		if (wl_display_dispatch_pending(d->display) < 0)
			goto error;
		if (w->waiting_buffer)
			redraw(w);
		if (fds[1].revents & POLLIN)
			w->running = false;
	}
	close(sfd);
	return 0;
error:
	close(sfd);
	return -1;
}

int main(int argc, char **argv)
{
	struct options o = { .api = API_AUTO, .seals = F_SEAL_SHRINK,
			     .width = 320, .height = 240, .nbuffers = 3 };
	struct display d = {0};
	struct window w = {0};
	const struct wl_interface *iface;
	uint32_t id;
	int ret = 0, err;

	if (!parse_options(argc, argv, &o))
		return 2;
	w.d = &d;
	w.o = &o;
	w.running = true;
	w.pool.fd = -1;
	w.width = o.width;
	w.height = o.height;

	/* Which sealing API: v1 only exists on the patched kernel. */
	w.api = WLSEAL_SEAL_API_UPSTREAM;
	if (o.api != API_UPSTREAM) {
		bool v1 = wlseal_seed_abi_available();

		if (o.api == API_V1 && !v1) {
			client_log("--seal-api=v1: this kernel has "
				"no seed sealing ABI (memfd_create_sized/SHMEM_SET_SEALS); "
				"boot the wlseal kernel or use --seal-api=upstream");
			return 1;
		}
		w.api = v1 ? WLSEAL_SEAL_API_SEED : WLSEAL_SEAL_API_UPSTREAM;
	}

	d.display = wl_display_connect(NULL);
	if (!d.display) {
		client_log("cannot connect to the compositor: %s",
			strerror(errno));
		return 1;
	}
	d.no_extension = o.no_extension;
	d.registry = wl_display_get_registry(d.display);
	wl_registry_add_listener(d.registry, &registry_listener, &d);
	wl_display_roundtrip(d.display);
	wl_display_roundtrip(d.display);	/* the wl_shm formats */
	if (!d.compositor || !d.shm || !d.wm_base || !d.has_xrgb) {
		client_log("compositor lacks wl_compositor, "
			"wl_shm (XRGB8888) or xdg_wm_base");
		return 1;
	}
	w.have_presentation = d.presentation != NULL;
	/* Immutable frames only where the compositor takes them. */
	w.write_mode = (o.seals & F_SEAL_WRITE) &&
		       (!d.policy.known ||
			(d.policy.flags & WLSEAL_SHM_POLICY_V1_CAPABILITY_WRITE_SEALED_ACCEPTED));
	printf("WLSEAL-CLIENT-START seal-api=%s seals=0x%x size=%dx%d\n",
	       w.api == WLSEAL_SEAL_API_SEED ? "v1" : "upstream", o.seals, o.width, o.height);
	fflush(stdout);

	/* --fullscreen: the pool once the configure said the size. */
	if (!w.write_mode && !o.fullscreen && !create_pool(&w))
		return 1;
	w.surface = wl_compositor_create_surface(d.compositor);
	w.xdg_surface = xdg_wm_base_get_xdg_surface(d.wm_base, w.surface);
	xdg_surface_add_listener(w.xdg_surface, &xdg_surface_listener, &w);
	w.toplevel = xdg_surface_get_toplevel(w.xdg_surface);
	xdg_toplevel_add_listener(w.toplevel, &toplevel_listener, &w);
	xdg_toplevel_set_title(w.toplevel, "wlseal-client");
	xdg_toplevel_set_app_id(w.toplevel, "wlseal-client");
	if (o.fullscreen)
		xdg_toplevel_set_fullscreen(w.toplevel, NULL);
	/* The initial commit, without a buffer, asks for a configure. */
	wl_surface_commit(w.surface);

	if (run(&d, &w) < 0) {
		err = wl_display_get_error(d.display);
		if (err == EPROTO) {
			uint32_t code = wl_display_get_protocol_error(d.display,
								      &iface, &id);
			client_log("protocol error %u on %s@%u",
				code, iface ? iface->name : "?", id);
		} else {
			client_log("connection lost: %s",
				strerror(err));
		}
		ret = 1;
	}
	print_summary(&w);
	if (!ret) {
		destroy_pool(&w);
		wl_display_disconnect(d.display);
	}
	return ret;
}
