/* SPDX-License-Identifier: MIT */
/*
 * check.h - inside shm/: the seal check (check.c), for pool.c and
 * ext-policy.c, and for its unit test.
 */
#ifndef WLSEAL_SHM_CHECK_H
#define WLSEAL_SHM_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <wayland-server-core.h>

#include "shm.h"

/*
 * check.c: the one seal check, shared by wl_shm.create_pool,
 * wl_shm_pool.resize and wlseal_shm_policy_v1.create_pool. The core path
 * turns a refusal into wl_shm.error.invalid_fd with the message; the
 * extension sends reason, seals, file size and the same message.
 */
struct wlseal_shm_verdict {
	uint32_t reason;	/* 0: accepted, else
				   WLSEAL_SHM_POOL_REQUEST_V1_REASON_* */
	uint32_t seals;		/* missing or unexpected F_SEAL_* bits */
	int file_seals;		/* F_GET_SEALS of the file, -1: not read */
	int64_t file_size;	/* -1: not known */
	bool write_sealed;	/* accepted and F_SEAL_WRITE: map privately */
	bool no_memory;		/* refused because an allocation failed */
	size_t page;		/* the page size to map with (even if refused) */
	char message[160];
};
/* Returns verdict->reason: 0 when the fd may back @size bytes. */
uint32_t wlseal_shm_check(const struct wlseal_shm_policy *policy, int fd,
			  int64_t size, struct wlseal_shm_verdict *verdict);
/* check.c: log a refusal (rate-limited) and post it as a protocol error. */
void wlseal_shm_refuse(struct wl_resource *resource, uint32_t code,
		       const char *request, const char *why);

#endif
