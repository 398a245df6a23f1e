/* SPDX-License-Identifier: MIT */
/*
 * wlseal-client - a well-behaved Wayland client that renders into sealed
 * memfds.
 *
 * It draws deterministic frames (pattern.c) into two or three buffers of
 * one SEAL_SHRINK-sealed memfd pool, one frame per frame callback, and
 * reports when its frames reached the screen (wp_presentation). With
 * --seals=...,write every frame gets its own memfd, sealed immutable after
 * drawing: the compositor can then map it privately and nothing the client
 * does afterwards can change what is shown.
 *
 * Lines on stdout (for tests and VM scenarios):
 *   WLSEAL-CLIENT-START seal-api=A seals=0xS size=WxH
 *   WLSEAL-CLIENT-PRESENTED frame=N seq=S      (--verbose: every frame)
 *   WLSEAL-CLIENT-LAST frame=N seq=S           (the last of --frames=N)
 *   WLSEAL-CLIENT-SUMMARY ...                  (at exit)
 *
 * When the compositor offers wlseal_shm_policy_v1 (protocol/README.md)
 * the client reads its policy, seals every file with the required seals,
 * and creates pools through the extension: a refusal is an event, not a
 * disconnect, so it can fix the file (add the missing seal, grow the
 * file, start over with a new file) and ask again, once per reason:
 *   WLSEAL-CLIENT-POLICY required=0xR accepted=0xA max-pool-size=N flags=0xF
 *   WLSEAL-CLIENT-POOL via=wlseal_shm_policy_v1|wl_shm size=N seals=0xS
 *   WLSEAL-CLIENT-REFUSED reason=R seals=0xS file-size=N message="..."
 *   WLSEAL-CLIENT-RETRY reason=R action=A
 * Without the global (or with --no-policy-extension) it uses core wl_shm.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include <wayland-client.h>

#include "pattern.h"
#include "presentation-time-client-protocol.h"
#include "wlseal-seals.h"
#include "wlseal-shm-policy-v1-client-protocol.h"
#include "wlseal-policy-reason.h"
#include "xdg-shell-client-protocol.h"

#define MAX_BUFFERS 3

enum seal_api { API_AUTO, API_UPSTREAM, API_V1 };

struct options {
	enum seal_api api;
	int seals;		/* upstream F_SEAL_* bits */
	int32_t width, height;
	uint32_t frames;	/* 0: forever */
	int nbuffers;
	bool exit_after;
	bool resize;
	bool verbose;
	bool no_extension;	/* core wl_shm even when the global exists */
	bool provoke_missing;	/* first pool without the required seals */
	bool provoke_small;	/* first pool on a file half its size */
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
	double min_ms, max_ms, sum_ms;	/* frame callback intervals */
	double render_ms;
	struct timespec last_done;
};

struct window {
	struct display *d;
	struct options *o;
	enum seal_api api;	/* resolved */
	struct wl_surface *surface;
	struct xdg_surface *xdg_surface;
	struct xdg_toplevel *toplevel;
	struct wl_callback *callback;
	bool configured;
	int32_t width, height;
	struct pool pool;
	struct buffer buffers[MAX_BUFFERS];
	uint32_t frame;		/* last frame committed, 1-based */
	bool last_done, last_presented, have_presentation;
	uint64_t last_seq;
	bool write_mode;	/* a write-sealed file per frame */
	int pools_made;
	bool finished;		/* the last frame is on screen */
	bool waiting_buffer;	/* frame due but every buffer busy */
	struct stats stats;
};

static bool running = true;

static double ms_between(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) * 1e3 +
	       (double)(b->tv_nsec - a->tv_nsec) / 1e6;
}

/* Memory: a sealable memfd of @size bytes, through the chosen API. The
 * seals are applied by seal_fd(), after any drawing that must precede
 * them (SEAL_WRITE). */
