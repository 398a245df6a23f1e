/* SPDX-License-Identifier: MIT */
/*
 * files.c - file kinds: everything the kernel can hand over as a wl_shm
 * pool's fd besides a sealed memfd: tmpfs and disk files, pipes, sockets,
 * device files, O_PATH and reopened fds, memfd variants, hugetlbfs.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/eventfd.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define ATT_CATEGORY ATT_CAT_FILES
#include "scenario.h"

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
	att_note(o, "file in %s", dir);
	return fd;
}

ATT_SCENARIO(run_dev_shm_file, "dev-shm-file",
	     "a tmpfs file in /dev/shm (what shm_open gives): shmem, but never sealable",
	     POOL_REFUSED(NULL))
{
	const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" :
			  getenv("XDG_RUNTIME_DIR");

	att_show_and_close(a, o, dir ? named_file(dir, o) : -1);
}

ATT_SCENARIO(run_regular_file, "regular-file",
	     "a file on a disk file system: no seals at all, truncatable",
	     POOL_REFUSED(NULL))
{
	const char *dir = access("/var/tmp", W_OK) == 0 ? "/var/tmp" : "/tmp";

	att_show_and_close(a, o, named_file(dir, o));
}

/* --- fds that are no shared-memory file at all ------------------------------- */

ATT_SCENARIO(run_pipe_fd, "pipe-fd",
	     "a pipe: not shared memory, mmap fails",
	     POOL_REFUSED(NULL))
{
	int p[2];

	if (pipe2(p, O_CLOEXEC) < 0) {
		att_fail_setup(o, "pipe: %s", strerror(errno));
		return;
	}
	att_show_and_close(a, o, p[0]);
	close(p[1]);
}

ATT_SCENARIO(run_socket_fd, "socket-fd",
	     "a unix socket: not shared memory",
	     POOL_REFUSED(NULL))
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
		att_fail_setup(o, "socketpair: %s", strerror(errno));
		return;
	}
	att_show_and_close(a, o, sv[0]);
	close(sv[1]);
}

ATT_SCENARIO(run_eventfd_fd, "eventfd-fd",
	     "an eventfd: not shared memory",
	     POOL_REFUSED(NULL))
{
	att_show_and_close(a, o, eventfd(0, EFD_CLOEXEC));
}

ATT_SCENARIO(run_dev_zero_fd, "dev-zero-fd",
	     "/dev/zero: mmap succeeds (anonymous memory) but it is no sealed file",
	     POOL_REFUSED(NULL))
{
	att_show_and_close(a, o, open("/dev/zero", O_RDWR | O_CLOEXEC));
}

