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
 * pool is refused when the fd it arrived on is this close to the limit
 * (at least this many: check.c keeps a quarter of the table, and says
 * which part of it light clients may still use). */
#define WLSEAL_FD_RESERVE 128

/* What all clients' pools hold together (check.c), and the limits,
 * computed by wlseal_shm_init() from vm.max_map_count and the memory. */
struct wlseal_shm_totals {
	int pools;		/* pool objects: one mapping each */
	uint64_t bytes;		/* mapped bytes */
	int max_pools;
	uint64_t max_bytes;	/* set before wlseal_shm_init(), or 0 */
};

/* memory.c: max_bytes, when not set, from the memory available at start
 * (and the memory cgroup's headroom); logs the figure either way. */
void wlseal_shm_memory_budget(struct wlseal_shm_totals *t);

/*
 * Protocol objects a client may hold at once, besides pools (objects.c
 * explains each limit and what it bounds). A request that would pass a
 * limit ends the client with wl_display.error no_memory, whose message
 * names the count and the option ("client exceeded 4096 surfaces
 * (--max-surfaces-per-client)").
 */
enum wlseal_budget {
	WLSEAL_BUDGET_SURFACES,		/* wl_surface */
	WLSEAL_BUDGET_SUBSURFACES,	/* wl_subsurface */
	WLSEAL_BUDGET_REGIONS,		/* wl_region */
	WLSEAL_BUDGET_CALLBACKS,	/* wl_surface.frame callbacks alive */
	WLSEAL_BUDGET_FEEDBACKS,	/* wp_presentation_feedback alive */
	WLSEAL_BUDGET_OUTPUTS,		/* wl_output resources (binds) */
	WLSEAL_BUDGET_OBJECTS,		/* every resource, of any interface */
	WLSEAL_BUDGET_KINDS,
};

struct wlseal_budget_info {
	const char *what;	/* "surfaces": the error's and log's word */
	const char *option;	/* "max-surfaces-per-client" */
	int def;		/* the default limit */
};
/* objects.c: by enum wlseal_budget. */
extern const struct wlseal_budget_info wlseal_budget_info[WLSEAL_BUDGET_KINDS];

/* The shared-memory half of the server, embedded in struct wlseal_server. */
struct wlseal_shm {
	struct wl_display *display;
	enum wlseal_shm_mode mode;
	struct wlseal_shm_policy policy;
	int max_pools_per_client;	/* pool objects per client */
	int max_objects[WLSEAL_BUDGET_KINDS];	/* objects.c, per client */
	int object_totals[WLSEAL_BUDGET_KINDS];	/* of all clients */
	struct wl_list policy_resources; /* wlseal_shm_policy_v1 resources */
	struct wlseal_shm_totals totals;
	/* pool.c: pools of departed clients, released REAP_BATCH a turn */
	struct wl_list reap;		/* wlseal_pool.reap_link */
	int reap_len;
	int reap_efd;			/* readable while reap is not empty */
	struct wl_event_source *reap_source;
};

/* wl-shm.c: the wl_shm global (or libwayland's, --shm=libwayland) */
bool wlseal_shm_init(struct wlseal_shm *shm);
/* pool.c: after the last client is gone, release everything still
 * held; and whether pools of departed clients are still being released. */
void wlseal_shm_finish(struct wlseal_shm *shm);
bool wlseal_shm_releasing(const struct wlseal_shm *shm);

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

struct wlseal_shm_account;

/*
 * A pool lives as long as its wl_shm_pool resource or any buffer made
 * from it: clients may destroy the pool right after creating buffers, and
 * those buffers must keep reading the same mapping. Budgets (check.c)
 * count these objects, not the resources: a pool whose resource is gone
 * still holds a mapping and its bytes.
 */
struct wlseal_pool {
	struct wl_resource *resource;	/* NULL once the client destroyed it */
	struct wlseal_shm *shm;
	struct wlseal_shm_account *account;	/* the creating client's budget */
	int fd;		/* open while the resource lives (resize), then -1 */
	void *data;	/* PROT_READ only, map_len bytes */
	int32_t size;	/* the protocol's size; buffers stay inside it */
	size_t map_len;	/* size rounded up to the file's page size */
	size_t page;	/* that page size: 4 KiB, or the huge page size */
	int refcount;
	struct wl_list reap_link;	/* shm->reap, once released later */
};

struct wlseal_shm_buffer {
	struct wl_resource *resource;
	struct wlseal_pool *pool;
	int32_t offset, width, height, stride;
	uint32_t format;
};

