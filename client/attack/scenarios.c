/* SPDX-License-Identifier: MIT */
/*
 * scenarios.c - the attacks of wlseal-attack. Each one sends its requests,
 * makes the compositor read the pixels where the compositor let it get that
 * far (a mapped surface, a commit, a frame callback), and returns; main()
 * then decides the outcome with a round-trip (att_conclude). A scenario sets
 * the outcome itself only when it must: skipped, error, or a self-inflicted
 * disconnect judged by a probe.
 *
 * The expectation next to each scenario is what wlseal's secure policy must
 * do (design.md, "Compositor: seal policy first"): refuse every pool whose
 * file lacks F_SEAL_SHRINK or is smaller than the pool with
 * wl_shm.error.invalid_fd, refuse every buffer whose parameters overflow,
 * and otherwise accept and keep presenting frames.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "attack.h"
#include "wlseal-seals.h"

/* Fragments of wlseal's refusal messages the tests insist on. */
#define MSG_NO_SHRINK "SEAL_SHRINK"
#define MSG_NOT_SEALABLE "seal"
#define MSG_TOO_SMALL "smaller"

#define SHM_ERR(code_, iface_, msg_) \
	{ RES_REFUSED, (code_), (iface_), (msg_) }
#define POOL_REFUSED(msg_) SHM_ERR(WL_SHM_ERROR_INVALID_FD, "wl_shm", msg_)
#define BAD_BUFFER SHM_ERR(WL_SHM_ERROR_INVALID_STRIDE, "wl_shm_pool", NULL)
#define ACCEPTED { RES_ACCEPTED, -1, NULL, NULL }
#define SURVIVES { RES_SURVIVES, -1, NULL, NULL }
#define EXT_REFUSED(reason_, msg_) \
	{ RES_POLICY_REFUSED, WLSEAL_SHM_POOL_REQUEST_V1_REASON_##reason_, \
	  "wlseal_shm_pool_request_v1", (msg_) }

/* --- common steps ------------------------------------------------------------ */

/*
 * Create a pool of pool_size bytes on fd, a 64x64 XRGB8888 buffer at offset,
 * show it for `frames` frames. Stops at the first failure; the caller's fd
 * stays open (some attacks keep working on it).
 */
static struct wl_shm_pool *show_fd(struct attack *a, int fd, int32_t pool_size,
				   int32_t offset, int frames,
				   struct wl_buffer **out)
{
	struct wl_shm_pool *pool = wl_shm_create_pool(a->shm, fd, pool_size);
	struct wl_buffer *buf;

	if (out)
		*out = NULL;
	/* Let the pool be judged on its own before any buffer exists. */
	if (att_roundtrip(a) != 0)
		return pool;
	buf = wl_shm_pool_create_buffer(pool, offset, ATT_W, ATT_H, ATT_STRIDE,
					WL_SHM_FORMAT_XRGB8888);
	if (out)
		*out = buf;
	if (att_window(a) != 0)
		return pool;
	for (int i = 0; i < frames; i++)
		if (att_present(a, buf, ATT_W, ATT_H) < 0)
			break;
	return pool;
}

/* Present buf n more times (each time the compositor reads it again). */
static void keep_presenting(struct attack *a, struct wl_buffer *buf, int n)
{
	for (int i = 0; i < n && buf; i++)
		if (att_present(a, buf, ATT_W, ATT_H) < 0)
			break;
}

static void show_and_close(struct attack *a, struct outcome *o, int fd)
{
	if (fd < 0) {
		fail_setup(o, "cannot create the file: %s", strerror(errno));
		return;
	}
	show_fd(a, fd, ATT_SIZE, 0, 2, NULL);
	close(fd);
}

/* Reopen our own fd through /proc with other flags: a new open file
 * description of the same inode. */
static int reopen(int fd, int flags)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return open(path, flags | O_CLOEXEC);
}

/* --- pools on files without F_SEAL_SHRINK --------------------------------------- */

static void run_unsealed_memfd(struct attack *a, struct outcome *o)
{
	show_and_close(a, o, att_memfd(ATT_SIZE, MFD_ALLOW_SEALING, 0));
}

static void run_memfd_no_sealing(struct attack *a, struct outcome *o)
{
	show_and_close(a, o, att_memfd(ATT_SIZE, 0, 0));
}

static void run_sealed_grow_only(struct attack *a, struct outcome *o)
{
	show_and_close(a, o, att_memfd(ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_GROW));
}

static void run_sealed_write_only(struct attack *a, struct outcome *o)
{
	show_and_close(a, o, att_memfd(ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_WRITE));
}

static void run_sealed_seal_only(struct attack *a, struct outcome *o)
{
	show_and_close(a, o, att_memfd(ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SEAL));
}

static void run_sealed_future_write_only(struct attack *a, struct outcome *o)
{
	show_and_close(a, o, att_memfd(ATT_SIZE, MFD_ALLOW_SEALING,
				       F_SEAL_FUTURE_WRITE));
}

/* A named file: in /dev/shm (tmpfs, what shm_open() gives) or on disk. */
static int named_file(const char *dir, struct outcome *o)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/wlseal-attack-XXXXXX", dir);
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0)
		return -1;
	unlink(path);
	if (ftruncate(fd, ATT_SIZE) < 0 || att_fill(fd, 0, ATT_SIZE, 0xff808080)) {
		close(fd);
		return -1;
	}
	note(o, "file in %s", dir);
	return fd;
}

static void run_dev_shm_file(struct attack *a, struct outcome *o)
{
	const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" :
			  getenv("XDG_RUNTIME_DIR");

	show_and_close(a, o, dir ? named_file(dir, o) : -1);
}

static void run_regular_file(struct attack *a, struct outcome *o)
{
	const char *dir = access("/var/tmp", W_OK) == 0 ? "/var/tmp" : "/tmp";

	show_and_close(a, o, named_file(dir, o));
}

/* --- fds that are no shared-memory file at all ------------------------------- */

static void run_pipe_fd(struct attack *a, struct outcome *o)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC) < 0) {
		fail_setup(o, "pipe: %s", strerror(errno));
		return;
	}
	show_and_close(a, o, p[0]);
	close(p[1]);
}

static void run_socket_fd(struct attack *a, struct outcome *o)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
		fail_setup(o, "socketpair: %s", strerror(errno));
		return;
	}
	show_and_close(a, o, sv[0]);
	close(sv[1]);
}

static void run_eventfd_fd(struct attack *a, struct outcome *o)
{
	show_and_close(a, o, eventfd(0, EFD_CLOEXEC));
}

static void run_dev_zero_fd(struct attack *a, struct outcome *o)
{
	show_and_close(a, o, open("/dev/zero", O_RDWR | O_CLOEXEC));
}

