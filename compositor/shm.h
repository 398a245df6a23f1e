/* SPDX-License-Identifier: MIT */
/*
 * shm.h - pools and buffers of wlseal's own wl_shm (shm.c, pool.c).
 */
#ifndef WLSEAL_SHM_H
#define WLSEAL_SHM_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <wayland-server-core.h>

struct wlseal_server;
struct wlseal_shm_policy;

/*
 * A pool lives as long as its wl_shm_pool resource or any buffer made
 * from it: clients may destroy the pool right after creating buffers, and
 * those buffers must keep reading the same mapping.
 */
struct wlseal_pool {
	struct wl_resource *resource;	/* NULL once the client destroyed it */
	struct wlseal_server *server;
	int fd;		/* kept open: the file stays ours while we map it */
	void *data;	/* PROT_READ only */
	int32_t size;
	bool private_map;	/* write-sealed: MAP_PRIVATE, see shm.c */
	int refcount;
};

struct wlseal_shm_buffer {
	struct wl_resource *resource;
	struct wlseal_pool *pool;
	int32_t offset, width, height, stride;
	uint32_t format;
};

/* pool.c */
struct wlseal_pool *wlseal_pool_create(struct wlseal_server *server,
				       struct wl_client *client, uint32_t id,
				       int fd, int32_t size, bool write_sealed,
				       const char **why);
struct wlseal_shm_buffer *wlseal_shm_buffer_from_resource(struct wl_resource *r);

/*
 * shm.c: the one seal check, shared by wl_shm.create_pool,
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
 * shm.c: the fd budget, checked before the seal check on every new pool:
 * at most --max-pools-per-client live pools per client, and never a pool
 * that would leave fewer than WLSEAL_FD_RESERVE fds free. Returns
 * verdict->reason (OUT_OF_RESOURCES) or 0.
 */
uint32_t wlseal_shm_budget(struct wlseal_server *server,
			   struct wl_client *client, int fd,
			   struct wlseal_shm_verdict *verdict);
void wlseal_shm_refuse(struct wl_resource *resource, uint32_t code,
		       const char *request, const char *why);

#endif
