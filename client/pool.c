/* SPDX-License-Identifier: MIT */
/*
 * pool.c - the client's memory: one sealed pool shared by two or three
 * buffers, grown in place or replaced on --resize (shrunk in place with
 * the seed ABI), and with --seals=...,write one immutable file per frame.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <wayland-client.h>

#include "client.h"
#include "pattern.h"
#include "wlseal-seals.h"

static void buffer_release(void *data, struct wl_buffer *wl_buffer)
{
	struct buffer *b = data;

	b->busy = false;
	if (b->immutable) {
		/* A write-sealed buffer is never drawn into again. */
		wl_buffer_destroy(wl_buffer);
		b->buffer = NULL;
	}
}

static const struct wl_buffer_listener buffer_listener = {
	.release = buffer_release,
};

void destroy_pool(struct window *w)
{
	int i;

	for (i = 0; i < MAX_BUFFERS; i++) {
		struct buffer *b = &w->buffers[i];

		if (b->buffer && !b->immutable) {
			wl_buffer_destroy(b->buffer);
			b->buffer = NULL;
			b->busy = false;
		}
	}
	if (w->pool.pool)
		wl_shm_pool_destroy(w->pool.pool);
	if (w->pool.data)
		munmap(w->pool.data, w->pool.size);
	if (w->pool.fd >= 0)
		close(w->pool.fd);
	w->pool = (struct pool){ .fd = -1 };
}

/*
 * One buffer's share of the pool: its pixels rounded up to whole pages,
 * so that every buffer starts on a page. A display can then scan a
 * buffer out as it is (the compositor's direct scanout makes a udmabuf
 * of its pages, which must start on a page); the rest of a page is a
 * few KiB at most.
 */
static size_t buffer_span(const struct window *w)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t one = (size_t)w->width * 4 * (size_t)w->height;

	return (one + page - 1) / page * page;
}

size_t pool_bytes(const struct window *w)
{
	return buffer_span(w) * (size_t)w->o->nbuffers;
}

/* Buffers at the current size inside the shared pool. */
static void create_buffers(struct window *w)
{
	int32_t stride = w->width * 4;
	size_t one = buffer_span(w);
	int i;

	for (i = 0; i < w->o->nbuffers; i++) {
		struct buffer *b = &w->buffers[i];

		if (b->buffer)
			wl_buffer_destroy(b->buffer);
		b->buffer = wl_shm_pool_create_buffer(w->pool.pool,
				(int32_t)(one * (size_t)i), w->width, w->height,
				stride, WL_SHM_FORMAT_XRGB8888);
		wl_buffer_add_listener(b->buffer, &buffer_listener, b);
		b->data = (char *)w->pool.data + one * (size_t)i;
		b->width = w->width;
		b->height = w->height;
		b->stride = stride;
		b->busy = false;
		b->immutable = false;
	}
}

/* The shared pool: sealed before it is mapped writable (the seed ABI
 * refuses initial sealing while a writable shared mapping exists). */
bool create_pool(struct window *w)
{
	size_t size = pool_bytes(w);
	size_t file_size = size;
	int seals = file_seals(w);

	/* --provoke: the first pool starts out wrong on purpose, to show
	 * the extension's refusal and the retry. */
	if (w->pools_made == 0 && w->o->provoke_missing)
		seals &= ~(int)w->d->policy.required;
	if (w->pools_made == 0 && w->o->provoke_small)
		file_size = size / 2;
	w->pool.fd = create_file(w, file_size);
	if (w->pool.fd < 0 || !seal_fd(w, w->pool.fd, seals))
		return false;
	/* The pool first, the writable mapping after: a retry may need to
	 * reseal the file, which the seed ABI refuses while it is mapped. */
	w->pool.pool = get_pool(w, &w->pool.fd, (int32_t)size);
	if (!w->pool.pool)
		return false;
	w->pool.size = size;
	w->pool.data = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
			    w->pool.fd, 0);
	if (w->pool.data == MAP_FAILED) {
		w->pool.data = NULL;
		client_log("mmap: %s", strerror(errno));
		return false;
	}
	create_buffers(w);
	return true;
}

/*
 * Shrinking a sealed file in place, which only the seed ABI allows: once
 * the compositor has let go of the pool (no buffer, no pool, its mapping
 * and fd gone) and our own mapping is gone, this fd is the only
 * reference, so SHMEM_SET_SEALS may lift SEAL_SHRINK. Truncate, seal
 * again, and offer the same file anew. Any failure leaves the file as it
 * was and the caller uses a new one.
 *
 * A roundtrip after destroying the pool and its buffers tells us the
 * compositor handled the destroys, not that the mapping is gone: wlseal
 * unmaps a pool's last mapping and closes its fd on a thread of its own
 * (shm/closer.c), so the kernel may still count it for a moment. The
 * kernel's refusal (EPERM: another reference or mapping of the file;
 * EBUSY: pages still pinned) is the condition: ask again after each
 * further roundtrip, a bounded number of times.
 */