static void run_directory_fd(struct attack *a, struct outcome *o)
{
	show_and_close(a, o, open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
}

/* A properly sealed memfd, reopened with @flags and passed instead. */
static void show_reopened(struct attack *a, struct outcome *o, int flags)
{
	int fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);

	if (fd < 0)
		return;
	show_and_close(a, o, reopen(fd, flags));
	close(fd);
}

/* O_PATH names the file but allows neither fcntl(F_GET_SEALS) nor mmap. */
static void run_opath_fd(struct attack *a, struct outcome *o)
{
	show_reopened(a, o, O_PATH);
}

/* Write-only: the seal check passes, a PROT_READ mapping must fail
 * (EACCES) and be handled. */
static void run_write_only_fd(struct attack *a, struct outcome *o)
{
	show_reopened(a, o, O_WRONLY);
}

/* Sealed and read-only: all a PROT_READ compositor needs. */
static void run_read_only_fd(struct attack *a, struct outcome *o)
{
	show_reopened(a, o, O_RDONLY);
}

/* --- sizes: the pool promises more than the file holds -------------------------- */

static void run_empty_file(struct attack *a, struct outcome *o)
{
	int fd = memfd_create("wlseal-attack", MFD_CLOEXEC | MFD_ALLOW_SEALING);

	if (fd < 0 || fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK) < 0) {
		fail_setup(o, "memfd: %s", strerror(errno));
		return;
	}
	show_and_close(a, o, fd);
}

#define MIB (1024 * 1024)
#define XRGB WL_SHM_FORMAT_XRGB8888

static void run_pool_larger_than_file(struct attack *a, struct outcome *o)
{
	/* One sealed page; a 1 MiB pool; the buffer at the far end, where
	 * every read is past the end of the file: SIGBUS without a check. */
	int fd = att_memfd_or_fail(o, 4096, MFD_ALLOW_SEALING, F_SEAL_SHRINK);

	if (fd < 0)
		return;
	show_fd(a, fd, MIB, MIB - ATT_SIZE, 2, NULL);
	close(fd);
}

static void run_resize_past_file(struct attack *a, struct outcome *o)
{
	int fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	struct wl_shm_pool *pool;
	struct wl_buffer *buf;

	if (fd < 0)
		return;
	pool = show_fd(a, fd, ATT_SIZE, 0, 1, NULL);
	if (wl_display_get_error(a->display))
		goto out;
	wl_shm_pool_resize(pool, MIB);
	if (att_roundtrip(a) != 0)
		goto out;
	buf = wl_shm_pool_create_buffer(pool, MIB - ATT_SIZE, ATT_W, ATT_H,
					ATT_STRIDE, WL_SHM_FORMAT_XRGB8888);
	keep_presenting(a, buf, 2);
out:
	close(fd);
}

static void run_resize_shrink(struct attack *a, struct outcome *o)
{
	int fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	struct wl_shm_pool *pool;
	struct wl_buffer *buf;

	if (fd < 0)
		return;
	pool = show_fd(a, fd, ATT_SIZE, 0, 1, &buf);
	if (!wl_display_get_error(a->display)) {
		wl_shm_pool_resize(pool, 4096);
		keep_presenting(a, buf, 2);
	}
	close(fd);
}

/* Grow the file, then the pool, while a buffer of the old mapping is on
 * screen: a compositor that remaps the pool under its renderer reads
 * unmapped memory (Smithay #1473; libwayland defers the remap). */
