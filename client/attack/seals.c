/* SPDX-License-Identifier: MIT */
/*
 * seals.c - seals: pools on files without F_SEAL_SHRINK, changing a file
 * under a compositor that holds it (truncate, punch, fallocate, writes),
 * and the seed ABI's removable seals (patched kernel only).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define ATT_CATEGORY ATT_CAT_SEALS
#include "scenario.h"

/* --- pools on files without F_SEAL_SHRINK --------------------------------------- */

ATT_SCENARIO(run_unsealed_memfd, "unsealed-memfd",
	     "memfd with sealing allowed but no seal: the client can truncate it at any time",
	     POOL_REFUSED(MSG_NO_SHRINK))
{
	att_show_and_close(a, o, att_memfd(ATT_SIZE, MFD_ALLOW_SEALING, 0));
}

ATT_SCENARIO(run_memfd_no_sealing, "memfd-no-sealing",
	     "memfd created without MFD_ALLOW_SEALING (F_SEAL_SEAL set, never sealable)",
	     POOL_REFUSED(MSG_NO_SHRINK))
{
	att_show_and_close(a, o, att_memfd(ATT_SIZE, 0, 0));
}

ATT_SCENARIO(run_sealed_grow_only, "sealed-grow-only",
	     "sealed, but only F_SEAL_GROW: shrinking is still possible",
	     POOL_REFUSED(MSG_NO_SHRINK))
{
	att_show_and_close(a, o, att_memfd(ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_GROW));
}

ATT_SCENARIO(run_sealed_write_only, "sealed-write-only",
	     "sealed, but only F_SEAL_WRITE: contents fixed, size is not",
	     POOL_REFUSED(MSG_NO_SHRINK))
{
	att_show_and_close(a, o, att_memfd(ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_WRITE));
}

ATT_SCENARIO(run_sealed_seal_only, "sealed-seal-only",
	     "only F_SEAL_SEAL: looks sealed, guarantees nothing about the size",
	     POOL_REFUSED(MSG_NO_SHRINK))
{
	att_show_and_close(a, o, att_memfd(ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SEAL));
}

ATT_SCENARIO(run_sealed_future_write_only, "sealed-future-write-only",
	     "only F_SEAL_FUTURE_WRITE: no SHRINK",
	     POOL_REFUSED(MSG_NO_SHRINK))
{
	att_show_and_close(a, o, att_memfd(ATT_SIZE, MFD_ALLOW_SEALING,
				       F_SEAL_FUTURE_WRITE));
}

/* --- changing the file under a compositor that holds it ---------------------------- */

/* The seal makes the kernel refuse the shrink: assert it, keep showing. */
ATT_SCENARIO(run_truncate_after_attach, "truncate-after-attach",
	     "SHRINK-sealed and shown, then ftruncate(0): the kernel must say EPERM (asserted)",
	     ACCEPTED)
{
	int fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	struct wl_buffer *buf;
	int fd2;

	if (fd < 0)
		return;
	att_show_fd(a, fd, ATT_SIZE, 0, 1, &buf);
	if (wl_display_get_error(a->display))
		goto out;
	if (ftruncate(fd, 0) == 0 || errno != EPERM) {
		att_fail_setup(o, "ftruncate of a SEAL_SHRINK memfd gave %s, want EPERM",
			   errno ? strerror(errno) : "success");
		goto out;
	}
	fd2 = att_reopen(fd, O_RDWR);
	if (fd2 >= 0 && (ftruncate(fd2, 0) == 0 || errno != EPERM)) {
		att_fail_setup(o, "ftruncate through a /proc reopen was not EPERM");
		close(fd2);
		goto out;
	}
	if (fd2 >= 0)
		close(fd2);
	att_note(o, "ftruncate: EPERM (also through /proc/self/fd reopen)");
	att_keep_presenting(a, buf, 3);
out:
	close(fd);
}

/*
 * The classic SIGBUS attack: an unsealed memfd, shown once, then truncated
 * to nothing, then committed again so the compositor reads pages that no
 * longer exist. The truncate happens before the commit that triggers the
 * read, so the outcome does not depend on timing.
 */