/*
 * pool.c: the one path from a client's fd to a pool, for wl_shm.create_pool
 * (wl-shm.c) and wlseal_shm_policy_v1.create_pool (ext-policy.c): seal
 * check, budget, map, seals again, account. Takes @fd in every case
 * (closed on refusal). Returns the pool without a resource (the caller
 * binds one, wlseal_pool_bind), or NULL with @verdict saying why (reason,
 * or no_memory); the caller turns the verdict into its own answer.
 */
struct wlseal_shm_verdict;
struct wlseal_pool *wlseal_pool_new(struct wlseal_shm *shm,
				    struct wl_client *client, int fd,
				    int32_t size,
				    struct wlseal_shm_verdict *verdict);
/* The pool's wl_shm_pool resource (@id 0: server-allocated); false when
 * out of memory, and the pool is gone then. */
bool wlseal_pool_bind(struct wlseal_pool *pool, struct wl_client *client,
		      uint32_t id);
struct wlseal_shm_buffer *wlseal_shm_buffer_from_resource(struct wl_resource *r);
/* The reaper of departed clients' pools (pool.c explains it). */
bool wlseal_pool_reaper_init(struct wlseal_shm *shm);

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
	int file_seals;		/* F_GET_SEALS of the file, -1: not read */
	int64_t file_size;	/* -1: not known */
	bool write_sealed;	/* accepted and F_SEAL_WRITE: map privately */
	bool no_memory;		/* refused because an allocation failed */
	size_t page;		/* the page size to map with (even if refused) */
	char message[160];
};
/* Returns verdict->reason: 0 when the fd may back @size bytes. */
uint32_t wlseal_shm_check(const struct wlseal_shm_policy *policy, int fd,
			  int64_t size, struct wlseal_shm_verdict *verdict);
/*
 * check.c: budgets, per client (an account, found from the wl_client) and
 * for all clients together (shm->totals), explained in check.c. Every new
 * pool of @map_len bytes arriving on @fd needs wlseal_shm_budget(), which
 * returns verdict->reason (OUT_OF_RESOURCES) or 0; the pool is then
 * charged (wlseal_shm_charge) until it goes (wlseal_shm_uncharge).
 */
struct wlseal_shm_account *wlseal_shm_account(struct wl_client *client);
uint32_t wlseal_shm_budget(struct wlseal_shm *shm,
			   struct wlseal_shm_account *account, int fd,
			   size_t map_len, struct wlseal_shm_verdict *verdict);
void wlseal_shm_charge(struct wlseal_shm *shm,
		       struct wlseal_shm_account *account, size_t map_len);
void wlseal_shm_uncharge(struct wlseal_shm *shm,
			 struct wlseal_shm_account *account, size_t map_len,
			 bool fd_open);
/* The client of @account has disconnected (its pools may live on). */
bool wlseal_shm_account_gone(const struct wlseal_shm_account *account);
/* The pool gave up its fd (its resource is gone). */
void wlseal_shm_fd_closed(struct wlseal_shm_account *account);
/* A resize from @from to @to mapped bytes: growing passes the byte
 * budget first (false and @verdict filled when it does not). */
bool wlseal_shm_recharge(struct wlseal_shm *shm,
			 struct wlseal_shm_account *account, size_t from,
			 size_t to, struct wlseal_shm_verdict *verdict);
/*
 * check.c: log lines about a client, at most WLSEAL_LOG_BURST per
 * WLSEAL_LOG_WINDOW_MS per client and WLSEAL_LOG_BURST_ALL for all
 * clients; what is dropped is counted and said with the next line that
 * gets through. Extension refusals do not
 * disconnect, so without this one client could fill the log (and the
 * disk behind it).
 */
void wlseal_shm_log(struct wl_client *client, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * objects.c: the object budgets. wlseal_budget_watch() starts counting
 * every resource of a new client (WLSEAL_BUDGET_OBJECTS). Each object of
 * a budgeted kind is taken before it is created: NULL means refused (the
 * client got its error, create nothing), else the account to give back
 * with wlseal_budget_put() when the object goes.
 */
bool wlseal_budget_watch(struct wlseal_shm *shm, struct wl_client *client);
struct wlseal_shm_account *wlseal_budget_take(struct wlseal_shm *shm,
					      struct wl_client *client,
					      enum wlseal_budget kind);
void wlseal_budget_put(struct wlseal_shm_account *account,
		       enum wlseal_budget kind);

/* check.c: log a refusal (rate-limited) and post it as a protocol error. */
void wlseal_shm_refuse(struct wl_resource *resource, uint32_t code,
		       const char *request, const char *why);

#endif
