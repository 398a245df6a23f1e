/* SPDX-License-Identifier: MIT */
/*
 * unsealed.c - a new pool's file without the seals the policy requires,
 * under --unsealed=seal|copy (pool.c asks before its own check): sealed
 * on receipt where the file allows it (seal.c has the argument), or,
 * when it can never be sealed and the mode is copy, a pool that maps
 * nothing and whose buffers are copied (copy.c). Also the --verbose line
 * of every accepted pool. Calls nothing in pool.c.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <wayland-server-core.h>

#include "account.h"
#include "check.h"
#include "copy.h"
#include "log.h"
#include "pool.h"
#include "seal-list.h"
#include "seal.h"
#include "shm.h"
#include "unsealed.h"
#include "wlseal-shm-policy-v1-server-protocol.h"

/* --verbose: which seals an accepted pool's file carried (a refusal says
 * it in its own line), for tools that report what real clients send. */
void wlseal_pool_log_accepted(struct wl_client *client,
			      struct wlseal_pool *pool, int seals)
{
	char names[96];

	if (seals <= 0)
		snprintf(names, sizeof(names), "%s", seals < 0 ? "unknown" : "none");
	else
		wlseal_seal_list_format((uint32_t)seals, names, sizeof(names));
	wlseal_debug("pool pid=%d size %d seals %s (0x%x)",
		     (int)wlseal_client_pid(client), pool->size, names,
		     seals < 0 ? 0 : seals);
}

/*
 * --unsealed=copy: a pool over a file that can never be sealed. Nothing is
 * mapped (copy.c has the argument); the pool counts as one pool holding
 * one fd, and its buffers' images are charged as they are made.
 */
static struct wlseal_pool *copy_pool_new(struct wlseal_shm *shm,
					 struct wl_client *client,
					 struct wlseal_account *account, int fd,
					 int32_t size, struct wlseal_shm_verdict *v)
{
	struct wlseal_pool *pool;

	if (wlseal_copy_check(&shm->policy, fd, size, v))
		goto refused;
	if (!wlseal_pool_admit(account, fd, 0, v->message, sizeof(v->message))) {
		v->reason = WLSEAL_SHM_POOL_REQUEST_V1_REASON_OUT_OF_RESOURCES;
		goto refused;
	}
	pool = calloc(1, sizeof(*pool));
	if (!pool) {
		v->no_memory = true;
		goto refused;
	}
	pool->shm = shm;
	pool->fd = fd;
	pool->size = size;
	pool->page = v->page;
	pool->refcount = 1;
	pool->copied = true;
	pool->account = account;
	wlseal_pool_charge(account, 0);
	if (wlseal_account_once(client, WLSEAL_ONCE_COPIED_FOR_CLIENT))
		wlseal_account_log(client,
				   "client pid=%d: pool file cannot be sealed (F_GET_SEALS %d); "
				   "it is not mapped, its buffers are copied with pread at commit",
				   (int)wlseal_client_pid(client), v->file_seals);
	wlseal_pool_log_accepted(client, pool, v->file_seals);
	return pool;
refused:
	close(fd);
	return NULL;
}

/*
 * --unsealed=seal|copy, before the check: seal a sealable file that lacks
 * SHRINK (seal.c has the argument); then the check below reads the seals
 * and the size as for any file. true: go on; false: refused, or (copy)
 * the pool is in *@copied (NULL if that was refused too).
 */
bool wlseal_pool_unsealed_file(struct wlseal_shm *shm, struct wl_client *client,
			       struct wlseal_account *account, int fd,
			       int32_t size, struct wlseal_shm_verdict *v,
			       struct wlseal_pool **copied)
{
	const struct wlseal_shm_policy *p = &shm->policy;
	char names[96];
	uint32_t added;

	*copied = NULL;
	if (!p->enforced || p->unsealed == WLSEAL_UNSEALED_REFUSE)
		return true;
	*v = (struct wlseal_shm_verdict){ .file_size = -1, .file_seals = -1 };
	switch (wlseal_shm_seal_on_receipt(p, fd, &added, v->message,
					   sizeof(v->message))) {
	case WLSEAL_RECEIPT_FAILED:
		v->reason = WLSEAL_SHM_POOL_REQUEST_V1_REASON_MISSING_SEAL;
		v->file_seals = fcntl(fd, F_GET_SEALS);
		v->seals = p->required_seals &
			   ~(uint32_t)(v->file_seals < 0 ? 0 : v->file_seals);
		close(fd);
		return false;
	case WLSEAL_RECEIPT_SEALED:
		if (wlseal_account_once(client, WLSEAL_ONCE_SEALED_FOR_CLIENT)) {
			wlseal_seal_list_format(added, names, sizeof(names));
			wlseal_account_log(client,
					   "client pid=%d: pool file lacked %s; the compositor sealed it "
					   "(the client's own shrink now fails with EPERM)",
					   (int)wlseal_client_pid(client), names);
		}
		return true;
	case WLSEAL_RECEIPT_UNSEALABLE:
		if (p->unsealed != WLSEAL_UNSEALED_COPY)
			return true;	/* the check refuses it, as ever */
		*copied = copy_pool_new(shm, client, account, fd, size, v);
		return false;
	case WLSEAL_RECEIPT_NONE:
		break;
	}
	return true;
}
