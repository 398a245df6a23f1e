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
 * those buffers must keep reading the same mapping. Budgets (shm.c) count
 * these objects, not the resources: a pool whose resource is gone still
 * holds a mapping and its bytes.
 */
struct wlseal_pool {
	struct wl_resource *resource;	/* NULL once the client destroyed it */
	struct wlseal_server *server;
	struct wlseal_shm_account *account;	/* the creating client's budget */
	int fd;		/* open while the resource lives (resize), then -1 */
	void *data;	/* PROT_READ only, map_len bytes */
	int32_t size;	/* the protocol's size; buffers stay inside it */
	size_t map_len;	/* size rounded up to the file's page size */
	size_t page;	/* that page size: 4 KiB, or the huge page size */
	int refcount;
};

struct wlseal_shm_buffer {
	struct wl_resource *resource;
	struct wlseal_pool *pool;
	int32_t offset, width, height, stride;
	uint32_t format;
};

struct wlseal_shm_account;

/*
 * The verdict on one pool request, as data: the core path (wl_shm) turns a
 * refusal into wl_shm.error.invalid_fd with the message, the extension
 * (shm-policy.c) into a refused event with reason, seals, file size and
 * the same message.
 */
struct wlseal_shm_verdict {
	uint32_t reason;	/* 0: accepted, else
				   WLSEAL_SHM_POOL_REQUEST_V1_REASON_* */
	uint32_t seals;		/* missing or unexpected F_SEAL_* bits */
	int64_t file_size;	/* -1: not known */
	bool write_sealed;	/* accepted and F_SEAL_WRITE: map privately */
	bool no_memory;		/* refused because malloc failed */
	size_t page;		/* accepted: the page size to map with */
	char message[160];
};

/*
 * shm.c: the seal check, the one path for wl_shm.create_pool and
 * wlseal_shm_policy_v1.create_pool, and wl_shm_pool.resize's re-check.
 */
/* Returns verdict->reason: 0 when the fd may back @size bytes. */
uint32_t wlseal_shm_check(const struct wlseal_shm_policy *policy, int fd,
			  int64_t size, struct wlseal_shm_verdict *verdict);
/*
 * Budget, check, map, re-check, account: everything between a client's fd
 * and a pool. Takes @fd in every case (closed on refusal). On success the
 * pool has no resource yet: the caller creates one (wlseal_pool_bind).
 * On refusal returns NULL and fills @verdict (reason, or no_memory).
 */
struct wlseal_pool *wlseal_shm_pool_new(struct wlseal_server *server,
					struct wl_client *client, int fd,
					int32_t size,
					struct wlseal_shm_verdict *verdict);
/* Budget bookkeeping when a pool's mapping changes from @from to @to
 * bytes (resize; growing may be refused) or the pool goes away. */
bool wlseal_shm_account_resize(struct wlseal_pool *pool, size_t from,
			       size_t to, struct wlseal_shm_verdict *verdict);
void wlseal_shm_account_release(struct wlseal_pool *pool);
void wlseal_shm_account_fd_closed(struct wlseal_pool *pool);
/*
 * One log line per refusal, at most WLSEAL_LOG_BURST per client in any
 * WLSEAL_LOG_WINDOW_MS; what is dropped is counted and reported with the
 * next line that gets through. Extension refusals do not disconnect, so
 * without this one client could fill the log (and the disk behind it).
 */
void wlseal_shm_log(struct wl_client *client, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void wlseal_shm_refuse(struct wl_resource *resource, uint32_t code,
		       const char *request, const char *why);

/* pool.c */
struct wlseal_pool *wlseal_pool_map(struct wlseal_server *server, int fd,
				    int32_t size,
				    struct wlseal_shm_verdict *verdict);
void wlseal_pool_unref(struct wlseal_pool *pool);
/* Gives an accepted pool its wl_shm_pool resource; false: out of memory
 * (the pool is gone then). */
bool wlseal_pool_bind(struct wlseal_pool *pool, struct wl_client *client,
		      uint32_t id);
struct wlseal_shm_buffer *wlseal_shm_buffer_from_resource(struct wl_resource *r);

#endif