static void run_resize_while_attached(struct attack *a, struct outcome *o)
{
	int fd = att_memfd(ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	struct wl_shm_pool *pool;
	struct wl_buffer *b1, *b2;

	if (fd < 0) {
		fail_setup(o, "memfd: %s", strerror(errno));
		return;
	}
	pool = show_fd(a, fd, ATT_SIZE, 0, 1, &b1);
	if (wl_display_get_error(a->display))
		goto out;
	for (int32_t size = 2 * ATT_SIZE; size <= 64 * ATT_SIZE; size *= 2) {
		if (ftruncate(fd, size) < 0 ||
		    att_fill(fd, (size_t)size / 2, (size_t)size / 2, 0xff00ff00)) {
			fail_setup(o, "growing the file: %s", strerror(errno));
			goto out;
		}
		wl_shm_pool_resize(pool, size);
		b2 = wl_shm_pool_create_buffer(pool, size - ATT_SIZE, ATT_W, ATT_H,
					       ATT_STRIDE, WL_SHM_FORMAT_XRGB8888);
		keep_presenting(a, b1, 1);
		keep_presenting(a, b2, 1);
		if (wl_display_get_error(a->display))
			break;
	}
out:
	close(fd);
}

static void pool_of_size(struct attack *a, struct outcome *o, int32_t size)
{
	int fd = att_memfd(ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);

	if (fd < 0) {
		fail_setup(o, "memfd: %s", strerror(errno));
		return;
	}
	show_fd(a, fd, size, 0, 1, NULL);
	close(fd);
}

static void run_pool_size_zero(struct attack *a, struct outcome *o)
{
	pool_of_size(a, o, 0);
}

static void run_pool_size_negative(struct attack *a, struct outcome *o)
{
	pool_of_size(a, o, -ATT_SIZE);
}

/* A sparse 2 GiB - 1 file, sealed, and a pool of exactly that size: legal,
 * and every size computation near INT32_MAX must hold. */
static void run_pool_size_int32_max(struct attack *a, struct outcome *o)
{
	int fd = memfd_create("wlseal-attack", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	int32_t off = (INT32_MAX - ATT_SIZE) & ~4095;

	if (fd < 0 || ftruncate(fd, INT32_MAX) < 0 ||
	    att_fill(fd, (size_t)off, ATT_SIZE, 0xffc0c000) ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK) < 0) {
		fail_setup(o, "sparse memfd: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	show_fd(a, fd, INT32_MAX, off, 2, NULL);
	close(fd);
}

/* A SHRINK-sealed hugetlbfs memfd: sealable since Linux 4.16, but its pages
 * come from the huge page pool, which may be empty (mmap or fault fails). */
static void run_hugetlb_memfd(struct attack *a, struct outcome *o)
{
	const size_t huge = 2 * 1024 * 1024;
	int fd = memfd_create("wlseal-attack", MFD_CLOEXEC | MFD_ALLOW_SEALING |
						       MFD_HUGETLB);

	if (fd < 0) {
		o->result = RES_SKIPPED;
		note(o, "memfd_create(MFD_HUGETLB): %s", strerror(errno));
		return;
	}
	if (ftruncate(fd, (off_t)huge) < 0 ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK) < 0) {
		fail_setup(o, "hugetlb memfd: %s", strerror(errno));
		close(fd);
		return;
	}
	show_fd(a, fd, ATT_SIZE, 0, 2, NULL);
	close(fd);
}

/* A sealed sparse 8192x8192 buffer (256 MiB of pool) on a small output: a
 * damage-tracked compositor reads only what it shows; one that copies or
 * converts whole buffers allocates (and faults in) all of it. */
static void run_huge_buffer(struct attack *a, struct outcome *o)
{
	const int32_t side = 8192, stride = side * 4;
	int fd = memfd_create("wlseal-attack", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	struct wl_shm_pool *pool;
	struct wl_buffer *buf;

	if (fd < 0 || ftruncate(fd, (off_t)stride * side) < 0 ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW) < 0) {
		fail_setup(o, "sparse memfd: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	pool = wl_shm_create_pool(a->shm, fd, stride * side);
	close(fd);
	buf = wl_shm_pool_create_buffer(pool, 0, side, side, stride, XRGB);
	if (att_roundtrip(a) != 0 || att_window(a) != 0)
		return;
	for (int i = 0; i < 2; i++)
		if (att_present(a, buf, side, side) < 0)
			break;
}

/* --- changing the file under a compositor that holds it ---------------------------- */

/* The seal makes the kernel refuse the shrink: assert it, keep showing. */
static void run_truncate_after_attach(struct attack *a, struct outcome *o)
{
	int fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	struct wl_buffer *buf;
	int fd2;

	if (fd < 0)
		return;
	show_fd(a, fd, ATT_SIZE, 0, 1, &buf);
	if (wl_display_get_error(a->display))
		goto out;
	if (ftruncate(fd, 0) == 0 || errno != EPERM) {
		fail_setup(o, "ftruncate of a SEAL_SHRINK memfd gave %s, want EPERM",
			   errno ? strerror(errno) : "success");
		goto out;
	}
	fd2 = reopen(fd, O_RDWR);
	if (fd2 >= 0 && (ftruncate(fd2, 0) == 0 || errno != EPERM)) {
		fail_setup(o, "ftruncate through a /proc reopen was not EPERM");
		close(fd2);
		goto out;
	}
	if (fd2 >= 0)
		close(fd2);
	note(o, "ftruncate: EPERM (also through /proc/self/fd reopen)");
	keep_presenting(a, buf, 3);
out:
	close(fd);
}

/*
 * The classic SIGBUS attack: an unsealed memfd, shown once, then truncated
 * to nothing, then committed again so the compositor reads pages that no
 * longer exist. The truncate happens before the commit that triggers the
 * read, so the outcome does not depend on timing.
 */
static void run_truncate_unsealed(struct attack *a, struct outcome *o)
{
	int fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, 0);
	struct wl_buffer *buf;

	if (fd < 0)
		return;
	show_fd(a, fd, ATT_SIZE, 0, 1, &buf);
	if (wl_display_get_error(a->display))
		goto out;
	if (ftruncate(fd, 0) < 0) {
		fail_setup(o, "ftruncate: %s", strerror(errno));
		goto out;
	}
	keep_presenting(a, buf, 3);
out:
	close(fd);
}

/* The same, truncated before the compositor has seen a single pixel. */
static void run_truncate_before_commit(struct attack *a, struct outcome *o)
{
	int fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, 0);
	struct wl_shm_pool *pool;
	struct wl_buffer *buf;

	if (fd < 0)
		return;
	pool = show_fd(a, fd, ATT_SIZE, 0, 0, NULL);
	if (wl_display_get_error(a->display))
		goto out;
	buf = wl_shm_pool_create_buffer(pool, 0, ATT_W, ATT_H, ATT_STRIDE,
					WL_SHM_FORMAT_XRGB8888);
	if (ftruncate(fd, 0) < 0) {
		fail_setup(o, "ftruncate: %s", strerror(errno));
		goto out;
	}
	keep_presenting(a, buf, 3);
out:
	close(fd);
}

static void run_punch_hole(struct attack *a, struct outcome *o)
{
	int fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	struct wl_buffer *buf;

	if (fd < 0)
		return;
	show_fd(a, fd, ATT_SIZE, 0, 1, &buf);
	if (wl_display_get_error(a->display))
		goto out;
	/* SEAL_SHRINK keeps the size; holes read back as zeros, no SIGBUS. */
	if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0,
		      ATT_SIZE) < 0)
		note(o, "punch hole: %s", strerror(errno));
	else
		note(o, "punch hole: done, size kept");
	keep_presenting(a, buf, 3);
out:
	close(fd);
}

static void run_fallocate(struct attack *a, struct outcome *o)
{
	int fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	struct wl_buffer *buf;

	if (fd < 0)
		return;
	show_fd(a, fd, ATT_SIZE, 0, 1, &buf);
	if (wl_display_get_error(a->display))
		goto out;
	note(o, "fallocate grow: %s",
	     fallocate(fd, 0, 0, 4 * ATT_SIZE) < 0 ? strerror(errno) : "ok");
	keep_presenting(a, buf, 1);
	note(o, "collapse range: %s",
	     fallocate(fd, FALLOC_FL_COLLAPSE_RANGE, 0, 4096) < 0 ?
		     strerror(errno) : "DONE (file shrank!)");
	note(o, "zero range: %s",
	     fallocate(fd, FALLOC_FL_ZERO_RANGE, 0, ATT_SIZE) < 0 ?
		     strerror(errno) : "ok");
	keep_presenting(a, buf, 2);
out:
	close(fd);
}

/* --- the seed ABI (patched kernel only) ---------------------------------------------- */

