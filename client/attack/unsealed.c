/* SPDX-License-Identifier: MIT */
/*
 * unsealed.c - the answers of wlseal-compositor --unsealed=seal|copy to
 * pools whose files lack F_SEAL_SHRINK: a client racing the compositor's
 * own seal, a file shared with a second process, and, for files that can
 * never be sealed (read with pread, never mapped), a resize past the end,
 * a huge sparse file and truncation during the reads.
 *
 * Each scenario needs its mode: the policy event of wlseal_shm_policy_v1
 * (version 2) says whether it is on, and without it the scenario is
 * skipped. tests/attack/run-scenario starts the compositor with
 * --unsealed=seal for seal-on-receipt-* and --unsealed=copy for copy-*.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define ATT_CATEGORY ATT_CAT_UNSEALED
#include "scenario.h"

#define UNSEALABLE_NAME "wlseal-attack-unsealable"

static bool mode_on(struct attack *a, struct outcome *o, uint32_t bit,
		    const char *option)
{
	if (a->shm_policy && a->policy_known && (a->policy_flags & bit))
		return true;
	o->result = RES_SKIPPED;
	att_note(o, "the compositor does not announce %s (wlseal_shm_policy_v1 version 2)",
		 option);
	return false;
}

static bool seal_mode(struct attack *a, struct outcome *o)
{
	return mode_on(a, o, WLSEAL_SHM_POLICY_V1_CAPABILITY_SEALS_ON_RECEIPT,
		       "--unsealed=seal");
}

static bool copy_mode(struct attack *a, struct outcome *o)
{
	return mode_on(a, o, WLSEAL_SHM_POLICY_V1_CAPABILITY_COPIES_UNSEALABLE,
		       "--unsealed=copy");
}

/* A memfd that can never be sealed (F_SEAL_SEAL from the start), @size
 * bytes filled with a pattern when @fill. */
