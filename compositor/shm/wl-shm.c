/* SPDX-License-Identifier: MIT */
/*
 * wl-shm.c - wlseal's own wl_shm global: every pool takes the one path
 * of pool.c (seal check, budget, map), shared with the extension.
 */
#include <stdio.h>
#include <unistd.h>

#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "check.h"
#include "pool.h"
#include "resident.h"
#include "shm.h"

static void shm_create_pool(struct wl_client *client,
			    struct wl_resource *resource, uint32_t id,
			    int32_t fd, int32_t size)
{
	struct wlseal_shm *shm = wl_resource_get_user_data(resource);
	struct wlseal_shm_verdict v;
	struct wlseal_pool *pool;
	char why[160];

	if (size <= 0) {
		snprintf(why, sizeof(why), "invalid pool size %d", size);
		wlseal_shm_refuse(resource, WL_SHM_ERROR_INVALID_STRIDE,
				  "wl_shm.create_pool", why);
		close(fd);
		return;
	}
	/* The one path (pool.c); the core protocol has one answer to a
	 * refusal: a fatal error carrying the verdict's message. */
	pool = wlseal_pool_new(shm, client, fd, size, &v);
	if (!pool) {
		if (v.no_memory)
			wl_client_post_no_memory(client);
		else
			wlseal_shm_refuse(resource, WL_SHM_ERROR_INVALID_FD,
					  "wl_shm.create_pool", v.message);
		return;
	}
	if (!wlseal_pool_bind(pool, client, id))
		wl_client_post_no_memory(client);
}

static const struct wl_shm_interface shm_impl = {
	.create_pool = shm_create_pool,
};

static void shm_bind(struct wl_client *client, void *data, uint32_t version,
		     uint32_t id)
{
	struct wl_resource *resource;

	resource = wl_resource_create(client, &wl_shm_interface, version, id);
	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &shm_impl, data, NULL);
	/* The two formats every wl_shm must support; pixman reads both. */
	wl_shm_send_format(resource, WL_SHM_FORMAT_ARGB8888);
	wl_shm_send_format(resource, WL_SHM_FORMAT_XRGB8888);
}

bool wlseal_shm_init(struct wlseal_shm *shm, uint32_t version)
{
	shm->reap_efd = -1;
	if (!wlseal_pool_reaper_init(shm) || !wlseal_resident_init(shm))
		return false;
	if (shm->mode == WLSEAL_SHM_LIBWAYLAND) {
		/* The contrast mode: libwayland's wl_shm, which installs a
		 * SIGBUS handler the first time it touches a buffer. */
		return wl_display_init_shm(shm->display) == 0;
	}
	return wl_global_create(shm->display, &wl_shm_interface, version, shm,
				shm_bind) != NULL;
}
