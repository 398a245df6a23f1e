/* SPDX-License-Identifier: MIT */
/*
 * pool.c - wl_shm_pool and wl_buffer of wlseal's own wl_shm.
 *
 * A pool is the client's file mapped PROT_READ: the compositor never
 * writes client memory. Buffers are windows into the pool; every number a
 * client sends for them is checked for overflow here, before any pixel is
 * read, so that a buffer can never reach outside its pool.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "account.h"
#include "check.h"
#include "closer.h"
#include "copy.h"
#include "log.h"
#include "pool.h"
#include "populate.h"
#include "shm.h"
#include "unsealed.h"
#include "wlseal-shm-policy-v1-server-protocol.h"

/* closer.c unmapped and closed what the pool held: its budget goes back
 * now (fd_open says whether it still had its fd then). */
static void pool_closed(void *item)
{
	struct wlseal_pool *pool = item;

	if (pool->account)
		wlseal_pool_uncharge(pool->account, pool->map_len,
				     pool->fd_open);
	free(pool);
}

/* Everything the pool holds goes back: mapping and fd on the closer
 * thread (closer.c: their last reference may free the whole file), then
 * the budget. */
static void pool_release(struct wlseal_pool *pool)
{
	pool->fd_open = pool->fd >= 0;
	/* The length we mapped, not the pool's: on hugetlbfs a length
	 * that is no multiple of the huge page fails with EINVAL and would
	 * leak the mapping, the file and its huge page reservation. */
	wlseal_closer_put(pool->data, pool->map_len, pool->fd, pool_closed,
			  pool);
}

/* A departed client's pools are released by the reaper (below). */
static bool client_gone(const struct wlseal_pool *pool)
{
	return pool->account && wlseal_account_gone(pool->account);
}

static void reap_later(struct wlseal_pool *pool);

/*
 * What one loop turn unmaps at most. Tearing down a mapping costs a page
 * table entry, an rmap and a page reference per page the compositor
 * touched: a 512 MiB pool read through (hole-charge) is 131,072 of them,
 * tens of milliseconds on a fast host and seconds on the debug kernel
 * under TCG, during which no client is served. So a pool mapping more
 * than this goes to the reaper even while its client is connected, and
 * the reaper unmaps it this much at a time, from its end (nothing reads
 * it any more: its last buffer is gone), giving the bytes back to the
 * budget as it goes. 4 MiB is 1024 pages: about a millisecond on a fast
 * host, about 100 ms on the debug kernel under TCG (16 MiB slices there
 * kept new connections waiting past their 3 s round-trips while 1.1 GiB
 * of a departed attacker's pools went).
 */
#define REAP_SLICE (4u << 20)

void wlseal_pool_ref(struct wlseal_pool *pool)
{
	pool->refcount++;
}

void wlseal_pool_unref(struct wlseal_pool *pool)
{
	if (--pool->refcount > 0)
		return;
	if (client_gone(pool) || pool->map_len > REAP_SLICE)
		reap_later(pool);
	else
		pool_release(pool);
}

struct wlseal_pool_map *wlseal_pool_pin(struct wlseal_pool *pool)
{
	struct wlseal_pool_map *map = pool->pinned;

	if (!map) {
		map = calloc(1, sizeof(*map));
		if (!map)
			return NULL;
		map->pool = pool;
		pool->pinned = map;
	}
	map->pins++;
	wlseal_pool_ref(pool);
	return map;
}

/* closer.c unmapped a retired mapping: its bytes go back, and the pool
 * reference its last pin kept. */
static void retired_closed(void *item)
{
	struct wlseal_pool_map *map = item;
	struct wlseal_pool *pool = map->pool;
	char why[8];

	if (pool->account)
		wlseal_pool_recharge(pool->account, map->len, 0, why,
				     sizeof(why));
	free(map);
	wlseal_pool_unref(pool);
}

void wlseal_pool_unpin(struct wlseal_pool_map *map)
{
	struct wlseal_pool *pool = map->pool;

	if (--map->pins > 0) {
		wlseal_pool_unref(pool);
		return;
	}
	if (!map->retired) {
		/* The pool's own mapping: it may move again from now on. */
		pool->pinned = NULL;
		free(map);
		wlseal_pool_unref(pool);
		return;
	}
	/* Nobody reads it any more; the file's pages stay, mapped at the
	 * pool's new place, so this unmap frees no file. On the closer
	 * thread all the same: its page tables may be many (pool.c's
	 * REAP_SLICE comment). */
	wlseal_closer_put(map->addr, map->len, -1, retired_closed, map);
}

