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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "shm.h"

static void pool_unref(struct wlseal_pool *pool)
{
	if (--pool->refcount > 0)
		return;
	munmap(pool->data, pool->size);
	close(pool->fd);
	free(pool);
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

	pool_unref(buffer->pool);
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

	buffer = calloc(1, sizeof(*buffer));
	if (!buffer) {
		wl_client_post_no_memory(client);
		return;
	}
	buffer->resource = wl_resource_create(client, &wl_buffer_interface, 1, id);
	if (!buffer->resource) {
		free(buffer);
		wl_client_post_no_memory(client);
		return;
	}
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

static void pool_resize(struct wl_client *client, struct wl_resource *resource,
			int32_t size)
{
	struct wlseal_pool *pool = wl_resource_get_user_data(resource);
	struct wlseal_shm_verdict v;
	char why[160];
	void *data;

	/* Pools only grow: existing buffers must stay inside. */
	if (size < pool->size) {
		snprintf(why, sizeof(why), "pool cannot shrink (%d -> %d bytes)",
			 pool->size, size);
		wlseal_shm_refuse(resource, WL_SHM_ERROR_INVALID_STRIDE,
				  "wl_shm_pool.resize", why);
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
	if (size == pool->size)
		return;
	data = mremap(pool->data, pool->size, size, MREMAP_MAYMOVE);
	if (data == MAP_FAILED) {
		snprintf(why, sizeof(why), "mremap failed: %s", strerror(errno));
		wlseal_shm_refuse(resource, WL_SHM_ERROR_INVALID_FD,
				  "wl_shm_pool.resize", why);
		return;
	}
	pool->data = data;
	pool->size = size;
}

static const struct wl_shm_pool_interface pool_impl = {
	.create_buffer = pool_create_buffer,
	.destroy = pool_destroy,
	.resize = pool_resize,
};

static void pool_resource_destroy(struct wl_resource *resource)
{
	struct wlseal_pool *pool = wl_resource_get_user_data(resource);

	pool->resource = NULL;
	pool_unref(pool);
}

struct wlseal_pool *wlseal_pool_create(struct wlseal_shm *shm,
				       struct wl_client *client, uint32_t id,
				       int fd, int32_t size, bool write_sealed,
				       const char **why)
{
	static char map_why[160];
	struct wlseal_pool *pool;
	int flags;

	*why = NULL;
	pool = calloc(1, sizeof(*pool));
	if (!pool) {
		close(fd);
		return NULL;
	}
	/*
	 * PROT_READ always. A write-sealed file refuses MAP_SHARED on a
	 * writable fd (the kernel would have to count us as a writer), so
	 * it is mapped MAP_PRIVATE: with the file immutable, a private
	 * read-only mapping sees exactly the same pages.
	 */
	flags = write_sealed ? MAP_PRIVATE : MAP_SHARED;
	pool->data = mmap(NULL, size, PROT_READ, flags, fd, 0);
	if (pool->data == MAP_FAILED) {
		snprintf(map_why, sizeof(map_why), "mmap failed: %s",
			 strerror(errno));
		*why = map_why;
		free(pool);
		close(fd);
		return NULL;
	}
	pool->resource = wl_resource_create(client, &wl_shm_pool_interface, 1, id);
	if (!pool->resource) {
		munmap(pool->data, size);
		free(pool);
		close(fd);
		return NULL;
	}
	pool->shm = shm;
	pool->fd = fd;
	pool->size = size;
	pool->refcount = 1;
	wl_resource_set_implementation(pool->resource, &pool_impl, pool,
				       pool_resource_destroy);
	return pool;
}
