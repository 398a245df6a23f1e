/* SPDX-License-Identifier: MIT */
/*
 * account-private.h - inside a client's account, for the files of this layer
 * only (account.h is what the other layers see).
 */
#ifndef WLSEAL_ACCOUNT_INTERNAL_H
#define WLSEAL_ACCOUNT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <wayland-server-core.h>

#include "account.h"
#include "log.h"

/* What one client holds of pools (pools.c). */
struct wlseal_pool_budget {
	int pools;		/* pool objects: resource or buffers alive */
	int fds;		/* pools still holding their fd */
	uint64_t bytes;		/* mapped bytes of those pools */
	int populating;		/* populations in flight (shm/resident.c) */
	int copying;		/* copied reads in flight (shm/copy-read.c) */
};

/* What one client holds of each kind of object (objects.c). */
struct wlseal_object_budget {
	int held[WLSEAL_BUDGET_KINDS];
	struct wl_listener resource_created;	/* counts every resource */
};

/* The loop thread's CPU time spent on one client (cpu.c). */
struct wlseal_cpu_budget {
	uint64_t ns;		/* dispatches and teardown together */
	uint64_t worst_ns;	/* the longest single stretch */
	/* Read pacing (cpu.c): whether a dispatch has priced its
	 * requests yet (before: READ_CAP_START); the CPU they cost per
	 * KiB read, the dearest of late; the bytes read in the current
	 * stretch. */
	bool priced;
	uint64_t ns_per_kib;
	uint64_t bytes_read;
};

struct wlseal_account {
	struct wlseal_ledger *ledger;	/* limits and totals */
	struct wl_client *client;	/* NULL once it has gone */
	struct wl_listener client_destroy;
	pid_t pid;
	bool gone;		/* the client has disconnected */
	/* The client while connected + one per pool + one per counted
	 * object: a pool or an object may outlive the client's destroy
	 * signal (libwayland destroys resources after it). */
	int refs;
	struct wlseal_pool_budget pools;
	struct wlseal_object_budget objects;
	struct wlseal_cpu_budget cpu;
	struct wlseal_log_limit log;	/* wlseal_account_log() */
	uint32_t once;			/* enum wlseal_once bits said */
};

/* account.c: one reference more, one less (the last frees it). */
void wlseal_account_ref(struct wlseal_account *a);
void wlseal_account_unref(struct wlseal_account *a);
/* objects.c: counts every resource of an account's client from the
 * ledger's account_opened to its account_gone. */
void wlseal_objects_follow(struct wlseal_ledger *ledger);
/* cpu.c: a client's teardown from the ledger's account_gone is charged
 * to it. */
void wlseal_cpu_follow(struct wlseal_ledger *ledger);

#endif