/*
 * Releasing the pools of a departed client, a batch per loop turn.
 *
 * A client's requests each cost a bounded amount of work, but its
 * disconnect costs all of its objects at once: libwayland destroys every
 * resource inside one dispatch. With 1000 pools per client and 24 clients
 * leaving together (many-clients-pools), that is 24,000 munmap() and
 * close() calls, each close the last reference to a shmem inode (evicted
 * then and there), before any other client is served again: a quarter of
 * a second on a fast host, many seconds on the debug kernel under TCG,
 * where well-behaved clients found the compositor unresponsive.
 *
 * So once a client is gone (its account says so: the client's destroy
 * signal comes before its resources are destroyed), its pools keep their
 * fd past the wl_shm_pool resource and, at the last reference, go on the
 * reap list instead of being released. An eventfd, kept readable while the
 * list is not empty, wakes the loop, and each turn releases REAP_BATCH
 * pools: other clients' requests, ready in the same epoll_wait(), are
 * dispatched between the batches. The budgets stay charged until a pool is
 * released, so the totals never undercount what the compositor holds, and
 * a mapping kept a little longer only keeps seals unliftable a little
 * longer. Pools of connected clients are released at once, as before.
 */
#define REAP_BATCH 32

static void reap_later(struct wlseal_pool *pool)
{
	struct wlseal_shm *shm = pool->shm;
	uint64_t one = 1;

	if (shm->reap_efd < 0) {
		pool_release(pool);	/* no reaper: release at once */
		return;
	}
	wl_list_insert(shm->reap.prev, &pool->reap_link);
	if (shm->reap_len++ == 0 &&
	    write(shm->reap_efd, &one, sizeof(one)) != sizeof(one))
		wlseal_log("reaper eventfd: %s", strerror(errno));
}

/* Unmaps the last REAP_SLICE bytes (whole pages of the file) of @pool's
 * mapping; false when it is too small for that or munmap failed. */
static bool unmap_slice(struct wlseal_pool *pool)
{
	size_t slice = REAP_SLICE / pool->page * pool->page;
	char why[160];

	if (!slice || pool->map_len <= slice ||
	    munmap((char *)pool->data + pool->map_len - slice, slice) < 0)
		return false;
	if (pool->account)
		wlseal_pool_recharge(pool->account, pool->map_len,
				     pool->map_len - slice, why, sizeof(why));
	pool->map_len -= slice;
	wlseal_debug("reaper: unmapped %zu MiB of a pool, %zu MiB left",
		     slice >> 20, pool->map_len >> 20);
	return true;
}

/*
 * Release up to @max pools from the reap list, and unmap no more than
 * about REAP_SLICE bytes of large ones in this turn (@max < 0: all of it,
 * at exit); the number of pools left.
 */
static int reap(struct wlseal_shm *shm, int max)
{
	struct wlseal_pool *pool, *tmp;
	size_t unmapped = 0;
	int done = 0;
	uint64_t n;

	wl_list_for_each_safe(pool, tmp, &shm->reap, reap_link) {
		if (max >= 0 && (done == max || unmapped >= REAP_SLICE))
			break;
		if (max >= 0 && unmap_slice(pool)) {
			unmapped += REAP_SLICE;
			break;		/* the rest of it next turn */
		}
		unmapped += pool->map_len;
		wl_list_remove(&pool->reap_link);
		shm->reap_len--;
		pool_release(pool);
		done++;
	}
	wlseal_debug("reaper: released %d pools, %d left", done, shm->reap_len);
	if (shm->reap_len == 0 &&
	    read(shm->reap_efd, &n, sizeof(n)) != sizeof(n) && errno != EAGAIN)
		wlseal_log("reaper eventfd: %s", strerror(errno));
	return shm->reap_len;
}

static int reap_ready(int fd, uint32_t mask, void *data)
{
	wlseal_cpu_loop();
	reap(data, REAP_BATCH);
	return 0;
}

bool wlseal_pool_reaper_init(struct wlseal_shm *shm)
{
	struct wl_event_loop *loop = wl_display_get_event_loop(shm->display);

	wl_list_init(&shm->reap);
	shm->reap_len = 0;
	shm->reap_efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (shm->reap_efd < 0)
		return false;
	shm->reap_source = wl_event_loop_add_fd(loop, shm->reap_efd,
						WL_EVENT_READABLE, reap_ready,
						shm);
	if (!shm->reap_source) {
		close(shm->reap_efd);
		shm->reap_efd = -1;
		return false;
	}
	/* Without the thread, pools are released on the loop as before. */
	wlseal_closer_start(loop);
	return true;
}

