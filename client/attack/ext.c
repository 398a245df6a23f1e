/* SPDX-License-Identifier: MIT */
/*
 * ext.c - the wlseal_shm_policy_v1 extension: every refusal reason, without
 * being disconnected.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define ATT_CATEGORY ATT_CAT_EXT
#include "scenario.h"

/* --- wlseal_shm_policy_v1: every refusal reason, without being disconnected ---------
 * The extension answers create_pool with an event. Each scenario provokes
 * one reason, checks the event (reason, seals, message: the declared
 * outcome), and then proves the connection is still good: a well-sealed
 * pool through the same global, a buffer from it, a frame shown. Without
 * the global (weston, an older wlseal) they are skipped. */

struct ext_answer {
	bool done;
	struct wl_shm_pool *pool;
	uint32_t reason, seals;
	int32_t file_size;
	char message[256];
};

static void ext_created(void *data, struct wlseal_shm_pool_request_v1 *r,
			struct wl_shm_pool *pool)
{
	struct ext_answer *x = data;

	(void)r;
	x->pool = pool;
	x->done = true;
}

static void ext_refused(void *data, struct wlseal_shm_pool_request_v1 *r,
			uint32_t reason, uint32_t seals, int32_t file_size,
			const char *message)
{
	struct ext_answer *x = data;

	(void)r;
	x->reason = reason;
	x->seals = seals;
	x->file_size = file_size;
	snprintf(x->message, sizeof(x->message), "%s", message);
	x->done = true;
}

static const struct wlseal_shm_pool_request_v1_listener ext_listener = {
	.created = ext_created,
	.refused = ext_refused,
};

/* Ask for a pool; 0 with *x filled when answered, else the dispatch error. */
static int ext_create_pool(struct attack *a, int fd, int32_t size,
			   struct ext_answer *x)
{
	struct wlseal_shm_pool_request_v1 *req;
	int r;

	memset(x, 0, sizeof(*x));
	req = wlseal_shm_policy_v1_create_pool(a->shm_policy, fd, size);
	wlseal_shm_pool_request_v1_add_listener(req, &ext_listener, x);
	r = att_dispatch_until(a, &x->done);
	if (r == 0)
		wlseal_shm_pool_request_v1_destroy(req);
	return r;
}

static bool ext_available(struct attack *a, struct outcome *o)
{
	if (a->shm_policy && a->policy_known)
		return true;
	o->result = RES_SKIPPED;
	att_note(o, "the compositor offers no wlseal_shm_policy_v1");
	return false;
}

/*
 * Send fd (closed here) as a pool of size bytes; a refusal becomes the
 * policy-refused outcome, but only after a good pool created through the
 * same object was shown: that is the "still connected" half.
 */
static void ext_probe(struct attack *a, struct outcome *o, int fd, int32_t size)
{
	struct ext_answer x, good;
	struct wl_buffer *buf;
	int gfd;

	if (fd < 0) {
		att_fail_setup(o, "cannot create the file: %s", strerror(errno));
		return;
	}
	if (ext_create_pool(a, fd, size, &x) != 0) {
		close(fd);
		return;	/* disconnected or hung: att_conclude says which */
	}
	close(fd);
	if (x.pool) {
		/* Accepted (e.g. a permissive policy): show it, then judge. */
		buf = wl_shm_pool_create_buffer(x.pool, 0, ATT_W, ATT_H,
						ATT_STRIDE, WL_SHM_FORMAT_XRGB8888);
		if (size >= ATT_SIZE && att_window(a) == 0)
			att_present(a, buf, ATT_W, ATT_H);
		return;
	}
	att_note(o, "refused seals=0x%x file-size=%d", x.seals, x.file_size);
	gfd = att_memfd(ATT_SIZE, MFD_ALLOW_SEALING,
			(int)a->required_seals | F_SEAL_SHRINK);
	if (gfd < 0) {
		att_fail_setup(o, "memfd: %s", strerror(errno));
		return;
	}
	if (ext_create_pool(a, gfd, ATT_SIZE, &good) != 0) {
		close(gfd);
		att_note(o, "connection lost after the refusal");
		return;
	}
	close(gfd);
	if (!good.pool) {
		att_fail_setup(o, "a well-sealed pool was refused after the refusal: %s",
			   good.message);
		return;
	}
	buf = wl_shm_pool_create_buffer(good.pool, 0, ATT_W, ATT_H, ATT_STRIDE,
					WL_SHM_FORMAT_XRGB8888);
	if (att_window(a) != 0 || att_present(a, buf, ATT_W, ATT_H) != 0 ||
	    att_roundtrip(a) != 0) {
		att_note(o, "no frame after the refusal");
		return;
	}
	att_note(o, "still connected: a sealed pool was created and shown after the refusal");
	o->result = RES_POLICY_REFUSED;
	o->code = (int)x.reason;
	snprintf(o->interface, sizeof(o->interface), "%s",
		 wlseal_shm_pool_request_v1_interface.name);
	snprintf(o->message, sizeof(o->message), "%s", x.message);
}

ATT_SCENARIO(run_ext_missing_seal, "ext-missing-seal",
	     "wlseal_shm_policy_v1: unsealed memfd; refused by event, still connected",
	     EXT_REFUSED(MISSING_SEAL, MSG_NO_SHRINK))
{
	if (ext_available(a, o))
		ext_probe(a, o, att_memfd(ATT_SIZE, MFD_ALLOW_SEALING, 0), ATT_SIZE);
}

