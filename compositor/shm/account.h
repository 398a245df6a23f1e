/* SPDX-License-Identifier: MIT */
/*
 * account.h - inside a client's account, for the two files of shm/ that
 * keep it: check.c (pools: their count, fds and bytes; the refusal log)
 * and objects.c (every other protocol object the client holds). One
 * account per client, found from the wl_client by its destroy listener,
 * so the pool budget and the object budgets are one structure.
 */
#ifndef WLSEAL_SHM_ACCOUNT_H
#define WLSEAL_SHM_ACCOUNT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <wayland-server-core.h>

#include "shm.h"

struct wlseal_shm_account {
	struct wl_listener client_destroy;
	pid_t pid;
	bool gone;		/* the client has disconnected */
	/* The client while connected + one per pool + one per counted
	 * object: a pool or an object may outlive the client's destroy
	 * signal (libwayland destroys resources after it). */
	int refs;
	int pools;		/* pool objects: resource or buffers alive */
	int fds;		/* pools still holding their fd */
	uint64_t bytes;		/* mapped bytes of those pools */
	struct log_window {
		int64_t start_ms;
		int lines;
	} log;			/* rate limit of wlseal_shm_log() */
	int log_dropped;
	/* objects.c: live objects of each kind (enum wlseal_budget), and
	 * the client's resource_created signal (WLSEAL_BUDGET_OBJECTS). */
	int objects[WLSEAL_BUDGET_KINDS];
	struct wl_listener resource_created;
	struct wlseal_shm *shm;		/* limits, totals; set by the watch */
};

/* check.c: one reference less; the last frees the account. */
void wlseal_shm_account_unref(struct wlseal_shm_account *a);
/* check.c: within its own budget, may a client holding @mine (after the
 * request) take the total to @total, of @limit with the last @reserve
 * kept for clients holding at most @light? */
bool wlseal_shm_fair(uint64_t mine, uint64_t total, uint64_t limit,
		     uint64_t reserve, uint64_t light);

#endif