bool wlseal_shm_releasing(const struct wlseal_shm *shm)
{
	return shm->reap_len > 0 || wlseal_closer_pending() > 0 ||
	       wlseal_populate_pending() > 0;
}

void wlseal_shm_finish(struct wlseal_shm *shm)
{
	/* Populations hold their pools: they let go first (resident.c). */
	wlseal_populate_stop();
	if (shm->reap_efd < 0)
		return;
	reap(shm, -1);
	wlseal_closer_stop();
	wl_event_source_remove(shm->reap_source);
	close(shm->reap_efd);
	shm->reap_source = NULL;
	shm->reap_efd = -1;
}

/* wl_buffer */

static void buffer_destroy(struct wl_client *client,
			   struct wl_resource *resource)
{
	wl_resource_destroy(resource);
}

static const struct wl_buffer_interface buffer_impl = {
	.destroy = buffer_destroy,
};

static void buffer_resource_destroy(struct wl_resource *resource)
{
	struct wlseal_shm_buffer *buffer = wl_resource_get_user_data(resource);

	wlseal_copy_free(buffer->copy);
	wlseal_pool_unref(buffer->pool);
	free(buffer);
}

struct wlseal_shm_buffer *wlseal_shm_buffer_from_resource(struct wl_resource *r)
{
	if (!r || !wl_resource_instance_of(r, &wl_buffer_interface, &buffer_impl))
		return NULL;
	return wl_resource_get_user_data(r);
}

/*
 * All buffer parameters in one place. Everything is int32 on the wire;
 * the products are computed in 64 bits, where they cannot overflow, and
 * compared against the pool size only after every factor was found sane.
 */
static bool buffer_params_ok(struct wlseal_pool *pool, int32_t offset,
			     int32_t width, int32_t height, int32_t stride,
			     char *why, size_t why_len)
{
	const int64_t bpp = 4;	/* both formats we accept */
	int64_t end;

	if (offset < 0 || width <= 0 || height <= 0 || stride <= 0) {
		snprintf(why, why_len,
			 "invalid buffer parameters (offset %d, %dx%d, stride %d)",
			 offset, width, height, stride);
		return false;
	}
	if ((int64_t)width * bpp > stride) {
		snprintf(why, why_len, "stride %d too small for width %d",
			 stride, width);
		return false;
	}
	/* pixman addresses rows in uint32_t units. */
	if (stride % 4) {
		snprintf(why, why_len, "stride %d not a multiple of 4", stride);
		return false;
	}
	end = (int64_t)offset + (int64_t)stride * height;
	if (end > pool->size) {
		snprintf(why, why_len,
			 "buffer outside pool (offset %d + stride %d * height %d = %lld > pool %d)",
			 offset, stride, height, (long long)end, pool->size);
		return false;
	}
	return true;
}

/* wl_shm_pool */

static void pool_create_buffer(struct wl_client *client,
			       struct wl_resource *resource, uint32_t id,
			       int32_t offset, int32_t width, int32_t height,
			       int32_t stride, uint32_t format)
{
	struct wlseal_pool *pool = wl_resource_get_user_data(resource);
	struct wlseal_shm_buffer *buffer;
	struct wlseal_copy *copy = NULL;
	char why[160];

	if (format != WL_SHM_FORMAT_ARGB8888 &&
	    format != WL_SHM_FORMAT_XRGB8888) {
		snprintf(why, sizeof(why), "unsupported format 0x%x", format);
		wlseal_shm_refuse(resource, WL_SHM_ERROR_INVALID_FORMAT,
				  "wl_shm_pool.create_buffer", why);
		return;
	}
	if (!buffer_params_ok(pool, offset, width, height, stride, why,
			      sizeof(why))) {
		wlseal_shm_refuse(resource, WL_SHM_ERROR_INVALID_STRIDE,
				  "wl_shm_pool.create_buffer", why);
		return;
	}

	/* A copied pool's buffer holds its pixels in compositor memory,
	 * charged to the client's pool bytes like a mapping (copy.c). */
	if (pool->copied) {
		copy = wlseal_copy_new(pool->account,
				       (size_t)stride * (size_t)height, why,
				       sizeof(why));
		if (!copy) {
			if (why[0])
				wlseal_shm_refuse(resource, WL_SHM_ERROR_INVALID_FD,
						  "wl_shm_pool.create_buffer", why);
			else
				wl_client_post_no_memory(client);
			return;
		}
	}
	buffer = calloc(1, sizeof(*buffer));
	if (!buffer) {
		wlseal_copy_free(copy);
		wl_client_post_no_memory(client);
		return;
	}
	buffer->resource = wl_resource_create(client, &wl_buffer_interface, 1, id);
	if (!buffer->resource) {
		wlseal_copy_free(copy);
		free(buffer);
		wl_client_post_no_memory(client);
		return;
	}
	buffer->copy = copy;
	if (copy)
		copy->buffer = buffer;
	buffer->pool = pool;
	buffer->offset = offset;
	buffer->width = width;
	buffer->height = height;
	buffer->stride = stride;
	buffer->format = format;
	pool->refcount++;
	wl_resource_set_implementation(buffer->resource, &buffer_impl, buffer,
				       buffer_resource_destroy);
}

