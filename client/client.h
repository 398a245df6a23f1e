/* SPDX-License-Identifier: MIT */
/*
 * client.h - wlseal-client's state, shared by its files:
 *   main.c     options, the registry, the event loop
 *   present.c  the window, drawing and frame pacing, presentation feedback
 *   pool.c     the shared pool, its buffers, resizing, immutable frames
 *   policy.c   the seals a file gets, and wlseal_shm_policy_v1: pools
 *              through the extension, fixing a refused file and retrying
 * Each file calls only files below it in this list. Files are made and
 * sealed by common/memfd.c, for either sealing ABI.
 */
#ifndef WLSEAL_CLIENT_H
#define WLSEAL_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <wayland-client.h>

#include "memfd.h"

#define MAX_BUFFERS 3

/* --seal-api; the window holds the resolved enum wlseal_seal_api. */
enum seal_api { API_AUTO, API_UPSTREAM, API_V1 };

struct options {
	enum seal_api api;
	int seals;		/* upstream F_SEAL_* bits */
	int32_t width, height;
	uint32_t frames;	/* 0: forever */
	int nbuffers;
	bool exit_after;
	bool resize;
	bool fullscreen;	/* --fullscreen: the output's size */
	bool full_damage;	/* --full-damage: every frame damaged whole */
	bool verbose;
	bool no_extension;	/* core wl_shm even when the global exists */
	bool provoke_missing;	/* first pool without the required seals */
	bool provoke_small;	/* first pool on a file half its size */
	bool unsealable;	/* --unsealable: memfds without sealing */
};

/* The compositor's policy as wlseal_shm_policy_v1 announced it. */
struct policy {
	bool known;
	uint32_t required, accepted, flags;
	uint64_t max_pool_size;
};

struct display {
	struct wl_display *display;
	struct wl_registry *registry;
	struct wl_compositor *compositor;
	struct wl_shm *shm;
	struct xdg_wm_base *wm_base;
	struct wp_presentation *presentation;
	bool no_extension;
	struct wlseal_shm_policy_v1 *shm_policy;
	struct policy policy;
	bool has_xrgb;
};

struct buffer {
	struct wl_buffer *buffer;
	void *data;		/* our writable view, NULL for immutable ones */
	int32_t width, height, stride;
	bool busy;		/* attached; the compositor may read it */
	bool immutable;		/* write-sealed, one frame only */
};

/* The memfd behind the shared pool (not used for write-sealed frames). */
struct pool {
	int fd;
	struct wl_shm_pool *pool;
	void *data;
	size_t size;
};

struct stats {
	uint32_t drawn, callbacks, presented, discarded;
	uint32_t zero_copy;	/* presented with the zero_copy kind */
	double min_ms, max_ms, sum_ms;	/* frame callback intervals */
	double render_ms;
	struct timespec last_done;
};

struct window {
	struct display *d;
	struct options *o;
	enum wlseal_seal_api api;	/* resolved from --seal-api */
	struct wl_surface *surface;
	struct xdg_surface *xdg_surface;
	struct xdg_toplevel *toplevel;
	struct wl_callback *callback;
	bool configured;
	int32_t conf_width, conf_height;	/* the last toplevel configure */
	int32_t width, height;
	struct pool pool;
	struct buffer buffers[MAX_BUFFERS];
	uint32_t frame;		/* last frame committed, 1-based */
	bool last_done, last_presented, have_presentation;
	uint64_t last_seq;
	bool write_mode;	/* a write-sealed file per frame */
	int pools_made;
	bool waiting_buffer;	/* frame due but every buffer busy */
	bool running;		/* false: leave the event loop */
	struct stats stats;
};

/* log.c: one "wlseal-client: ..." line on stderr */
void client_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* policy.c */
extern const struct wlseal_shm_policy_v1_listener policy_listener;
int create_file(struct window *w, size_t size);
bool seal_fd(struct window *w, int fd, int seals);
int file_seals(struct window *w);
struct wl_shm_pool *get_pool(struct window *w, int *fd, int32_t size);

/* pool.c */
size_t pool_bytes(const struct window *w);
bool create_pool(struct window *w);
void destroy_pool(struct window *w);
bool resize_pool(struct window *w, int32_t width, int32_t height);
struct buffer *immutable_buffer(struct window *w, uint32_t frame);
struct buffer *next_buffer(struct window *w);

/* present.c */
extern const struct xdg_surface_listener xdg_surface_listener;
extern const struct xdg_toplevel_listener toplevel_listener;
void redraw(struct window *w);
void print_summary(struct window *w);

#endif
