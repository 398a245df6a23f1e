/* SPDX-License-Identifier: MIT */
/*
 * compositor.h - the state of wlseal-compositor, shared by its files.
 *
 * Data flows one way: client memfd -> seal policy (shm.c) -> pool and
 * buffer (shm.c, buffer.c) -> surface commit (surface.c, xdg-shell.c) ->
 * scene (scene.c) -> backend (backend-*.c) -> screen. The backend knows
 * nothing about Wayland: it hands out images to draw into and reports,
 * through a wl_signal, when a frame reached the screen. output.c is the
 * only place where the two halves meet.
 */
#ifndef WLSEAL_COMPOSITOR_H
#define WLSEAL_COMPOSITOR_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include <pixman.h>
#include <wayland-server-core.h>

#include "backend.h"

enum wlseal_shm_mode {
	WLSEAL_SHM_WLSEAL,	/* our own wl_shm with the seal policy */
	WLSEAL_SHM_LIBWAYLAND,	/* wl_display_init_shm(): SIGBUS handler */
};

enum wlseal_policy {
	WLSEAL_POLICY_SECURE,	  /* SEAL_SHRINK and size checks */
	WLSEAL_POLICY_PERMISSIVE, /* map anything, no handler: for contrast */
};

/*
 * The seal policy (policy.c), one for the whole server: the core wl_shm
 * path (shm.c, pool.c) and wlseal_shm_policy_v1 (shm-policy.c) both check
 * files against it, and the extension announces it. Seal bits are the
 * upstream F_SEAL_* values.
 */
struct wlseal_shm_policy {
	uint32_t required_seals;	/* all must be set */
	uint32_t accepted_seals;	/* none outside may be set */
	uint64_t max_pool_size;		/* bytes; INT32_MAX: no own limit */
	bool write_sealed_accepted;	/* == accepted_seals & F_SEAL_WRITE */
	bool enforced;			/* false: map anything (permissive) */
};

struct wlseal_options {
	const char *backend;	/* "drm" or "headless" */
	const char *drm_device;
	int width, height;	/* headless size; preferred DRM mode */
	const char *socket;
	enum wlseal_shm_mode shm;
	enum wlseal_policy policy;
	/* Policy settings from the command line, applied over the --policy
	 * preset; --policy-file is applied last (and again on SIGHUP). */
	struct { const char *key, *value; } policy_settings[16];
	int n_policy_settings;
	const char *policy_file;
	bool verbose;
	bool print_frames;
	const char *screenshot;	/* PNG path */
	uint64_t screenshot_frame; /* 0: only on SIGUSR1 */
	int exit_after;		/* seconds, 0: never */
	int max_pools_per_client; /* live wl_shm_pools per client */
};

/* File descriptors kept free for new clients, DRM and the event loop: a
 * pool is refused when the fd it arrived on is this close to the limit
 * (shm.c explains the reserve that light clients may still use). */
#define WLSEAL_FD_RESERVE 128

/* What all clients' pools hold together (shm.c), and the limits, computed
 * at start-up from vm.max_map_count and the machine's memory. */
struct wlseal_shm_totals {
	int pools;		/* pool objects: one mapping each */
	uint64_t bytes;		/* mapped bytes */
	int max_pools;
	uint64_t max_bytes;
};

/* The background every frame starts from (opaque, a8r8g8b8). */
#define WLSEAL_BACKGROUND 0xff203040u

/* Where toplevels appear: a cascade so that several stay visible. */
#define WLSEAL_CASCADE_X0 32
#define WLSEAL_CASCADE_Y0 32
#define WLSEAL_CASCADE_STEP 48
#define WLSEAL_CASCADE_SLOTS 8

struct wlseal_surface;

/* The scene: mapped surfaces, bottom to top, and what changed. */
struct wlseal_scene {
	int width, height;
	struct wl_list views;		/* wlseal_surface.view_link, bottom first */
	pixman_region32_t damage;	/* output coords, since the last repaint */
	pixman_region32_t prev_damage;	/* what the previous repaint drew */
	unsigned int cascade_next;
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

	struct wlseal_backend *backend;
	struct wl_listener frame_presented;	/* backend->events.frame */

	struct wlseal_scene scene;
	struct wl_list surfaces;		/* wlseal_surface.link */

	/* Repaint loop (output.c). */
	enum wlseal_repaint_state repaint_state;
	bool repaint_needed;
	struct wl_list frame_callbacks;		/* in flight with the frame */
	struct wl_list feedbacks;		/* wlseal_feedback.link, in flight */
	uint64_t last_seq;
	uint64_t last_repaint_area;

	struct wl_list output_resources;	/* wl_output resources */
	struct wl_listener client_created;
	struct wl_event_source *sigusr1, *sigterm, *sigint, *sighup, *exit_timer;

	/* The seal policy and the clients told about it (shm-policy.c). */
	struct wlseal_shm_policy policy;
	struct wl_list policy_resources;	/* wlseal_shm_policy_v1 */
	struct wlseal_shm_totals shm_totals;
};

/* Per-client bookkeeping, only for the connect/disconnect log lines. */
struct wlseal_client {
	struct wl_listener destroy;
	pid_t pid;
};