static void pool_destroy(struct wl_client *client, struct wl_resource *resource)
{
	wl_resource_destroy(resource);
}

/*
 * Grows the pool's mapping to @new_len bytes (the budget charged for it
 * here). Where the mapping lies matters to whoever holds an address in
 * it:
 * - the loop's own readers (render.c through wlseal_buffer_begin,
 *   resident.c's mincore) take pool->data afresh each time, so a move
 *   costs them nothing;
 * - the populate thread reads pool->data under the populate lock, chunk
 *   by chunk (populate.c), and every change of pool->data below is made
 *   under that lock;
 * - a pin (wlseal_buffer_pin: a scanout record, whose pixman image over
 *   the buffer is what the display shows, what screenshots and the frame
 *   checksum read, on headless and on KMS) keeps its address for as long
 *   as it lives, across any number of resizes, so a pinned mapping is
 *   never moved: it grows in place (mremap without MREMAP_MAYMOVE) or,
 *   when the address space after it is taken, the file is mapped afresh
 *   at the new length elsewhere and the old mapping is retired: still
 *   mapped, still charged (a client cannot hold more mappings than its
 *   budget pays for), unmapped when its last pin goes (wlseal_pool_unpin).
 *   Both mappings show the same file pages (MAP_SHARED; a write-sealed
 *   file's MAP_PRIVATE read-only mapping is never written, so it never
 *   gets pages of its own), so the retired one's pixels stay right.
 * A mapping nothing pins moves where mremap puts it. With --pool-resize=
 * move every growth moves (the unpinned one to a fresh reservation, the
 * pinned one is retired), the paths a crowded address space takes, for
 * tests to take at will.
 */
