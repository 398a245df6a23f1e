/* SPDX-License-Identifier: MIT */
/*
 * buffer.c - read access to a wl_buffer's pixels, whichever wl_shm
 * created it: wlseal's own (pool.c) or libwayland's (--shm=libwayland).
 *
 * The renderer calls wlseal_buffer_begin()/end() around every read. For
 * our own buffers that is a pointer computation, for libwayland's it is
 * wl_shm_buffer_begin_access(), which arms libwayland's SIGBUS handler:
 * exactly the difference wlseal exists to show.
 */
#include <fcntl.h>
#include <stdio.h>

#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "copy-read.h"
#include "copy.h"
#include "pool.h"
#include "shm.h"

bool wlseal_buffer_info(struct wl_resource *resource,
			struct wlseal_buffer_info *out)
{
	struct wlseal_shm_buffer *ours = wlseal_shm_buffer_from_resource(resource);
	struct wl_shm_buffer *theirs;

	if (ours) {
		*out = (struct wlseal_buffer_info){
			.width = ours->width, .height = ours->height,
			.copied = ours->copy != NULL,
		};
		return true;
	}
	theirs = wl_shm_buffer_get(resource);
	if (theirs) {
		*out = (struct wlseal_buffer_info){
			.width = wl_shm_buffer_get_width(theirs),
			.height = wl_shm_buffer_get_height(theirs),
		};
		return true;
	}
	return false;
}

void **wlseal_buffer_scanout_slot(struct wl_resource *resource)
{
	struct wlseal_shm_buffer *ours = wlseal_shm_buffer_from_resource(resource);

	return ours ? &ours->scanout : NULL;
}

void wlseal_buffer_commit(struct wl_resource *resource,
			  const struct wlseal_row_span *spans, int n)
{
	struct wlseal_shm_buffer *ours = wlseal_shm_buffer_from_resource(resource);

	/* The rows are read now or on the populate thread (copy-read.c);
	 * a file shrunk below the pool the client declared ends it, as
	 * libwayland's wl_shm tells a client whose file was truncated
	 * under a mapping. */
	if (ours && ours->copy)
		wlseal_copy_commit(ours, spans, n);
}

bool wlseal_buffer_begin(struct wl_resource *resource, struct wlseal_pixels *px)
{
	struct wlseal_shm_buffer *ours = wlseal_shm_buffer_from_resource(resource);
	struct wl_shm_buffer *theirs;

	px->libwayland = NULL;
	if (ours) {
		/* pool.c checked offset + stride * height <= pool size, and
		 * the pool only grows, so this stays inside the mapping. */
		/* A copied buffer's pixels are the compositor's own copy
		 * (copy.c), never the client's file; the scene reads them
		 * only when its residency check says so (copy-read.c: no
		 * read of them in flight). */
		px->data = ours->copy ? (void *)ours->copy->image :
			   (char *)ours->pool->data + ours->offset;
		px->width = ours->width;
		px->height = ours->height;
		px->stride = ours->stride;
		px->format = ours->format;
		return true;
	}
	theirs = wl_shm_buffer_get(resource);
	if (!theirs)
		return false;
	wl_shm_buffer_begin_access(theirs);
	px->libwayland = theirs;
	px->data = wl_shm_buffer_get_data(theirs);
	px->width = wl_shm_buffer_get_width(theirs);
	px->height = wl_shm_buffer_get_height(theirs);
	px->stride = wl_shm_buffer_get_stride(theirs);
	px->format = wl_shm_buffer_get_format(theirs);
	return true;
}

void wlseal_buffer_end(struct wlseal_pixels *px)
{
	if (px->libwayland)
		wl_shm_buffer_end_access(px->libwayland);
	px->libwayland = NULL;
}

struct wlseal_pool_map *wlseal_buffer_pin(struct wl_resource *resource,
					  struct wlseal_buffer_file *file,
					  char *why, size_t why_len)
{
	struct wlseal_shm_buffer *ours = wlseal_shm_buffer_from_resource(resource);
	struct wlseal_pool_map *pin;
	int seals;

	if (!ours) {
		snprintf(why, why_len, "not a buffer of wlseal's wl_shm");
		return NULL;
	}
	if (ours->pool->copied || !ours->pool->data) {
		snprintf(why, why_len, "a copied pool (its file cannot be sealed)");
		return NULL;
	}
	if (ours->pool->fd < 0) {
		snprintf(why, why_len, "pool of %d bytes, smaller than a frame, without its fd",
			 ours->pool->size);
		return NULL;
	}
	/* The seals the file has now: they only ever grow under SEAL_SEAL
	 * or the seed ABI's exclusivity, which our mapping denies to the
	 * client (check.c), so a write seal seen here stays. */
	pin = wlseal_pool_pin(ours->pool);
	if (!pin) {
		snprintf(why, why_len, "out of memory");
		return NULL;
	}
	seals = fcntl(ours->pool->fd, F_GET_SEALS);
	/* The address is the pinned mapping's: it stays until the unpin,
	 * whatever resizes the pool (pool.c, pool_grow). */
	*file = (struct wlseal_buffer_file){
		.fd = ours->pool->fd,
		.offset = (uint64_t)ours->offset,
		.width = ours->width, .height = ours->height,
		.stride = ours->stride, .format = ours->format,
		.seals = seals < 0 ? 0 : (uint32_t)seals,
		.data = (const char *)ours->pool->data + ours->offset,
	};
	return pin;
}

void wlseal_buffer_unpin(struct wlseal_pool_map *pin)
{
	wlseal_pool_unpin(pin);
}
