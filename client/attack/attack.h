/* SPDX-License-Identifier: MIT */
/*
 * attack.h - shared state of wlseal-attack: one connection to the
 * compositor under attack, the helpers every scenario uses, and the table
 * of scenarios (scenarios.c, filled by the category files).
 */
#ifndef WLSEAL_ATTACK_H
#define WLSEAL_ATTACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <wayland-client.h>

#include "attack-xdg-shell-client-protocol.h"
#include "attack-wlseal-shm-policy-v1-client-protocol.h"

/* Every buffer the scenarios use unless they say otherwise. */
#define ATT_W 64
#define ATT_H 64
#define ATT_STRIDE (ATT_W * 4)
#define ATT_SIZE (ATT_STRIDE * ATT_H) /* 16 KiB, four pages */
/*
 * Requests carrying an fd sent between two roundtrips: fewer than the 28
 * fds libwayland-client puts in one sendmsg(), so a batch leaves in one
 * write and a refusal inside it is read before anything more is written.
 * Writing on after the compositor has closed the connection fails with
 * EPIPE, which libwayland-client makes fatal before the error event that
 * explains the refusal is read: the outcome would say "Broken pipe".
 */
#define ATT_FD_BATCH 25

enum result {
	RES_NONE = 0,
	RES_ACCEPTED,     /* the compositor took it and still answers us */
	RES_REFUSED,      /* protocol error posted to us */
	RES_DISCONNECTED, /* dropped without a protocol error, compositor alive */
	RES_GONE,         /* the compositor process died / stopped listening */
	RES_UNRESPONSIVE, /* connection open but no answer within the timeout */
	RES_SKIPPED,      /* not applicable here (e.g. no seed ABI) */
	RES_ERROR,        /* the attack itself could not be set up / a local
			     assertion about the kernel failed */
	RES_POLICY_REFUSED, /* wlseal_shm_policy_v1 refused the pool with an
			       event (code = reason), the client stayed
			       connected and could still create a pool */
	/* Only as an expectation: accepted or refused, nothing worse. */
	RES_SURVIVES,
};

struct outcome {
	enum result result;
	int code;            /* protocol error code, -1 if none */
	char interface[64];  /* interface the error was posted on */
	char message[256];   /* the error text the compositor sent */
	char note[512];      /* what the attack observed locally */
	int signal;          /* compositor's death signal when observable */
};

struct expect {
	enum result result;
	int code;              /* -1: any */
	const char *interface; /* NULL: any */
	const char *message;   /* substring (case-insensitive), NULL: any */
};

struct attack {
	struct wl_display *display;
	struct wl_registry *registry;
	struct wl_compositor *compositor;
	uint32_t compositor_version;
	struct wl_shm *shm;
	struct xdg_wm_base *wm_base;
	uint32_t formats[64];
	int n_formats;

	/* wlseal_shm_policy_v1, when the compositor offers it. */
	struct wlseal_shm_policy_v1 *shm_policy;
	bool policy_known;
	uint32_t required_seals, accepted_seals, policy_flags;
	uint64_t max_pool_size;

	struct wl_surface *surface;
	struct xdg_surface *xdg_surface;
	struct xdg_toplevel *toplevel;
	bool configured;
	bool closed;
	int32_t conf_w, conf_h;	/* the last xdg_toplevel.configure size */

	pid_t compositor_pid; /* from SO_PEERCRED, 0 if unknown */
	int timeout_ms;
	bool verbose;
	int clients;	/* --clients: connections of view-walk (0: its default) */
};

/* Categories, in --list order: one scenario file each. */
enum att_category {
	ATT_CAT_FILES = 1,	/* files.c */
	ATT_CAT_SEALS,		/* seals.c */
	ATT_CAT_BUFFERS,	/* buffers.c */
	ATT_CAT_LIFETIMES,	/* lifetimes.c */
	ATT_CAT_RESOURCES,	/* resources.c */
	ATT_CAT_EXT,		/* ext.c */
	ATT_CAT_BUDGETS,	/* storms.c */
	ATT_CAT_STALLS,		/* stalls.c */
	ATT_CAT_CONNECTIONS,	/* connections.c */
	ATT_CAT_UNSEALED,	/* unsealed.c: --unsealed=seal|copy */
	ATT_CAT_SCANOUT,	/* scanout.c: buffers scanned out as they are */
};

