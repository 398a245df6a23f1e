/* SPDX-License-Identifier: MIT */
/*
 * seal-cross-abi: the seed ABI (SHMEM_SET_SEALS / SHMEM_GET_SEALS) and the
 * upstream ABI (F_ADD_SEALS / F_GET_SEALS) share one seal state per inode.
 * A seal set through one is reported and enforced through the other,
 * upstream-only bits survive a seed SET, and F_SEAL_SEAL keeps files that
 * never asked for sealing unsealable through the seed ABI too.
 */
#include <inttypes.h>
#include <linux/falloc.h>
#include <sys/ipc.h>
#include <sys/shm.h>

#include "ktest.h"

#define SZ 8192

/* Which operations a seal blocks, as a bit mask of these. */
enum {
	OP_SHRINK = 1 << 0,	/* ftruncate() to a smaller size */
	OP_GROW = 1 << 1,	/* ftruncate() to a larger size */
	OP_WRITE = 1 << 2,	/* pwrite() inside the file */
	OP_PUNCH = 1 << 3,	/* fallocate(PUNCH_HOLE) */
	OP_MAP_WRITE = 1 << 4,	/* a writable shared mapping */
	OP_APPEND = 1 << 5,	/* pwrite() past the end */
};

/*
 * Try every operation on a fresh SZ-byte file; return those refused. The
 * order keeps one result from depending on another: size changes come
 * last, and each resize starts from the current size.
 */
static int blocked_ops(int fd)
{
	int blocked = 0;
	char buf[4] = "seal";

	if (!ktest_can_map_writable(fd, SZ))
		blocked |= OP_MAP_WRITE;
	if (pwrite(fd, buf, sizeof(buf), 0) != sizeof(buf))
		blocked |= OP_WRITE;
	if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, 4096))
		blocked |= OP_PUNCH;
	if (ftruncate(fd, ktest_size(fd) * 2) < 0)
		blocked |= OP_GROW;
	if (pwrite(fd, buf, sizeof(buf), ktest_size(fd)) != sizeof(buf))
		blocked |= OP_APPEND;
	if (ftruncate(fd, 1) < 0)
		blocked |= OP_SHRINK;
	return blocked;
}

static const struct {
	const char *name;
	int seed, upstream, blocks;
} seals[] = {
	{ "SHRINK", SHMEM_SEAL_SHRINK, F_SEAL_SHRINK, OP_SHRINK },
	{ "GROW", SHMEM_SEAL_GROW, F_SEAL_GROW, OP_GROW | OP_APPEND },
	{ "WRITE", SHMEM_SEAL_WRITE, F_SEAL_WRITE,
	  OP_WRITE | OP_PUNCH | OP_MAP_WRITE | OP_APPEND },
};

static void test_enforcement(void)
{
	for (size_t i = 0; i < sizeof(seals) / sizeof(seals[0]); i++) {
		int a = ktest_memfd("cross-seed", SZ);
		int b = ktest_memfd("cross-upstream", SZ);
		int ea = ktest_set(a, seals[i].seed);
		int eb = ktest_add(b, seals[i].upstream);
		int ga = ktest_get_upstream(a), gb = ktest_get(b);
		int ba = blocked_ops(a), bb = blocked_ops(b);

		ktest(!ea && ga == seals[i].upstream,
		      "SHMEM_SET_SEALS(%s) reads back as F_SEAL_%s through F_GET_SEALS (%s, 0x%x)",
		      seals[i].name, seals[i].name, ktest_err(ea), ga);
		ktest(!eb && gb == seals[i].seed,
		      "F_ADD_SEALS(F_SEAL_%s) reads back as SHMEM_SEAL_%s through SHMEM_GET_SEALS (%s, 0x%x)",
		      seals[i].name, seals[i].name, ktest_err(eb), gb);
		ktest(ba == seals[i].blocks && bb == seals[i].blocks,
		      "%s blocks the same operations whichever ABI set it (seed 0x%x, upstream 0x%x, expected 0x%x)",
		      seals[i].name, ba, bb, seals[i].blocks);
		close(a);
		close(b);
	}
}