#define SHRINK_TRIES 100

static bool shrink_in_place(struct window *w, size_t size)
{
	int seed = wlseal_upstream_to_seed(file_seals(w));
	int fd = w->pool.fd;
	int tries = 0, ret;

	w->pool.fd = -1;	/* destroy_pool must not close it */
	destroy_pool(w);
	do {
		wl_display_roundtrip(w->d->display);
		ret = fcntl(fd, SHMEM_SET_SEALS, seed & ~SHMEM_SEAL_SHRINK);
	} while (ret < 0 && (errno == EPERM || errno == EBUSY) &&
		 ++tries < SHRINK_TRIES);
	if (ret < 0) {
		printf("WLSEAL-CLIENT-SHRINK new-pool (SHMEM_SET_SEALS: %s)\n",
		       strerror(errno));
		close(fd);
		return false;
	}
	if (ftruncate(fd, (off_t)size) < 0 || fcntl(fd, SHMEM_SET_SEALS, seed) < 0) {
		printf("WLSEAL-CLIENT-SHRINK new-pool (%s)\n", strerror(errno));
		close(fd);
		return false;
	}
	w->pool.pool = get_pool(w, &fd, (int32_t)size);
	w->pool.fd = fd;
	if (!w->pool.pool)
		return false;
	w->pool.size = size;
	w->pool.data = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (w->pool.data == MAP_FAILED) {
		w->pool.data = NULL;
		return false;
	}
	create_buffers(w);
	printf("WLSEAL-CLIENT-SHRINK in-place size=%zu\n", size);
	return true;
}

/*
 * --resize: SEAL_SHRINK forbids shrinking, not growing, so a larger size
 * grows the same file and the pool in place (wl_shm_pool.resize; the
 * compositor re-checks the file with fstat). A smaller size gets a new,
 * smaller file: the sealed one can never give memory back.
 */
bool resize_pool(struct window *w, int32_t width, int32_t height)
{
	size_t size;
	void *data;

	w->width = width;
	w->height = height;
	size = pool_bytes(w);
	if (size < w->pool.size && w->api == WLSEAL_SEAL_API_SEED && shrink_in_place(w, size))
		return true;
	if (size <= w->pool.size || (file_seals(w) & F_SEAL_GROW)) {
		destroy_pool(w);
		return create_pool(w);
	}
	if (ftruncate(w->pool.fd, (off_t)size) < 0) {
		client_log("growing the pool: %s",
			strerror(errno));
		return false;
	}
	data = mremap(w->pool.data, w->pool.size, size, MREMAP_MAYMOVE);
	if (data == MAP_FAILED) {
		client_log("mremap: %s", strerror(errno));
		return false;
	}
	w->pool.data = data;
	w->pool.size = size;
	wl_shm_pool_resize(w->pool.pool, (int32_t)size);
	create_buffers(w);
	return true;
}

/* --seals=...,write: a file per frame, drawn, unmapped, then sealed
 * immutable (F_SEAL_WRITE needs no writable mapping left). */
struct buffer *immutable_buffer(struct window *w, uint32_t frame)
{
	int32_t stride = w->width * 4;
	size_t size = (size_t)stride * (size_t)w->height;
	struct wl_shm_pool *pool;
	struct buffer *b = NULL;
	void *data;
	int fd, i;

	for (i = 0; i < MAX_BUFFERS && !b; i++)
		if (!w->buffers[i].buffer)
			b = &w->buffers[i];
	if (!b)
		return NULL;
	fd = create_file(w, size);
	if (fd < 0)
		return NULL;
	data = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (data == MAP_FAILED) {
		close(fd);
		return NULL;
	}
	wlseal_pattern_fill(data, stride, w->width, w->height, frame);
	munmap(data, size);
	if (!seal_fd(w, fd, file_seals(w))) {
		close(fd);
		return NULL;
	}
	pool = get_pool(w, &fd, (int32_t)size);
	if (!pool) {
		close(fd);
		w->running = false;
		return NULL;
	}
	b->buffer = wl_shm_pool_create_buffer(pool, 0, w->width, w->height,
					      stride, WL_SHM_FORMAT_XRGB8888);
	wl_buffer_add_listener(b->buffer, &buffer_listener, b);
	/* The buffer keeps the compositor's pool alive; ours can go. */
	wl_shm_pool_destroy(pool);
	close(fd);
	b->data = NULL;
	b->width = w->width;
	b->height = w->height;
	b->stride = stride;
	b->immutable = true;
	b->busy = false;
	return b;
}

struct buffer *next_buffer(struct window *w)
{
	int i;

	for (i = 0; i < w->o->nbuffers; i++)
		if (w->buffers[i].buffer && !w->buffers[i].busy)
			return &w->buffers[i];
	return NULL;
}
