/* SPDX-License-Identifier: MIT */
/*
 * check.c - the seal check and the fd budget, the verdicts every new or
 * resized pool needs before it is mapped (shm.h).
 *
 * libwayland's wl_display_init_shm() maps whatever fd a client sends and
 * relies on a SIGBUS handler to survive a client that later truncates the
 * file under the mapping. wlseal instead looks at the fd *before* mapping
 * it: a memfd sealed with F_SEAL_SHRINK can never become smaller, so a
 * mapping no larger than the file can never fault past its end. That is
 * the whole argument, and it needs no signal handler at all.
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <wayland-server-core.h>

#include "log.h"
#include "shm.h"
#include "wlseal-shm-policy-v1-server-protocol.h"
#include "seal-list.h"

static uint32_t refuse(struct wlseal_shm_verdict *v, uint32_t reason,
		       const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static uint32_t refuse(struct wlseal_shm_verdict *v, uint32_t reason,
		       const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v->message, sizeof(v->message), fmt, ap);
	va_end(ap);
	v->reason = reason;
	return reason;
}

uint32_t wlseal_shm_check(const struct wlseal_shm_policy *policy, int fd,
			  int64_t size, struct wlseal_shm_verdict *v)
{
	char names[96];
	struct stat st;
	uint32_t missing, unexpected;
	int seals;

	*v = (struct wlseal_shm_verdict){ .file_size = -1 };
	/* The size limit first: it needs nothing from the file. */
	if ((uint64_t)size > policy->max_pool_size)
		return refuse(v, WLSEAL_SHM_POOL_REQUEST_V1_REASON_TOO_LARGE,
			      "pool too large (pool %lld bytes, limit %llu bytes)",
			      (long long)size,
			      (unsigned long long)policy->max_pool_size);
	seals = fcntl(fd, F_GET_SEALS);

	if (!policy->enforced) {
		/* Map anything; only learn whether MAP_SHARED can work. */
		v->write_sealed = seals >= 0 && (seals & F_SEAL_WRITE);
		return 0;
	}

	/* Files that cannot carry seals (pipes, sockets, plain tmpfs or
	 * ext4 files, /dev/zero) can shrink under us at any time. */
	if (seals < 0)
		return refuse(v, WLSEAL_SHM_POOL_REQUEST_V1_REASON_NOT_SEALABLE,
			      "not a sealable file (F_GET_SEALS: %s)",
			      strerror(errno));
	missing = policy->required_seals & ~(uint32_t)seals;
	if (missing) {
		wlseal_seal_list_format(missing, names, sizeof(names));
		v->seals = missing;
		return refuse(v, WLSEAL_SHM_POOL_REQUEST_V1_REASON_MISSING_SEAL,
			      "missing %s (file seals 0x%x)", names, seals);
	}
	unexpected = (uint32_t)seals & ~policy->accepted_seals;
	if (unexpected) {
		wlseal_seal_list_format(unexpected, names, sizeof(names));
		v->seals = unexpected;
		return refuse(v, WLSEAL_SHM_POOL_REQUEST_V1_REASON_UNEXPECTED_SEAL,
			      "unexpected seal %s (file seals 0x%x, accepted 0x%x)",
			      names, seals, policy->accepted_seals);
	}
	/* Only now is the size meaningful: it can no longer go down. */
	if (fstat(fd, &st) < 0)
		return refuse(v, WLSEAL_SHM_POOL_REQUEST_V1_REASON_NOT_SEALABLE,
			      "fstat failed: %s", strerror(errno));
	if (!S_ISREG(st.st_mode))
		return refuse(v, WLSEAL_SHM_POOL_REQUEST_V1_REASON_NOT_SEALABLE,
			      "not a regular file (mode 0%o)",
			      (unsigned int)st.st_mode);
	v->file_size = st.st_size;
	if (st.st_size < size)
		return refuse(v, WLSEAL_SHM_POOL_REQUEST_V1_REASON_FILE_TOO_SMALL,
			      "file smaller than pool (file %lld bytes, pool %lld bytes)",
			      (long long)st.st_size, (long long)size);
	v->write_sealed = seals & F_SEAL_WRITE;
	return 0;
}

static enum wl_iterator_result count_pool(struct wl_resource *resource,
					  void *data)
{
	if (!strcmp(wl_resource_get_class(resource), "wl_shm_pool"))
		(*(int *)data)++;
	return WL_ITERATOR_CONTINUE;
}

uint32_t wlseal_shm_budget(const struct wlseal_shm *shm,
			   struct wl_client *client, int fd,
			   struct wlseal_shm_verdict *v)
{
	struct rlimit rl;
	int pools = 0;

	*v = (struct wlseal_shm_verdict){ .file_size = -1 };
	/* The kernel hands out the lowest free fd number, so the number
	 * this fd arrived on tells how full the table is. */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    (rlim_t)fd + WLSEAL_FD_RESERVE >= rl.rlim_cur)
		return refuse(v, WLSEAL_SHM_POOL_REQUEST_V1_REASON_OUT_OF_RESOURCES,
			      "compositor near its file descriptor limit (fd %d of %llu)",
			      fd, (unsigned long long)rl.rlim_cur);
	wl_client_for_each_resource(client, count_pool, &pools);
	if (pools >= shm->max_pools_per_client)
		return refuse(v, WLSEAL_SHM_POOL_REQUEST_V1_REASON_OUT_OF_RESOURCES,
			      "too many pools (%d live, limit %d per client)",
			      pools, shm->max_pools_per_client);
	return 0;
}

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