static void test_remove_upstream_write(void)
{
	int fd = ktest_memfd("cross-remove", SZ);
	int e1, e2;
	bool denied, allowed;

	e1 = ktest_add(fd, F_SEAL_WRITE);
	denied = !ktest_can_map_writable(fd, SZ);
	e2 = ktest_set(fd, 0);
	allowed = ktest_can_map_writable(fd, SZ);
	ktest(!e1 && denied && !e2 && allowed && ktest_get_upstream(fd) == 0,
	      "F_ADD_SEALS(F_SEAL_WRITE) is removed by SHMEM_SET_SEALS(0) and writable mappings work again (%s, %s)",
	      ktest_err(e1), ktest_err(e2));
	close(fd);
}

static void test_upstream_bits_survive(void)
{
	int fd = ktest_memfd("cross-future", SZ);
	int e0, e1, e2, up1, seed1, up2;

	e0 = ktest_add(fd, F_SEAL_FUTURE_WRITE);
	e1 = ktest_set(fd, SHMEM_SEAL_SHRINK | SHMEM_SEAL_GROW);
	up1 = ktest_get_upstream(fd);
	seed1 = ktest_get(fd);
	e2 = ktest_set(fd, 0);
	up2 = ktest_get_upstream(fd);
	ktest(!e0 && !e1 && !e2 &&
	      up1 == (F_SEAL_FUTURE_WRITE | F_SEAL_SHRINK | F_SEAL_GROW) &&
	      seed1 == (SHMEM_SEAL_SHRINK | SHMEM_SEAL_GROW) &&
	      up2 == F_SEAL_FUTURE_WRITE,
	      "F_SEAL_FUTURE_WRITE survives SHMEM_SET_SEALS and is not reported by SHMEM_GET_SEALS (0x%x, 0x%x, 0x%x)",
	      up1, seed1, up2);
	close(fd);
}

static void test_seal_seal(void)
{
	int fd = ktest_memfd("cross-sealseal", SZ);
	int e0, e1, e2, e3;

	e0 = ktest_set(fd, SHMEM_SEAL_SHRINK);
	e1 = ktest_add(fd, F_SEAL_SEAL);
	e2 = ktest_set(fd, 0);
	e3 = ktest_set(fd, SHMEM_SEAL_SHRINK);
	ktest(!e0 && !e1 && e2 == EPERM && e3 == EPERM &&
	      ktest_get_upstream(fd) == (F_SEAL_SEAL | F_SEAL_SHRINK) &&
	      ktest_get(fd) == SHMEM_SEAL_SHRINK,
	      "F_SEAL_SEAL added after a seed SET freezes the set: SHMEM_SET_SEALS gives EPERM (%s, %s)",
	      ktest_err(e2), ktest_err(e3));
	close(fd);
}

/* A file that never allowed sealing: EPERM, seals unchanged. */
static void expect_unsealable(int fd, const char *what)
{
	int e1 = ktest_set(fd, SHMEM_SEAL_SHRINK);
	int e2 = ktest_add(fd, F_SEAL_SHRINK);

	ktest(e1 == EPERM && e2 == EPERM && ktest_get(fd) == 0 &&
	      ktest_get_upstream(fd) == F_SEAL_SEAL,
	      "%s stays unsealable: SHMEM_SET_SEALS %s, F_ADD_SEALS %s",
	      what, ktest_err(e1), ktest_err(e2));
}

