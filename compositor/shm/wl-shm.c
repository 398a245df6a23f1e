/* SPDX-License-Identifier: MIT */
/*
 * wl-shm.c - wlseal's own wl_shm global: every pool passes the fd budget
 * and the seal check (check.c) before pool.c maps it.
 */
#include <stdio.h>
#include <unistd.h>

#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "shm.h"

static void shm_create_pool(struct wl_client *client,
			    struct wl_resource *resource, uint32_t id,
			    int32_t fd, int32_t size)
{
	struct wlseal_shm *shm = wl_resource_get_user_data(resource);
	struct wlseal_shm_verdict v;
	char why[160];
	const char *map_why = NULL;

	if (size <= 0) {
		snprintf(why, sizeof(why), "invalid pool size %d", size);
		wlseal_shm_refuse(resource, WL_SHM_ERROR_INVALID_STRIDE,
				  "wl_shm.create_pool", why);
		close(fd);
		return;
	}
	if (wlseal_shm_budget(shm, client, fd, &v) ||
	    wlseal_shm_check(&shm->policy, fd, size, &v)) {
		wlseal_shm_refuse(resource, WL_SHM_ERROR_INVALID_FD,
				  "wl_shm.create_pool", v.message);
		close(fd);
		return;
	}
	/* The pool owns fd from here on, also on failure. */
	if (!wlseal_pool_create(shm, client, id, fd, size, v.write_sealed,
				&map_why)) {
		if (map_why)
			wlseal_shm_refuse(resource, WL_SHM_ERROR_INVALID_FD,
					  "wl_shm.create_pool", map_why);
		else
			wl_client_post_no_memory(client);
	}
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

bool wlseal_shm_init(struct wlseal_shm *shm)
{
	if (shm->mode == WLSEAL_SHM_LIBWAYLAND) {
		/* The contrast mode: libwayland's wl_shm, which installs a
		 * SIGBUS handler the first time it touches a buffer. */
		return wl_display_init_shm(shm->display) == 0;
	}
	return wl_global_create(shm->display, &wl_shm_interface, 1, shm,
				shm_bind) != NULL;
}
