/* SPDX-License-Identifier: MIT */
/*
 * server.h - the state of wlseal-compositor that the protocol objects
 * (surface/, seat/, shell/) share with the top level (server.c, repaint.c), which owns it.
 *
 * Data flows one way: client memfd -> seal policy and pool (shm/) ->
 * surface commit (surface/) -> scene (scene/) -> backend (backend/) -> screen.
 * repaint.c is the only file that sees both the scene and the backend; it
 * talks back to the protocol side only through the signals in
 * server->events, and the protocol side asks it for a frame through the
 * scene (wlseal_scene_request_frame). The command line stays in options.c.
 * ../README.md has the whole rule.
 */
#ifndef WLSEAL_SERVER_H
#define WLSEAL_SERVER_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include <wayland-server-core.h>

#include "account.h"
#include "scene.h"
#include "shm.h"

struct wlseal_backend;
struct wlseal_seat;

/* What the protocol side may know of the output (from the backend). */
struct wlseal_output_info {
	const char *name;	/* the backend's: "headless", "drm" */
	const char *output_name;	/* wl_output.name: "HEADLESS-1" */
	char description[96];	/* wl_output.description */
	int width, height;
	uint32_t refresh_mhz;
	uint32_t refresh_nsec;
};

/* server->events.frame_done's data: a frame reached the screen. */
struct wlseal_frame_done {
	uint64_t seq;			/* 1 for the first frame shown */
	struct timespec when;		/* CLOCK_MONOTONIC */
	uint32_t flags;			/* wp_presentation_feedback.kind bits */
};

enum wlseal_repaint_state {
	WLSEAL_REPAINT_IDLE,		/* nothing on its way to the screen */
	WLSEAL_REPAINT_SCHEDULED,	/* an idle callback will repaint */
	WLSEAL_REPAINT_WAITING,		/* a frame is on its way (page flip) */
};

struct wlseal_server {
	struct wl_display *display;
	struct wl_event_loop *loop;
	const char *socket_name;

	/* Only server.c and repaint.c look inside (backend.h). */
	struct wlseal_backend *backend;
	struct wl_listener frame_presented;	/* backend->events.frame */
	struct wlseal_output_info output;

	struct wlseal_scene scene;

	/* Repaint loop (repaint.c). */
	enum wlseal_repaint_state repaint_state;
	bool repaint_needed;
	uint64_t last_seq;
	uint64_t last_repaint_area;
	uint64_t last_frame_cpu_ns;	/* process CPU time at the last frame */
	struct wl_listener frame_request;	/* scene.frame_signal */
	/* What the command line asks of the repaint loop (server.c). */
	bool print_frames;		/* a WLSEAL-FRAME line per frame */
	bool direct_scanout;		/* --scanout=direct (repaint.c) */
	/* Direct scanout's bookkeeping (repaint.c): frames scanned out and
	 * composed, the bytes of client pixels copied, and the last reason
	 * a buffer was composed instead, logged once. */
	uint64_t frames_scanned_out, frames_composed, bytes_copied;
	uint64_t last_copied;		/* by the last repaint */
	char scanout_why[160];
	const char *screenshot;		/* PNG path, also for SIGUSR1 */
	uint64_t screenshot_frame;	/* 0: only on SIGUSR1 */
	struct {
		/* A repaint starts: what was committed goes with it. */
		/* data: the scanned-out view (the frame is its buffer, not
		 * drawn: its feedbacks get zero_copy), or NULL. */
		struct wl_signal frame_start;
		/* That frame is on the screen. */
		struct wl_signal frame_done;	/* data: wlseal_frame_done */
		/* The protocol side's own: the keyboard focus moved (seat/keyboard.c) and
		 * text inputs follow it (seat/text-input.c). */
		struct wl_signal keyboard_focus; /* data: wlseal_surface or NULL */
		/* A client's wl_surface.commit was applied, with all it
		 * brought along (surface/surface.c); the pointer looks again
		 * within that window (seat/seat.c, seat/pointer.c). */
		struct wl_signal commit_applied; /* data: wlseal_surface */
	} events;

	/* Surfaces and what waits for a frame (surface/surface.c). */
	/* The surfaces with frame callbacks or feedback waiting for the
	 * next repaint (wlseal_surface.link): a commit that brings some
	 * puts its surface here, so the repaint visits those only, never
	 * every surface of every client. */
	struct wl_list surfaces;
	struct wl_list frame_callbacks;		/* in flight with the frame */
	struct wl_list feedbacks;		/* wlseal_feedback.link, in flight */
	/* Presented, to be sent a slice per turn (surface/feedback-queue.c). */
	struct wl_list presenting;		/* wlseal_feedback.link */
	int present_efd;			/* readable: more to send */
	struct wl_event_source *present_source;
	struct wl_listener frame_start;		/* events.frame_start */
	struct wl_listener frame_done;		/* events.frame_done */

	/* wl_seat and the focus (seat/seat.c); input/ feeds it. */
	struct wlseal_seat *seat;

	struct wl_listener client_created;
	struct wl_event_source *sigusr1, *sigterm, *sigint, *sighup, *exit_timer;
	/* The top level's own (server.c): options, socket, input. */
	struct wlseal_top *top;

	/* What each client may cost, and all together (account/). */
	struct wlseal_ledger ledger;

	/* --xdg-early-buffer=map: a buffer committed on an xdg_toplevel or
	 * xdg_popup before its first configure was acked maps the window
	 * instead of ending the client (shell/xdg-shell.c). */
	bool xdg_early_map;

	/* The seal policy, wl_shm and wlseal_shm_policy_v1 (shm/). */
	struct wlseal_shm shm;
};

#endif