ATT_SCENARIO(run_ext_file_too_small, "ext-file-too-small",
	     "wlseal_shm_policy_v1: sealed 16 KiB file, 32 KiB pool; refused by event, still connected",
	     EXT_REFUSED(FILE_TOO_SMALL, MSG_TOO_SMALL))
{
	if (ext_available(a, o))
		ext_probe(a, o, att_memfd(ATT_SIZE, MFD_ALLOW_SEALING,
					  (int)a->required_seals | F_SEAL_SHRINK),
			  2 * ATT_SIZE);
}

ATT_SCENARIO(run_ext_not_sealable, "ext-not-sealable",
	     "wlseal_shm_policy_v1: a pipe; refused by event, still connected",
	     EXT_REFUSED(NOT_SEALABLE, "sealable"))
{
	int p[2];

	if (!ext_available(a, o))
		return;
	if (pipe2(p, O_CLOEXEC) < 0) {
		att_fail_setup(o, "pipe: %s", strerror(errno));
		return;
	}
	close(p[1]);
	ext_probe(a, o, p[0], ATT_SIZE);
}

ATT_SCENARIO(run_ext_too_large, "ext-too-large",
	     "wlseal_shm_policy_v1: pool one byte over max_pool_size (skipped when the limit is INT32_MAX)",
	     EXT_REFUSED(TOO_LARGE, "too large"))
{
	if (!ext_available(a, o))
		return;
	/* Pool sizes are int32: a limit at INT32_MAX cannot be passed. */
	if (a->max_pool_size >= INT32_MAX) {
		o->result = RES_SKIPPED;
		att_note(o, "unreachable under this policy: max pool size %llu",
		     (unsigned long long)a->max_pool_size);
		return;
	}
	ext_probe(a, o, att_memfd(ATT_SIZE, MFD_ALLOW_SEALING,
				  (int)a->required_seals | F_SEAL_SHRINK),
		  (int32_t)a->max_pool_size + 1);
}

ATT_SCENARIO(run_ext_unexpected_seal, "ext-unexpected-seal",
	     "wlseal_shm_policy_v1: a seal outside accepted_seals (skipped when every seal is accepted)",
	     EXT_REFUSED(UNEXPECTED_SEAL, "unexpected seal"))
{
	static const int candidates[] = { F_SEAL_GROW, F_SEAL_FUTURE_WRITE,
					  F_SEAL_WRITE, F_SEAL_SEAL };
	int extra = 0;

	if (!ext_available(a, o))
		return;
	for (size_t i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++)
		if (!(a->accepted_seals & (uint32_t)candidates[i])) {
			extra = candidates[i];
			break;
		}
	if (!extra) {
		o->result = RES_SKIPPED;
		att_note(o, "unreachable under this policy: every seal accepted (0x%x)",
		     a->accepted_seals);
		return;
	}
	ext_probe(a, o, att_memfd(ATT_SIZE, MFD_ALLOW_SEALING,
				  (int)a->required_seals | extra), ATT_SIZE);
}

ATT_SCENARIO(run_ext_map_failed, "ext-map-failed",
	     "wlseal_shm_policy_v1: sealed memfd reopened O_WRONLY, PROT_READ mmap fails; refused by event",
	     EXT_REFUSED(MAP_FAILED, "mmap failed"))
{
	int fd, wfd;

	if (!ext_available(a, o))
		return;
	/* Sealed as required, but O_WRONLY: the check passes, mmap fails. */
	fd = att_memfd(ATT_SIZE, MFD_ALLOW_SEALING,
		       (int)a->required_seals | F_SEAL_SHRINK);
	if (fd < 0) {
		att_fail_setup(o, "memfd: %s", strerror(errno));
		return;
	}
	wfd = att_reopen(fd, O_WRONLY);
	close(fd);
	ext_probe(a, o, wfd, ATT_SIZE);
}

ATT_SCENARIO(run_ext_invalid_size, "ext-invalid-size",
	     "wlseal_shm_policy_v1.create_pool with size 0: the extension's one fatal error",
	     SHM_ERR(WLSEAL_SHM_POLICY_V1_ERROR_INVALID_SIZE, "wlseal_shm_policy_v1", NULL))
{
	int fd;

	if (!ext_available(a, o))
		return;
	fd = att_memfd(ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	if (fd < 0) {
		att_fail_setup(o, "memfd: %s", strerror(errno));
		return;
	}
	/* The one fatal error of the extension: a size no file can have. */
	wlseal_shm_policy_v1_create_pool(a->shm_policy, fd, 0);
	close(fd);
}

/*
 * Refusals through the extension do not disconnect, so one client can ask
 * for thousands: the compositor's log must not grow with them (at most a
 * few lines a second per client; tests/attack/run-scenario counts them).
 * Afterwards the usual proof: refused once more, then a good pool shown.
 */
ATT_SCENARIO(run_ext_log_flood, "ext-log-flood",
	     "wlseal_shm_policy_v1: 3000 refused pools in a burst, then refused once more and still connected; the log stays rate-limited",
	     EXT_REFUSED(MISSING_SEAL, MSG_NO_SHRINK))
{
	int n;

	if (!ext_available(a, o))
		return;
	for (n = 0; n < 3000; n++) {
		int fd = att_memfd(4096, MFD_ALLOW_SEALING, 0);

		if (fd < 0) {
			att_fail_setup(o, "memfd: %s", strerror(errno));
			return;
		}
		wlseal_shm_policy_v1_create_pool(a->shm_policy, fd, 4096);
		close(fd);
		if (n % ATT_FD_BATCH == ATT_FD_BATCH - 1 && att_roundtrip(a) != 0)
			return;
	}
	att_note(o, "%d refusals asked for", n);
	ext_probe(a, o, att_memfd(ATT_SIZE, MFD_ALLOW_SEALING, 0), ATT_SIZE);
}
