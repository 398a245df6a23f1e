/* SPDX-License-Identifier: MIT */
/*
 * shm.h - shared memory: the seal policy (policy.c) and its check
 * (private/check.h), wlseal's own wl_shm (wl-shm.c), its pools and buffers
 * (pool.c), read access to any wl_buffer (buffer.c) and the
 * wlseal_shm_policy_v1 extension (ext-policy.c).
 *
 * This is what the other layers see; pools, buffers and the seal check
 * are inside (private/). The layer includes only itself, account.h and
 * log.h: it knows nothing of surfaces, the scene or the backends. All it
 * needs of the server is struct wlseal_shm below.
 */
#ifndef WLSEAL_SHM_H
#define WLSEAL_SHM_H

#include <stdbool.h>
#include <stddef.h>
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
 * What the secure policy does with a pool whose file lacks a required
 * seal (--unsealed, the policy file's "unsealed" key). The names are in
 * this order in policy.c.
 */
enum wlseal_unsealed {
	WLSEAL_UNSEALED_REFUSE,	/* wl_shm.error.invalid_fd (the default) */
	WLSEAL_UNSEALED_SEAL,	/* add the missing seals ourselves, when the
				   file can still take them (seal.c) */
	WLSEAL_UNSEALED_COPY,	/* as SEAL; a file that cannot be sealed is
				   never mapped: its buffers are read with
				   pread() at commit (copy.c) */
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
	enum wlseal_unsealed unsealed;	/* only when enforced */
};

/* The shared-memory half of the server, embedded in struct wlseal_server. */
struct wlseal_shm {
	struct wl_display *display;
	enum wlseal_shm_mode mode;
	struct wlseal_shm_policy policy;
	struct wl_list policy_resources; /* wlseal_shm_policy_v1 resources */
	/* pool.c: pools of departed clients, released REAP_BATCH a turn */
	struct wl_list reap;		/* wlseal_pool.reap_link */
	int reap_len;
	int reap_efd;			/* readable while reap is not empty */
	struct wl_event_source *reap_source;
	/* Pools at least this large keep their fd past their wl_shm_pool
	 * resource, so that a buffer of theirs can still be scanned out
	 * (wlseal_buffer_pin); 0: no pool does (pool.c says why that is
	 * bounded). The top level sets it to one output frame's bytes. */
	uint64_t scanout_min_bytes;
	/* pool.c: true (--pool-resize=move) moves every mapping a resize
	 * grows, the path a crowded address space takes, for tests. */
	bool resize_moves;
	/* resident.c: false (--residency-check=off) draws a pool's pages
	 * wherever they are, faults and all: for measuring the difference. */
	bool residency_check;
};

/* wl-shm.c: the wl_shm global (or libwayland's, --shm=libwayland); set
 * @residency_check first. */
bool wlseal_shm_init(struct wlseal_shm *shm, uint32_t version);
/* pool.c: after the last client is gone, release everything still
 * held; and whether pools of departed clients are still being released. */
void wlseal_shm_finish(struct wlseal_shm *shm);
bool wlseal_shm_releasing(const struct wlseal_shm *shm);

/* ext-policy.c: the wlseal_shm_policy_v1 global */
bool wlseal_shm_policy_init(struct wlseal_shm *shm, uint32_t version);
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
/*
 * What a commit asks of a buffer, answered once, when it is attached: a
 * wl_buffer's size and its pool's kind never change, so the surface keeps
 * the answer with the buffer and asks shm/ nothing more at commit but to
 * read a copied buffer's rows (wlseal_buffer_commit). False: @buffer is
 * no wl_shm buffer (of ours, or libwayland's under --shm=libwayland).
 */
struct wlseal_buffer_info {
	int32_t width, height;
	bool copied;		/* a copied pool's (--unsealed=copy) */
};
bool wlseal_buffer_info(struct wl_resource *buffer,
			struct wlseal_buffer_info *out);
/*
 * A commit of @buffer: rows [y1, y2) of its pixels may have changed since
 * it was last committed (@n < 0: any row may have). Buffers of a copied
 * pool (--unsealed=copy) read those rows from their file, once per
 * commit: now when they are at most 1 MiB, otherwise on the populate
 * thread, and the buffer is not ready to draw (wlseal_buffer_resident)
 * until they are in; for every other buffer this costs nothing (they
 * are read where they lie, at repaint). Spans may overlap or reach
 * outside. A copied buffer whose file ends before those rows ends the
 * client (wl_shm.error.invalid_fd on the wl_buffer, when the read is
 * done).
 */
struct wlseal_row_span {
	int32_t y1, y2;
};
#define WLSEAL_ROW_SPANS_MAX 80
/* One pointer for surface/scanout.c's record of a buffer of wlseal's wl_shm
 * (NULL: a buffer of another wl_shm): found in O(1), where a destroy
 * listener's lookup walks every listener of the buffer, one per
 * surface it is attached to. */
void **wlseal_buffer_scanout_slot(struct wl_resource *buffer);
void wlseal_buffer_commit(struct wl_resource *buffer,
			  const struct wlseal_row_span *spans, int n);
bool wlseal_buffer_begin(struct wl_resource *buffer, struct wlseal_pixels *px);
void wlseal_buffer_end(struct wlseal_pixels *px);

/*
 * buffer.c: a buffer's pixels as they lie in the client's file, for direct
 * scanout (the backend makes a udmabuf of those pages). Only a buffer of
 * a pool of ours that is mapped (not copied, not libwayland's) and still
 * holds its file's fd (pools at least scanout_min_bytes large keep it).
 * The returned pin is a reference on the pool: its mapping, its fd and
 * its budget charge stay until wlseal_buffer_unpin(), whatever becomes
 * of the buffer and the client meanwhile, so that pages a udmabuf keeps
 * are never held uncounted. It also pins the address: @file->data stays
 * valid until the unpin, whatever resizes the pool meanwhile (a resize
 * never moves a pinned mapping: pool.c, pool_grow). NULL with @why
 * filled: not this buffer.
 */
struct wlseal_pool_map;
struct wlseal_buffer_file {
	int fd;				/* the pool's, valid while pinned */
	uint64_t offset;
	int32_t width, height, stride;
	uint32_t format;		/* WL_SHM_FORMAT_* */
	uint32_t seals;			/* F_GET_SEALS of the file, now */
	const void *data;		/* the pixels, mapped read-only */
};
struct wlseal_pool_map *wlseal_buffer_pin(struct wl_resource *buffer,
					  struct wlseal_buffer_file *file,
					  char *why, size_t why_len);
void wlseal_buffer_unpin(struct wlseal_pool_map *pin);

/*
 * resident.c: is what a draw of a buffer samples in memory? A page of a
 * sealed pool that is not (a hole of a sparse file) would be allocated
 * by the repaint's own page fault; such pages are brought in by the
 * populate thread instead (populate.c), and the view waits.
 *
 * What a draw samples: the part of the view drawn, [x1, x2) x [y1, y2)
 * in view coordinates, through the view's map to buffer pixels (16.16
 * fixed, the scene's pixman transform: a point of the view to the
 * buffer point sampled; scales, flips and quarter turns), with a
 * bilinear filter or not; untransformed: 1:1.
 */
struct wlseal_sampling {
	int32_t x1, y1, x2, y2;
	bool transformed;
	int32_t m[2][3];
	bool bilinear;
};
/*
 * The view a buffer is drawn for, waiting for its pages (embedded in
 * the surface): @populated runs on the loop when a population it asked
 * for has finished (or the read of a copied buffer it waited for), or when a populate slot of its client came free
 * after it found none (then it is asked again at the next repaint).
 * Everything else in it is resident.c's.
 */
struct wlseal_resident_waiter {
	void (*populated)(struct wlseal_resident_waiter *waiter);
	void *job;			/* the population in flight, or NULL */
	struct wl_list starved_link;	/* waiting for a slot of its client */
};
void wlseal_resident_waiter_init(struct wlseal_resident_waiter *waiter,
				 void (*populated)(struct wlseal_resident_waiter *));
/* The view goes: a population in flight finishes unobserved. */
void wlseal_resident_waiter_finish(struct wlseal_resident_waiter *waiter);
/*
 * true: every page @s samples of @buffer is in memory (or the buffer is
 * not a mapped pool's: libwayland's; or copied, with no read of its rows
 * in flight), draw it. false: do not
 * draw it this repaint; the pages not in memory are being brought in
 * and @waiter->populated runs when they are (or, for a view whose
 * sampling is past what one repaint may check, never: resident.c).
 */
bool wlseal_buffer_resident(struct wl_resource *buffer,
			    const struct wlseal_sampling *s,
			    struct wlseal_resident_waiter *waiter);
/* What that lookup costs, in nanoseconds of the loop thread's CPU on
 * this machine (measured at start): the scene charges it to the
 * overdraw budget with the view's pixels. */
uint64_t wlseal_buffer_sample_cost_ns(struct wl_resource *buffer,
				      const struct wlseal_sampling *s);

#endif
