/* SPDX-License-Identifier: MIT */
/*
 * stall.h - wlseal-fuzz --stall, the stall fuzzer (stall.c): hostile
 * connections kept at their budgets (stall-client.c), the operations a
 * sequence is made of (stall-ops.c), and the compositor thread's CPU
 * time, read from /proc, that scores each sequence.
 */
#ifndef WLSEAL_FUZZ_STALL_H
#define WLSEAL_FUZZ_STALL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "fuzz.h"

/* The compositor's default budgets per client
 * (compositor/account/objects.c; compositor/README.md's table). A
 * hostile connection stays inside them: a refusal would disconnect it. */
#define BUDGET_SUBSURFACES 1024
#define BUDGET_CALLBACKS 4096
#define BUDGET_FEEDBACKS 4096
#define BUDGET_OUTPUTS 64
#define BUDGET_REGIONS 1024
#define MAX_NESTING 32		/* compositor/surface/subcompositor.c */
#define VIEWPORT_MAX 32768	/* compositor/surface/viewporter.c */

/* What every connection holds once set up: a mapped toplevel, SUBS
 * subsurfaces below it (the first CHAIN nested one in the other), a
 * viewport on each, every wl_output bind its budget allows. */
#define SUBS BUDGET_SUBSURFACES
#define CHAIN 30
#define MAX_CLIENTS 16

/* Buffers of one sealed pool each connection owns. */
enum { BUF_SMALL, BUF_MEDIUM, BUF_OUTPUT, BUF_HUGE, BUF_TALL, N_BUFS };

/* What an id of ours is, for the events that come back on it. */
enum kind { K_NONE, K_SYNC, K_FRAME, K_FEEDBACK, K_XDG_SURFACE, K_WM_BASE,
	    K_REGISTRY, K_OTHER };

struct sub {
	uint32_t surface, subsurface, viewport;
	int parent;		/* index of the parent sub, -1: the toplevel */
	int buffer;		/* BUF_*, -1: unmapped */
	bool sync;
};

/* One hostile connection, speaking the wire protocol itself (wire.c's
 * message encoding); requests are gathered into one burst that the
 * compositor reads at once, and sent with a wl_display.sync. */
struct stall_env;

struct sclient {
	struct stall_env *env;
	int fd;
	bool dead;
	char error[256];
	uint32_t next_id;
	uint8_t *kind;		/* by id */
	size_t kind_len;
	/* globals */
	struct { uint32_t name, version; char iface[48]; } globals[32];
	int n_globals;
	uint32_t registry, compositor, subcompositor, shm, wm_base,
		 presentation, viewporter, seat, ddm, decoration;
	uint32_t outputs[BUDGET_OUTPUTS];
	int n_outputs;
	/* the toplevel and its tree */
	uint32_t surface, xdg_surface, toplevel;
	uint32_t configure_serial, ping_serial;
	bool configured, need_ack;
	struct sub subs[SUBS];
	int n_subs;
	uint32_t pool, buffers[N_BUFS];
	int buf_w[N_BUFS], buf_h[N_BUFS];
	/* in flight */
	int frames_pending, feedbacks_pending;
	uint32_t sync_id;
	bool sync_done;
	/* the burst being built */
	unsigned char out[MAX_MSG];
	size_t out_len;
	int fds[MAX_FDS];
	int n_fds;
	unsigned char in[MAX_MSG * 4];
	size_t in_len;
	uint64_t requests;
};

struct stall_env {
	const char *socket;
	pid_t pid;
	int stat_fd;		/* /proc/PID/task/PID/schedstat */
	int n_clients;
	struct sclient *clients;
	int out_w, out_h;	/* the output's size */
	int timeout_ms;
	uint64_t reconnects, requests;
	/* the measured windows: one burst sent and its sync answered */
	uint64_t window_worst, window_total, windows;
	bool stalled;		/* a sync went unanswered */
	char why[256];		/* what went unanswered */
};

/* stall-client.c */
int sc_connect(struct stall_env *e, struct sclient *c);
void sc_close(struct sclient *c);
int sc_setup(struct stall_env *e, struct sclient *c);
/* Subsurface @i of the standing state, made (again). */
void sc_make_sub(struct sclient *c, int i);
/* ack_configure and pong, when the compositor asked. */
void sc_ack(struct sclient *c);
/* Append one request: fmt letters i (int32), u (uint32), f (wl_fixed
 * from an int32 already in fixed point), o (object id), n (a new id of
 * kind K_*, passed as int; its id is returned), s (string), h (fd,
 * taken). Returns the new id when fmt has an 'n', else 0. */
uint32_t sc_req(struct sclient *c, uint32_t id, uint32_t opcode,
		const char *fmt, ...);
/* Send the burst with a wl_display.sync at its end and wait for the
 * sync's callback while reading every connection of @e. 0, or -1 when
 * this connection failed or the compositor stopped answering. */
int sc_flush(struct stall_env *e, struct sclient *c);
/* Read what the connections have, without waiting. */
void sc_pump_all(struct stall_env *e, int timeout_ms);
uint32_t sc_bind(struct sclient *c, const char *iface, uint32_t version,
		 int kind);
/* The compositor thread's CPU time, ns (its schedstat: the same clock
 * as its own CLOCK_THREAD_CPUTIME_ID). */
uint64_t stall_cpu_ns(struct stall_env *e);

/* stall-ops.c: one operation of a sequence. */
struct op {
	int kind;		/* OP_* */
	int client;
	int n;			/* repetitions inside the burst */
	int a, b;		/* its arguments, meaning per kind */
	uint64_t cost_ns;	/* the worst window it caused, last run */
};
int op_kinds(void);
/* Leave the kinds named in comma-separated @list out of new
 * operations; false on an unknown name or when none is left. */
bool op_exclude(const char *list);
const char *op_name(int kind);
/* What an operation of @kind sends (--help). */
const char *op_what(int kind);
void op_random(struct rng *r, struct op *op, int n_clients);
void op_mutate_args(struct rng *r, struct op *op, int n_clients);
/* Run one operation; its worst window in op->cost_ns. -1 when the
 * compositor stopped answering (a disconnected connection is rebuilt
 * and is not a failure). */
int op_run(struct stall_env *e, struct op *op);
int op_format(const struct op *op, char *buf, size_t len);
bool op_parse(const char *s, struct op *op, int n_clients);

/* stall.c */
int stall_main(const struct options *o);

#endif
