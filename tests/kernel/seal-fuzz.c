/* SPDX-License-Identifier: MIT */
/*
 * seal-fuzz: a seeded, reproducible fuzzer of the seal ABIs of the patched
 * kernel (SHMEM_SET_SEALS / SHMEM_GET_SEALS, F_ADD_SEALS / F_GET_SEALS,
 * memfd_create_sized()).
 *
 * One driver process applies a random sequence of operations, chosen by
 * a xorshift generator from --seed, to a few memfds: memfd_create and
 * memfd_create_sized, F_ADD_SEALS, SHMEM_SET_SEALS, dup, close, dup2,
 * close_range, /proc/self/fd reopen (read-write and read-only), SCM_RIGHTS
 * messages kept in flight, mmap/munmap (shared writable and read-only),
 * ftruncate, fallocate, write, vmsplice (pages pinned by a pipe), fork()
 * children that try to change seals, udmabufs of the files in both modes
 * (pages pinned by a dma-buf; every write path of a read-only one tried,
 * the DRM import's included: seal-fuzz-udmabuf.c), watcher processes (forked, or fed
 * through SCM_RIGHTS) that hold an fd or only a read-only mapping, and
 * races: a thread calls SHMEM_SET_SEALS while the driver empties the slot
 * and another thread holds inode_lock with fallocate().
 *
 * The driver keeps a model of every file (seals, size, its fds, mappings,
 * watchers, messages in flight, pinned pages) and predicts each result.
 * After each step it checks:
 *  - fail-open (fatal): a seal change or a truncation, write or mapping the
 *    model forbids succeeded, e.g. SHMEM_SET_SEALS changed set seals while
 *    another reference existed;
 *  - the kernel's seals are what the model expects after the call, and
 *    F_GET_SEALS agrees with SHMEM_GET_SEALS;
 *  - every watcher still sees the seals it verified (or more) and what
 *    they promise: no shrink, no growth, unchanged contents under
 *    SEAL_WRITE|SEAL_SHRINK; a watcher holding only a mapping reads every
 *    page it verified, without a SIGBUS handler;
 *  - fail-closed (reported, not fatal): the kernel refused what the model
 *    allowed (e.g. a transiently busy page).
 * The op sequence depends only on the seed; races and thread timing do
 * not change which operation comes next. Exit 0 if no fatal finding.
 *
 * This file holds the driver: the weighted table of operations and main();
 * the model is in seal-fuzz-model.c, the watchers in seal-fuzz-watchers.c,
 * the operations in seal-fuzz-ops.c and seal-fuzz-udmabuf.c.
 */
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <time.h>

#include "ktest.h"
#include "seal-fuzz.h"

/* --- driver ------------------------------------------------------------- */

static const struct {
	const char *name;
	void (*fn)(void);
	int weight;
} ops[] = {
	{ "set_seals", op_set_seals, 12 }, { "add_seals", op_add_seals, 4 },
	{ "dup", op_dup, 6 }, { "close", op_close, 6 }, { "dup2", op_dup2, 4 },
	{ "close_range", op_close_range, 2 }, { "reopen", op_reopen, 4 },
	{ "scm_rights", op_scm, 4 }, { "mmap", op_mmap, 6 },
	{ "ftruncate", op_truncate, 6 }, { "write", op_write, 5 },
	{ "fallocate", op_fallocate, 4 }, { "vmsplice", op_vmsplice, 2 },
	{ "udmabuf", op_udmabuf, 3 },
	{ "watcher", op_watch, 4 }, { "fork_try", op_fork_try, 2 },
	{ "race", op_race, 2 },
};

static void usage(FILE *out, const char *argv0)
{
	fprintf(out,
		"usage: %s [--seed S] [--ops N] [--verbose] [--help]\n"
		"Seeded fuzzer of the seal ABIs (SHMEM_SET_SEALS, F_ADD_SEALS,\n"
		"memfd_create_sized) on the patched kernel: random operations on a few\n"
		"memfds from threads, fork() children and watcher processes, with the\n"
		"sealing invariants checked after every step. The same seed replays\n"
		"the same operation sequence.\n"
		"  --seed S    64-bit seed (default: from the clock; printed)\n"
		"  --ops N     operations to run (default 2000)\n"
		"  --verbose   print every operation\n"
		"Prints TAP; exit 0 if no invariant was broken.\n", argv0);
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "ops", required_argument, NULL, 'n' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	uint64_t seed = 0;
	long nops = 2000;
	int total = 0, c;
	bool have_seed = false;
	struct timespec t0, t1;
	double secs;
	char *end;

	while ((c = getopt_long(argc, argv, "s:n:vh", lo, NULL)) != -1) {
		switch (c) {
		case 's':
			errno = 0;
			seed = strtoull(optarg, &end, 0);
			if (errno || *end || !*optarg) {
				fprintf(stderr, "seal-fuzz: --seed %s: not a number\n", optarg);
				return 2;
			}
			have_seed = true;
			break;
		case 'n':
			errno = 0;
			nops = strtol(optarg, &end, 0);
			if (errno || *end || nops < 0) {
				fprintf(stderr, "seal-fuzz: --ops %s: not a count\n", optarg);
				return 2;
			}
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			usage(stdout, argv[0]);
			return 0;
		default:
			usage(stderr, argv[0]);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "seal-fuzz: unexpected argument %s\n", argv[optind]);
		return 2;
	}
	if (!have_seed) {
		clock_gettime(CLOCK_REALTIME, &t0);
		seed = (uint64_t)t0.tv_sec * 1000000007ULL ^ (uint64_t)t0.tv_nsec;
	}
	rng = seed ? seed : 1;
	signal(SIGPIPE, SIG_IGN);
	for (int i = 0; i < MAXFD; i++)
		fds[i].file = -1;
	for (unsigned int i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		total += ops[i].weight;

	printf("1..1\n# seal-fuzz --seed %" PRIu64 " --ops %ld\n", seed, nops);
	fflush(stdout);
	c = wlseal_memfd_create_sized("probe", 0, MFD_CLOEXEC);
	if (c < 0 || fcntl(c, SHMEM_GET_SEALS) < 0) {
		printf("not ok 1 - the seed sealing ABI is not available (%s)\n",
		       strerror(errno));
		return 1;
	}
	close(c);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (step = 0; step < nops; step++) {
		int w = pick(total), i = 0;

		/* keep at least one file, at most MAXF */
		if (some_fd(-1) < 0 || !pick(40)) {
			opname = "create";
			new_file();
		}
		while (w >= ops[i].weight)
			w -= ops[i++].weight;
		opname = ops[i].name;
		if (verbose)
			printf("# %ld %s\n", step, opname);
		ops[i].fn();
		ops_done++;
		check_watchers();
		if (fatal > 5)
			break;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	opname = "teardown";
	while (nwatch)
		end_watcher(0);
	secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("# %ld operations in %.2f s (%.0f ops/s), %ld fatal, %ld fail-closed findings\n",
	       ops_done, secs, secs > 0 ? ops_done / secs : 0.0, fatal, closed_findings);
	printf("%sok 1 - seal invariants held over %ld operations (seed %" PRIu64 ")\n",
	       fatal ? "not " : "", ops_done, seed);
	return fatal ? 1 : 0;
}