ATT_SCENARIO(run_directory_fd, "directory-fd",
	     "a directory fd: fstat works, mmap does not",
	     POOL_REFUSED(NULL))
{
	att_show_and_close(a, o, open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
}

/* A properly sealed memfd, reopened with @flags and passed instead. */
static void show_reopened(struct attack *a, struct outcome *o, int flags)
{
	int fd = att_memfd_or_fail(o, ATT_SIZE, MFD_ALLOW_SEALING, F_SEAL_SHRINK);

	if (fd < 0)
		return;
	att_show_and_close(a, o, att_reopen(fd, flags));
	close(fd);
}

/* O_PATH names the file but allows neither fcntl(F_GET_SEALS) nor mmap. */
ATT_SCENARIO(run_opath_fd, "opath-fd",
	     "O_PATH fd of a properly sealed memfd: F_GET_SEALS and mmap both fail",
	     POOL_REFUSED(NULL))
{
	show_reopened(a, o, O_PATH);
}

/* Write-only: the seal check passes, a PROT_READ mapping must fail
 * (EACCES) and be handled. */
ATT_SCENARIO(run_write_only_fd, "write-only-fd",
	     "SHRINK-sealed memfd reopened O_WRONLY: the seal check passes, PROT_READ mmap fails",
	     POOL_REFUSED(NULL))
{
	show_reopened(a, o, O_WRONLY);
}

/* Sealed and read-only: all a PROT_READ compositor needs. */
ATT_SCENARIO(run_read_only_fd, "read-only-fd",
	     "SHRINK-sealed memfd reopened O_RDONLY: all a read-only compositor needs",
	     ACCEPTED)
{
	show_reopened(a, o, O_RDONLY);
}

/* Sealed and reopened O_RDWR through /proc: the same inode, the same
 * seals; the argument belongs to the inode, not to the fd. */
ATT_SCENARIO(run_proc_reopen_rdwr, "proc-reopen-rdwr",
	     "SHRINK-sealed memfd reopened O_RDWR through /proc/self/fd: same inode, same seals",
	     ACCEPTED)
{
	show_reopened(a, o, O_RDWR);
}

ATT_SCENARIO(run_dev_null_fd, "dev-null-fd",
	     "/dev/null: a character device, no seals, mmap fails",
	     POOL_REFUSED(MSG_NOT_SEALABLE))
{
	att_show_and_close(a, o, open("/dev/null", O_RDWR | O_CLOEXEC));
}

/* --- memfd variants ------------------------------------------------------------ */

#ifndef MFD_NOEXEC_SEAL
#define MFD_NOEXEC_SEAL 0x0008U
#endif
#ifndef F_SEAL_EXEC
#define F_SEAL_EXEC 0x0020
#endif

/* Linux 6.3+: MFD_NOEXEC_SEAL adds F_SEAL_EXEC (and distributions set
 * vm.memfd_noexec so that every memfd gets it). It freezes the mode bits
 * only: a well-behaved client's pool, to be accepted. */
ATT_SCENARIO(run_memfd_noexec_seal, "memfd-noexec-seal",
	     "MFD_NOEXEC_SEAL memfd (F_SEAL_EXEC, Linux 6.3+) sealed SHRINK: harmless seal, accepted (skipped before 6.3)",
	     ACCEPTED)
{
	int fd = memfd_create("wlseal-attack", MFD_CLOEXEC | MFD_NOEXEC_SEAL);

	if (fd < 0) {
		o->result = RES_SKIPPED;
		att_note(o, "memfd_create(MFD_NOEXEC_SEAL): %s (kernel before 6.3)",
			 strerror(errno));
		return;
	}
	if (ftruncate(fd, ATT_SIZE) < 0 || att_fill(fd, 0, ATT_SIZE, 0xff60a040) ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK) < 0) {
		att_fail_setup(o, "noexec memfd: %s", strerror(errno));
		close(fd);
		return;
	}
	att_note(o, "file seals 0x%x", fcntl(fd, F_GET_SEALS));
	att_show_and_close(a, o, fd);
}

#ifndef __NR_memfd_secret
#define __NR_memfd_secret 447
#endif

/* memfd_secret (5.14+, on 6.1 only with secretmem.enable=1): pages taken
 * out of the kernel's direct map. Another process holding the fd could
 * map it (MAP_SHARED is all it asks), but it carries no seals, so it must
 * be refused before that. */
ATT_SCENARIO(run_memfd_secret, "memfd-secret",
	     "memfd_secret fd: no seals (F_GET_SEALS fails), refused before any mmap (skipped when secretmem is off)",
	     POOL_REFUSED(MSG_NOT_SEALABLE))
{
	int fd = (int)syscall(__NR_memfd_secret, 0);

	if (fd < 0) {
		o->result = RES_SKIPPED;
		att_note(o, "memfd_secret: %s (secretmem.enable=1 needed before 6.5)",
			 strerror(errno));
		return;
	}
	if (ftruncate(fd, ATT_SIZE) < 0) {
		att_fail_setup(o, "memfd_secret ftruncate: %s", strerror(errno));
		close(fd);
		return;
	}
	att_show_and_close(a, o, fd);
}

/*
 * Transparent huge pages in a memfd: the client maps with MADV_HUGEPAGE
 * (used when shmem_enabled is advise or always), then punches a huge
 * page's worth of holes under a shown buffer. shmem refills a hole with a
 * small page when no huge one is free, so reading it can never fail.
 */
