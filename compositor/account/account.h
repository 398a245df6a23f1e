/* SPDX-License-Identifier: MIT */
/*
 * account.h - what each client may cost the compositor, and what all
 * clients together may: the accounting layer (README.md, "Budgets").
 *
 * One ledger per compositor holds the limits and the totals; one account
 * per client (created with its connection, found from the wl_client)
 * holds what that client is charged for. Every kind of resource has its
 * own struct below and its own file here:
 *
 *   account.c   the account's lifetime, the fairness rule, the
 *               rate-limited log lines about a client
 *   ledger.c    the ledger's limits, and who follows every account
 *   pools.c     wl_shm pools: count, fds, mapped bytes, populations
 *   memory.c    how many pool bytes the compositor can afford at all
 *   objects.c   protocol objects of each kind (surfaces, regions, ...)
 *   fd-guard.c  fds a client sends that no request takes
 *   heap.c      freed heap handed back after clients leave
 *   overdraw.c  blended pixels per client and repaint (used by scene/)
 *
 * The layer knows wl_client (libwayland) and log.h, nothing of shm/,
 * the protocol objects, the scene or a backend: those call down into it.
 */
#ifndef WLSEAL_ACCOUNT_H
#define WLSEAL_ACCOUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <wayland-server-core.h>

struct wl_client;
struct wl_display;

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
	WLSEAL_BUDGET_STRING_BYTES,	/* bytes of titles and mime types kept */
	WLSEAL_BUDGET_KINDS,
};

struct wlseal_budget_info {
	const char *what;	/* "surfaces": the error's and log's word */
	const char *option;	/* "max-surfaces-per-client" */
	int def;		/* the default limit */
};
/* objects.c: by enum wlseal_budget. */
extern const struct wlseal_budget_info wlseal_budget_info[WLSEAL_BUDGET_KINDS];

/* Pools of all clients together, and their limits (pools.c). */
struct wlseal_pool_ledger {
	int per_client;		/* --max-pools-per-client */
	int pools;		/* pool objects: one mapping each */
	uint64_t bytes;		/* mapped bytes */
	int max_pools;		/* from vm.max_map_count */
	uint64_t max_bytes;	/* --max-pool-memory, or memory.c's */
};

/* Objects of all clients together, and their limits (objects.c). */
struct wlseal_object_ledger {
	int per_client[WLSEAL_BUDGET_KINDS];	/* --max-*-per-client */
	int total[WLSEAL_BUDGET_KINDS];		/* held by all clients */
};

/* The compositor's ledger: set the limits, then wlseal_ledger_init(). */
struct wlseal_ledger {
	struct wlseal_pool_ledger pools;
	struct wlseal_object_ledger objects;
	/* Emitted by account.c with the account: it was opened, and its
	 * client is being destroyed (its resources go next). */
	struct wl_signal account_opened;
	struct wl_signal account_gone;
	/* The layer's own listeners on them (ledger.c connects them). */
	struct {
		struct wl_listener objects_opened, objects_gone, cpu_gone;
	} follow;
};

/* ledger.c: the totals' limits that the options left at 0 (the pool
 * memory from memory.c, the mapping count from vm.max_map_count), and
 * the signals above connected. */
void wlseal_ledger_init(struct wlseal_ledger *ledger);

/* One client's account; what is inside is the layer's own. */
struct wlseal_account;

/* account.c: opens the account of a new client and starts counting its
 * objects (objects.c); false when memory is short (refuse the client). */
bool wlseal_account_open(struct wlseal_ledger *ledger, struct wl_client *client);
/* The client's account, or NULL when it has none. */
struct wlseal_account *wlseal_account_of(struct wl_client *client);
/* The client has disconnected (what it made may live on, charged). */
bool wlseal_account_gone(const struct wlseal_account *account);

/*
 * account.c: within its own budget, may a client holding @mine (after
 * the request) take the total to @total, of @limit, with the last
 * @reserve kept for clients holding at most @light? The rule of every
 * total: however many clients misbehave within their own budgets, they
 * cannot push a total past its reserve, so a light, honest client still
 * gets what it asks for.
 */
bool wlseal_fair(uint64_t mine, uint64_t total, uint64_t limit,
		 uint64_t reserve, uint64_t light);

/*
 * account.c: log lines a client causes, at most 10 a second per client
 * and 50 for all clients; what is dropped is counted and said with the
 * next line that gets through. Refusals that do not disconnect could
 * otherwise fill the log, and the disk behind it.
 */
