/* SPDX-License-Identifier: MIT */
/*
 * shm.h - shared memory: the seal policy (policy.c) and its check
 * (check.c), wlseal's own wl_shm (wl-shm.c), its pools and buffers
 * (pool.c), read access to any wl_buffer (buffer.c) and the
 * wlseal_shm_policy_v1 extension (ext-policy.c).
 *
 * This layer includes only itself and log.h: it knows nothing of
 * surfaces, the scene or the backends. All it needs of the server is
 * struct wlseal_shm below.
 */
#ifndef WLSEAL_SHM_H
#define WLSEAL_SHM_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <wayland-server-core.h>

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
 * path (wl-shm.c, pool.c) and wlseal_shm_policy_v1 (ext-policy.c) both
 * check files against it, and the extension announces it. Seal bits are
 * the upstream F_SEAL_* values.
 */
struct wlseal_shm_policy {
	uint32_t required_seals;	/* all must be set */
	uint32_t accepted_seals;	/* none outside may be set */
	uint64_t max_pool_size;		/* bytes; INT32_MAX: no own limit */
	bool write_sealed_accepted;	/* == accepted_seals & F_SEAL_WRITE */
	bool enforced;			/* false: map anything (permissive) */
};

/* File descriptors kept free for new clients, DRM and the event loop: a
 * pool is refused when the fd it arrived on is this close to the limit. */
#define WLSEAL_FD_RESERVE 128

/* The shared-memory half of the server, embedded in struct wlseal_server. */
struct wlseal_shm {
	struct wl_display *display;
	enum wlseal_shm_mode mode;
	struct wlseal_shm_policy policy;
	int max_pools_per_client;	/* live wl_shm_pools per client */
	struct wl_list policy_resources; /* wlseal_shm_policy_v1 resources */
};

/* wl-shm.c: the wl_shm global (or libwayland's, --shm=libwayland) */
bool wlseal_shm_init(struct wlseal_shm *shm);

/* ext-policy.c: the wlseal_shm_policy_v1 global */
bool wlseal_shm_policy_init(struct wlseal_shm *shm);
/* Replace the policy and announce it to every bound client. */
void wlseal_shm_policy_update(struct wlseal_shm *shm,
			      const struct wlseal_shm_policy *policy);

/* policy.c: building a policy from presets, settings and a file */
struct wlseal_policy_setting {
	const char *key, *value;
};
/* @preset, then @settings in order (the keys of the file), then @file
 * (may be NULL): all of it applies, or false with @err filled. */
bool wlseal_policy_build(enum wlseal_policy preset,
			 const struct wlseal_policy_setting *settings,
			 int n_settings, const char *file,
			 struct wlseal_shm_policy *p, char *err, size_t err_len);
bool wlseal_policy_equal(const struct wlseal_shm_policy *a,
			 const struct wlseal_shm_policy *b);
void wlseal_policy_describe(const struct wlseal_shm_policy *p, char *buf,
			    size_t len);

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

/*
 * A pool lives as long as its wl_shm_pool resource or any buffer made
 * from it: clients may destroy the pool right after creating buffers, and
 * those buffers must keep reading the same mapping.
 */
struct wlseal_pool {
	struct wl_resource *resource;	/* NULL once the client destroyed it */
	struct wlseal_shm *shm;
	int fd;		/* kept open: the file stays ours while we map it */
	void *data;	/* PROT_READ only */
	int32_t size;
	int refcount;
};

struct wlseal_shm_buffer {
	struct wl_resource *resource;
	struct wlseal_pool *pool;
	int32_t offset, width, height, stride;
	uint32_t format;
};

/* pool.c */
struct wlseal_pool *wlseal_pool_create(struct wlseal_shm *shm,
				       struct wl_client *client, uint32_t id,
				       int fd, int32_t size, bool write_sealed,
				       const char **why);
struct wlseal_shm_buffer *wlseal_shm_buffer_from_resource(struct wl_resource *r);

/*
 * check.c: the one seal check, shared by wl_shm.create_pool,
 * wl_shm_pool.resize and wlseal_shm_policy_v1.create_pool. The core path
 * turns a refusal into wl_shm.error.invalid_fd with the message; the
 * extension sends reason, seals, file size and the same message.
 */
struct wlseal_shm_verdict {
	uint32_t reason;	/* 0: accepted, else
				   WLSEAL_SHM_POOL_REQUEST_V1_REASON_* */
	uint32_t seals;		/* missing or unexpected F_SEAL_* bits */
	int64_t file_size;	/* -1: not known */
	bool write_sealed;	/* accepted and F_SEAL_WRITE: map privately */
	char message[160];
};
/* Returns verdict->reason: 0 when the fd may back @size bytes. */
uint32_t wlseal_shm_check(const struct wlseal_shm_policy *policy, int fd,
			  int64_t size, struct wlseal_shm_verdict *verdict);
/*
 * check.c: the fd budget, checked before the seal check on every new pool:
 * at most --max-pools-per-client live pools per client, and never a pool
 * that would leave fewer than WLSEAL_FD_RESERVE fds free. Returns
 * verdict->reason (OUT_OF_RESOURCES) or 0.
 */
uint32_t wlseal_shm_budget(const struct wlseal_shm *shm,
			   struct wl_client *client, int fd,
			   struct wlseal_shm_verdict *verdict);
/* check.c: log a refusal and post it as a protocol error. */
void wlseal_shm_refuse(struct wl_resource *resource, uint32_t code,
		       const char *request, const char *why);

#endif