ATT_SCENARIO(run_memfd_thp_punch, "memfd-thp-punch",
	     "4 MiB SHRINK-sealed memfd mapped MADV_HUGEPAGE by the client, 2 MiB punched under the shown buffer: holes refill with small pages",
	     ACCEPTED)
{
	const size_t len = 4 * MIB;
	int fd = att_memfd_or_fail(o, len, MFD_ALLOW_SEALING, F_SEAL_SHRINK);
	struct wl_shm_pool *pool;
	struct wl_buffer *buf;
	char mode[128] = "";
	uint32_t *px;
	FILE *f;

	if (fd < 0)
		return;
	px = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (px == MAP_FAILED) {
		att_fail_setup(o, "mmap: %s", strerror(errno));
		close(fd);
		return;
	}
	madvise(px, len, MADV_HUGEPAGE);
	for (size_t i = 0; i < len / 4; i++)
		px[i] = 0xff208020u;
	f = fopen("/sys/kernel/mm/transparent_hugepage/shmem_enabled", "re");
	if (f) {
		if (!fgets(mode, sizeof(mode), f))
			mode[0] = '\0';
		mode[strcspn(mode, "\n")] = '\0';
		fclose(f);
	}
	att_note(o, "shmem_enabled: %s", mode[0] ? mode : "unknown");
	pool = wl_shm_create_pool(a->shm, fd, (int32_t)len);
	buf = wl_shm_pool_create_buffer(pool, 2 * MIB, ATT_W, ATT_H, ATT_STRIDE,
					XRGB);
	if (att_roundtrip(a) != 0 || att_window(a) != 0 ||
	    att_present(a, buf, ATT_W, ATT_H) != 0)
		goto out;
	if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		      (off_t)(2 * MIB), (off_t)(2 * MIB)) < 0)
		att_note(o, "punch: %s", strerror(errno));
	else
		att_note(o, "2 MiB punched under the buffer");
	att_keep_presenting(a, buf, 3);
out:
	munmap(px, len);
	close(fd);
}

/*
 * A tmpfs mount with huge=always (what a distribution may use for /tmp or
 * /dev/shm): its files are shmem like a memfd's, but were never sealable
 * (F_SEAL_SEAL from creation). Mounted in a private mount namespace, so
 * nothing outside this process sees it; needs root.
 */
ATT_SCENARIO(run_tmpfs_huge_file, "tmpfs-huge-file",
	     "a file on a tmpfs mounted huge=always (private mount namespace, root only): never sealable",
	     POOL_REFUSED(MSG_NO_SHRINK))
{
	char dir[] = "/tmp/wlseal-attack-tmpfs-XXXXXX";
	char path[64];
	int fd;

	if (unshare(CLONE_NEWNS) < 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) {
		o->result = RES_SKIPPED;
		att_note(o, "private mount namespace: %s (needs root)", strerror(errno));
		return;
	}
	if (!mkdtemp(dir)) {
		att_fail_setup(o, "mkdtemp: %s", strerror(errno));
		return;
	}
	if (mount("wlseal-attack", dir, "tmpfs", 0, "huge=always,size=8m") < 0) {
		o->result = RES_SKIPPED;
		att_note(o, "mount tmpfs huge=always: %s", strerror(errno));
		rmdir(dir);
		return;
	}
	snprintf(path, sizeof(path), "%s/pool", dir);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd >= 0 && (ftruncate(fd, ATT_SIZE) < 0 ||
			att_fill(fd, 0, ATT_SIZE, 0xff808000))) {
		close(fd);
		fd = -1;
	}
	if (fd >= 0) {
		att_note(o, "F_GET_SEALS 0x%x, F_ADD_SEALS(SHRINK): %s",
			 fcntl(fd, F_GET_SEALS),
			 fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK) < 0 ?
				 strerror(errno) : "ADDED");
		unlink(path);
	}
	att_show_and_close(a, o, fd);
	umount2(dir, MNT_DETACH);
	rmdir(dir);
}

/* --- hugetlbfs ----------------------------------------------------------------- */