struct scenario {
	const char *name;
	void (*run)(struct attack *a, struct outcome *o);
	struct expect expect;
	const char *rationale;
	int category, line;	/* where ATT_SCENARIO put it */
};

/* scenarios.c: every scenario, sorted by category and source line. */
const struct scenario *const *att_scenarios(size_t *n);

/* outcome.c: notes, libwayland's log, the verdict. */
/* Keep the error lines libwayland logs (on stderr too with @verbose). */
void att_log_init(bool verbose);
void att_note(struct outcome *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void att_fail_setup(struct outcome *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void att_conclude(struct attack *a, struct outcome *o);
/* Refused for the compositor's pool memory budget: skipped, said why. */
bool att_skip_if_unaffordable(struct attack *a, struct outcome *o);
bool att_alive(struct attack *a);

/* harness.c: the connection. */
int64_t att_now_ms(void);
/* A second, well-behaved connection (the probe's kind). */
int att_connect(struct attack *a);
void att_disconnect(struct attack *a);
/* wl_display.sync answered within @timeout_ms: 0, 1 on timeout, -1 when
 * the connection failed. */
int att_roundtrip_display(struct wl_display *d, int timeout_ms);
int att_roundtrip(struct attack *a);
int att_dispatch_until(struct attack *a, bool *flag);
int att_window(struct attack *a);
/* A fullscreen toplevel instead (a->surface and so on): 0 once configured
 * with a size (*@w x *@h, the output's), -1 otherwise. */
int att_fullscreen_window(struct attack *a, int32_t *w, int32_t *h);
int att_present(struct attack *a, struct wl_buffer *buffer, int w, int h);
int att_raw_fd(struct attack *a);

/* probe.c: frames a fresh, well-behaved client gets (@why says what
 * stopped it, @worst_ms is the slowest frame after the first). */
int att_probe_frames(int want, int timeout_ms, char *why, size_t whylen,
		     int *worst_ms);

/* victim.c: the well-behaved clients measured beside a stall scenario
 * (a redrawing window in a process of its own, and fresh clients timing
 * their first frame during and after the attack). */
struct victim {
	pid_t pid, newcomer;	/* 0: not running */
	int report, ctl, newcomer_report;
	int64_t go_ms;		/* the measured window's start, 0 before */
};
/* Fork the victim and wait for its first frame; -1 (setup failed, said
 * in @o) otherwise. */
int att_victim_start(struct victim *v, struct outcome *o);
/* The measured window starts now; a fresh client connects a second in. */
void att_victim_go(struct victim *v);
/* Milliseconds left in the window (0 once it is over). */
int att_victim_left_ms(const struct victim *v);
/* Wait for the window's end, collect what the clients saw, time a fresh
 * client after the attack, print the VICTIM line, assert the outcome. */
void att_victim_end(struct victim *v, struct attack *a, struct outcome *o);
/* Stop the clients without a verdict (the attack could not be set up). */
void att_victim_cancel(struct victim *v);

/* harness.c, files: a memfd of size bytes, sealable when mfd_flags is
 * MFD_ALLOW_SEALING (common/memfd.c's upstream path), not filled. */
int att_memfd_sparse(size_t size, unsigned int mfd_flags);
/* The same, filled with a pattern, optionally sealed. */
int att_memfd(size_t size, unsigned int mfd_flags, int seals);
int att_fill(int fd, size_t offset, size_t size, uint32_t pixel);
/* Our soft RLIMIT_NOFILE raised to the hard one. */
void att_raise_nofile(void);
struct wl_buffer *att_buffer(struct attack *a, struct wl_shm_pool *pool,
			     int32_t offset, int32_t w, int32_t h,
			     int32_t stride, uint32_t format);

#endif /* WLSEAL_ATTACK_H */