static int create_file(struct window *w, size_t size)
{
	int fd;

	if (w->api == API_V1) {
		/* The seed's memfd_create(): sized at birth, always
		 * sealable. */
		fd = wlseal_memfd_create_sized("wlseal-client", size, MFD_CLOEXEC);
		if (fd < 0)
			fprintf(stderr, "wlseal-client: memfd_create_sized: %s\n",
				strerror(errno));
		return fd;
	}
	fd = memfd_create("wlseal-client", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0) {
		fprintf(stderr, "wlseal-client: memfd_create: %s\n", strerror(errno));
		return -1;
	}
	if (ftruncate(fd, (off_t)size) < 0) {
		fprintf(stderr, "wlseal-client: ftruncate: %s\n", strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

static bool seal_fd(struct window *w, int fd, int seals)
{
	if (w->api == API_V1) {
		/* SHMEM_SET_SEALS replaces the whole set, in seed bits. */
		if (fcntl(fd, SHMEM_SET_SEALS, wlseal_upstream_to_seed(seals)) < 0) {
			fprintf(stderr, "wlseal-client: SHMEM_SET_SEALS: %s\n",
				strerror(errno));
			return false;
		}
		return true;
	}
	if (fcntl(fd, F_ADD_SEALS, seals) < 0) {
		fprintf(stderr, "wlseal-client: F_ADD_SEALS(0x%x): %s\n", seals,
			strerror(errno));
		return false;
	}
	return true;
}

/*
 * The seals every new file gets: what --seals asked for, plus what the
 * compositor's policy requires, minus what it would refuse (the required
 * ones always stay).
 */
static int file_seals(struct window *w)
{
	const struct policy *p = &w->d->policy;
	int seals = w->o->seals;

	if (!w->write_mode)
		seals &= ~F_SEAL_WRITE;
	if (p->known && (p->flags & WLSEAL_SHM_POLICY_V1_CAPABILITY_ENFORCED)) {
		seals |= (int)p->required;
		seals &= (int)(p->accepted | p->required);
	}
	return seals;
}

/* The answer to one wlseal_shm_policy_v1.create_pool. */
struct pool_answer {
	bool done;
	struct wl_shm_pool *pool;
	uint32_t reason, seals;
	int32_t file_size;
	char message[256];
};

static void request_created(void *data, struct wlseal_shm_pool_request_v1 *r,
			    struct wl_shm_pool *pool)
{
	struct pool_answer *a = data;

	(void)r;
	a->pool = pool;
	a->done = true;
}

static void request_refused(void *data, struct wlseal_shm_pool_request_v1 *r,
			    uint32_t reason, uint32_t seals, int32_t file_size,
			    const char *message)
{
	struct pool_answer *a = data;

	(void)r;
	a->reason = reason;
	a->seals = seals;
	a->file_size = file_size;
	snprintf(a->message, sizeof(a->message), "%s", message);
	a->done = true;
}

static const struct wlseal_shm_pool_request_v1_listener request_listener = {
	.created = request_created,
	.refused = request_refused,
};

/* Copy @size bytes of @from into a new file sealed with @seals. */
static int replace_file(struct window *w, int from, size_t size, int seals)
{
	char buf[65536];
	size_t done = 0;
	int fd = create_file(w, size);

	if (fd < 0)
		return -1;
	while (done < size) {
		size_t n = size - done < sizeof(buf) ? size - done : sizeof(buf);
		ssize_t r = pread(from, buf, n, (off_t)done);

		if (r <= 0)
			break;	/* a short file: the rest stays zero */
		if (pwrite(fd, buf, (size_t)r, (off_t)done) != r) {
			close(fd);
			return -1;
		}
		done += (size_t)r;
	}
	if (!seal_fd(w, fd, seals)) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Fix what a refusal names, on *fd (which may be replaced by a new file).
 * Fills @action with what was done; false when nothing can be done.
 */
static bool fix_refusal(struct window *w, int *fd, int32_t size,
			const struct pool_answer *a, char *action, size_t len)
{
	int cur = fcntl(*fd, F_GET_SEALS);
	int nfd, seals;

	switch (a->reason) {
	case WLSEAL_SHM_POOL_REQUEST_V1_REASON_MISSING_SEAL:
		/* The compositor closed its copy before refusing, so with the
		 * seed ABI this fd is the only reference and may be resealed. */
		if (cur >= 0 && seal_fd(w, *fd, w->api == API_V1 ?
					cur | (int)a->seals : (int)a->seals)) {
			snprintf(action, len, "add-seals=0x%x", a->seals);
			return true;
		}
		break;
	case WLSEAL_SHM_POOL_REQUEST_V1_REASON_FILE_TOO_SMALL:
		if (cur >= 0 && !(cur & F_SEAL_GROW) &&
		    ftruncate(*fd, (off_t)size) == 0) {
			snprintf(action, len, "grow-file=%d", size);
			return true;
		}
		break;
	case WLSEAL_SHM_POOL_REQUEST_V1_REASON_UNEXPECTED_SEAL:
	case WLSEAL_SHM_POOL_REQUEST_V1_REASON_NOT_SEALABLE:
		break;
	default:
		/* too_large, map_failed: no file of ours would do. */
		snprintf(action, len, "give-up");
		return false;
	}
	/* Seals cannot be taken back (upstream) and a pipe never becomes a
	 * memfd: start over with a new file with the same contents. */
	seals = file_seals(w);
	if (a->reason == WLSEAL_SHM_POOL_REQUEST_V1_REASON_UNEXPECTED_SEAL)
		seals &= ~(int)a->seals;
	nfd = replace_file(w, *fd, (size_t)size, seals);
	if (nfd < 0) {
		snprintf(action, len, "give-up");
		return false;
	}
	close(*fd);
	*fd = nfd;
	snprintf(action, len, "new-file seals=0x%x", seals);
	return true;
}

/*
 * A wl_shm_pool for *fd: through wlseal_shm_policy_v1 when the compositor
 * has it (waiting for the answer, fixing the file and asking again once
 * per refusal reason), else through core wl_shm, where a refusal would be
 * fatal. *fd may be replaced by a better file; NULL when refused for good.
 */
static struct wl_shm_pool *get_pool(struct window *w, int *fd, int32_t size)
{
	struct display *d = w->d;
	struct wl_shm_pool *pool = NULL;
	uint32_t tried = 0;
	char action[64];

	if (!d->shm_policy) {
		pool = wl_shm_create_pool(d->shm, *fd, size);
	} else {
		for (;;) {
			struct pool_answer a = {0};
			struct wlseal_shm_pool_request_v1 *req =
				wlseal_shm_policy_v1_create_pool(d->shm_policy, *fd, size);
			bool ok;

			wlseal_shm_pool_request_v1_add_listener(req, &request_listener, &a);
			while (!a.done)
				if (wl_display_dispatch(d->display) < 0)
					return NULL;
			wlseal_shm_pool_request_v1_destroy(req);
			if (a.pool) {
				pool = a.pool;
				break;
			}
			printf("WLSEAL-CLIENT-REFUSED reason=%s seals=0x%x file-size=%d "
			       "message=\"%s\"\n", wlseal_policy_reason_name(a.reason), a.seals,
			       a.file_size, a.message);
			if (a.reason < 32 && (tried & (1u << a.reason))) {
				ok = false;
				snprintf(action, sizeof(action), "give-up (refused twice)");
			} else {
				tried |= a.reason < 32 ? 1u << a.reason : 0;
				ok = fix_refusal(w, fd, size, &a, action, sizeof(action));
			}
			printf("WLSEAL-CLIENT-RETRY reason=%s action=%s\n",
			       wlseal_policy_reason_name(a.reason), action);
			fflush(stdout);
			if (!ok) {
				fprintf(stderr, "wlseal-client: the compositor refused the "
					"pool: %s\n", a.message);
				return NULL;
			}
		}
	}
	if (w->pools_made++ == 0 || w->o->verbose) {
		printf("WLSEAL-CLIENT-POOL via=%s size=%d seals=0x%x\n",
		       d->shm_policy ? "wlseal_shm_policy_v1" : "wl_shm", size,
		       fcntl(*fd, F_GET_SEALS));
		fflush(stdout);
	}
	return pool;
}

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

static void destroy_pool(struct window *w)
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

/* Buffers at the current size inside the shared pool. */
static void create_buffers(struct window *w)
{
	int32_t stride = w->width * 4;
	size_t one = (size_t)stride * (size_t)w->height;
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
static bool create_pool(struct window *w)
{
	size_t size = (size_t)w->width * 4 * (size_t)w->height *
		      (size_t)w->o->nbuffers;
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
		fprintf(stderr, "wlseal-client: mmap: %s\n", strerror(errno));
		return false;
	}
	create_buffers(w);
	return true;
}

/*
 * Shrinking a sealed file in place, which only the seed ABI allows: once
 * the compositor has let go of the pool (no buffer, no pool, its fd
 * closed, which a roundtrip after destroying them guarantees) and our own
 * mapping is gone, this fd is the only reference, so SHMEM_SET_SEALS may
 * lift SEAL_SHRINK. Truncate, seal again, and offer the same file anew.
 * Any failure leaves the file as it was and the caller uses a new one.
 */
static bool shrink_in_place(struct window *w, size_t size)
{
	int seed = wlseal_upstream_to_seed(file_seals(w));
	int fd = w->pool.fd;

	w->pool.fd = -1;	/* destroy_pool must not close it */
	destroy_pool(w);
	wl_display_roundtrip(w->d->display);
	if (fcntl(fd, SHMEM_SET_SEALS, seed & ~SHMEM_SEAL_SHRINK) < 0) {
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
static bool resize_pool(struct window *w, int32_t width, int32_t height)
{
	size_t size = (size_t)width * 4 * (size_t)height * (size_t)w->o->nbuffers;
	void *data;

	w->width = width;
	w->height = height;
	if (size < w->pool.size && w->api == API_V1 && shrink_in_place(w, size))
		return true;
	if (size <= w->pool.size || (file_seals(w) & F_SEAL_GROW)) {
		destroy_pool(w);
		return create_pool(w);
	}
	if (ftruncate(w->pool.fd, (off_t)size) < 0) {
		fprintf(stderr, "wlseal-client: growing the pool: %s\n",
			strerror(errno));
		return false;
	}
	data = mremap(w->pool.data, w->pool.size, size, MREMAP_MAYMOVE);
	if (data == MAP_FAILED) {
		fprintf(stderr, "wlseal-client: mremap: %s\n", strerror(errno));
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
static struct buffer *immutable_buffer(struct window *w, uint32_t frame)
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
		running = false;
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

static struct buffer *next_buffer(struct window *w)
{
	int i;

	for (i = 0; i < w->o->nbuffers; i++)
		if (w->buffers[i].buffer && !w->buffers[i].busy)
			return &w->buffers[i];
	return NULL;
}

static void print_last(struct window *w)
{
	if (w->last_done && w->last_presented) {
		printf("WLSEAL-CLIENT-LAST frame=%u seq=%llu\n", w->frame,
		       (unsigned long long)w->last_seq);
		fflush(stdout);
		w->finished = true;
		if (w->o->exit_after)
			running = false;
	}
}

/* wp_presentation_feedback: one per frame, says which output frame (seq)
 * showed it. */
struct feedback {
	struct window *w;
	uint32_t frame;
};

static void fb_sync_output(void *data, struct wp_presentation_feedback *f,
			   struct wl_output *output)
{
	(void)data; (void)f; (void)output;
}

static void fb_presented(void *data, struct wp_presentation_feedback *f,
			 uint32_t sec_hi, uint32_t sec_lo, uint32_t nsec,
			 uint32_t refresh, uint32_t seq_hi, uint32_t seq_lo,
			 uint32_t flags)
{
	struct feedback *fb = data;
	struct window *w = fb->w;
	uint64_t seq = ((uint64_t)seq_hi << 32) | seq_lo;

	(void)sec_hi; (void)sec_lo; (void)nsec; (void)refresh; (void)flags;
	w->stats.presented++;
	if (w->o->verbose)
		printf("WLSEAL-CLIENT-PRESENTED frame=%u seq=%llu\n", fb->frame,
		       (unsigned long long)seq);
	if (w->o->frames && fb->frame == w->o->frames) {
		w->last_seq = seq;
		w->last_presented = true;
		print_last(w);
	}
	wp_presentation_feedback_destroy(f);
	free(fb);
}

static void fb_discarded(void *data, struct wp_presentation_feedback *f)
{
	struct feedback *fb = data;

	fb->w->stats.discarded++;
	wp_presentation_feedback_destroy(f);
	free(fb);
}

static const struct wp_presentation_feedback_listener feedback_listener = {
	.sync_output = fb_sync_output,
	.presented = fb_presented,
	.discarded = fb_discarded,
};

static void redraw(struct window *w);

static void frame_done(void *data, struct wl_callback *cb, uint32_t time)
{
	struct window *w = data;
	struct timespec now;

	(void)time;
	wl_callback_destroy(cb);
	w->callback = NULL;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (w->stats.callbacks++) {
		double ms = ms_between(&w->stats.last_done, &now);

		if (w->stats.callbacks == 2 || ms < w->stats.min_ms)
			w->stats.min_ms = ms;
		if (ms > w->stats.max_ms)
			w->stats.max_ms = ms;
		w->stats.sum_ms += ms;
	}
	w->stats.last_done = now;

	if (w->o->frames && w->frame >= w->o->frames) {
		/* Stay with the last frame shown; no more callbacks. */
		w->last_done = true;
		if (!w->have_presentation)
			w->last_presented = true;
		print_last(w);
		return;
	}
	redraw(w);
}

static const struct wl_callback_listener frame_listener = {
	.done = frame_done,
};

static void redraw(struct window *w)
{
	uint32_t frame = w->frame + 1;
	struct wlseal_rect rects[3];
	struct timespec t0, t1;
	struct buffer *b;
	int i, n;

	if (w->o->resize) {
		/* Every 30 frames, alternate between the size asked for and
		 * a larger one. */
		int32_t want_w = w->o->width + (((frame - 1) / 30) % 2 ? 64 : 0);
		int32_t want_h = w->o->height + (((frame - 1) / 30) % 2 ? 48 : 0);

		if ((want_w != w->width || want_h != w->height) &&
		    !w->write_mode) {
			if (!resize_pool(w, want_w, want_h)) {
				running = false;
				return;
			}
		} else {
			w->width = want_w;
			w->height = want_h;
		}
	}

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (w->write_mode)
		b = immutable_buffer(w, frame);
	else
		b = next_buffer(w);
	if (!b && !running)
		return;
	if (!b) {
		/* All busy: draw when the compositor releases one. */
		w->waiting_buffer = true;
		return;
	}
	w->waiting_buffer = false;
	if (b->data)
		wlseal_pattern_fill(b->data, b->stride, b->width, b->height, frame);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	w->stats.render_ms += ms_between(&t0, &t1);

	wl_surface_attach(w->surface, b->buffer, 0, 0);
	if (frame == 1 || b->width != w->buffers[0].width || w->o->resize) {
		wl_surface_damage_buffer(w->surface, 0, 0, b->width, b->height);
	} else {
		/* Only what changed since the frame on screen. */
		n = wlseal_pattern_damage(frame, b->width, b->height, rects);
		for (i = 0; i < n; i++)
			wl_surface_damage_buffer(w->surface, rects[i].x, rects[i].y,
						 rects[i].width, rects[i].height);
	}
	w->callback = wl_surface_frame(w->surface);
	wl_callback_add_listener(w->callback, &frame_listener, w);
	if (w->d->presentation) {
		struct feedback *fb = calloc(1, sizeof(*fb));

		if (fb) {
			fb->w = w;
			fb->frame = frame;
			wp_presentation_feedback_add_listener(
				wp_presentation_feedback(w->d->presentation,
							 w->surface),
				&feedback_listener, fb);
		}
	}
	wl_surface_commit(w->surface);
	b->busy = true;
	w->frame = frame;
	w->stats.drawn++;
}

static void xdg_surface_configure(void *data, struct xdg_surface *s,
				  uint32_t serial)
{
	struct window *w = data;

	xdg_surface_ack_configure(s, serial);
	if (!w->configured) {
		/* The first configure: the window may now show content. */
		w->configured = true;
		redraw(w);
	}
}

static const struct xdg_surface_listener xdg_surface_listener = {
	.configure = xdg_surface_configure,
};

static void toplevel_configure(void *data, struct xdg_toplevel *t, int32_t width,
			       int32_t height, struct wl_array *states)
{
	/* The size is ours to choose: frames must stay deterministic. */
	(void)data; (void)t; (void)width; (void)height; (void)states;
}

static void toplevel_close(void *data, struct xdg_toplevel *t)
{
	(void)data; (void)t;
	running = false;
}

static const struct xdg_toplevel_listener toplevel_listener = {
	.configure = toplevel_configure,
	.close = toplevel_close,
};

static void wm_base_ping(void *data, struct xdg_wm_base *wm, uint32_t serial)
{
	(void)data;
	xdg_wm_base_pong(wm, serial);
}

static const struct xdg_wm_base_listener wm_base_listener = {
	.ping = wm_base_ping,
};

static void shm_format(void *data, struct wl_shm *shm, uint32_t format)
{
	struct display *d = data;

	(void)shm;
	if (format == WL_SHM_FORMAT_XRGB8888)
		d->has_xrgb = true;
}

static const struct wl_shm_listener shm_listener = {
	.format = shm_format,
};

static void policy_event(void *data, struct wlseal_shm_policy_v1 *p,
			 uint32_t required, uint32_t accepted, uint32_t max_hi,
			 uint32_t max_lo, uint32_t flags)
{
	struct display *d = data;

	(void)p;
	d->policy = (struct policy){
		.known = true, .required = required, .accepted = accepted,
		.flags = flags,
		.max_pool_size = ((uint64_t)max_hi << 32) | max_lo,
	};
	/* Sent on bind and on every change; new files follow it. */
	printf("WLSEAL-CLIENT-POLICY required=0x%x accepted=0x%x "
	       "max-pool-size=%llu flags=0x%x\n", required, accepted,
	       (unsigned long long)d->policy.max_pool_size, flags);
	fflush(stdout);
}

static const struct wlseal_shm_policy_v1_listener policy_listener = {
	.policy = policy_event,
};

static void registry_global(void *data, struct wl_registry *registry,
			    uint32_t name, const char *interface,
			    uint32_t version)
{
	struct display *d = data;

	if (!strcmp(interface, wl_compositor_interface.name)) {
		d->compositor = wl_registry_bind(registry, name,
						 &wl_compositor_interface,
						 version < 4 ? version : 4);
	} else if (!strcmp(interface, wl_shm_interface.name)) {
		d->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
		wl_shm_add_listener(d->shm, &shm_listener, d);
	} else if (!strcmp(interface, xdg_wm_base_interface.name)) {
		d->wm_base = wl_registry_bind(registry, name,
					      &xdg_wm_base_interface, 1);
		xdg_wm_base_add_listener(d->wm_base, &wm_base_listener, d);
	} else if (!strcmp(interface, wp_presentation_interface.name)) {
		d->presentation = wl_registry_bind(registry, name,
						   &wp_presentation_interface, 1);
	} else if (!strcmp(interface, wlseal_shm_policy_v1_interface.name) &&
		   !d->no_extension) {
		d->shm_policy = wl_registry_bind(registry, name,
						 &wlseal_shm_policy_v1_interface, 1);
		wlseal_shm_policy_v1_add_listener(d->shm_policy,
						  &policy_listener, d);
	}
}

static void registry_global_remove(void *data, struct wl_registry *r,
				   uint32_t name)
{
	(void)data; (void)r; (void)name;
}

static const struct wl_registry_listener registry_listener = {
	.global = registry_global,
	.global_remove = registry_global_remove,
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: wlseal-client [OPTION]...\n"
"A Wayland client drawing deterministic frames into sealed memfds.\n"
"\n"
"  --seal-api=auto|upstream|v1  how files are made and sealed: upstream =\n"
"                     memfd_create + F_ADD_SEALS; v1 = the seed ABI\n"
"                     (memfd_create_sized + SHMEM_SET_SEALS, patched kernel\n"
"                     only); auto = v1 when the kernel has it (default)\n"
"  --seals=LIST       comma list of shrink, grow, write (default shrink);\n"
"                     'none' sends an unsealed pool; with write, every frame\n"
"                     is a new immutable file\n"
"  --size=WxH         window size (default 320x240)\n"
"  --frames=N         draw frames 1..N, then keep frame N on screen\n"
"                     (default: forever)\n"
"  --exit             exit once frame N is on screen (with --frames)\n"
"  --buffers=2|3      buffers in the pool (default 3)\n"
"  --resize           alternate sizes every 30 frames: grow the sealed pool\n"
"                     in place; shrink in place with the seed ABI (lift\n"
"                     SEAL_SHRINK once the compositor let go), else\n"
"                     through a new pool\n"
"  --no-policy-extension\n"
"                     create pools through core wl_shm even when the\n"
"                     compositor offers wlseal_shm_policy_v1\n"
"  --provoke=LIST     with the extension: make the first pool wrong on\n"
"                     purpose to show refusal and retry; LIST: missing-seal\n"
"                     (without the required seals), file-too-small (file\n"
"                     half the pool size)\n"
"  --verbose          print WLSEAL-CLIENT-PRESENTED for every frame\n"
"  --help             show this help\n"
"\n"
"Prints WLSEAL-CLIENT-LAST frame=N seq=S when frame N is on screen (S is\n"
"the compositor's frame, as in its WLSEAL-FRAME lines) and a timing\n"
"summary (WLSEAL-CLIENT-SUMMARY) at exit.\n");
}

static bool parse_seals(const char *s, int *seals)
{
	char *copy = strdup(s), *tok, *save = NULL;
	bool ok = true;

	*seals = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "shrink"))
			*seals |= F_SEAL_SHRINK;
		else if (!strcmp(tok, "grow"))
			*seals |= F_SEAL_GROW;
		else if (!strcmp(tok, "write"))
			*seals |= F_SEAL_WRITE;
		else if (strcmp(tok, "none"))
			ok = false;
	}
	free(copy);
	return ok;
}

static bool parse_options(int argc, char **argv, struct options *o)
{
	enum { O_API = 256, O_SEALS, O_SIZE, O_FRAMES, O_EXIT, O_BUFFERS,
	       O_RESIZE, O_VERBOSE, O_HELP, O_NO_EXT, O_PROVOKE };
	static const struct option longopts[] = {
		{ "seal-api", required_argument, NULL, O_API },
		{ "seals", required_argument, NULL, O_SEALS },
		{ "size", required_argument, NULL, O_SIZE },
		{ "frames", required_argument, NULL, O_FRAMES },
		{ "exit", no_argument, NULL, O_EXIT },
		{ "buffers", required_argument, NULL, O_BUFFERS },
		{ "resize", no_argument, NULL, O_RESIZE },
		{ "verbose", no_argument, NULL, O_VERBOSE },
		{ "help", no_argument, NULL, O_HELP },
		{ "no-policy-extension", no_argument, NULL, O_NO_EXT },
		{ "provoke", required_argument, NULL, O_PROVOKE },
		{ 0 },
	};
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case O_API:
			if (!strcmp(optarg, "auto"))
				o->api = API_AUTO;
			else if (!strcmp(optarg, "upstream"))
				o->api = API_UPSTREAM;
			else if (!strcmp(optarg, "v1"))
				o->api = API_V1;
			else {
				fprintf(stderr, "unknown --seal-api '%s'\n", optarg);
				return false;
			}
			break;
		case O_SEALS:
			if (!parse_seals(optarg, &o->seals)) {
				fprintf(stderr, "bad --seals '%s'\n", optarg);
				return false;
			}
			break;
		case O_SIZE:
			o->width = (int32_t)strtol(optarg, &end, 10);
			if (*end != 'x')
				o->width = 0;
			else
				o->height = (int32_t)strtol(end + 1, &end, 10);
			if (*end || o->width <= 0 || o->height <= 0 ||
			    o->width > 8192 || o->height > 8192) {
				fprintf(stderr, "bad --size '%s'\n", optarg);
				return false;
			}
			break;
		case O_FRAMES:
			o->frames = (uint32_t)strtoul(optarg, NULL, 10);
			break;
		case O_EXIT:
			o->exit_after = true;
			break;
		case O_BUFFERS:
			o->nbuffers = atoi(optarg);
			if (o->nbuffers < 2 || o->nbuffers > MAX_BUFFERS) {
				fprintf(stderr, "--buffers must be 2 or 3\n");
				return false;
			}
			break;
		case O_RESIZE:
			o->resize = true;
			break;
		case O_VERBOSE:
			o->verbose = true;
			break;
		case O_NO_EXT:
			o->no_extension = true;
			break;
		case O_PROVOKE: {
			char *copy = strdup(optarg), *tok, *save = NULL;
			bool ok = true;

			for (tok = strtok_r(copy, ",", &save); tok;
			     tok = strtok_r(NULL, ",", &save)) {
				if (!strcmp(tok, "missing-seal"))
					o->provoke_missing = true;
				else if (!strcmp(tok, "file-too-small"))
					o->provoke_small = true;
				else
					ok = false;
			}
			free(copy);
			if (!ok) {
				fprintf(stderr, "bad --provoke '%s'\n", optarg);
				return false;
			}
			break;
		}
		case O_HELP:
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return false;
		}
	}
	return true;
}

static void print_summary(struct window *w)
{
	struct stats *s = &w->stats;
	uint32_t intervals = s->callbacks > 1 ? s->callbacks - 1 : 0;

	printf("WLSEAL-CLIENT-SUMMARY frames=%u callbacks=%u presented=%u "
	       "discarded=%u interval_ms_min=%.2f interval_ms_avg=%.2f "
	       "interval_ms_max=%.2f render_ms_avg=%.3f\n",
	       s->drawn, s->callbacks, s->presented, s->discarded,
	       intervals ? s->min_ms : 0.0,
	       intervals ? s->sum_ms / intervals : 0.0, s->max_ms,
	       s->drawn ? s->render_ms / s->drawn : 0.0);
	fflush(stdout);
}

/* The event loop: the Wayland socket plus a signalfd, so that SIGTERM
 * ends the client cleanly with its summary. */
static int run(struct display *d, struct window *w)
{
	struct pollfd fds[2];
	sigset_t mask;
	int sfd;

	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	sfd = signalfd(-1, &mask, SFD_CLOEXEC);
	fds[0] = (struct pollfd){ .fd = wl_display_get_fd(d->display), .events = POLLIN };
	fds[1] = (struct pollfd){ .fd = sfd, .events = POLLIN };

	while (running) {
		while (wl_display_prepare_read(d->display) != 0)
			if (wl_display_dispatch_pending(d->display) < 0)
				goto error;
		if (wl_display_flush(d->display) < 0 && errno != EAGAIN) {
			wl_display_cancel_read(d->display);
			goto error;
		}
		if (poll(fds, 2, -1) < 0) {
			wl_display_cancel_read(d->display);
			if (errno == EINTR)
				continue;
			goto error;
		}
		if (fds[0].revents & (POLLIN | POLLERR | POLLHUP)) {
			if (wl_display_read_events(d->display) < 0)
				goto error;
		} else {
			wl_display_cancel_read(d->display);
		}
		if (wl_display_dispatch_pending(d->display) < 0)
			goto error;
		if (w->waiting_buffer)
			redraw(w);
		if (fds[1].revents & POLLIN)
			running = false;
	}
	close(sfd);
	return 0;
error:
	close(sfd);
	return -1;
}

int main(int argc, char **argv)
{
	struct options o = { .api = API_AUTO, .seals = F_SEAL_SHRINK,
			     .width = 320, .height = 240, .nbuffers = 3 };
	struct display d = {0};
	struct window w = {0};
	const struct wl_interface *iface;
	uint32_t id;
	int ret = 0, err;

	if (!parse_options(argc, argv, &o))
		return 2;
	w.d = &d;
	w.o = &o;
	w.pool.fd = -1;
	w.width = o.width;
	w.height = o.height;

	/* Which sealing API: v1 only exists on the patched kernel. */
	w.api = o.api;
	if (o.api != API_UPSTREAM) {
		bool v1 = wlseal_seed_abi_available();

		if (o.api == API_V1 && !v1) {
			fprintf(stderr, "wlseal-client: --seal-api=v1: this kernel has "
				"no seed sealing ABI (memfd_create_sized/SHMEM_SET_SEALS); "
				"boot the wlseal kernel or use --seal-api=upstream\n");
			return 1;
		}
		w.api = v1 ? API_V1 : API_UPSTREAM;
	}

	d.display = wl_display_connect(NULL);
	if (!d.display) {
		fprintf(stderr, "wlseal-client: cannot connect to the compositor: %s\n",
			strerror(errno));
		return 1;
	}
	d.no_extension = o.no_extension;
	d.registry = wl_display_get_registry(d.display);
	wl_registry_add_listener(d.registry, &registry_listener, &d);
	wl_display_roundtrip(d.display);
	wl_display_roundtrip(d.display);	/* the wl_shm formats */
	if (!d.compositor || !d.shm || !d.wm_base || !d.has_xrgb) {
		fprintf(stderr, "wlseal-client: compositor lacks wl_compositor, "
			"wl_shm (XRGB8888) or xdg_wm_base\n");
		return 1;
	}
	w.have_presentation = d.presentation != NULL;
	/* Immutable frames only where the compositor takes them. */
	w.write_mode = (o.seals & F_SEAL_WRITE) &&
		       (!d.policy.known ||
			(d.policy.flags & WLSEAL_SHM_POLICY_V1_CAPABILITY_WRITE_SEALED_ACCEPTED));
	printf("WLSEAL-CLIENT-START seal-api=%s seals=0x%x size=%dx%d\n",
	       w.api == API_V1 ? "v1" : "upstream", o.seals, o.width, o.height);
	fflush(stdout);

	if (!w.write_mode && !create_pool(&w))
		return 1;
	w.surface = wl_compositor_create_surface(d.compositor);
	w.xdg_surface = xdg_wm_base_get_xdg_surface(d.wm_base, w.surface);
	xdg_surface_add_listener(w.xdg_surface, &xdg_surface_listener, &w);
	w.toplevel = xdg_surface_get_toplevel(w.xdg_surface);
	xdg_toplevel_add_listener(w.toplevel, &toplevel_listener, &w);
	xdg_toplevel_set_title(w.toplevel, "wlseal-client");
	xdg_toplevel_set_app_id(w.toplevel, "wlseal-client");
	/* The initial commit, without a buffer, asks for a configure. */
	wl_surface_commit(w.surface);

	if (run(&d, &w) < 0) {
		err = wl_display_get_error(d.display);
		if (err == EPROTO) {
			uint32_t code = wl_display_get_protocol_error(d.display,
								      &iface, &id);
			fprintf(stderr, "wlseal-client: protocol error %u on %s@%u\n",
				code, iface ? iface->name : "?", id);
		} else {
			fprintf(stderr, "wlseal-client: connection lost: %s\n",
				strerror(err));
		}
		ret = 1;
	}
	print_summary(&w);
	if (!ret) {
		destroy_pool(&w);
		wl_display_disconnect(d.display);
	}
	return ret;
}