ATT_SCENARIO(run_truncate_unsealed, "truncate-unsealed",
	     "classic SIGBUS: unsealed memfd shown, truncated to 0, committed again",
	     POOL_REFUSED(MSG_NO_SHRINK))
{
	int fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, 0);
	struct wl_buffer *buf;

	if (fd < 0)
		return;
	att_show_fd(a, fd, ATT_SIZE, 0, 1, &buf);
	if (wl_display_get_error(a->display))
		goto out;
	if (ftruncate(fd, 0) < 0) {
		att_fail_setup(o, "ftruncate: %s", strerror(errno));
		goto out;
	}
	att_keep_presenting(a, buf, 3);
out:
	close(fd);
}

/* The same, truncated before the compositor has seen a single pixel. */
ATT_SCENARIO(run_truncate_before_commit, "truncate-before-commit",
	     "classic SIGBUS, deterministic: unsealed memfd truncated before the first commit",
	     POOL_REFUSED(MSG_NO_SHRINK))
{
	int fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, 0);
	struct wl_shm_pool *pool;
	struct wl_buffer *buf;

	if (fd < 0)
		return;
	pool = att_show_fd(a, fd, ATT_SIZE, 0, 0, NULL);
	if (wl_display_get_error(a->display))
		goto out;
	buf = wl_shm_pool_create_buffer(pool, 0, ATT_W, ATT_H, ATT_STRIDE,
					WL_SHM_FORMAT_XRGB8888);
	if (ftruncate(fd, 0) < 0) {
		att_fail_setup(o, "ftruncate: %s", strerror(errno));
		goto out;
	}
	att_keep_presenting(a, buf, 3);
out:
	close(fd);
}

ATT_SCENARIO(run_punch_hole, "punch-hole",
	     "punch a hole through a shown SHRINK-sealed file: size stays, pages read as zeros",
	     ACCEPTED)
{
	int fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	struct wl_buffer *buf;

	if (fd < 0)
		return;
	att_show_fd(a, fd, ATT_SIZE, 0, 1, &buf);
	if (wl_display_get_error(a->display))
		goto out;
	/* SEAL_SHRINK keeps the size; holes read back as zeros, no SIGBUS. */
	if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0,
		      ATT_SIZE) < 0)
		att_note(o, "punch hole: %s", strerror(errno));
	else
		att_note(o, "punch hole: done, size kept");
	att_keep_presenting(a, buf, 3);
out:
	close(fd);
}

ATT_SCENARIO(run_fallocate, "fallocate",
	     "fallocate grow, collapse-range and zero-range on a shown SHRINK-sealed file",
	     ACCEPTED)
{
	int fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	struct wl_buffer *buf;

	if (fd < 0)
		return;
	att_show_fd(a, fd, ATT_SIZE, 0, 1, &buf);
	if (wl_display_get_error(a->display))
		goto out;
	att_note(o, "fallocate grow: %s",
	     fallocate(fd, 0, 0, 4 * ATT_SIZE) < 0 ? strerror(errno) : "ok");
	att_keep_presenting(a, buf, 1);
	att_note(o, "collapse range: %s",
	     fallocate(fd, FALLOC_FL_COLLAPSE_RANGE, 0, 4096) < 0 ?
		     strerror(errno) : "DONE (file shrank!)");
	att_note(o, "zero range: %s",
	     fallocate(fd, FALLOC_FL_ZERO_RANGE, 0, ATT_SIZE) < 0 ?
		     strerror(errno) : "ok");
	att_keep_presenting(a, buf, 2);
out:
	close(fd);
}

/* --- well-formed but unusual ------------------------------------------------------------ */

