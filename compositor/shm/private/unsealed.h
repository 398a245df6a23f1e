/* SPDX-License-Identifier: MIT */
/*
 * unsealed.h - inside shm/: --unsealed=seal|copy at pool creation, and
 * the --verbose line of an accepted pool (unsealed.c), for pool.c.
 */
#ifndef WLSEAL_SHM_UNSEALED_H
#define WLSEAL_SHM_UNSEALED_H

#include <stdbool.h>
#include <stdint.h>

struct wl_client;
struct wlseal_account;
struct wlseal_pool;
struct wlseal_shm;
struct wlseal_shm_verdict;

/* --verbose: the seals (@seals, F_GET_SEALS; -1 unknown) of an accepted
 * pool's file. */
void wlseal_pool_log_accepted(struct wl_client *client,
			      struct wlseal_pool *pool, int seals);
/*
 * Before the seal check of a new pool on @fd: under --unsealed=seal|copy,
 * seal a sealable file that lacks SHRINK. true: go on to the check;
 * false: refused (@fd closed, @v says why), or (copy) the copied pool is
 * in *@copied (NULL if that was refused too).
 */
bool wlseal_pool_unsealed_file(struct wlseal_shm *shm, struct wl_client *client,
			       struct wlseal_account *account, int fd,
			       int32_t size, struct wlseal_shm_verdict *v,
			       struct wlseal_pool **copied);

#endif