static void test_unsealable(void)
{
	char path[64], maps_line[256], mf[128];
	uintptr_t lo = 0, hi = 0;
	FILE *maps;
	void *shm;
	int fd, id;

	fd = memfd_create("no-sealing", MFD_CLOEXEC);
	if (fd < 0)
		ktest_bail("memfd_create");
	expect_unsealable(fd, "memfd without MFD_ALLOW_SEALING");
	close(fd);

	snprintf(path, sizeof(path), "/dev/shm/wlseal-cross-%d", getpid());
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		ktest_bail("open %s", path);
	unlink(path);
	expect_unsealable(fd, "tmpfs file in /dev/shm");
	close(fd);

	/* SysV shm: reach its shmem file through /proc/self/map_files. */
	id = shmget(IPC_PRIVATE, SZ, IPC_CREAT | 0600);
	if (id < 0)
		ktest_bail("shmget");
	shm = shmat(id, NULL, 0);
	shmctl(id, IPC_RMID, NULL);
	if (shm == (void *)-1)
		ktest_bail("shmat");
	maps = fopen("/proc/self/maps", "re");
	while (maps && fgets(maps_line, sizeof(maps_line), maps)) {
		uintptr_t a, b;

		if (sscanf(maps_line, "%" SCNxPTR "-%" SCNxPTR, &a, &b) == 2 &&
		    a == (uintptr_t)shm) {
			lo = a;
			hi = b;
		}
	}
	if (maps)
		fclose(maps);
	snprintf(mf, sizeof(mf), "/proc/self/map_files/%" PRIxPTR "-%" PRIxPTR,
		 lo, hi);
	fd = open(mf, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		ktest(false, "SysV shm stays unsealable (open %s: %s)", mf,
		      strerror(errno));
	} else {
		expect_unsealable(fd, "SysV shm segment");
		close(fd);
	}
	shmdt(shm);
}

static void test_bad_calls(void)
{
	int p[2], fd, ro, e1, e2, g;
	char path[64];

	if (pipe(p) < 0)
		ktest_bail("pipe");
	e1 = ktest_set(p[1], SHMEM_SEAL_SHRINK);
	g = ktest_get(p[0]);
	ktest(e1 == EINVAL && g == -EINVAL,
	      "a pipe has no seals: SET %s, GET %s", ktest_err(e1),
	      ktest_err(-g));
	close(p[0]);
	close(p[1]);

	fd = ktest_sized("cross-bad", SZ);
	e1 = ktest_set(fd, 0x8);
	e2 = fcntl(fd, SHMEM_SET_SEALS, 1UL << 32) < 0 ? errno : 0;
	ktest(e1 == EINVAL && e2 == EINVAL && ktest_set(fd, 0x100) == EINVAL &&
	      ktest_get(fd) == 0,
	      "unknown seal bits and upper 32 bits give EINVAL (%s, %s)",
	      ktest_err(e1), ktest_err(e2));

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	ro = open(path, O_RDONLY | O_CLOEXEC);
	close(fd);
	e1 = ro < 0 ? errno : ktest_set(ro, SHMEM_SEAL_SHRINK);
	ktest(e1 == EPERM && ktest_get(ro) == 0,
	      "a read-only fd cannot set seals, even as the only reference (%s)",
	      ktest_err(e1));
	close(ro);
}

static void test_hugetlbfs(void)
{
	int fd = memfd_create("cross-huge",
			      MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_HUGETLB);
	int e1, e2, up;

	if (fd < 0) {
		ktest(false, "hugetlbfs memfd: memfd_create(MFD_HUGETLB): %s",
		      strerror(errno));
		return;
	}
	e1 = ktest_set(fd, SHMEM_SEAL_SHRINK | SHMEM_SEAL_GROW);
	up = ktest_get_upstream(fd);
	e2 = ktest_set(fd, 0);
	ktest(!e1 && !e2 && up == (F_SEAL_SHRINK | F_SEAL_GROW) &&
	      ktest_get(fd) == 0,
	      "hugetlbfs memfds share the seal state too (%s, 0x%x, %s)",
	      ktest_err(e1), up, ktest_err(e2));
	close(fd);
}

int main(void)
{
	const int planned = 9 + 1 + 1 + 1 + 3 + 3 + 1;

	ktest_plan(planned);
	test_enforcement();
	test_remove_upstream_write();
	test_upstream_bits_survive();
	test_seal_seal();
	test_unsealable();
	test_bad_calls();
	test_hugetlbfs();
	return ktest_done(planned);
}