void wlseal_account_log(struct wl_client *client, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * account.c: true the first time it is asked about @what (one bit of
 * enum wlseal_once) for this client, false after: for lines said once a
 * client, such as "your file was sealed for you". false without an
 * account.
 */
enum wlseal_once {
	WLSEAL_ONCE_SEALED_FOR_CLIENT = 1u << 0,
	WLSEAL_ONCE_COPIED_FOR_CLIENT = 1u << 1,
	WLSEAL_ONCE_SAMPLES_TOO_MANY = 1u << 2,
};
bool wlseal_account_once(struct wl_client *client, enum wlseal_once what);

/*
 * objects.c: each object of a budgeted kind is taken before it is
 * created: NULL means refused (the client got its error: create
 * nothing), else the account to give back with wlseal_budget_put() when
 * the object goes. Objects may outlive the client's destroy signal: the
 * account lives until the last is put back.
 */
struct wlseal_account *wlseal_budget_take(struct wl_client *client,
					  enum wlseal_budget kind);
void wlseal_budget_put(struct wlseal_account *account, enum wlseal_budget kind);

/*
 * objects.c: a string of @len bytes a client makes the compositor keep
 * (a window title, a mime type), charged to WLSEAL_BUDGET_STRING_BYTES
 * with the allocation's own overhead; taken before it is kept, NULL
 * meaning refused (the client got its error: keep nothing), else the
 * account to give it back to with wlseal_string_put(), with the same
 * @len, when the string goes.
 */
struct wlseal_account *wlseal_string_take(struct wl_client *client,
					  size_t len);
void wlseal_string_put(struct wlseal_account *account, size_t len);

/* A string kept for a client under that budget: empty is { NULL }. */
struct wlseal_kept_string {
	char *s;
	struct wlseal_account *account;
};
/* Replaces @k's string with a copy of @value, charged to @client; false
 * when refused (the client got its error) or out of memory (likewise),
 * and @k is empty then. */
bool wlseal_kept_string_set(struct wlseal_kept_string *k,
			    struct wl_client *client, const char *value);
void wlseal_kept_string_clear(struct wlseal_kept_string *k);

/*
 * pools.c: every new pool of @map_len bytes arriving on @fd must be
 * admitted (false: refused, @why says which limit), then is charged until
 * it goes. A pool keeps its fd while its resource lives, and gives it up
 * (wlseal_pool_fd_closed) before it is uncharged.
 */
bool wlseal_pool_admit(struct wlseal_account *account, int fd, size_t map_len,
		       char *why, size_t why_len);
void wlseal_pool_charge(struct wlseal_account *account, size_t map_len);
void wlseal_pool_uncharge(struct wlseal_account *account, size_t map_len,
			  bool fd_open);
void wlseal_pool_fd_closed(struct wlseal_account *account);
/* A resize from @from to @to mapped bytes: growing passes the byte
 * budget first (false, and @why filled, when it does not). */
bool wlseal_pool_recharge(struct wlseal_account *account, size_t from,
			  size_t to, char *why, size_t why_len);

/*
 * pools.c: a population of a pool's pages in flight (shm/resident.c),
 * at most WLSEAL_POPULATE_PER_CLIENT a client: false when the client
 * has them all. Their pages are the pools' own, charged with the
 * mapping: a slot bounds the populate thread's queue, not memory.
 */
#define WLSEAL_POPULATE_PER_CLIENT 4
bool wlseal_pool_populate_take(struct wlseal_account *account);
void wlseal_pool_populate_put(struct wlseal_account *account);
/*
 * pools.c: a copied buffer's read in flight on the populate thread
 * (shm/copy-read.c), at most WLSEAL_COPY_READS_PER_CLIENT a client, the
 * same bound as populations but counted apart: a read's slot is given
 * back only by a read, so copy-read.c alone wakes what waits for one.
 * The image it fills was charged when the buffer was made.
 */
#define WLSEAL_COPY_READS_PER_CLIENT 4
bool wlseal_pool_copy_take(struct wlseal_account *account);
void wlseal_pool_copy_put(struct wlseal_account *account);

/* memory.c: the pool bytes the compositor can afford, logged. */
void wlseal_pool_memory_budget(struct wlseal_pool_ledger *pools);

/* File descriptors kept free for new clients, DRM and the event loop: a
 * pool is refused when the fd it arrived on is this close to the limit
 * (at least this many: pools.c keeps a quarter of the table, and says
 * which part of it light clients may still use). */
#define WLSEAL_FD_RESERVE 128

/* cpu.c: which stretch of the loop thread this is, a number that changes
 * whenever a turn of another kind or for another client begins: for
 * budgets per turn of the loop (shm/copy-read.c). */
unsigned long long wlseal_cpu_stretch(void);
/* cpu.c: the compositor's own work begins (an event source of its own:
 * a thread's report, the feedback queue, a frame shown), charged to the
 * loop, not to the client whose requests were dispatched last. */
void wlseal_cpu_loop(void);

#endif