/* A /proc/meminfo counter (HugePages_Free, HugePages_Rsvd); -1 if absent. */
static long meminfo(const char *key)
{
	char line[128];
	size_t n = strlen(key);
	long v = -1;
	FILE *f = fopen("/proc/meminfo", "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ':') {
			v = strtol(line + n + 1, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

/*
 * A one-huge-page MFD_HUGETLB memfd. When @fill, its first ATT_SIZE bytes
 * are painted through a shared mapping (hugetlbfs has no write()), which
 * takes one free huge page; the mapping is kept in *map when @map is not
 * NULL (for F_SEAL_FUTURE_WRITE), else removed before @seals are added
 * (F_SEAL_WRITE needs no writable mapping). Skips when the kernel has no
 * hugetlbfs or fewer than @need free huge pages: a host's quirk, not an
 * outcome.
 */
static int huge_memfd(struct outcome *o, long need, bool fill, int seals,
		      void **map, size_t *huge)
{
	long free_pages = meminfo("HugePages_Free");
	struct stat st;
	void *p;
	int fd;

	fd = memfd_create("wlseal-attack", MFD_CLOEXEC | MFD_ALLOW_SEALING |
						   MFD_HUGETLB);
	if (fd < 0 || fstat(fd, &st) < 0) {
		o->result = RES_SKIPPED;
		att_note(o, "memfd_create(MFD_HUGETLB): %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	*huge = (size_t)st.st_blksize;
	if (free_pages < need) {
		o->result = RES_SKIPPED;
		att_note(o, "needs %ld free huge pages, the kernel has %ld (vm.nr_hugepages)",
			 need, free_pages);
		close(fd);
		return -1;
	}
	if (ftruncate(fd, (off_t)*huge) < 0)
		goto fail;
	if (fill) {
		p = mmap(NULL, *huge, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (p == MAP_FAILED)
			goto fail;
		for (size_t i = 0; i < ATT_SIZE / 4; i++)
			((uint32_t *)p)[i] = 0xffa040a0u;
		if (map)
			*map = p;
		else
			munmap(p, *huge);
	}
	if (fcntl(fd, F_ADD_SEALS, seals) < 0)
		goto fail;
	return fd;
fail:
	att_fail_setup(o, "hugetlb memfd: %s", strerror(errno));
	close(fd);
	return -1;
}

/* Take every free huge page: a second hugetlb memfd, mapped and touched. */
static void hog_huge_pages(struct outcome *o, size_t huge)
{
	long n = meminfo("HugePages_Free");
	int fd;
	char *p;

	if (n <= 0)
		return;
	fd = memfd_create("wlseal-attack-hog", MFD_CLOEXEC | MFD_HUGETLB);
	if (fd < 0 || ftruncate(fd, (off_t)(n * (long)huge)) < 0) {
		att_note(o, "hog: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	p = mmap(NULL, (size_t)n * huge, PROT_READ | PROT_WRITE, MAP_SHARED |
		 MAP_POPULATE, fd, 0);
	att_note(o, "took %ld free huge pages: %s", n,
		 p == MAP_FAILED ? strerror(errno) : "ok");
	/* Kept until exit: the pages must stay taken while we commit. */
}

/*
 * The hugetlbfs attack. A SHRINK-sealed hugetlbfs memfd as large as the
 * pool, shown; then a hole punched over it (only SEAL_WRITE or
 * FUTURE_WRITE forbid that), every free huge page taken, new damage
 * committed: the compositor's next read finds no huge page to fault in
 * and dies of SIGBUS. wlseal refuses such a file at create_pool. Without
 * a free huge page the punch step cannot run, but the refusal can.
 */
ATT_SCENARIO(run_hugetlb_memfd, "hugetlb-memfd",
	     "SHRINK-only MFD_HUGETLB memfd: if shown, punch a hole, take every free huge page, commit (SIGBUS); must be refused for lacking F_SEAL_WRITE",
	     POOL_REFUSED("F_SEAL_WRITE"))
{
	bool fill = meminfo("HugePages_Free") >= 1;
	struct wl_buffer *buf;
	size_t huge;
	int fd = huge_memfd(o, 0, fill, F_SEAL_SHRINK, NULL, &huge);

	if (fd < 0)
		return;
	if (!fill)
		att_note(o, "no free huge page: the punch step cannot run");
	att_show_fd(a, fd, (int32_t)huge, 0, 2, &buf);
	if (!wl_display_get_error(a->display) && fill) {
		att_note(o, "punch: %s",
			 fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				   0, (off_t)huge) < 0 ? strerror(errno) : "done");
		hog_huge_pages(o, huge);
		att_keep_presenting(a, buf, 2);
	}
	close(fd);
}

/*
 * SHRINK|GROW|FUTURE_WRITE: the client keeps writing through its mapping,
 * the compositor maps it shared and read-only. Punching a hole must fail
 * (EPERM, asserted); were it allowed, the same page theft would follow.
 */
ATT_SCENARIO(run_hugetlb_future_write_punch, "hugetlb-future-write-punch",
	     "SHRINK|GROW|FUTURE_WRITE hugetlb memfd shown, then punch (must be EPERM) and take every free huge page (needs 1 free huge page)",
	     ACCEPTED)
{
	struct wl_buffer *buf;
	void *map = NULL;
	size_t huge;
	int fd = huge_memfd(o, 1, true, F_SEAL_SHRINK | F_SEAL_GROW |
				       F_SEAL_FUTURE_WRITE, &map, &huge);

	if (fd < 0)
		return;
	att_show_fd(a, fd, (int32_t)huge, 0, 1, &buf);
	if (wl_display_get_error(a->display))
		goto out;
	if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0,
		      (off_t)huge) == 0) {
		att_fail_setup(o, "FALLOC_FL_PUNCH_HOLE succeeded on a FUTURE_WRITE-sealed hugetlbfs file");
		hog_huge_pages(o, huge);
		att_keep_presenting(a, buf, 2);
		goto out;
	}
	att_note(o, "punch: %s", strerror(errno));
	hog_huge_pages(o, huge);
	memset(map, 0x40, ATT_SIZE);
	att_keep_presenting(a, buf, 2);
out:
	munmap(map, huge);
	close(fd);
}

/*
 * An immutable hugetlb buffer in a pool whose size is no multiple of the
 * huge page: the compositor must map and unmap whole huge pages. Pools
 * are created, shown and destroyed four times; afterwards the kernel's
 * count of reserved huge pages must be what it was (a failed munmap of
 * the unrounded length would leak the mapping and its reservation).
 */
ATT_SCENARIO(run_hugetlb_write_sealed, "hugetlb-write-sealed",
	     "SHRINK|GROW|WRITE hugetlb memfd, 16 KiB pools on a 2 MiB page shown and destroyed 4 times: HugePages_Rsvd must return (needs 2 free huge pages)",
	     ACCEPTED)
{
	struct wl_shm_pool *pool, *prev_pool = NULL;
	struct wl_buffer *buf, *prev_buf = NULL;
	long rsvd0, rsvd1;
	size_t huge;
	int fd = huge_memfd(o, 2, true, F_SEAL_SHRINK | F_SEAL_GROW |
				       F_SEAL_WRITE, NULL, &huge);

	if (fd < 0)
		return;
	rsvd0 = meminfo("HugePages_Rsvd");
	if (att_window(a) != 0)
		goto out;
	/* Each pool replaces the last on screen, then the last goes away;
	 * at the end the shown one is destroyed too. */
	for (int i = 0; i <= 4; i++) {
		pool = NULL;
		buf = NULL;
		if (i < 4) {
			pool = wl_shm_create_pool(a->shm, fd, ATT_SIZE);
			buf = wl_shm_pool_create_buffer(pool, 0, ATT_W, ATT_H,
							ATT_STRIDE, XRGB);
			if (att_present(a, buf, ATT_W, ATT_H) != 0)
				goto out;
		}
		if (prev_buf) {
			wl_buffer_destroy(prev_buf);
			wl_shm_pool_destroy(prev_pool);
		}
		if (att_roundtrip(a) != 0)
			goto out;
		prev_buf = buf;
		prev_pool = pool;
	}
	/* The compositor unmaps on its closer thread: wait for it first. */
	if (att_wait_file_released(a, o, fd, 60) < 0)
		goto out;
	rsvd1 = meminfo("HugePages_Rsvd");
	if (rsvd1 != rsvd0)
		att_fail_setup(o, "huge page reservations leaked: HugePages_Rsvd %ld before, %ld after 4 pools",
			       rsvd0, rsvd1);
	else
		att_note(o, "HugePages_Rsvd %ld before and after 4 pools", rsvd0);
out:
	close(fd);
}
