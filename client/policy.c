/* SPDX-License-Identifier: MIT */
/*
 * policy.c - which seals a file gets, and pools through
 * wlseal_shm_policy_v1 (protocol/README.md): the policy event, the
 * create_pool request, and fixing a refused file before asking again,
 * once per reason. Without the extension, core wl_shm.
 */
#include <errno.h>
#include <sys/mman.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <wayland-client.h>

#include "client.h"
#include "wlseal-seals.h"
#include "wlseal-shm-policy-v1-client-protocol.h"
#include "wlseal-policy-reason.h"

/* Memory: a sealable memfd of @size bytes, through the chosen API. The
 * seals are applied by seal_fd(), after any drawing that must precede
 * them (SEAL_WRITE). */
int create_file(struct window *w, size_t size)
{
	const char *failed = "";
	int fd;

	/* --unsealable: F_GET_SEALS of this file answers F_SEAL_SEAL, and
	 * no seal can ever be added. */
	if (w->o->unsealable) {
		fd = memfd_create("wlseal-client-unsealable", MFD_CLOEXEC);
		if (fd < 0 || ftruncate(fd, (off_t)size) < 0) {
			client_log("unsealable memfd: %s", strerror(errno));
			if (fd >= 0)
				close(fd);
			return -1;
		}
		return fd;
	}
	fd = wlseal_memfd_new(w->api, "wlseal-client", size, &failed);

	if (fd < 0)
		client_log("%s: %s", failed, strerror(errno));
	return fd;
}

bool seal_fd(struct window *w, int fd, int seals)
{
	const char *failed = "";

	if (w->o->unsealable)
		return true;	/* nothing to add, and nothing could be */
	if (wlseal_memfd_seal(w->api, fd, seals, &failed))
		return true;
	client_log("%s(0x%x): %s", failed, seals, strerror(errno));
	return false;
}

/*
 * The seals every new file gets: what --seals asked for, plus what the
 * compositor's policy requires, minus what it would refuse (the required
 * ones always stay).
 */
int file_seals(struct window *w)
{
	const struct policy *p = &w->d->policy;
	int seals = w->o->seals;

	if (w->o->unsealable)
		return 0;
	if (!w->write_mode)
		seals &= ~F_SEAL_WRITE;
	if (p->known && (p->flags & WLSEAL_SHM_POLICY_V1_CAPABILITY_ENFORCED)) {
		seals |= (int)p->required;
		seals &= (int)(p->accepted | p->required);
	}
	return seals;
}

static void policy_event(void *data, struct wlseal_shm_policy_v1 *p,
			 uint32_t required, uint32_t accepted, uint32_t max_hi,
			 uint32_t max_lo, uint32_t flags)
{
	struct display *d = data;

	d->policy = (struct policy){
		.known = true, .required = required, .accepted = accepted,
		.flags = flags,
		.max_pool_size = ((uint64_t)max_hi << 32) | max_lo,
	};
	/* Sent on bind and on every change; new files follow it. */
	printf("WLSEAL-CLIENT-POLICY required=0x%x accepted=0x%x "
	       "max-pool-size=%llu flags=0x%x\n", required, accepted,
	       (unsigned long long)d->policy.max_pool_size, flags);
	fflush(stdout);
}

const struct wlseal_shm_policy_v1_listener policy_listener = {
	.policy = policy_event,
};

/* The answer to one wlseal_shm_policy_v1.create_pool. */
struct pool_answer {
	bool done;
	struct wl_shm_pool *pool;
	uint32_t reason, seals;
	int32_t file_size;
	char message[256];
};

static void request_created(void *data, struct wlseal_shm_pool_request_v1 *r,
			    struct wl_shm_pool *pool)
{
	struct pool_answer *a = data;

	a->pool = pool;
	a->done = true;
}

static void request_refused(void *data, struct wlseal_shm_pool_request_v1 *r,
			    uint32_t reason, uint32_t seals, int32_t file_size,
			    const char *message)
{
	struct pool_answer *a = data;

	a->reason = reason;
	a->seals = seals;
	a->file_size = file_size;
	snprintf(a->message, sizeof(a->message), "%s", message);
	a->done = true;
}

static const struct wlseal_shm_pool_request_v1_listener request_listener = {
	.created = request_created,
	.refused = request_refused,
};