static int unsealable(struct outcome *o, size_t size, bool fill)
{
	int fd = memfd_create(UNSEALABLE_NAME, MFD_CLOEXEC);

	if (fd < 0 || ftruncate(fd, (off_t)size) < 0 ||
	    (fill && att_fill(fd, 0, size, 0xff40a040))) {
		att_fail_setup(o, "unsealable memfd of %zu bytes: %s", size,
			       strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* The compositor's mappings of our unsealable files: there must be none
 * (--unsealed=copy never maps one). -1: maps unreadable. */
static int unsealable_mapped(struct attack *a)
{
	char path[64], line[512];
	FILE *f;
	int n = 0;

	if (!a->compositor_pid)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)a->compositor_pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		n += strstr(line, "memfd:" UNSEALABLE_NAME) != NULL;
	fclose(f);
	return n;
}

static void assert_unmapped(struct attack *a, struct outcome *o)
{
	int n = unsealable_mapped(a);

	if (n > 0)
		att_fail_setup(o, "the compositor maps the unsealable file (%d mappings in /proc/%d/maps)",
			       n, (int)a->compositor_pid);
	else if (n == 0)
		att_note(o, "no mapping of the file in the compositor");
}

/* --- seal on receipt ------------------------------------------------------- */

struct truncator {
	int fd;
	size_t big, small;
	atomic_bool stop;
	atomic_long shrinks, eperm;
};

/* Shrinks and regrows the file as fast as it can, until told to stop. */
static void *truncate_loop(void *data)
{
	struct truncator *t = data;

	while (!atomic_load(&t->stop)) {
		if (ftruncate(t->fd, (off_t)t->small) == 0)
			atomic_fetch_add(&t->shrinks, 1);
		else if (errno == EPERM)
			atomic_fetch_add(&t->eperm, 1);
		if (ftruncate(t->fd, (off_t)t->big) < 0)
			break;
	}
	return NULL;
}

ATT_SCENARIO(run_seal_truncate_race, "seal-on-receipt-truncate-race",
	     "--unsealed=seal: a thread shrinks and regrows the unsealed file in a loop while the pool is created and sealed by the compositor: the size is read after the seal, so the pool is refused as too small or mapped whole; afterwards every shrink fails with EPERM (asserted)",
	     SURVIVES)
{
	struct truncator t = { .big = MIB, .small = 4096 };
	struct wl_shm_pool *pool;
	struct wl_buffer *buf;
	pthread_t th;
	long before;
	int seals;

	if (!seal_mode(a, o))
		return;
	t.fd = att_memfd_or_fail(o, t.big, MFD_ALLOW_SEALING, 0);
	if (t.fd < 0)
		return;
	if (pthread_create(&th, NULL, truncate_loop, &t) != 0) {
		att_fail_setup(o, "pthread_create failed");
		close(t.fd);
		return;
	}
	/* Let the loop run before the fd leaves. */
	while (atomic_load(&t.shrinks) < 100)
		sched_yield();
	pool = wl_shm_create_pool(a->shm, t.fd, (int32_t)t.big);
	if (att_roundtrip(a) == 0) {
		/* Accepted: the file was sealed; the loop's shrinks must
		 * fail from now on, while we read its far end. */
		before = atomic_load(&t.eperm);
		buf = wl_shm_pool_create_buffer(pool, (int32_t)t.big - ATT_SIZE,
						ATT_W, ATT_H, ATT_STRIDE, XRGB);
		if (att_window(a) == 0)
			att_keep_presenting(a, buf, 3);
		atomic_store(&t.stop, true);
		pthread_join(th, NULL);
		seals = fcntl(t.fd, F_GET_SEALS);
		if (seals < 0 || !(seals & F_SEAL_SHRINK))
			att_fail_setup(o, "accepted, yet the file has no F_SEAL_SHRINK (0x%x)",
				       seals);
		else if (atomic_load(&t.eperm) <= before &&
			 (ftruncate(t.fd, 0) == 0 || errno != EPERM))
			att_fail_setup(o, "a shrink after the seal did not fail with EPERM");
		else
			att_note(o, "accepted and sealed by the compositor after %ld shrinks; %ld later shrinks got EPERM",
				 atomic_load(&t.shrinks), atomic_load(&t.eperm));
	} else {
		atomic_store(&t.stop, true);
		pthread_join(th, NULL);
		att_note(o, "refused (the file was small when its size was read) after %ld shrinks",
			 atomic_load(&t.shrinks));
	}
	close(t.fd);
}

ATT_SCENARIO(run_seal_shared_file, "seal-on-receipt-shared-file",
	     "--unsealed=seal: the unsealed file is shared with a child process that keeps an fd and tries to shrink it once the compositor has sealed it: the child gets EPERM (asserted), the compositor keeps reading the whole pool",
	     ACCEPTED)
{
	int go[2], fd = att_memfd_or_fail(o, MIB, MFD_ALLOW_SEALING, 0);
	struct wl_shm_pool *pool;
	struct wl_buffer *buf;
	int status;
	pid_t child;
	char c;

	if (fd < 0 || !seal_mode(a, o)) {
		if (fd >= 0)
			close(fd);
		return;
	}
	if (pipe(go) < 0) {
		att_fail_setup(o, "pipe: %s", strerror(errno));
		close(fd);
		return;
	}
	child = fork();
	if (child == 0) {
		/* The other process: waits for the word, then shrinks the
		 * file through its own fd. Exit 0 only for EPERM. */
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(3);
		if (ftruncate(fd, 0) == 0)
			_exit(1);
		_exit(errno == EPERM ? 0 : 2);
	}
	close(go[0]);
	if (child < 0) {
		att_fail_setup(o, "fork: %s", strerror(errno));
		close(go[1]);
		close(fd);
		return;
	}
	pool = att_show_fd(a, fd, MIB, MIB - ATT_SIZE, 1, &buf);
	(void)pool;
	c = 'x';
	if (write(go[1], &c, 1) != 1 || waitpid(child, &status, 0) != child) {
		att_fail_setup(o, "the child could not be told or waited for");
	} else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		att_fail_setup(o, "the other process's shrink after the compositor's seal %s",
			       WIFEXITED(status) && WEXITSTATUS(status) == 1 ?
			       "succeeded" : "failed with an error other than EPERM");
	} else {
		att_note(o, "the other process's ftruncate(0): EPERM");
	}
	close(go[1]);
	/* The compositor reads the far end again: it must still be there. */
	att_keep_presenting(a, buf, 2);
	close(fd);
}

/* --- copies of files that cannot be sealed ---------------------------------- */

ATT_SCENARIO(run_copy_resize_past_end, "copy-resize-past-end",
	     "--unsealed=copy: an unsealable pool grown to 1 MiB with a buffer at its far end, then the file truncated to one page and the buffer committed again: a mapping would SIGBUS; the copy reads short and the client, which broke its pool, gets wl_shm.error.invalid_fd on the buffer, as from libwayland's wl_shm; the file is never mapped (asserted)",
	     SHM_ERR(WL_SHM_ERROR_INVALID_FD, "wl_buffer", "truncated"))
{
	int fd = unsealable(o, ATT_SIZE, true);
	struct wl_shm_pool *pool;
	struct wl_buffer *far;

	if (fd < 0 || !copy_mode(a, o)) {
		if (fd >= 0)
			close(fd);
		return;
	}
	pool = att_show_fd(a, fd, ATT_SIZE, 0, 1, NULL);
	if (wl_display_get_error(a->display))
		goto out;
	if (ftruncate(fd, MIB) < 0 || att_fill(fd, MIB - ATT_SIZE, ATT_SIZE, 0xffc04040)) {
		att_fail_setup(o, "growing the file: %s", strerror(errno));
		goto out;
	}
	wl_shm_pool_resize(pool, MIB);
	far = wl_shm_pool_create_buffer(pool, MIB - ATT_SIZE, ATT_W, ATT_H,
					ATT_STRIDE, XRGB);
	att_keep_presenting(a, far, 2);
	if (ftruncate(fd, 4096) < 0) {
		att_fail_setup(o, "ftruncate: %s", strerror(errno));
		goto out;
	}
	att_keep_presenting(a, far, 3);
	assert_unmapped(a, o);
out:
	close(fd);
}

/*
 * A sparse unsealable file of almost 2 GiB; a buffer of 64 MiB at a new
 * offset each commit: every copy is compositor memory. Charged to the
 * pool memory budget (run-scenario: --max-pool-memory=256 MiB), so the
 * copies stop at the budget (the client is refused) and the compositor's
 * peak RSS stays within it (run-scenario asserts that).
 */
#define COPY_CHARGE_ROWS 16384
#define COPY_CHARGE_STRIDE 4096

ATT_SCENARIO(run_copy_hole_charge, "copy-hole-charge",
	     "--unsealed=copy: a 2 GiB sparse unsealable file, 64 MiB buffers at new offsets, each copied whole at its first commit (holes read as zeros): the copies are charged to the pool memory budget, the client is refused there and the compositor's memory stays within it; the file is never mapped (asserted)",
	     SHM_ERR(WL_SHM_ERROR_INVALID_FD, "wl_shm_pool", "pool memory"))
{
	size_t one = (size_t)COPY_CHARGE_ROWS * COPY_CHARGE_STRIDE;
	size_t size = (size_t)INT32_MAX / one * one;
	int fd = unsealable(o, size, false), n = 0;
	struct wl_shm_pool *pool;

	if (fd < 0 || !copy_mode(a, o)) {
		if (fd >= 0)
			close(fd);
		return;
	}
	pool = wl_shm_create_pool(a->shm, fd, (int32_t)size);
	if (att_roundtrip(a) != 0 || att_window(a) != 0)
		goto out;
	for (size_t off = 0; off + one <= size; off += one) {
		struct wl_buffer *b = wl_shm_pool_create_buffer(pool, (int32_t)off,
				COPY_CHARGE_STRIDE / 4, COPY_CHARGE_ROWS,
				COPY_CHARGE_STRIDE, XRGB);

		if (att_present(a, b, COPY_CHARGE_STRIDE / 4, COPY_CHARGE_ROWS) < 0)
			break;
		n++;
		if (n == 1)
			assert_unmapped(a, o);
	}
	att_note(o, "%d buffers of %zu MiB copied before the refusal", n, one >> 20);
out:
	close(fd);
}

struct churner {
	int fd;
	size_t size;
	atomic_bool stop;
	atomic_long cycles;
};

/* Truncates the file to nothing and back, rewriting its first rows. */
static void *churn_loop(void *data)
{
	struct churner *c = data;

	while (!atomic_load(&c->stop)) {
		if (ftruncate(c->fd, 0) < 0 || ftruncate(c->fd, (off_t)c->size) < 0 ||
		    att_fill(c->fd, 0, c->size / 2, 0xff2080f0))
			break;
		atomic_fetch_add(&c->cycles, 1);
	}
	return NULL;
}

ATT_SCENARIO(run_copy_truncate_during_reads, "copy-truncate-during-reads",
	     "--unsealed=copy: a thread truncates the unsealable file to zero and back in a loop while 60 commits of a 256x256 buffer are each copied whole: a read that finds the file short ends the client with invalid_fd (whether one does is the race's), never SIGBUS, never a mapping (asserted)",
	     SURVIVES)
{
	struct churner c = { .size = 256 * 256 * 4 };
	struct wl_shm_pool *pool;
	struct wl_buffer *buf;
	pthread_t th;
	int i;

	c.fd = unsealable(o, c.size, true);
	if (c.fd < 0 || !copy_mode(a, o)) {
		if (c.fd >= 0)
			close(c.fd);
		return;
	}
	pool = wl_shm_create_pool(a->shm, c.fd, (int32_t)c.size);
	buf = wl_shm_pool_create_buffer(pool, 0, 256, 256, 1024, XRGB);
	if (att_roundtrip(a) != 0 || att_window(a) != 0)
		goto out;
	if (pthread_create(&th, NULL, churn_loop, &c) != 0) {
		att_fail_setup(o, "pthread_create failed");
		goto out;
	}
	for (i = 0; i < 60; i++)
		if (att_present(a, buf, 256, 256) < 0)
			break;
	atomic_store(&c.stop, true);
	pthread_join(th, NULL);
	att_note(o, "%d commits while the file went to zero and back %ld times",
		 i, atomic_load(&c.cycles));
	assert_unmapped(a, o);
out:
	close(c.fd);
}