static int seed_memfd(struct outcome *o, int seed_seals)
{
	int fd;

	if (!wlseal_seed_abi_available()) {
		o->result = RES_SKIPPED;
		note(o, "kernel lacks the seed ABI (memfd_create_sized/SHMEM_SET_SEALS)");
		return -1;
	}
	fd = wlseal_memfd_create_sized("wlseal-attack", ATT_SIZE, MFD_CLOEXEC);
	if (fd < 0 || att_fill(fd, 0, ATT_SIZE, 0xff4080ff) ||
	    fcntl(fd, SHMEM_SET_SEALS, seed_seals) < 0) {
		fail_setup(o, "seed memfd: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

static void run_seed_sealed_pool(struct attack *a, struct outcome *o)
{
	int fd = seed_memfd(o, SHMEM_SEAL_SHRINK);

	if (fd >= 0) {
		show_fd(a, fd, ATT_SIZE, 0, 2, NULL);
		close(fd);
	}
}

static void run_seed_grow_only(struct attack *a, struct outcome *o)
{
	int fd = seed_memfd(o, SHMEM_SEAL_GROW);

	if (fd >= 0) {
		show_fd(a, fd, ATT_SIZE, 0, 2, NULL);
		close(fd);
	}
}

/*
 * The seed let the only holder of a file change its seals. While the
 * compositor holds the pool (its fd and mapping are references) removing
 * SHRINK must fail, or the classic truncate attack is back.
 */
static void run_seed_unseal_while_held(struct attack *a, struct outcome *o)
{
	int fd = seed_memfd(o, SHMEM_SEAL_SHRINK);
	struct wl_buffer *buf;
	int seals;

	if (fd < 0)
		return;
	show_fd(a, fd, ATT_SIZE, 0, 1, &buf);
	if (wl_display_get_error(a->display))
		goto out;
	if (fcntl(fd, SHMEM_SET_SEALS, 0) == 0) {
		fail_setup(o, "SHMEM_SET_SEALS(0) succeeded while the compositor holds the pool");
		/* Show what that would mean. */
		if (ftruncate(fd, 0) == 0)
			keep_presenting(a, buf, 2);
		goto out;
	}
	note(o, "SHMEM_SET_SEALS(0): %s", strerror(errno));
	seals = fcntl(fd, SHMEM_GET_SEALS);
	if (!(seals & SHMEM_SEAL_SHRINK)) {
		fail_setup(o, "SHMEM_GET_SEALS lost SHRINK (0x%x)", seals);
		goto out;
	}
	if (ftruncate(fd, 0) == 0 || errno != EPERM) {
		fail_setup(o, "ftruncate after failed unseal was not EPERM");
		goto out;
	}
	keep_presenting(a, buf, 2);
out:
	close(fd);
}

/* --- buffer parameters ---------------------------------------------------------------- */

static void bad_buffer(struct attack *a, struct outcome *o, int32_t offset,
		       int32_t w, int32_t h, int32_t stride, uint32_t format)
{
	int fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	struct wl_shm_pool *pool;
	struct wl_buffer *buf;

	if (fd < 0)
		return;
	pool = wl_shm_create_pool(a->shm, fd, ATT_SIZE);
	close(fd);
	buf = wl_shm_pool_create_buffer(pool, offset, w, h, stride, format);
	if (att_roundtrip(a) != 0 || att_window(a) != 0)
		return;
	/* Accepted: make the compositor composite it. */
	for (int i = 0; i < 2; i++)
		if (att_present(a, buf, w > 0 && w < 4096 ? w : 64,
				h > 0 && h < 4096 ? h : 64) < 0)
			break;
}

#define BUFFER_CASE(fn, off, w, h, stride, fmt)                            \
	static void fn(struct attack *a, struct outcome *o)                 \
	{                                                                   \
		bad_buffer(a, o, (off), (w), (h), (stride), (fmt));         \
	}

BUFFER_CASE(run_buf_offset_negative, -4, ATT_W, ATT_H, ATT_STRIDE, XRGB)
BUFFER_CASE(run_buf_offset_int32_max, INT32_MAX, ATT_W, ATT_H, ATT_STRIDE, XRGB)
BUFFER_CASE(run_buf_offset_int32_min, INT32_MIN, ATT_W, ATT_H, ATT_STRIDE, XRGB)
BUFFER_CASE(run_buf_offset_past_end, ATT_STRIDE, ATT_W, ATT_H, ATT_STRIDE, XRGB)
BUFFER_CASE(run_buf_offset_overflow, INT32_MAX - 64, ATT_W, ATT_H, ATT_STRIDE, XRGB)
BUFFER_CASE(run_buf_offset_unaligned, 2, ATT_W, ATT_H - 1, ATT_STRIDE, XRGB)
BUFFER_CASE(run_buf_width_zero, 0, 0, ATT_H, ATT_STRIDE, XRGB)
BUFFER_CASE(run_buf_width_negative, 0, -ATT_W, ATT_H, ATT_STRIDE, XRGB)
BUFFER_CASE(run_buf_width_int32_max, 0, INT32_MAX, 1, ATT_STRIDE, XRGB)
/* width * 4 wraps to 64 in 32 bits: passes a stride >= width * bpp test
 * computed in 32-bit arithmetic. */
BUFFER_CASE(run_buf_width_bpp_overflow, 0, 0x40000010, 1, ATT_STRIDE, XRGB)
BUFFER_CASE(run_buf_height_zero, 0, ATT_W, 0, ATT_STRIDE, XRGB)
BUFFER_CASE(run_buf_height_negative, 0, ATT_W, -ATT_H, ATT_STRIDE, XRGB)
BUFFER_CASE(run_buf_height_int32_max, 0, ATT_W, INT32_MAX, ATT_STRIDE, XRGB)
BUFFER_CASE(run_buf_stride_zero, 0, ATT_W, ATT_H, 0, XRGB)
BUFFER_CASE(run_buf_stride_negative, 0, ATT_W, ATT_H, -ATT_STRIDE, XRGB)
BUFFER_CASE(run_buf_stride_int32_max, 0, ATT_W, ATT_H, INT32_MAX, XRGB)
BUFFER_CASE(run_buf_stride_int32_min, 0, ATT_W, ATT_H, INT32_MIN, XRGB)
/* stride >= width but < width * 4, placed so the last row's pixels run
 * past the end of the pool: libwayland only checks stride >= width. */
BUFFER_CASE(run_buf_stride_below_row, ATT_SIZE / 2, ATT_W, ATT_H, ATT_STRIDE / 2, XRGB)
/* stride * height wraps to 256 in 32 bits. */
BUFFER_CASE(run_buf_size_overflow, 0, ATT_W, 0x01000001, ATT_STRIDE, XRGB)
BUFFER_CASE(run_buf_stride_unaligned, 0, 15, 16, 61, XRGB)
BUFFER_CASE(run_unsupported_format, 0, ATT_W, ATT_H, ATT_STRIDE, 0xdeadbeef)
BUFFER_CASE(run_format_nv12, 0, ATT_W, ATT_H, ATT_W, WL_SHM_FORMAT_NV12)

/* --- volume ------------------------------------------------------------------------------- */

static void run_many_pools(struct attack *a, struct outcome *o)
{
	struct wl_shm_pool *last = NULL;
	struct rlimit rl;
	int n = 0;

	/* libwayland-client dups each fd until it is sent; make sure our own
	 * fd limit is not what stops us. */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	for (; n < 2000; n++) {
		int fd = att_memfd(4096, MFD_ALLOW_SEALING, F_SEAL_SHRINK);

		if (fd < 0) {
			fail_setup(o, "memfd %d: %s", n, strerror(errno));
			return;
		}
		last = wl_shm_create_pool(a->shm, fd, 4096);
		close(fd);
		/* Send in batches so the socket's fd queue never overflows. */
		if (n % 100 == 99 && att_roundtrip(a) != 0)
			break;
	}
	note(o, "%d pools sent", n);
	if (wl_display_get_error(a->display) || att_window(a) != 0)
		return;
	keep_presenting(a, wl_shm_pool_create_buffer(last, 0, 32, 32, 128,
						     XRGB), 1);
}

static void run_many_buffers(struct attack *a, struct outcome *o)
{
	int fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	struct wl_shm_pool *pool;
	struct wl_buffer *buf = NULL;
	int n;

	if (fd < 0)
		return;
	pool = wl_shm_create_pool(a->shm, fd, ATT_SIZE);
	close(fd);
	for (n = 0; n < 20000; n++) {
		buf = wl_shm_pool_create_buffer(pool, 0, ATT_W, ATT_H,
						ATT_STRIDE, XRGB);
		if (n % 1000 == 999 && att_roundtrip(a) != 0)
			break;
	}
	note(o, "%d buffers on one pool", n);
	if (wl_display_get_error(a->display) || att_window(a) != 0)
		return;
	keep_presenting(a, buf, 1);
}

/* --- object lifetimes ------------------------------------------------------------------ */

/* Buffers keep their pool's memory alive after wl_shm_pool.destroy
 * (Mir #2643/#2645: clients create, commit and destroy right away). */
static void run_destroy_pool_while_attached(struct attack *a, struct outcome *o)
{
	int fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	struct wl_shm_pool *pool;
	struct wl_buffer *buf;

	if (fd < 0)
		return;
	pool = show_fd(a, fd, ATT_SIZE, 0, 1, &buf);
	close(fd);
	if (wl_display_get_error(a->display))
		return;
	wl_shm_pool_destroy(pool);
	keep_presenting(a, buf, 3);
}

static void run_destroy_buffer_while_attached(struct attack *a, struct outcome *o)
{
	int fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	struct wl_shm_pool *pool;
	struct wl_buffer *buf;

	if (fd < 0)
		return;
	pool = show_fd(a, fd, ATT_SIZE, 0, 0, NULL);
	close(fd);
	if (wl_display_get_error(a->display))
		return;
	/* Commit, destroy buffer and pool at once, commit damage again. */
	buf = wl_shm_pool_create_buffer(pool, 0, ATT_W, ATT_H, ATT_STRIDE, XRGB);
	wl_surface_attach(a->surface, buf, 0, 0);
	wl_surface_damage(a->surface, 0, 0, ATT_W, ATT_H);
	wl_surface_commit(a->surface);
	wl_buffer_destroy(buf);
	wl_shm_pool_destroy(pool);
	for (int i = 0; i < 3; i++) {
		wl_surface_damage(a->surface, 0, 0, ATT_W, ATT_H);
		wl_surface_commit(a->surface);
		if (att_roundtrip(a) != 0)
			break;
	}
}

/* Two pools on one fd; one destroyed; the other shown. */
static void run_two_pools_one_fd(struct attack *a, struct outcome *o)
{
	int fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	struct wl_shm_pool *p1;
	struct wl_buffer *buf;

	if (fd < 0)
		return;
	p1 = wl_shm_create_pool(a->shm, fd, ATT_SIZE);
	show_fd(a, fd, ATT_SIZE, 0, 1, &buf);
	close(fd);
	wl_shm_pool_destroy(p1);
	keep_presenting(a, buf, 2);
}

/* Leave with a half-written wl_surface.commit in the socket. */
static void run_disconnect_mid_commit(struct attack *a, struct outcome *o)
{
	int fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	struct wl_buffer *buf;
	uint32_t msg[2];

	if (fd < 0)
		return;
	show_fd(a, fd, ATT_SIZE, 0, 1, &buf);
	close(fd);
	if (wl_display_get_error(a->display))
		return;
	wl_surface_attach(a->surface, buf, 0, 0);
	wl_surface_damage(a->surface, 0, 0, ATT_W, ATT_H);
	wl_display_flush(a->display);
	/* Header of wl_surface.commit (opcode 6, 8 bytes), cut in half. */
	msg[0] = wl_proxy_get_id((struct wl_proxy *)a->surface);
	msg[1] = (8u << 16) | 6u;
	if (write(att_raw_fd(a), msg, 6) != 6)
		note(o, "partial write failed: %s", strerror(errno));
	shutdown(att_raw_fd(a), SHUT_RDWR);
	o->result = att_alive(a) ? RES_ACCEPTED : RES_GONE;
	note(o, "attacker left mid-message; compositor %s",
	     o->result == RES_ACCEPTED ? "alive" : "gone");
}

/* Requests and an fd in flight, then gone before any answer. */
static void run_disconnect_pending_pool(struct attack *a, struct outcome *o)
{
	int fd = att_memfd(ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	struct wl_shm_pool *pool;
	struct wl_buffer *buf;

	if (fd < 0 || att_window(a) != 0) {
		fail_setup(o, "setup: %s", strerror(errno));
		return;
	}
	pool = wl_shm_create_pool(a->shm, fd, ATT_SIZE);
	close(fd);
	buf = wl_shm_pool_create_buffer(pool, 0, ATT_W, ATT_H, ATT_STRIDE, XRGB);
	wl_surface_attach(a->surface, buf, 0, 0);
	wl_surface_damage(a->surface, 0, 0, ATT_W, ATT_H);
	wl_surface_commit(a->surface);
	wl_display_flush(a->display);
	shutdown(att_raw_fd(a), SHUT_RDWR);
	o->result = att_alive(a) ? RES_ACCEPTED : RES_GONE;
	note(o, "attacker left with requests in flight");
}

/* --- well-formed but unusual ------------------------------------------------------------ */

static void run_write_sealed_immutable(struct attack *a, struct outcome *o)
{
	int fd = att_memfd(ATT_SIZE, MFD_ALLOW_SEALING,
			   F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
	struct wl_buffer *buf;

	if (fd < 0) {
		fail_setup(o, "memfd: %s", strerror(errno));
		return;
	}
	show_fd(a, fd, ATT_SIZE, 0, 3, &buf);
	if (!wl_display_get_error(a->display) && pwrite(fd, "x", 1, 0) == 1)
		fail_setup(o, "pwrite into a SEAL_WRITE memfd succeeded");
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
		fail_setup(o, "memfd: %s", strerror(errno));
		return;
	}
	px = mmap(NULL, ATT_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (px == MAP_FAILED || fcntl(fd, F_ADD_SEALS, seals) < 0) {
		fail_setup(o, "map/seal: %s", strerror(errno));
		close(fd);
		return;
	}
	show_fd(a, fd, ATT_SIZE, 0, 1, &buf);
	for (int f = 0; f < 5 && !wl_display_get_error(a->display); f++) {
		wl_surface_attach(a->surface, buf, 0, 0);
		wl_surface_damage(a->surface, 0, 0, ATT_W, ATT_H);
		wl_surface_commit(a->surface);
		wl_display_flush(a->display);
		for (int i = 0; i < ATT_W * ATT_H * 8; i++)
			px[i % (ATT_W * ATT_H)] = 0xff000000u | (uint32_t)(i * 2654435761u);
		keep_presenting(a, buf, 1);
	}
	munmap(px, ATT_SIZE);
	close(fd);
}

static void run_write_after_attach(struct attack *a, struct outcome *o)
{
	scribble(a, o, F_SEAL_SHRINK | F_SEAL_GROW);
}

/* FUTURE_WRITE: no new writable mappings, but ours stays writable. A
 * compositor that treats it as immutable must still not crash. */
static void run_future_write_sealed(struct attack *a, struct outcome *o)
{
	scribble(a, o, F_SEAL_SHRINK | F_SEAL_FUTURE_WRITE);
}

static void run_damage_extremes(struct attack *a, struct outcome *o)
{
	int fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	struct wl_buffer *buf;
	static const int32_t r[][4] = {
		{ INT32_MIN, INT32_MIN, INT32_MAX, INT32_MAX },
		{ INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX },
		{ -1, -1, INT32_MIN, INT32_MIN },
		{ 0, 0, INT32_MAX, 1 },
	};

	if (fd < 0)
		return;
	show_fd(a, fd, ATT_SIZE, 0, 1, &buf);
	close(fd);
	for (size_t i = 0; i < sizeof(r) / sizeof(r[0]); i++) {
		if (wl_display_get_error(a->display))
			return;
		wl_surface_attach(a->surface, buf, 0, 0);
		wl_surface_damage(a->surface, r[i][0], r[i][1], r[i][2], r[i][3]);
		if (a->compositor_version >= 4)
			wl_surface_damage_buffer(a->surface, r[i][0], r[i][1],
						 r[i][2], r[i][3]);
		wl_surface_commit(a->surface);
		keep_presenting(a, buf, 1);
	}
}

static void run_attach_offset_extremes(struct attack *a, struct outcome *o)
{
	int fd = att_memfd(ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	struct wl_buffer *buf;

	if (fd < 0) {
		fail_setup(o, "memfd: %s", strerror(errno));
		return;
	}
	show_fd(a, fd, ATT_SIZE, 0, 1, &buf);
	close(fd);
	if (wl_display_get_error(a->display))
		return;
	/* wl_surface v4 still allows an offset in attach. */
	wl_surface_attach(a->surface, buf, INT32_MAX, INT32_MIN);
	wl_surface_damage(a->surface, 0, 0, ATT_W, ATT_H);
	wl_surface_commit(a->surface);
	wl_surface_attach(a->surface, buf, INT32_MIN, INT32_MAX);
	wl_surface_commit(a->surface);
	keep_presenting(a, buf, 2);
}

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
	note(o, "the compositor offers no wlseal_shm_policy_v1");
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
		fail_setup(o, "cannot create the file: %s", strerror(errno));
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
	note(o, "refused seals=0x%x file-size=%d", x.seals, x.file_size);
	gfd = att_memfd(ATT_SIZE, MFD_ALLOW_SEALING,
			(int)a->required_seals | F_SEAL_SHRINK);
	if (gfd < 0) {
		fail_setup(o, "memfd: %s", strerror(errno));
		return;
	}
	if (ext_create_pool(a, gfd, ATT_SIZE, &good) != 0) {
		close(gfd);
		note(o, "connection lost after the refusal");
		return;
	}
	close(gfd);
	if (!good.pool) {
		fail_setup(o, "a well-sealed pool was refused after the refusal: %s",
			   good.message);
		return;
	}
	buf = wl_shm_pool_create_buffer(good.pool, 0, ATT_W, ATT_H, ATT_STRIDE,
					WL_SHM_FORMAT_XRGB8888);
	if (att_window(a) != 0 || att_present(a, buf, ATT_W, ATT_H) != 0 ||
	    att_roundtrip(a) != 0) {
		note(o, "no frame after the refusal");
		return;
	}
	note(o, "still connected: a sealed pool was created and shown after the refusal");
	o->result = RES_POLICY_REFUSED;
	o->code = (int)x.reason;
	snprintf(o->interface, sizeof(o->interface), "%s",
		 wlseal_shm_pool_request_v1_interface.name);
	snprintf(o->message, sizeof(o->message), "%s", x.message);
}

static void run_ext_missing_seal(struct attack *a, struct outcome *o)
{
	if (ext_available(a, o))
		ext_probe(a, o, att_memfd(ATT_SIZE, MFD_ALLOW_SEALING, 0), ATT_SIZE);
}

static void run_ext_file_too_small(struct attack *a, struct outcome *o)
{
	if (ext_available(a, o))
		ext_probe(a, o, att_memfd(ATT_SIZE, MFD_ALLOW_SEALING,
					  (int)a->required_seals | F_SEAL_SHRINK),
			  2 * ATT_SIZE);
}

static void run_ext_not_sealable(struct attack *a, struct outcome *o)
{
	int p[2];

	if (!ext_available(a, o))
		return;
	if (pipe2(p, O_CLOEXEC) < 0) {
		fail_setup(o, "pipe: %s", strerror(errno));
		return;
	}
	close(p[1]);
	ext_probe(a, o, p[0], ATT_SIZE);
}

static void run_ext_too_large(struct attack *a, struct outcome *o)
{
	if (!ext_available(a, o))
		return;
	/* Pool sizes are int32: a limit at INT32_MAX cannot be passed. */
	if (a->max_pool_size >= INT32_MAX) {
		o->result = RES_SKIPPED;
		note(o, "unreachable under this policy: max pool size %llu",
		     (unsigned long long)a->max_pool_size);
		return;
	}
	ext_probe(a, o, att_memfd(ATT_SIZE, MFD_ALLOW_SEALING,
				  (int)a->required_seals | F_SEAL_SHRINK),
		  (int32_t)a->max_pool_size + 1);
}

static void run_ext_unexpected_seal(struct attack *a, struct outcome *o)
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
		note(o, "unreachable under this policy: every seal accepted (0x%x)",
		     a->accepted_seals);
		return;
	}
	ext_probe(a, o, att_memfd(ATT_SIZE, MFD_ALLOW_SEALING,
				  (int)a->required_seals | extra), ATT_SIZE);
}

static void run_ext_map_failed(struct attack *a, struct outcome *o)
{
	int fd, wfd;

	if (!ext_available(a, o))
		return;
	/* Sealed as required, but O_WRONLY: the check passes, mmap fails. */
	fd = att_memfd(ATT_SIZE, MFD_ALLOW_SEALING,
		       (int)a->required_seals | F_SEAL_SHRINK);
	if (fd < 0) {
		fail_setup(o, "memfd: %s", strerror(errno));
		return;
	}
	wfd = reopen(fd, O_WRONLY);
	close(fd);
	ext_probe(a, o, wfd, ATT_SIZE);
}

static void run_ext_invalid_size(struct attack *a, struct outcome *o)
{
	int fd;

	if (!ext_available(a, o))
		return;
	fd = att_memfd(ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	if (fd < 0) {
		fail_setup(o, "memfd: %s", strerror(errno));
		return;
	}
	/* The one fatal error of the extension: a size no file can have. */
	wlseal_shm_policy_v1_create_pool(a->shm_policy, fd, 0);
	close(fd);
}

/* --- the table ------------------------------------------------------------------------ */

const struct scenario scenarios[] = {
	{ "unsealed-memfd", run_unsealed_memfd, POOL_REFUSED(MSG_NO_SHRINK),
	  "memfd with sealing allowed but no seal: the client can truncate it at any time" },
	{ "memfd-no-sealing", run_memfd_no_sealing, POOL_REFUSED(MSG_NO_SHRINK),
	  "memfd created without MFD_ALLOW_SEALING (F_SEAL_SEAL set, never sealable)" },
	{ "sealed-grow-only", run_sealed_grow_only, POOL_REFUSED(MSG_NO_SHRINK),
	  "sealed, but only F_SEAL_GROW: shrinking is still possible" },
	{ "sealed-write-only", run_sealed_write_only, POOL_REFUSED(MSG_NO_SHRINK),
	  "sealed, but only F_SEAL_WRITE: contents fixed, size is not" },
	{ "sealed-seal-only", run_sealed_seal_only, POOL_REFUSED(MSG_NO_SHRINK),
	  "only F_SEAL_SEAL: looks sealed, guarantees nothing about the size" },
	{ "sealed-future-write-only", run_sealed_future_write_only, POOL_REFUSED(MSG_NO_SHRINK),
	  "only F_SEAL_FUTURE_WRITE: no SHRINK" },
	{ "dev-shm-file", run_dev_shm_file, POOL_REFUSED(NULL),
	  "a tmpfs file in /dev/shm (what shm_open gives): shmem, but never sealable" },
	{ "regular-file", run_regular_file, POOL_REFUSED(NULL),
	  "a file on a disk file system: no seals at all, truncatable" },
	{ "pipe-fd", run_pipe_fd, POOL_REFUSED(NULL),
	  "a pipe: not shared memory, mmap fails" },
	{ "socket-fd", run_socket_fd, POOL_REFUSED(NULL),
	  "a unix socket: not shared memory" },
	{ "eventfd-fd", run_eventfd_fd, POOL_REFUSED(NULL),
	  "an eventfd: not shared memory" },
	{ "dev-zero-fd", run_dev_zero_fd, POOL_REFUSED(NULL),
	  "/dev/zero: mmap succeeds (anonymous memory) but it is no sealed file" },
	{ "directory-fd", run_directory_fd, POOL_REFUSED(NULL),
	  "a directory fd: fstat works, mmap does not" },
	{ "opath-fd", run_opath_fd, POOL_REFUSED(NULL),
	  "O_PATH fd of a properly sealed memfd: F_GET_SEALS and mmap both fail" },
	{ "write-only-fd", run_write_only_fd, POOL_REFUSED(NULL),
	  "SHRINK-sealed memfd reopened O_WRONLY: the seal check passes, PROT_READ mmap fails" },
	{ "read-only-fd", run_read_only_fd, ACCEPTED,
	  "SHRINK-sealed memfd reopened O_RDONLY: all a read-only compositor needs" },
	{ "empty-file", run_empty_file, POOL_REFUSED(MSG_TOO_SMALL),
	  "SHRINK-sealed but empty file (Smithay #834: zero-length file crashed anvil)" },
	{ "pool-larger-than-file", run_pool_larger_than_file, POOL_REFUSED(MSG_TOO_SMALL),
	  "one sealed page, 1 MiB pool, buffer at the far end: SIGBUS even with seals (Hyprland #8570)" },
	{ "resize-past-file", run_resize_past_file,
	  SHM_ERR(WL_SHM_ERROR_INVALID_FD, "wl_shm_pool", MSG_TOO_SMALL),
	  "sealed pool resized to 1 MiB over a 16 KiB file: libwayland marks sealed pools SIGBUS-free at create_pool and never re-checks on resize" },
	{ "resize-shrink", run_resize_shrink, SHM_ERR(-1, "wl_shm_pool", NULL),
	  "wl_shm_pool.resize to a smaller size, which the protocol forbids" },
	{ "resize-while-attached", run_resize_while_attached, ACCEPTED,
	  "grow file and pool six times while a buffer of the old mapping is shown (Smithay #1473 remap)" },
	{ "pool-size-zero", run_pool_size_zero, SHM_ERR(-1, "wl_shm", NULL),
	  "create_pool with size 0" },
	{ "pool-size-negative", run_pool_size_negative, SHM_ERR(-1, "wl_shm", NULL),
	  "create_pool with a negative size" },
	{ "pool-size-int32-max", run_pool_size_int32_max, ACCEPTED,
	  "sealed sparse file and pool of INT32_MAX bytes, buffer at the top: legal, must not overflow" },
	{ "hugetlb-memfd", run_hugetlb_memfd, SURVIVES,
	  "SHRINK-sealed MFD_HUGETLB memfd: pages from a possibly empty huge page pool (skipped without hugetlbfs)" },
	{ "huge-buffer", run_huge_buffer, ACCEPTED,
	  "sealed sparse 8192x8192 buffer (256 MiB): only the visible part may be read" },
	{ "truncate-after-attach", run_truncate_after_attach, ACCEPTED,
	  "SHRINK-sealed and shown, then ftruncate(0): the kernel must say EPERM (asserted)" },
	{ "truncate-unsealed", run_truncate_unsealed, POOL_REFUSED(MSG_NO_SHRINK),
	  "classic SIGBUS: unsealed memfd shown, truncated to 0, committed again" },
	{ "truncate-before-commit", run_truncate_before_commit, POOL_REFUSED(MSG_NO_SHRINK),
	  "classic SIGBUS, deterministic: unsealed memfd truncated before the first commit" },
	{ "punch-hole", run_punch_hole, ACCEPTED,
	  "punch a hole through a shown SHRINK-sealed file: size stays, pages read as zeros" },
	{ "fallocate", run_fallocate, ACCEPTED,
	  "fallocate grow, collapse-range and zero-range on a shown SHRINK-sealed file" },
	{ "seed-sealed-pool", run_seed_sealed_pool, ACCEPTED,
	  "seed ABI: memfd_create_sized + SHMEM_SET_SEALS(SHRINK), seen through F_GET_SEALS (patched kernel)" },
	{ "seed-grow-only", run_seed_grow_only, POOL_REFUSED(MSG_NO_SHRINK),
	  "seed ABI: SHMEM_SET_SEALS(GROW) only (patched kernel)" },
	{ "seed-unseal-while-held", run_seed_unseal_while_held, ACCEPTED,
	  "seed ABI: SHMEM_SET_SEALS(0) while the compositor holds the pool must fail (asserted)" },
	{ "buffer-offset-negative", run_buf_offset_negative, BAD_BUFFER,
	  "create_buffer offset -4" },
	{ "buffer-offset-int32-max", run_buf_offset_int32_max, BAD_BUFFER,
	  "create_buffer offset INT32_MAX" },
	{ "buffer-offset-int32-min", run_buf_offset_int32_min, BAD_BUFFER,
	  "create_buffer offset INT32_MIN" },
	{ "buffer-offset-past-end", run_buf_offset_past_end, BAD_BUFFER,
	  "buffer one row longer than the pool" },
	{ "buffer-offset-overflow", run_buf_offset_overflow, BAD_BUFFER,
	  "offset + stride * height overflows int32" },
	{ "buffer-offset-unaligned", run_buf_offset_unaligned, SURVIVES,
	  "offset 2: pixels not 4-byte aligned (legal per protocol, must not fault)" },
	{ "buffer-width-zero", run_buf_width_zero, BAD_BUFFER, "width 0" },
	{ "buffer-width-negative", run_buf_width_negative, BAD_BUFFER, "width -64" },
	{ "buffer-width-int32-max", run_buf_width_int32_max, BAD_BUFFER,
	  "width INT32_MAX, stride 256" },
	{ "buffer-width-bpp-overflow", run_buf_width_bpp_overflow, BAD_BUFFER,
	  "width 0x40000010: width * 4 wraps to 64 in 32 bits, 'fits' a 256-byte stride" },
	{ "buffer-height-zero", run_buf_height_zero, BAD_BUFFER, "height 0" },
	{ "buffer-height-negative", run_buf_height_negative, BAD_BUFFER, "height -64" },
	{ "buffer-height-int32-max", run_buf_height_int32_max, BAD_BUFFER,
	  "height INT32_MAX" },
	{ "buffer-stride-zero", run_buf_stride_zero, BAD_BUFFER, "stride 0" },
	{ "buffer-stride-negative", run_buf_stride_negative, BAD_BUFFER, "stride -256" },
	{ "buffer-stride-int32-max", run_buf_stride_int32_max, BAD_BUFFER,
	  "stride INT32_MAX" },
	{ "buffer-stride-int32-min", run_buf_stride_int32_min, BAD_BUFFER,
	  "stride INT32_MIN" },
	{ "buffer-stride-below-row", run_buf_stride_below_row, BAD_BUFFER,
	  "stride 128 < 64 px * 4 bytes, last row past the pool: libwayland checks only stride >= width" },
	{ "buffer-size-overflow", run_buf_size_overflow, BAD_BUFFER,
	  "height 0x01000001: stride * height wraps to 256 in 32 bits" },
	{ "buffer-stride-unaligned", run_buf_stride_unaligned, SURVIVES,
	  "stride 61 for 4-byte pixels: pixman refuses such images (NULL image if unchecked)" },
	{ "unsupported-format", run_unsupported_format,
	  SHM_ERR(WL_SHM_ERROR_INVALID_FORMAT, "wl_shm_pool", NULL),
	  "format 0xdeadbeef" },
	{ "format-nv12", run_format_nv12,
	  SHM_ERR(WL_SHM_ERROR_INVALID_FORMAT, "wl_shm_pool", NULL),
	  "a real but planar, unadvertised format (NV12): size rules differ per plane" },
	{ "many-pools", run_many_pools, SURVIVES,
	  "2000 pools from one client: fd and mapping exhaustion in the compositor" },
	{ "many-buffers", run_many_buffers, SURVIVES,
	  "20000 buffers on one pool: pool reference counting (CVE-2021-3782 was a refcount overflow)" },
	{ "destroy-pool-while-attached", run_destroy_pool_while_attached, ACCEPTED,
	  "destroy the pool while its buffer is shown, keep committing the buffer" },
	{ "destroy-buffer-while-attached", run_destroy_buffer_while_attached, ACCEPTED,
	  "commit, then destroy buffer and pool at once, keep committing (Mir #2643)" },
	{ "two-pools-one-fd", run_two_pools_one_fd, ACCEPTED,
	  "two pools on the same fd, one destroyed while the other is shown" },
	{ "disconnect-mid-commit", run_disconnect_mid_commit, ACCEPTED,
	  "leave with half a wl_surface.commit in the socket (accepted = compositor alive)" },
	{ "disconnect-pending-pool", run_disconnect_pending_pool, ACCEPTED,
	  "leave with create_pool (an fd) and a commit in flight (accepted = compositor alive)" },
	{ "write-sealed-immutable", run_write_sealed_immutable, ACCEPTED,
	  "SHRINK|GROW|WRITE|SEAL: an immutable buffer, must be shown (and pwrite must fail)" },
	{ "write-after-attach", run_write_after_attach, ACCEPTED,
	  "keep writing the pixels of a shown SHRINK-sealed buffer: tearing allowed, no crash" },
	{ "future-write-sealed", run_future_write_sealed, ACCEPTED,
	  "SHRINK|FUTURE_WRITE with the client's writable mapping still alive and writing" },
	{ "damage-extremes", run_damage_extremes, ACCEPTED,
	  "damage and damage_buffer with INT32 extremes (region arithmetic overflow)" },
	{ "attach-offset-extremes", run_attach_offset_extremes, SURVIVES,
	  "wl_surface.attach with x/y at INT32_MAX/INT32_MIN (surface position overflow)" },
	{ "ext-missing-seal", run_ext_missing_seal, EXT_REFUSED(MISSING_SEAL, MSG_NO_SHRINK),
	  "wlseal_shm_policy_v1: unsealed memfd; refused by event, still connected" },
	{ "ext-file-too-small", run_ext_file_too_small, EXT_REFUSED(FILE_TOO_SMALL, MSG_TOO_SMALL),
	  "wlseal_shm_policy_v1: sealed 16 KiB file, 32 KiB pool; refused by event, still connected" },
	{ "ext-not-sealable", run_ext_not_sealable, EXT_REFUSED(NOT_SEALABLE, "sealable"),
	  "wlseal_shm_policy_v1: a pipe; refused by event, still connected" },
	{ "ext-too-large", run_ext_too_large, EXT_REFUSED(TOO_LARGE, "too large"),
	  "wlseal_shm_policy_v1: pool one byte over max_pool_size (skipped when the limit is INT32_MAX)" },
	{ "ext-unexpected-seal", run_ext_unexpected_seal, EXT_REFUSED(UNEXPECTED_SEAL, "unexpected seal"),
	  "wlseal_shm_policy_v1: a seal outside accepted_seals (skipped when every seal is accepted)" },
	{ "ext-map-failed", run_ext_map_failed, EXT_REFUSED(MAP_FAILED, "mmap failed"),
	  "wlseal_shm_policy_v1: sealed memfd reopened O_WRONLY, PROT_READ mmap fails; refused by event" },
	{ "ext-invalid-size", run_ext_invalid_size,
	  SHM_ERR(WLSEAL_SHM_POLICY_V1_ERROR_INVALID_SIZE, "wlseal_shm_policy_v1", NULL),
	  "wlseal_shm_policy_v1.create_pool with size 0: the extension's one fatal error" },
};

const size_t n_scenarios = sizeof(scenarios) / sizeof(scenarios[0]);