/* Copy @size bytes of @from into a new file sealed with @seals. */
static int replace_file(struct window *w, int from, size_t size, int seals)
{
	char buf[65536];
	size_t done = 0;
	int fd = create_file(w, size);

	if (fd < 0)
		return -1;
	while (done < size) {
		size_t n = size - done < sizeof(buf) ? size - done : sizeof(buf);
		ssize_t r = pread(from, buf, n, (off_t)done);

		if (r <= 0)
			break;	/* a short file: the rest stays zero */
		if (pwrite(fd, buf, (size_t)r, (off_t)done) != r) {
			close(fd);
			return -1;
		}
		done += (size_t)r;
	}
	if (!seal_fd(w, fd, seals)) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Fix what a refusal names, on *fd (which may be replaced by a new file).
 * Fills @action with what was done; false when nothing can be done.
 */
static bool fix_refusal(struct window *w, int *fd, int32_t size,
			const struct pool_answer *a, char *action, size_t len)
{
	int cur = fcntl(*fd, F_GET_SEALS);
	int nfd, seals;

	switch (a->reason) {
	case WLSEAL_SHM_POOL_REQUEST_V1_REASON_MISSING_SEAL:
		/* The compositor closed its copy before refusing, so with the
		 * seed ABI this fd is the only reference and may be resealed. */
		if (cur >= 0 && seal_fd(w, *fd, w->api == WLSEAL_SEAL_API_SEED ?
					cur | (int)a->seals : (int)a->seals)) {
			snprintf(action, len, "add-seals=0x%x", a->seals);
			return true;
		}
		break;
	case WLSEAL_SHM_POOL_REQUEST_V1_REASON_FILE_TOO_SMALL:
		if (cur >= 0 && !(cur & F_SEAL_GROW) &&
		    ftruncate(*fd, (off_t)size) == 0) {
			snprintf(action, len, "grow-file=%d", size);
			return true;
		}
		break;
	case WLSEAL_SHM_POOL_REQUEST_V1_REASON_UNEXPECTED_SEAL:
	case WLSEAL_SHM_POOL_REQUEST_V1_REASON_NOT_SEALABLE:
		break;
	default:
		/* too_large, map_failed: no file of ours would do. */
		snprintf(action, len, "give-up");
		return false;
	}
	/* Seals cannot be taken back (upstream) and a pipe never becomes a
	 * memfd: start over with a new file with the same contents. */
	seals = file_seals(w);
	if (a->reason == WLSEAL_SHM_POOL_REQUEST_V1_REASON_UNEXPECTED_SEAL)
		seals &= ~(int)a->seals;
	nfd = replace_file(w, *fd, (size_t)size, seals);
	if (nfd < 0) {
		snprintf(action, len, "give-up");
		return false;
	}
	close(*fd);
	*fd = nfd;
	snprintf(action, len, "new-file seals=0x%x", seals);
	return true;
}

/*
 * A wl_shm_pool for *fd: through wlseal_shm_policy_v1 when the compositor
 * has it (waiting for the answer, fixing the file and asking again once
 * per refusal reason), else through core wl_shm, where a refusal would be
 * fatal. *fd may be replaced by a better file; NULL when refused for good.
 */
struct wl_shm_pool *get_pool(struct window *w, int *fd, int32_t size)
{
	struct display *d = w->d;
	struct wl_shm_pool *pool = NULL;
	uint32_t tried = 0;
	char action[64];

	if (!d->shm_policy) {
		pool = wl_shm_create_pool(d->shm, *fd, size);
	} else {
		for (;;) {
			struct pool_answer a = {0};
			struct wlseal_shm_pool_request_v1 *req =
				wlseal_shm_policy_v1_create_pool(d->shm_policy, *fd, size);
			bool ok;

			wlseal_shm_pool_request_v1_add_listener(req, &request_listener, &a);
			while (!a.done)
				if (wl_display_dispatch(d->display) < 0)
					return NULL;
			wlseal_shm_pool_request_v1_destroy(req);
			if (a.pool) {
				pool = a.pool;
				break;
			}
			printf("WLSEAL-CLIENT-REFUSED reason=%s seals=0x%x file-size=%d "
			       "message=\"%s\"\n", wlseal_policy_reason_name(a.reason), a.seals,
			       a.file_size, a.message);
			if (a.reason < 32 && (tried & (1u << a.reason))) {
				ok = false;
				snprintf(action, sizeof(action), "give-up (refused twice)");
			} else {
				tried |= a.reason < 32 ? 1u << a.reason : 0;
				ok = fix_refusal(w, fd, size, &a, action, sizeof(action));
			}
			printf("WLSEAL-CLIENT-RETRY reason=%s action=%s\n",
			       wlseal_policy_reason_name(a.reason), action);
			fflush(stdout);
			if (!ok) {
				client_log("the compositor refused the "
					"pool: %s", a.message);
				return NULL;
			}
		}
	}
	if (w->pools_made++ == 0 || w->o->verbose) {
		printf("WLSEAL-CLIENT-POOL via=%s size=%d seals=0x%x\n",
		       d->shm_policy ? "wlseal_shm_policy_v1" : "wl_shm", size,
		       fcntl(*fd, F_GET_SEALS));
		fflush(stdout);
	}
	return pool;
}
