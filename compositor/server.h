/* SPDX-License-Identifier: MIT */
/*
 * server.h - the state of wlseal-compositor that the protocol objects
 * (wl/) and the top level (main.c, repaint.c) share.
 *
 * Data flows one way: client memfd -> seal policy and pool (shm/) ->
 * surface commit (wl/) -> scene (scene/) -> backend (backend/) -> screen.
 * repaint.c is the only file that sees both the scene and the backend; it
 * talks back to the protocol side only through the signals in
 * server->events. README.md in this directory has the whole rule.
 */
#ifndef WLSEAL_SERVER_H
#define WLSEAL_SERVER_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include <wayland-server-core.h>

#include "scene.h"
#include "shm.h"

struct wlseal_backend;
struct wlseal_seat;

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
	const char *screenshot;	/* PNG path */
	uint64_t screenshot_frame; /* 0: only on SIGUSR1 */
	int exit_after;		/* seconds, 0: never */
	int max_pools_per_client; /* live wl_shm_pools per client */
	uint64_t max_pool_memory;  /* --max-pool-memory, 0: derived */
	int oom_score_adj;
	int max_objects[WLSEAL_BUDGET_KINDS]; /* --max-*-per-client */
	/* --input paths (input/): streams of struct input_event. */
	const char *inputs[8];
	int n_inputs;
};

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
	struct wlseal_options opts;
	const char *socket_name;

	/* Only main.c and repaint.c look inside (backend.h). */
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
	struct {
		/* A repaint starts: what was committed goes with it. */
		struct wl_signal frame_start;	/* data: NULL */
		/* That frame is on the screen. */
		struct wl_signal frame_done;	/* data: wlseal_frame_done */
	} events;

	/* Surfaces and what waits for a frame (wl/surface.c). */
	struct wl_list surfaces;		/* wlseal_surface.link */
	struct wl_list frame_callbacks;		/* in flight with the frame */
	struct wl_list feedbacks;		/* wlseal_feedback.link, in flight */
	struct wl_listener frame_start;		/* events.frame_start */
	struct wl_listener frame_done;		/* events.frame_done */

	struct wl_list output_resources;	/* wl_output (wl/output.c) */

	/* wl_seat and the focus (wl/seat.c); input/ feeds it. */
	struct wlseal_seat *seat;

	struct wl_listener client_created;
	struct wl_event_source *sigusr1, *sigterm, *sigint, *sighup, *exit_timer;

	/* The seal policy, wl_shm and wlseal_shm_policy_v1 (shm/). */
	struct wlseal_shm shm;
};

/* repaint.c: the repaint loop, the only meeting point of scene and backend */
/* After the backend exists: fills server->output, starts the scene and
 * schedules the first frame (the plain background). */
void wlseal_repaint_init(struct wlseal_server *server);
void wlseal_repaint_schedule(struct wlseal_server *server);
/* The scene and the backend go. */
void wlseal_repaint_finish(struct wlseal_server *server);
bool wlseal_screenshot(struct wlseal_server *server, const char *path);

#endif
