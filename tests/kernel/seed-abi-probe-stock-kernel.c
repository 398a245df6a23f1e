/* SPDX-License-Identifier: MIT */
/*
 * seed-abi-probe-stock-kernel (host test): on a kernel without the series,
 * the seed ABI is reported as not available, its calls fail cleanly
 * (memfd_create_sized with ENOSYS, SHMEM_SET_SEALS / SHMEM_GET_SEALS with
 * EINVAL), and wlseal_memfd_create_sealable() falls back to the upstream
 * memfd_create() + F_ADD_SEALS, which works.
 */
#include <sys/syscall.h>
#include <sys/utsname.h>

#include "ktest.h"

int main(void)
{
	const int planned = 5;
	struct utsname u;
	int fd, e1, e2, g, r;
	bool avail;

	ktest_plan(planned);
	if (uname(&u) == 0)
		ktest_diag("kernel %s %s", u.release, u.version);

	errno = 4242;
	avail = wlseal_seed_abi_available();
	ktest(!avail && errno == 4242,
	      "wlseal_seed_abi_available() reports the seed ABI not available and keeps errno");

	r = (int)syscall(1000, "probe", (uint64_t)4096, (uint64_t)0);
	ktest(r == -1 && errno == ENOSYS,
	      "syscall 1000 (memfd_create_sized) fails with ENOSYS (%d, %s)", r,
	      r < 0 ? strerror(errno) : "succeeded");
	if (r >= 0)
		close(r);

	fd = memfd_create("probe", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		ktest_bail("memfd_create");
	e1 = ktest_set(fd, SHMEM_SEAL_SHRINK);
	g = ktest_get(fd);
	ktest(e1 == EINVAL && g == -EINVAL,
	      "SHMEM_SET_SEALS and SHMEM_GET_SEALS fail with EINVAL (%s, %s)",
	      ktest_err(e1), ktest_err(-g));
	close(fd);

	fd = wlseal_memfd_create_sealable("fallback", 8192);
	e1 = fd < 0 ? errno : ktest_add(fd, F_SEAL_SHRINK | F_SEAL_GROW);
	ktest(fd >= 0 && !e1 && ktest_size(fd) == 8192 &&
	      ktest_get_upstream(fd) == (F_SEAL_SHRINK | F_SEAL_GROW),
	      "fallback: wlseal_memfd_create_sealable() + F_ADD_SEALS work (%s)",
	      ktest_err(e1));
	e2 = fd < 0 ? 0 : (ftruncate(fd, 4096) < 0 ? errno : 0);
	ktest(fd >= 0 && e2 == EPERM,
	      "fallback: the upstream seal is enforced (ftruncate: %s)",
	      ktest_err(e2));
	if (fd >= 0)
		close(fd);
	return ktest_done(planned);
}