/* log.c-like helpers (main.c) */
void wlseal_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void wlseal_debug(struct wlseal_server *server, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
pid_t wlseal_client_pid(struct wl_client *client);

/* shm.c: the seal policy and our wl_shm */
bool wlseal_shm_init(struct wlseal_server *server);

/* policy.c: building a policy from presets, options and a file */
void wlseal_policy_preset(struct wlseal_shm_policy *p, enum wlseal_policy preset);
/* "key=value" (or key, value); false with @err filled on a bad setting. */
bool wlseal_policy_set(struct wlseal_shm_policy *p, const char *key,
		       const char *value, char *err, size_t err_len);
bool wlseal_policy_load_file(struct wlseal_shm_policy *p, const char *path,
			     char *err, size_t err_len);
/* The server's policy from its options (preset, settings, file). */
bool wlseal_policy_build(const struct wlseal_options *o,
			 struct wlseal_shm_policy *p, char *err, size_t err_len);
bool wlseal_policy_equal(const struct wlseal_shm_policy *a,
			 const struct wlseal_shm_policy *b);
void wlseal_policy_describe(const struct wlseal_shm_policy *p, char *buf,
			    size_t len);

/* shm-policy.c: the wlseal_shm_policy_v1 global */
bool wlseal_shm_policy_init(struct wlseal_server *server);
/* Replace the policy and announce it to every bound client. */
void wlseal_shm_policy_update(struct wlseal_server *server,
			      const struct wlseal_shm_policy *policy);

/* buffer.c: read access to a wl_buffer, whichever wl_shm made it */
struct wlseal_pixels {
	void *data;
	int32_t width, height, stride;
	uint32_t format;		/* WL_SHM_FORMAT_* */
	struct wl_shm_buffer *libwayland; /* set when begin_access was used */
};
bool wlseal_buffer_get_size(struct wl_resource *buffer, int32_t *w, int32_t *h);
bool wlseal_buffer_begin(struct wl_resource *buffer, struct wlseal_pixels *px);
void wlseal_buffer_end(struct wlseal_pixels *px);

/* surface.c */
struct wlseal_surface {
	struct wl_resource *resource;
	struct wlseal_server *server;
	struct wl_list link;			/* server.surfaces */

	struct {
		bool attached;
		struct wl_resource *buffer;
		struct wl_listener buffer_destroy;
		pixman_region32_t damage;	/* surface == buffer coords */
		struct wl_list frame_callbacks;
		struct wl_list feedbacks;
	} pending;

	/* Committed state. */
	struct wl_resource *buffer;
	struct wl_listener buffer_destroy;
	int32_t width, height;
	struct wl_list frame_callbacks;		/* waiting for the next repaint */
	struct wl_list feedbacks;

	/* Scene placement, valid while mapped. */
	bool mapped;
	int32_t x, y;
	struct wl_list view_link;		/* scene.views */

	/* Role (xdg_surface): called after the state was applied. */
	void (*role_commit)(struct wlseal_surface *surface);
	void *role;
	struct wl_signal destroy_signal;
};

bool wlseal_compositor_init(struct wlseal_server *server);
struct wlseal_surface *wlseal_surface_from_resource(struct wl_resource *r);
/* Move committed callbacks/feedback of every surface to the server's
 * in-flight lists; called by output.c when it starts a repaint. */
void wlseal_surfaces_take_frame_state(struct wlseal_server *server);
bool wlseal_surfaces_want_frame(struct wlseal_server *server);

/* xdg-shell.c */
bool wlseal_xdg_shell_init(struct wlseal_server *server);

/* scene.c */
void wlseal_scene_init(struct wlseal_scene *scene, int width, int height);
void wlseal_scene_finish(struct wlseal_scene *scene);
void wlseal_scene_map(struct wlseal_scene *scene, struct wlseal_surface *s);
void wlseal_scene_unmap(struct wlseal_scene *scene, struct wlseal_surface *s);
void wlseal_scene_damage_surface(struct wlseal_scene *scene,
				 struct wlseal_surface *s,
				 pixman_region32_t *surface_damage);
void wlseal_scene_damage_all(struct wlseal_scene *scene);
bool wlseal_scene_has_damage(struct wlseal_scene *scene);
/* Draws into @target, whose content is @age frames old (0: unknown).
 * Returns the number of pixels drawn. */
uint64_t wlseal_scene_render(struct wlseal_scene *scene,
			     pixman_image_t *target, int age);

/* output.c: wl_output and the repaint loop */
bool wlseal_output_init(struct wlseal_server *server);
void wlseal_output_schedule_repaint(struct wlseal_server *server);
bool wlseal_output_screenshot(struct wlseal_server *server, const char *path);

/* presentation.c */
struct wlseal_feedback {
	struct wl_resource *resource;
	struct wl_list link;
};
bool wlseal_presentation_init(struct wlseal_server *server);
void wlseal_feedback_presented(struct wlseal_feedback *fb,
			       struct wlseal_server *server,
			       const struct wlseal_frame_info *info);
void wlseal_feedback_discard(struct wlseal_feedback *fb);

/* png.c */
bool wlseal_write_png(const char *path, pixman_image_t *image);
/* crc32 of the visible pixels, row by row, width * 4 bytes per row */
uint32_t wlseal_image_crc32(pixman_image_t *image);

#endif
