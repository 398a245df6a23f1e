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
#include <sys/socket.h>
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

/* A SHRINK-sealed hugetlbfs memfd: sealable since Linux 4.16, but its pages
 * come from the huge page pool, which may be empty (mmap or fault fails). */
ATT_SCENARIO(run_hugetlb_memfd, "hugetlb-memfd",
	     "SHRINK-sealed MFD_HUGETLB memfd: pages from a possibly empty huge page pool (skipped without hugetlbfs)",
	     SURVIVES)
{
	const size_t huge = 2 * 1024 * 1024;
	int fd = memfd_create("wlseal-attack", MFD_CLOEXEC | MFD_ALLOW_SEALING |
						       MFD_HUGETLB);

	if (fd < 0) {
		o->result = RES_SKIPPED;
		att_note(o, "memfd_create(MFD_HUGETLB): %s", strerror(errno));
		return;
	}
	if (ftruncate(fd, (off_t)huge) < 0 ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK) < 0) {
		att_fail_setup(o, "hugetlb memfd: %s", strerror(errno));
		close(fd);
		return;
	}
	att_show_fd(a, fd, ATT_SIZE, 0, 2, NULL);
	close(fd);
}
