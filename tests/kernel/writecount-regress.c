/* SPDX-License-Identifier: MIT */
/*
 * writecount-regress: the reproducer of patch 1/6 of the 2014 sealing
 * series ("fs: fix i_writecount on shmem and friends"). Files from
 * alloc_file() did not take write access to their inode, so closing the
 * write end of a pipe that had been reopened read-only through /proc
 * underflowed i_writecount and the next read-write open failed with
 * ETXTBSY. Upstream fixed it independently (3.16); this keeps the
 * regression test, for a pipe and for a memfd.
 */
#include "ktest.h"

static int reopen(int fd, int flags)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return open(path, flags | O_CLOEXEC);
}

int main(void)
{
	const int planned = 4;
	char buf[4] = { 0 };
	int p[2], ro, rw, fd;

	ktest_plan(planned);

	/* the sequence from the seed's commit message */
	if (pipe(p) < 0)
		ktest_bail("pipe");
	ro = reopen(p[1], O_RDONLY);
	ktest(ro >= 0, "pipe write end reopened read-only (%s)",
	      ro < 0 ? strerror(errno) : "ok");
	close(p[1]);
	rw = reopen(ro, O_RDWR);
	ktest(rw >= 0, "after closing the write end, read-write reopen works (%s)",
	      rw < 0 ? strerror(errno) : "ok");
	ktest(rw >= 0 && write(rw, "seed", 4) == 4 && read(ro, buf, 4) == 4 &&
	      !memcmp(buf, "seed", 4),
	      "the reopened ends are the same pipe");
	close(rw);
	close(ro);
	close(p[0]);

	/* the same with a memfd, which is what sealing depends on */
	fd = ktest_sized("writecount", 4096);
	ro = reopen(fd, O_RDONLY);
	close(fd);
	rw = ro < 0 ? -1 : reopen(ro, O_RDWR);
	ktest(rw >= 0 && ktest_can_map_writable(rw, 4096) &&
	      ktest_set(rw, SHMEM_SEAL_SHRINK) == 0 &&
	      ktest_set(rw, 0) == EPERM && close(ro) == 0 &&
	      ktest_set(rw, 0) == 0,
	      "memfd: read-write reopen after closing the original works; the read-only reopen counts as a reference until closed (%s)",
	      rw < 0 ? strerror(errno) : "ok");
	close(rw);
	return ktest_done(planned);
}
