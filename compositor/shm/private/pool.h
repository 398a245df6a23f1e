/* SPDX-License-Identifier: MIT */
/*
 * pool.h - inside shm/: pools and buffers (pool.c, buffer.c), for
 * wl-shm.c and ext-policy.c.
 */
#ifndef WLSEAL_SHM_POOL_H
#define WLSEAL_SHM_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <wayland-server-core.h>

#include "shm.h"

struct wlseal_account;
struct wlseal_shm_verdict;

/*
 * A pool lives as long as its wl_shm_pool resource or any buffer made
 * from it: clients may destroy the pool right after creating buffers, and
 * those buffers must keep reading the same mapping. Budgets (account/pools.c)
 * count these objects, not the resources: a pool whose resource is gone
 * still holds a mapping and its bytes.
 */
struct wlseal_pool {
	struct wl_resource *resource;	/* NULL once the client destroyed it */
	struct wlseal_shm *shm;
	struct wlseal_account *account;	/* the creating client's budget */
	int fd;		/* open while the resource lives (resize), then -1 */
	void *data;	/* PROT_READ only, map_len bytes */
	int32_t size;	/* the protocol's size; buffers stay inside it */
	size_t map_len;	/* size rounded up to the file's page size */
	size_t page;	/* that page size: 4 KiB, or the huge page size */
	int refcount;
	bool fd_open;	/* had its fd when handed to the closer thread */
	bool copied;	/* --unsealed=copy: never mapped (data NULL), the
			   fd kept for life, buffers read by copy.c */
	bool shared;	/* mapped MAP_SHARED (else MAP_PRIVATE: write-sealed) */
	struct wlseal_pool_map *pinned;	/* the mapping at data, if pinned */
	bool unpopulated; /* the kernel refused to populate a range of it
			     (resident.c): its buffers are not drawn */
	struct wl_list reap_link;	/* shm->reap, once released later */
};

/*
 * The pool's mapping while something outside shm/ holds an address in it
 * (a scanout record's image of a buffer: surface/scanout.c, through
 * wlseal_buffer_pin). A pinned mapping never moves: a resize grows it
 * where it lies or maps the file afresh elsewhere, and then this one is
 * retired, kept (and charged) until its last pin goes (pool.c, pool_grow).
 */
struct wlseal_pool_map {
	struct wlseal_pool *pool;	/* a reference per pin */
	int pins;
	bool retired;	/* the pool maps the file elsewhere now */
	void *addr;	/* once retired: what to unmap, */
	size_t len;	/* and what stays charged until then */
};

struct wlseal_shm_buffer {
	struct wl_resource *resource;
	struct wlseal_pool *pool;
	int32_t offset, width, height, stride;
	uint32_t format;
	struct wlseal_copy *copy;	/* the pixels, when pool->copied */
	void *scanout;			/* wlseal_buffer_scanout_slot */
};

/*
 * pool.c: the one path from a client's fd to a pool, for wl_shm.create_pool
 * (wl-shm.c) and wlseal_shm_policy_v1.create_pool (ext-policy.c): seal
 * check, budget, map, seals again, account. Takes @fd in every case
 * (closed on refusal). Returns the pool without a resource (the caller
 * binds one, wlseal_pool_bind), or NULL with @verdict saying why (reason,
 * or no_memory); the caller turns the verdict into its own answer.
 */
struct wlseal_pool *wlseal_pool_new(struct wlseal_shm *shm,
				    struct wl_client *client, int fd,
				    int32_t size,
				    struct wlseal_shm_verdict *verdict);
/* The pool's wl_shm_pool resource (@id 0: server-allocated); false when
 * out of memory, and the pool is gone then. */
bool wlseal_pool_bind(struct wlseal_pool *pool, struct wl_client *client,
		      uint32_t id);
struct wlseal_shm_buffer *wlseal_shm_buffer_from_resource(struct wl_resource *r);
/* One reference more on @pool (a buffer, a population in flight, a
 * scanout pin: buffer.c), one less: the last releases it (or hands it
 * to the reaper). */
void wlseal_pool_ref(struct wlseal_pool *pool);
void wlseal_pool_unref(struct wlseal_pool *pool);
/* The pool's current mapping pinned (a pool reference with it), or NULL
 * when out of memory; its address stays mapped until the unpin. */
struct wlseal_pool_map *wlseal_pool_pin(struct wlseal_pool *pool);
void wlseal_pool_unpin(struct wlseal_pool_map *map);
/* The reaper of departed clients' pools (pool.c explains it). */
bool wlseal_pool_reaper_init(struct wlseal_shm *shm);

#endif
