/* SPDX-License-Identifier: MIT */
/*
 * wlseal-bench-seals - the seed ABI's calls against the upstream ones, as
 * ratios measured in one run (for the bench-kernel VM scenario):
 *
 *   create: memfd_create_sized(name, size) + close, against
 *           memfd_create(MFD_ALLOW_SEALING) + ftruncate(size) + close;
 *   seal:   fcntl(SHMEM_SET_SEALS, SHRINK|GROW) against
 *           fcntl(F_ADD_SEALS, F_SEAL_SHRINK|F_SEAL_GROW), each on a fresh
 *           file (seals cannot be taken back), only the fcntl timed.
 *
 * The two sides alternate in batches, and each figure is the median of
 * the batches' mean, so a slow moment of the machine hits both alike.
 * Output: WLSEAL-BENCH lines; exit 77 when the kernel lacks the seed ABI.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "wlseal-seals.h"

#define BATCHES 9

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void die(const char *what)
{
	fprintf(stderr, "wlseal-bench-seals: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* One timed operation; returns its ns. */
static double create_sized(long size)
{
	double t0 = now_ns(), t;
	int fd = wlseal_memfd_create_sized("bench", (uint64_t)size, MFD_CLOEXEC);

	if (fd < 0)
		die("memfd_create_sized");
	close(fd);
	t = now_ns() - t0;
	return t;
}

static double create_upstream(long size)
{
	double t0 = now_ns(), t;
	int fd = memfd_create("bench", MFD_CLOEXEC | MFD_ALLOW_SEALING);

	if (fd < 0)
		die("memfd_create");
	if (ftruncate(fd, size) < 0)
		die("ftruncate");
	close(fd);
	t = now_ns() - t0;
	return t;
}

static double seal_op(long size, bool seed)
{
	int fd = wlseal_memfd_create_sized("bench", (uint64_t)size, MFD_CLOEXEC);
	double t0, t;
	int r;

	if (fd < 0)
		die("memfd_create_sized");
	t0 = now_ns();
	r = seed ? fcntl(fd, SHMEM_SET_SEALS, SHMEM_SEAL_SHRINK | SHMEM_SEAL_GROW)
		 : fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW);
	t = now_ns() - t0;
	if (r < 0)
		die(seed ? "SHMEM_SET_SEALS" : "F_ADD_SEALS");
	close(fd);
	return t;
}

/* Median over BATCHES of the mean of @n calls of each side, alternating. */
static void compare(const char *name, const char *a_name, const char *b_name,
		    double (*a)(long, int), double (*b)(long, int), long size,
		    long n)
{
	double ma[BATCHES], mb[BATCHES], ratio[BATCHES];
	int i;
	long k;

	for (i = 0; i < BATCHES; i++) {
		double sa = 0, sb = 0;

		for (k = 0; k < n; k++) {
			sa += a(size, 1);
			sb += b(size, 0);
		}
		ma[i] = sa / (double)n;
		mb[i] = sb / (double)n;
		ratio[i] = ma[i] / mb[i];
	}
	qsort(ma, BATCHES, sizeof(double), cmp_double);
	qsort(mb, BATCHES, sizeof(double), cmp_double);
	qsort(ratio, BATCHES, sizeof(double), cmp_double);
	printf("WLSEAL-BENCH %s size=%ld calls=%ld %s_ns=%.0f %s_ns=%.0f ratio=%.2f ratio_min=%.2f ratio_max=%.2f\n",
	       name, size, n * BATCHES, a_name, ma[BATCHES / 2], b_name,
	       mb[BATCHES / 2], ratio[BATCHES / 2], ratio[0], ratio[BATCHES - 1]);
}

static double create_a(long size, int unused) { (void)unused; return create_sized(size); }
static double create_b(long size, int unused) { (void)unused; return create_upstream(size); }
static double seal_a(long size, int unused) { (void)unused; return seal_op(size, true); }
static double seal_b(long size, int unused) { (void)unused; return seal_op(size, false); }

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "calls", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	long n = 200, size = 1 << 20;
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			n = strtol(optarg, &end, 10);
			if (*end || n < 1 || n > 1000000) {
				fprintf(stderr, "bad --calls '%s' (1 .. 1000000)\n", optarg);
				return 2;
			}
			break;
		case 'h':
			printf("usage: wlseal-bench-seals [--calls N]\n"
			       "Time memfd_create_sized against memfd_create+ftruncate and\n"
			       "SHMEM_SET_SEALS against F_ADD_SEALS, %d batches of N calls each\n"
			       "(default 200); print WLSEAL-BENCH lines with the ratios.\n",
			       BATCHES);
			return 0;
		default:
			return 2;
		}
	}
	if (!wlseal_seed_abi_available()) {
		printf("WLSEAL-BENCH skipped: the kernel lacks the seed ABI\n");
		return 77;
	}
	compare("create", "memfd_create_sized", "memfd_create_ftruncate",
		create_a, create_b, size, n);
	compare("seal", "SHMEM_SET_SEALS", "F_ADD_SEALS", seal_a, seal_b, size, n);
	return 0;
}
