/* SPDX-License-Identifier: MIT */
/*
 * ext-policy.c - the wlseal_shm_policy_v1 global (protocol/README.md).
 *
 * A core wl_shm error is fatal: the client is disconnected and never
 * learns what the compositor wanted. This global tells a client the
 * policy up front (the policy event, on bind and on every change) and
 * answers create_pool with an event instead of an error, so a client can
 * fix its file and try again. The check itself is check.c's, the same one
 * wl_shm.create_pool uses, and the pool is pool.c's, so a pool from here
 * is exactly a pool from wl_shm.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "account.h"
#include "check.h"
#include "log.h"
#include "pool.h"
#include "shm.h"
#include "wlseal-shm-policy-v1-server-protocol.h"
#include "wlseal-policy-reason.h"

static void send_policy(struct wl_resource *resource,
			const struct wlseal_shm_policy *p)
{
	uint32_t flags = 0;

	if (p->write_sealed_accepted)
		flags |= WLSEAL_SHM_POLICY_V1_CAPABILITY_WRITE_SEALED_ACCEPTED;
	if (p->enforced)
		flags |= WLSEAL_SHM_POLICY_V1_CAPABILITY_ENFORCED;
	/* Version 2 bits, only to those who bound version 2: a version 1
	 * client must not see bits its protocol does not define. */
	if (p->enforced && wl_resource_get_version(resource) >= 2) {
		if (p->unsealed != WLSEAL_UNSEALED_REFUSE)
			flags |= WLSEAL_SHM_POLICY_V1_CAPABILITY_SEALS_ON_RECEIPT;
		if (p->unsealed == WLSEAL_UNSEALED_COPY)
			flags |= WLSEAL_SHM_POLICY_V1_CAPABILITY_COPIES_UNSEALABLE;
	}
	wlseal_shm_policy_v1_send_policy(resource,
		p->enforced ? p->required_seals : 0, p->accepted_seals,
		(uint32_t)(p->max_pool_size >> 32),
		(uint32_t)(p->max_pool_size & 0xffffffffu), flags);
}

/* wlseal_shm_pool_request_v1: answered once, then inert. */

static void request_destroy(struct wl_client *client,
			    struct wl_resource *resource)
{
	wl_resource_destroy(resource);
}

static const struct wlseal_shm_pool_request_v1_interface request_impl = {
	.destroy = request_destroy,
};

/* wlseal_shm_policy_v1 */

static void policy_destroy(struct wl_client *client,
			   struct wl_resource *resource)
{
	wl_resource_destroy(resource);
}

static void refused(struct wl_resource *request, struct wlseal_shm_verdict *v)
{
	struct wl_client *client = wl_resource_get_client(request);
	int32_t file_size = v->file_size > INT32_MAX ? INT32_MAX :
			    (int32_t)v->file_size;

	/* Logged like a core refusal, but the client stays. */
	wlseal_account_log(client, "refused (non-fatal) client pid=%d "
		       "wlseal_shm_policy_v1.create_pool: reason=%s %s",
		       (int)wlseal_client_pid(client),
		       wlseal_policy_reason_name(v->reason), v->message);
	wlseal_shm_pool_request_v1_send_refused(request, v->reason, v->seals,
						file_size, v->message);
}

static void policy_create_pool(struct wl_client *client,
			       struct wl_resource *resource, uint32_t id,
			       int32_t fd, int32_t size)
{
	struct wlseal_shm *shm = wl_resource_get_user_data(resource);
	struct wlseal_shm_verdict v;
	struct wl_resource *request;
	struct wlseal_pool *pool;

	if (size <= 0) {
		char why[64];

		snprintf(why, sizeof(why), "invalid pool size %d", size);
		wlseal_shm_refuse(resource, WLSEAL_SHM_POLICY_V1_ERROR_INVALID_SIZE,
				  "wlseal_shm_policy_v1.create_pool", why);
		close(fd);
		return;
	}
	request = wl_resource_create(client, &wlseal_shm_pool_request_v1_interface,
				     wl_resource_get_version(resource), id);
	if (!request) {
		close(fd);
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(request, &request_impl, NULL, NULL);

	/* The one path of wl_shm.create_pool too (pool.c); only the answer
	 * to a refusal differs: an event, and the client stays. The fd is
	 * closed before the answer, as the protocol promises, so a refused
	 * client holds the only reference to its file again. */
	pool = wlseal_pool_new(shm, client, fd, size, &v);
	if (!pool) {
		if (v.no_memory)
			wl_client_post_no_memory(client);
		else
			refused(request, &v);
		return;
	}
	/* id 0: the compositor allocates the pool's id and hands the new
	 * object to the client with the created event. */
	if (!wlseal_pool_bind(pool, client, 0)) {
		wl_client_post_no_memory(client);
		return;
	}
	wlseal_shm_pool_request_v1_send_created(request, pool->resource);
}

static const struct wlseal_shm_policy_v1_interface policy_impl = {
	.destroy = policy_destroy,
	.create_pool = policy_create_pool,
};

static void policy_resource_destroy(struct wl_resource *resource)
{
	wl_list_remove(wl_resource_get_link(resource));
}

static void policy_bind(struct wl_client *client, void *data, uint32_t version,
			uint32_t id)
{
	struct wlseal_shm *shm = data;
	struct wl_resource *resource;

	resource = wl_resource_create(client, &wlseal_shm_policy_v1_interface,
				      version, id);
	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &policy_impl, shm,
				       policy_resource_destroy);
	/* Kept in a list so that a policy change reaches every client. */
	wl_list_insert(&shm->policy_resources, wl_resource_get_link(resource));
	send_policy(resource, &shm->policy);
}

void wlseal_shm_policy_update(struct wlseal_shm *shm,
			      const struct wlseal_shm_policy *policy)
{
	struct wl_resource *resource;
	char desc[160];
	int n = 0;

	shm->policy = *policy;
	wl_resource_for_each(resource, &shm->policy_resources) {
		send_policy(resource, policy);
		n++;
	}
	wlseal_policy_describe(policy, desc, sizeof(desc));
	wlseal_log("policy changed: %s (announced to %d bound client%s)", desc,
		   n, n == 1 ? "" : "s");
}

/*
 * Advertised for every --policy (permissive announces enforced=0), but not
 * with --shm=libwayland: that mode exists to show libwayland's own wl_shm
 * (its mapping, its SIGBUS handler) side by side with wlseal's, and a pool
 * created here would be wlseal's (pool.c), so a client preferring the
 * extension would quietly bypass the very code the mode is meant to show.
 */
bool wlseal_shm_policy_init(struct wlseal_shm *shm, uint32_t version)
{
	wl_list_init(&shm->policy_resources);
	if (shm->mode == WLSEAL_SHM_LIBWAYLAND)
		return true;
	/* Version 2 (compositor/globals.c): the seals_on_receipt and
	 * copies_unsealable bits. */
	return wl_global_create(shm->display, &wlseal_shm_policy_v1_interface,
				version, shm, policy_bind) != NULL;
}