ATT_SCENARIO(run_write_sealed_immutable, "write-sealed-immutable",
	     "SHRINK|GROW|WRITE|SEAL: an immutable buffer, must be shown (and pwrite must fail)",
	     ACCEPTED)
{
	int fd = att_memfd(ATT_SIZE, MFD_ALLOW_SEALING,
			   F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
	struct wl_buffer *buf;

	if (fd < 0) {
		att_fail_setup(o, "memfd: %s", strerror(errno));
		return;
	}
	att_show_fd(a, fd, ATT_SIZE, 0, 3, &buf);
	if (!wl_display_get_error(a->display) && pwrite(fd, "x", 1, 0) == 1)
		att_fail_setup(o, "pwrite into a SEAL_WRITE memfd succeeded");
	close(fd);
}

/* Keep writing the pixels while the compositor shows them: tearing is
 * allowed, a crash is not. */
static void scribble(struct attack *a, struct outcome *o, int seals)
{
	int fd = att_memfd(ATT_SIZE, MFD_ALLOW_SEALING, 0);
	uint32_t *px;
	struct wl_buffer *buf;

	if (fd < 0) {
		att_fail_setup(o, "memfd: %s", strerror(errno));
		return;
	}
	px = mmap(NULL, ATT_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (px == MAP_FAILED || fcntl(fd, F_ADD_SEALS, seals) < 0) {
		att_fail_setup(o, "map/seal: %s", strerror(errno));
		close(fd);
		return;
	}
	att_show_fd(a, fd, ATT_SIZE, 0, 1, &buf);
	for (int f = 0; f < 5 && !wl_display_get_error(a->display); f++) {
		wl_surface_attach(a->surface, buf, 0, 0);
		wl_surface_damage(a->surface, 0, 0, ATT_W, ATT_H);
		wl_surface_commit(a->surface);
		wl_display_flush(a->display);
		for (int i = 0; i < ATT_W * ATT_H * 8; i++)
			px[i % (ATT_W * ATT_H)] = 0xff000000u | (uint32_t)(i * 2654435761u);
		att_keep_presenting(a, buf, 1);
	}
	munmap(px, ATT_SIZE);
	close(fd);
}

ATT_SCENARIO(run_write_after_attach, "write-after-attach",
	     "keep writing the pixels of a shown SHRINK-sealed buffer: tearing allowed, no crash",
	     ACCEPTED)
{
	scribble(a, o, F_SEAL_SHRINK | F_SEAL_GROW);
}

/* FUTURE_WRITE: no new writable mappings, but ours stays writable. A
 * compositor that treats it as immutable must still not crash. */
ATT_SCENARIO(run_future_write_sealed, "future-write-sealed",
	     "SHRINK|FUTURE_WRITE with the client's writable mapping still alive and writing",
	     ACCEPTED)
{
	scribble(a, o, F_SEAL_SHRINK | F_SEAL_FUTURE_WRITE);
}

/* --- the seed ABI (patched kernel only) ---------------------------------------------- */

static int seed_memfd(struct outcome *o, int seed_seals)
{
	int fd;

	if (!wlseal_seed_abi_available()) {
		o->result = RES_SKIPPED;
		att_note(o, "kernel lacks the seed ABI (memfd_create_sized/SHMEM_SET_SEALS)");
		return -1;
	}
	fd = wlseal_memfd_create_sized("wlseal-attack", ATT_SIZE, MFD_CLOEXEC);
	if (fd < 0 || att_fill(fd, 0, ATT_SIZE, 0xff4080ff) ||
	    fcntl(fd, SHMEM_SET_SEALS, seed_seals) < 0) {
		att_fail_setup(o, "seed memfd: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

ATT_SCENARIO(run_seed_sealed_pool, "seed-sealed-pool",
	     "seed ABI: memfd_create_sized + SHMEM_SET_SEALS(SHRINK), seen through F_GET_SEALS (patched kernel)",
	     ACCEPTED)
{
	int fd = seed_memfd(o, SHMEM_SEAL_SHRINK);

	if (fd >= 0) {
		att_show_fd(a, fd, ATT_SIZE, 0, 2, NULL);
		close(fd);
	}
}

ATT_SCENARIO(run_seed_grow_only, "seed-grow-only",
	     "seed ABI: SHMEM_SET_SEALS(GROW) only (patched kernel)",
	     POOL_REFUSED(MSG_NO_SHRINK))
{
	int fd = seed_memfd(o, SHMEM_SEAL_GROW);

	if (fd >= 0) {
		att_show_fd(a, fd, ATT_SIZE, 0, 2, NULL);
		close(fd);
	}
}

/*
 * SHMEM_SET_SEALS(0) must fail, SHRINK stay, ftruncate stay EPERM (all
 * asserted), and buf keep being shown; were the unseal to succeed, the
 * truncate that follows shows what that would mean.
 */
static void unseal_must_fail(struct attack *a, struct outcome *o, int fd,
			     struct wl_buffer *buf, const char *when)
{
	int seals;

	if (fcntl(fd, SHMEM_SET_SEALS, 0) == 0) {
		att_fail_setup(o, "SHMEM_SET_SEALS(0) succeeded %s", when);
		if (ftruncate(fd, 0) == 0)
			att_keep_presenting(a, buf, 2);
		return;
	}
	att_note(o, "SHMEM_SET_SEALS(0) %s: %s", when, strerror(errno));
	seals = fcntl(fd, SHMEM_GET_SEALS);
	if (!(seals & SHMEM_SEAL_SHRINK)) {
		att_fail_setup(o, "SHMEM_GET_SEALS lost SHRINK (0x%x)", seals);
		return;
	}
	if (ftruncate(fd, 0) == 0 || errno != EPERM) {
		att_fail_setup(o, "ftruncate after the failed unseal was not EPERM");
		return;
	}
	att_keep_presenting(a, buf, 2);
}

/*
 * The seed let the only holder of a file change its seals. While the
 * compositor holds the pool (its fd and mapping are references) removing
 * SHRINK must fail, or the classic truncate attack is back.
 */
ATT_SCENARIO(run_seed_unseal_while_held, "seed-unseal-while-held",
	     "seed ABI: SHMEM_SET_SEALS(0) while the compositor holds the pool must fail (asserted)",
	     ACCEPTED)
{
	int fd = seed_memfd(o, SHMEM_SEAL_SHRINK);
	struct wl_buffer *buf;

	if (fd < 0)
		return;
	att_show_fd(a, fd, ATT_SIZE, 0, 1, &buf);
	if (!wl_display_get_error(a->display))
		unseal_must_fail(a, o, fd, buf, "while the compositor holds the pool");
	close(fd);
}

/*
 * The compositor closes a pool's fd when the wl_shm_pool resource goes
 * (only resize needed it). A buffer keeps the mapping, and the mapping
 * alone must keep the seed ABI from lifting SHRINK: with the pool
 * destroyed, the client holds the only fd, yet SHMEM_SET_SEALS(0) must
 * still fail and ftruncate stay EPERM (both asserted).
 */
ATT_SCENARIO(run_seed_unseal_after_pool_destroy, "seed-unseal-after-pool-destroy",
	     "seed ABI: pool destroyed (compositor's fd closed), buffer still shown: SHMEM_SET_SEALS(0) must fail on the mapping alone (asserted)",
	     ACCEPTED)
{
	int fd = seed_memfd(o, SHMEM_SEAL_SHRINK);
	struct wl_shm_pool *pool;
	struct wl_buffer *buf;

	if (fd < 0)
		return;
	pool = att_show_fd(a, fd, ATT_SIZE, 0, 1, &buf);
	if (!wl_display_get_error(a->display)) {
		wl_shm_pool_destroy(pool);
		if (att_roundtrip(a) == 0)
			unseal_must_fail(a, o, fd, buf,
					 "with only the compositor's mapping left");
	}
	close(fd);
}

/*
 * The window between sending the fd and the compositor's check: the fd
 * is in flight in the socket (a reference the kernel counts) and then in
 * the compositor's hands. Unsealing must fail throughout; the compositor
 * re-reads the seals after mmap in case a kernel ever gets this wrong.
 */
ATT_SCENARIO(run_seed_unseal_in_flight, "seed-unseal-in-flight",
	     "seed ABI: SHMEM_SET_SEALS(0) tried while create_pool's fd is in flight and right after (must fail every time, asserted)",
	     ACCEPTED)
{
	int fd = seed_memfd(o, SHMEM_SEAL_SHRINK);
	struct wl_shm_pool *pool;
	struct wl_buffer *buf;
	int tries = 0;

	if (fd < 0)
		return;
	if (att_window(a) != 0)
		goto out;
	pool = wl_shm_create_pool(a->shm, fd, ATT_SIZE);
	buf = wl_shm_pool_create_buffer(pool, 0, ATT_W, ATT_H, ATT_STRIDE, XRGB);
	wl_display_flush(a->display);
	for (; tries < 1000; tries++)
		if (fcntl(fd, SHMEM_SET_SEALS, 0) == 0) {
			att_fail_setup(o, "SHMEM_SET_SEALS(0) succeeded with the fd in flight (try %d)",
				       tries);
			goto out;
		}
	att_note(o, "%d unseal attempts around create_pool failed: %s", tries,
		 strerror(errno));
	att_keep_presenting(a, buf, 2);
out:
	close(fd);
}