static bool pool_grow(struct wlseal_pool *pool, size_t new_len, char *why,
		      size_t why_len)
{
	bool move = pool->shm->resize_moves;
	size_t old_len = pool->map_len;
	void *data = MAP_FAILED, *to = MAP_FAILED;
	int err = 0;

	if (!wlseal_pool_recharge(pool->account, old_len, new_len, why,
				  why_len))
		return false;
	if (pool->pinned) {
		if (!move)
			data = mremap(pool->data, old_len, new_len, 0);
		if (data == MAP_FAILED) {
			/* A second mapping while the first lives: charged
			 * on top. */
			if (!wlseal_pool_recharge(pool->account, new_len,
						  new_len + old_len, why,
						  why_len)) {
				wlseal_pool_recharge(pool->account, new_len,
						     old_len, why, why_len);
				snprintf(why, why_len,
					 "pool on the screen: growing it maps %zu bytes more while the display keeps %zu, past the budget",
					 new_len, old_len);
				return false;
			}
			data = mmap(NULL, new_len, PROT_READ,
				    pool->shared ? MAP_SHARED : MAP_PRIVATE,
				    pool->fd, 0);
			err = errno;
			if (data == MAP_FAILED) {
				wlseal_pool_recharge(pool->account,
						     new_len + old_len, old_len,
						     why, why_len);
				snprintf(why, why_len, "mmap failed: %s",
					 strerror(err));
				return false;
			}
			wlseal_populate_lock();
			pool->pinned->retired = true;
			pool->pinned->addr = pool->data;
			pool->pinned->len = old_len;
			pool->pinned = NULL;
			pool->data = data;
			wlseal_populate_unlock();
		}
		pool->map_len = new_len;
		return true;
	}
	if (move)
		to = mmap(NULL, new_len, PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	/* The mapping may move: not while the populate thread reads its
	 * address (populate.c). */
	wlseal_populate_lock();
	if (to != MAP_FAILED)
		data = mremap(pool->data, old_len, new_len,
			      MREMAP_MAYMOVE | MREMAP_FIXED, to);
	else
		data = mremap(pool->data, old_len, new_len, MREMAP_MAYMOVE);
	err = errno;
	if (data != MAP_FAILED)
		pool->data = data;
	wlseal_populate_unlock();
	if (data == MAP_FAILED) {
		if (to != MAP_FAILED)
			munmap(to, new_len);
		/* The pool keeps its old size: give the bytes back. */
		wlseal_pool_recharge(pool->account, new_len, old_len, why,
				     why_len);
		snprintf(why, why_len, "mremap failed: %s", strerror(err));
		return false;
	}
	pool->map_len = new_len;
	return true;
}

static void pool_resize(struct wl_client *client, struct wl_resource *resource,
			int32_t size)
{
	struct wlseal_pool *pool = wl_resource_get_user_data(resource);
	struct wlseal_shm_verdict v;
	char why[160];
	size_t new_len;

	/* Pools only grow: existing buffers must stay inside. */
	if (size < pool->size) {
		snprintf(why, sizeof(why), "pool cannot shrink (%d -> %d bytes)",
			 pool->size, size);
		wlseal_shm_refuse(resource, WL_SHM_ERROR_INVALID_STRIDE,
				  "wl_shm_pool.resize", why);
		return;
	}
	/* A copied pool maps nothing: its file is checked again (a
	 * regular file still open for reading), its size at each commit
	 * (copy.c). */
	if (pool->copied) {
		if (wlseal_copy_check(&pool->shm->policy, pool->fd, size, &v)) {
			wlseal_shm_refuse(resource, WL_SHM_ERROR_INVALID_FD,
					  "wl_shm_pool.resize", v.message);
			return;
		}
		pool->size = size;
		return;
	}
	/* The file may have grown since create_pool (SEAL_SHRINK allows
	 * that) or not: only a fresh fstat tells. The seals are re-read
	 * too, because the seed ABI can replace a seal set. */
	if (wlseal_shm_check(&pool->shm->policy, pool->fd, size, &v)) {
		wlseal_shm_refuse(resource, WL_SHM_ERROR_INVALID_FD,
				  "wl_shm_pool.resize", v.message);
		return;
	}
	new_len = ((size_t)size + pool->page - 1) / pool->page * pool->page;
	if (new_len != pool->map_len &&
	    !pool_grow(pool, new_len, why, sizeof(why))) {
		wlseal_shm_refuse(resource, WL_SHM_ERROR_INVALID_FD,
				  "wl_shm_pool.resize", why);
		return;
	}
	pool->size = size;
}

static const struct wl_shm_pool_interface pool_impl = {
	.create_buffer = pool_create_buffer,
	.destroy = pool_destroy,
	.resize = pool_resize,
};

/*
 * The client destroyed its wl_shm_pool: close the fd now, even while
 * buffers keep the pool. Only resize needs the fd (fstat and the seals
 * again), and resize can only arrive on this resource. The mapping keeps
 * the file and its pages alive, upstream seals can never be removed, and
 * the seed ABI removes one only for an exclusive holder, which a mapping
 * already prevents (the kernel counts mappings; the scenario
 * seed-unseal-after-pool-destroy asserts it). Keeping the fd would let a
 * client that repeats create_pool, create_buffer, destroy hold as many of
 * our fds as it likes while holding no wl_shm_pool at all.
 */
static bool keeps_fd(const struct wlseal_pool *pool)
{
	return pool->shm->scanout_min_bytes &&
	       (uint64_t)pool->size >= pool->shm->scanout_min_bytes;
}

static void pool_resource_destroy(struct wl_resource *resource)
{
	struct wlseal_pool *pool = wl_resource_get_user_data(resource);

	pool->resource = NULL;
	/* A departed client's fd is closed by the reaper, with the rest;
	 * a copied pool's buffers read through its fd, which it keeps. A
	 * pool large enough to hold a full-screen frame keeps it too: a
	 * udmabuf for direct scanout is made from the fd, and a client
	 * commonly destroys the pool right after making its buffers. That
	 * is bounded as the argument above wants: each such pool maps at
	 * least one output frame's bytes, so the pool memory budget
	 * (account/memory.c) admits at most budget / frame of them, and
	 * the fd stays counted against the client's fds (pools.c), whose
	 * admission refuses pools near the fd limit, heavy clients first. */
	if (!client_gone(pool) && !pool->copied && !keeps_fd(pool)) {
		close(pool->fd);
		pool->fd = -1;
		if (pool->account)
			wlseal_pool_fd_closed(pool->account);
	}
	wlseal_pool_unref(pool);
}

/* Map @fd (owned from here on) read-only, whole pages of v->page. */
static struct wlseal_pool *pool_map(struct wlseal_shm *shm, int fd,
				    int32_t size, struct wlseal_shm_verdict *v)
{
	struct wlseal_pool *pool;
	int flags;

	pool = calloc(1, sizeof(*pool));
	if (!pool) {
		close(fd);
		v->no_memory = true;
		return NULL;
	}
	pool->shm = shm;
	pool->fd = fd;
	pool->size = size;
	pool->page = v->page;
	/* check.c made sure the file holds every page of this length. */
	pool->map_len = ((size_t)size + v->page - 1) / v->page * v->page;
	pool->refcount = 1;
	/*
	 * PROT_READ always. A write-sealed file refuses MAP_SHARED on a
	 * writable fd (the kernel would have to count us as a writer), so
	 * it is mapped MAP_PRIVATE: with the file immutable, a private
	 * read-only mapping sees exactly the same pages.
	 */
	pool->shared = !v->write_sealed;
	flags = pool->shared ? MAP_SHARED : MAP_PRIVATE;
	pool->data = mmap(NULL, pool->map_len, PROT_READ, flags, fd, 0);
	if (pool->data == MAP_FAILED) {
		v->reason = WLSEAL_SHM_POOL_REQUEST_V1_REASON_MAP_FAILED;
		snprintf(v->message, sizeof(v->message), "mmap failed: %s",
			 strerror(errno));
		free(pool);
		close(fd);
		return NULL;
	}
	return pool;
}

struct wlseal_pool *wlseal_pool_new(struct wlseal_shm *shm,
				    struct wl_client *client, int fd,
				    int32_t size, struct wlseal_shm_verdict *v)
{
	struct wlseal_account *account = wlseal_account_of(client);
	struct wlseal_shm_verdict again;
	struct wlseal_pool *pool;
	size_t map_len;

	if (!account) {
		*v = (struct wlseal_shm_verdict){ .file_size = -1, .no_memory = true };
		goto refused;
	}
	if (!wlseal_pool_unsealed_file(shm, client, account, fd, size, v, &pool))
		return pool;	/* copied, or refused (fd closed) */
	if (wlseal_shm_check(&shm->policy, fd, size, v))
		goto refused;
	map_len = ((size_t)size + v->page - 1) / v->page * v->page;
	if (!wlseal_pool_admit(account, fd, map_len, v->message,
			       sizeof(v->message))) {
		v->reason = WLSEAL_SHM_POOL_REQUEST_V1_REASON_OUT_OF_RESOURCES;
		goto refused;
	}
	pool = pool_map(shm, fd, size, v);
	if (!pool)
		return NULL;
	/*
	 * Defense in depth: the seed ABI lets an exclusive holder replace
	 * the seals. Our fd made us not exclusive from before the check, and
	 * the mapping keeps it so from now on; should a kernel ever get that
	 * wrong, this second look catches a change made in between.
	 */
	if (wlseal_shm_check(&shm->policy, pool->fd, size, &again) ||
	    again.write_sealed != v->write_sealed) {
		v->reason = again.reason ? again.reason :
			    WLSEAL_SHM_POOL_REQUEST_V1_REASON_UNEXPECTED_SEAL;
		v->seals = again.seals;
		snprintf(v->message, sizeof(v->message),
			 "seals changed while mapping: %.120s", again.message);
		wlseal_pool_unref(pool);
		return NULL;
	}
	pool->account = account;
	wlseal_pool_charge(account, pool->map_len);
	wlseal_pool_log_accepted(client, pool, v->file_seals);
	return pool;
refused:
	close(fd);
	return NULL;
}

bool wlseal_pool_bind(struct wlseal_pool *pool, struct wl_client *client,
		      uint32_t id)
{
	pool->resource = wl_resource_create(client, &wl_shm_pool_interface, 1, id);
	if (!pool->resource) {
		wlseal_pool_unref(pool);
		return false;
	}
	wl_resource_set_implementation(pool->resource, &pool_impl, pool,
				       pool_resource_destroy);
	return true;
}
