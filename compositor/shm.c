/* SPDX-License-Identifier: MIT */
/*
 * shm.c - wlseal's own wl_shm global and its seal policy.
 *
 * libwayland's wl_display_init_shm() maps whatever fd a client sends and
 * relies on a SIGBUS handler to survive a client that later truncates the
 * file under the mapping. wlseal instead looks at the fd *before* mapping
 * it: a memfd sealed with F_SEAL_SHRINK can never become smaller, so a
 * mapping no larger than the file can never fault past its end. That is
 * the whole argument, and it needs no signal handler at all.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "compositor.h"
#include "shm.h"
#include "wlseal-seals.h"

void wlseal_shm_refuse(struct wl_resource *resource, uint32_t code,
		       const char *request, const char *why)
{
	struct wl_client *client = wl_resource_get_client(resource);

	/* One log line per refusal, naming the client and the reason; the
	 * same reason goes into the protocol error so the client sees it. */
	wlseal_log("refused client pid=%d %s: %s",
		   (int)wlseal_client_pid(client), request, why);
	wl_resource_post_error(resource, code, "%s", why);
}

bool wlseal_shm_check(struct wlseal_server *server, int fd, int64_t size,
		      bool *write_sealed, char *why, size_t why_len)
{
	struct stat st;
	int seals;

	*write_sealed = false;
	seals = fcntl(fd, F_GET_SEALS);

	if (server->opts.policy == WLSEAL_POLICY_PERMISSIVE) {
		/* Map anything; only learn whether MAP_SHARED can work. */
		*write_sealed = seals >= 0 && (seals & F_SEAL_WRITE);
		return true;
	}

	/* Files that cannot carry seals (pipes, sockets, plain tmpfs or
	 * ext4 files, /dev/zero) can shrink under us at any time. */
	if (seals < 0) {
		snprintf(why, why_len,
			 "not a sealable file (F_GET_SEALS: %s)",
			 strerror(errno));
		return false;
	}
	if (!(seals & F_SEAL_SHRINK)) {
		snprintf(why, why_len,
			 "missing F_SEAL_SHRINK (file seals 0x%x)", seals);
		return false;
	}
	/* Only now is the size meaningful: it can no longer go down. */
	if (fstat(fd, &st) < 0) {
		snprintf(why, why_len, "fstat failed: %s", strerror(errno));
		return false;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, why_len, "not a regular file (mode 0%o)",
			 (unsigned int)st.st_mode);
		return false;
	}
	if (st.st_size < size) {
		snprintf(why, why_len,
			 "file smaller than pool (file %lld bytes, pool %lld bytes)",
			 (long long)st.st_size, (long long)size);
		return false;
	}
	*write_sealed = seals & F_SEAL_WRITE;
	return true;
}

static void shm_create_pool(struct wl_client *client,
			    struct wl_resource *resource, uint32_t id,
			    int32_t fd, int32_t size)
{
	struct wlseal_server *server = wl_resource_get_user_data(resource);
	char why[160];
	const char *map_why = NULL;
	bool write_sealed;

	if (size <= 0) {
		snprintf(why, sizeof(why), "invalid pool size %d", size);
		wlseal_shm_refuse(resource, WL_SHM_ERROR_INVALID_STRIDE,
				  "wl_shm.create_pool", why);
		close(fd);
		return;
	}
	if (!wlseal_shm_check(server, fd, size, &write_sealed, why,
			      sizeof(why))) {
		wlseal_shm_refuse(resource, WL_SHM_ERROR_INVALID_FD,
				  "wl_shm.create_pool", why);
		close(fd);
		return;
	}
	/* The pool owns fd from here on, also on failure. */
	if (!wlseal_pool_create(server, client, id, fd, size, write_sealed,
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

bool wlseal_shm_init(struct wlseal_server *server)
{
	if (server->opts.shm == WLSEAL_SHM_LIBWAYLAND) {
		/* The contrast mode: libwayland's wl_shm, which installs a
		 * SIGBUS handler the first time it touches a buffer. */
		return wl_display_init_shm(server->display) == 0;
	}
	return wl_global_create(server->display, &wl_shm_interface, 1, server,
				shm_bind) != NULL;
}
