/* SPDX-License-Identifier: MIT */
/*
 * seal-cycles: 1000 set/remove cycles that mix both ABIs leave the
 * writable-mapping counter (i_mmap_writable) balanced. SEAL_WRITE is added
 * through F_ADD_SEALS or SHMEM_SET_SEALS and removed through
 * SHMEM_SET_SEALS; each addition must deny writable mappings once and each
 * removal allow them once. An unbalanced counter shows up as a writable
 * mapping refused without a seal (too many denies) or as SEAL_WRITE that
 * cannot be added without a mapping (too many allows).
 */
#include "ktest.h"

#define SZ 8192
#define CYCLES 1000

/* One cycle; returns a description of the first failed step, or NULL. */
static const char *cycle(int fd, int variant)
{
	switch (variant) {
	case 0:
		if (ktest_add(fd, F_SEAL_WRITE))
			return "F_ADD_SEALS(WRITE)";
		if (ktest_can_map_writable(fd, SZ))
			return "mapping allowed under F_SEAL_WRITE";
		if (ktest_set(fd, 0))
			return "SHMEM_SET_SEALS(0) after F_ADD_SEALS";
		break;
	case 1:
		if (ktest_set(fd, SHMEM_SEAL_WRITE))
			return "SHMEM_SET_SEALS(WRITE)";
		if (ktest_can_map_writable(fd, SZ))
			return "mapping allowed under SHMEM_SEAL_WRITE";
		if (ktest_set(fd, 0))
			return "SHMEM_SET_SEALS(0)";
		break;
	case 2:
		if (ktest_set(fd, SHMEM_SEAL_WRITE | SHMEM_SEAL_SHRINK))
			return "SHMEM_SET_SEALS(WRITE|SHRINK)";
		if (ktest_set(fd, SHMEM_SEAL_GROW))
			return "SHMEM_SET_SEALS(GROW) replacing WRITE";
		if (!ktest_can_map_writable(fd, SZ))
			return "mapping refused after WRITE was replaced";
		if (ktest_set(fd, 0))
			return "SHMEM_SET_SEALS(0) after GROW";
		break;
	case 3:
		if (ktest_add(fd, F_SEAL_WRITE | F_SEAL_SHRINK))
			return "F_ADD_SEALS(WRITE|SHRINK)";
		if (ktest_set(fd, SHMEM_SEAL_WRITE))
			return "SHMEM_SET_SEALS(WRITE) keeping WRITE";
		if (ktest_add(fd, F_SEAL_WRITE | F_SEAL_GROW))
			return "F_ADD_SEALS(WRITE|GROW) with WRITE set";
		if (ktest_set(fd, 0))
			return "SHMEM_SET_SEALS(0) after mixed adds";
		break;
	}
	if (ktest_get(fd) != 0 || ktest_get_upstream(fd) != 0)
		return "seals left after the cycle";
	if (!ktest_can_map_writable(fd, SZ))
		return "writable mapping refused after the cycle";
	return NULL;
}

int main(void)
{
	const int planned = 4;
	const char *err = NULL;
	int fd, i, e1, e2;

	ktest_plan(planned);
	fd = ktest_sized("cycles", SZ);

	for (i = 0; i < CYCLES && !err; i++)
		err = cycle(fd, i % 4);
	ktest(!err, "%d set/remove cycles mixing F_ADD_SEALS and SHMEM_SET_SEALS%s%s",
	      i, err ? ": failed at " : "", err ? err : "");

	/* too many denies would refuse this mapping */
	ktest(ktest_can_map_writable(fd, SZ),
	      "after the cycles a writable shared mapping is allowed");

	/* too many allows would make the deny fail with EBUSY */
	e1 = ktest_add(fd, F_SEAL_WRITE);
	ktest(!e1 && !ktest_can_map_writable(fd, SZ),
	      "after the cycles F_ADD_SEALS(F_SEAL_WRITE) denies writable mappings (%s)",
	      ktest_err(e1));

	e2 = ktest_set(fd, 0);
	ktest(!e2 && ktest_can_map_writable(fd, SZ),
	      "and SHMEM_SET_SEALS(0) allows them again (%s)", ktest_err(e2));
	close(fd);
	return ktest_done(planned);
}
