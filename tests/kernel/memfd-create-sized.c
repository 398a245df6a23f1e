/* SPDX-License-Identifier: MIT */
/*
 * memfd-create-sized: argument validation and the files memfd_create_sized()
 * (x86_64 syscall 1000, the seed's memfd_create) creates: the name rules of
 * memfd_create(), only MFD_CLOEXEC, a size up to the maximum file size, a
 * sealable read-write regular file with O_LARGEFILE, and VM_NORESERVE
 * accounting: a huge size commits no memory up front.
 */
#include <limits.h>
#include <signal.h>
#include <sys/resource.h>
#include <stdint.h>

#include "ktest.h"

#define KERNEL_O_LARGEFILE 0100000	/* glibc defines O_LARGEFILE as 0 */

static int create_errno(const char *name, uint64_t size, uint64_t flags)
{
	int fd = wlseal_memfd_create_sized(name, size, flags);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static long committed_kb(void)
{
	char line[128];
	long kb = -1;
	FILE *f = fopen("/proc/meminfo", "re");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Committed_AS: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

static void test_names(void)
{
	static char name[4096];
	char path[64], link[512];
	ssize_t n;
	int e, fd;

	e = create_errno(NULL, 0, 0);
	ktest(e == EFAULT, "NULL name: %s", ktest_err(e));

	e = create_errno((const char *)8, 0, 0);
	ktest(e == EFAULT, "unmapped name: %s", ktest_err(e));

	memset(name, 'x', sizeof(name));
	e = create_errno(name, 0, 0);
	ktest(e == EINVAL, "unterminated 4096-byte name: %s", ktest_err(e));

	name[250] = '\0';
	e = create_errno(name, 0, 0);
	ktest(e == EINVAL, "250-byte name (over NAME_MAX - \"memfd:\"): %s",
	      ktest_err(e));

	name[249] = '\0';
	fd = wlseal_memfd_create_sized(name, 0, MFD_CLOEXEC);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = fd < 0 ? -1 : readlink(path, link, sizeof(link) - 1);
	if (n >= 0)
		link[n] = '\0';
	ktest(fd >= 0 && n == 6 + 1 + 249 + 10 && !strncmp(link, "/memfd:x", 8) &&
	      !strcmp(link + n - 10, " (deleted)"),
	      "249-byte name works and shows as /memfd:NAME (%s, %zd bytes)",
	      fd < 0 ? strerror(errno) : "ok", n);
	close(fd);

	e = create_errno("", 0, 0);
	ktest(!e, "empty name works (%s)", ktest_err(e));
}

static void test_flags(void)
{
	static const struct {
		uint64_t flags;
		const char *name;
	} bad[] = {
		{ MFD_ALLOW_SEALING, "MFD_ALLOW_SEALING" },
		{ MFD_HUGETLB, "MFD_HUGETLB" },
		{ 0x0100, "0x100" },
		{ 1ULL << 32, "1 << 32" },
		{ ~0ULL, "all bits" },
	};
	int fd, fl0, fl1;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int e = create_errno("flags", 0, bad[i].flags);

		ktest(e == EINVAL, "flags %s refused: %s", bad[i].name,
		      ktest_err(e));
	}

	fd = wlseal_memfd_create_sized("cloexec", 0, MFD_CLOEXEC);
	fl1 = fd < 0 ? -1 : fcntl(fd, F_GETFD);
	close(fd);
	fd = wlseal_memfd_create_sized("no-cloexec", 0, 0);
	fl0 = fd < 0 ? -1 : fcntl(fd, F_GETFD);
	close(fd);
	ktest(fl1 == FD_CLOEXEC && fl0 == 0,
	      "MFD_CLOEXEC sets FD_CLOEXEC, 0 does not (%d, %d)", fl1, fl0);
}

static void test_sizes(void)
{
	char buf[16], zero[16] = { 0 };
	struct stat st;
	int e, fd, fl;

	e = create_errno("big", 1ULL << 63, 0);
	ktest(e == EINVAL, "size 2^63 refused: %s", ktest_err(e));
	e = create_errno("big", ~0ULL, 0);
	ktest(e == EINVAL, "size 2^64-1 refused: %s", ktest_err(e));

	fd = wlseal_memfd_create_sized("max", LLONG_MAX, MFD_CLOEXEC);
	ktest(fd >= 0 && ktest_size(fd) == LLONG_MAX,
	      "size LLONG_MAX (MAX_LFS_FILESIZE) works (%s)",
	      fd < 0 ? strerror(errno) : "ok");
	close(fd);

	fd = wlseal_memfd_create_sized("file", 12345, MFD_CLOEXEC);
	if (fd < 0)
		ktest_bail("memfd_create_sized(12345)");
	fl = fcntl(fd, F_GETFL);
	ktest(fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 12345 &&
	      (fl & O_ACCMODE) == O_RDWR && (fl & KERNEL_O_LARGEFILE),
	      "a read-write regular file of 12345 bytes with O_LARGEFILE (flags 0%o)",
	      fl);
	ktest(pread(fd, buf, sizeof(buf), 12000) == sizeof(buf) &&
	      !memcmp(buf, zero, sizeof(buf)) &&
	      pwrite(fd, "sized", 5, 100) == 5 &&
	      lseek(fd, 100, SEEK_SET) == 100 && read(fd, buf, 5) == 5 &&
	      !memcmp(buf, "sized", 5),
	      "reads zeros, pwrite/lseek/read work");
	ktest(ktest_get(fd) == 0 && ktest_get_upstream(fd) == 0 &&
	      !ktest_add(fd, F_SEAL_SHRINK) && ktest_get(fd) == SHMEM_SEAL_SHRINK,
	      "created sealable: no F_SEAL_SEAL, F_ADD_SEALS works");
	close(fd);
}

/* VM_NORESERVE: 1 TiB in a 2 GiB guest, and Committed_AS does not move. */
static void test_noreserve(void)
{
	const uint64_t tib = 1ULL << 40;
	long before = committed_kb(), after;
	int fd = wlseal_memfd_create_sized("tebibyte", tib, MFD_CLOEXEC);

	after = committed_kb();
	ktest(fd >= 0 && ktest_size(fd) == (off_t)tib && before >= 0 &&
	      after - before < 64 * 1024,
	      "1 TiB file created without committing memory (%s, Committed_AS %ld -> %ld kB)",
	      fd < 0 ? strerror(errno) : "ok", before, after);
	close(fd);
}

static volatile sig_atomic_t xfsz_signals;

static void on_xfsz(int sig)
{
	(void)sig;
	xfsz_signals++;
}

/* Which errno, and how many SIGXFSZ, does sizing to @size give? */
static int sized_errno(uint64_t size, int *sigs)
{
	int e;

	xfsz_signals = 0;
	e = create_errno("fsize", size, MFD_CLOEXEC);
	*sigs = xfsz_signals;
	return e;
}

static int ftruncate_errno(off_t size, int *sigs)
{
	int fd = memfd_create("fsize", MFD_CLOEXEC | MFD_ALLOW_SEALING), e;

	if (fd < 0)
		return errno;
	xfsz_signals = 0;
	e = ftruncate(fd, size) < 0 ? errno : 0;
	*sigs = xfsz_signals;
	close(fd);
	return e;
}

/*
 * memfd_create_sized(size) must refuse exactly what memfd_create() +
 * ftruncate(size) refuses: it sizes the file through the same code. Here
 * RLIMIT_FSIZE, the limit a process can set on itself; the LSM hooks are
 * the same calls (no LSM is built into the VM kernel).
 */
static void test_ftruncate_parity(void)
{
	struct rlimit old, lim = { .rlim_cur = 1 << 20 };
	int e1, e2, s1, s2, before, after;

	if (getrlimit(RLIMIT_FSIZE, &old) < 0)
		ktest_bail("getrlimit");
	lim.rlim_max = old.rlim_max;
	signal(SIGXFSZ, on_xfsz);
	if (setrlimit(RLIMIT_FSIZE, &lim) < 0)
		ktest_bail("setrlimit(RLIMIT_FSIZE)");

	before = dup(0);
	close(before);
	e1 = sized_errno(2 << 20, &s1);
	after = dup(0);
	close(after);
	e2 = ftruncate_errno(2 << 20, &s2);
	ktest(e1 == EFBIG && e2 == EFBIG && s1 == 1 && s2 == 1,
	      "over RLIMIT_FSIZE: memfd_create_sized %s with %d SIGXFSZ, ftruncate %s with %d",
	      ktest_err(e1), s1, ktest_err(e2), s2);
	ktest(before == after, "the refused call left no fd behind (next fd %d, then %d)",
	      before, after);
	e1 = sized_errno(1 << 20, &s1);
	e2 = ftruncate_errno(1 << 20, &s2);
	ktest(!e1 && !e2 && !s1 && !s2,
	      "at RLIMIT_FSIZE: memfd_create_sized %s, ftruncate %s, no SIGXFSZ (%d, %d)",
	      ktest_err(e1), ktest_err(e2), s1, s2);

	setrlimit(RLIMIT_FSIZE, &old);
	signal(SIGXFSZ, SIG_DFL);
}

int main(void)
{
	const int planned = 6 + 6 + 6 + 1 + 3;

	ktest_plan(planned);
	test_names();
	test_flags();
	test_sizes();
	test_noreserve();
	test_ftruncate_parity();
	return ktest_done(planned);
}
