/* SPDX-License-Identifier: MIT */
/*
 * wlseal-memcpy-bound - the physical bound for a composited frame: what a
 * plain memcpy() of the same bytes costs on this machine, in thread CPU
 * time (CLOCK_THREAD_CPUTIME_ID), so that scripts/bench can put a
 * compositor's CPU per frame beside it.
 *
 * The source and destination are two separate buffers of the frame's
 * size, like a client's buffer and the compositor's output image. Before
 * each copy the source is rewritten (not timed), as a client draws a new
 * frame, so the copy does not read a source that stayed in cache only
 * because nothing else touched it.
 *
 * Output, one line:
 *   WLSEAL-MEMCPY bytes=N copies=C ms_min=A ms_median=B ms_max=C
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void usage(FILE *f)
{
	fprintf(f, "usage: wlseal-memcpy-bound [--bytes N | --size WxH] [--copies N]\n"
		   "Time memcpy() of N bytes (or W*H*4) between two buffers, --copies\n"
		   "times (default 200), in thread CPU time; print min/median/max ms.\n");
}

static double thread_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "bytes", required_argument, NULL, 'b' },
		{ "size", required_argument, NULL, 's' },
		{ "copies", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	unsigned long long bytes = 1024ull * 768 * 4;
	long copies = 200, i;
	unsigned char *src, *dst;
	double *ms;
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'b':
			errno = 0;
			bytes = strtoull(optarg, &end, 10);
			if (errno || *end || !bytes || bytes > (1ull << 30)) {
				fprintf(stderr, "bad --bytes '%s' (1 .. 1 GiB)\n", optarg);
				return 2;
			}
			break;
		case 's': {
			long w = strtol(optarg, &end, 10), h = 0;

			if (*end == 'x')
				h = strtol(end + 1, &end, 10);
			if (*end || w <= 0 || h <= 0 || w > 16384 || h > 16384) {
				fprintf(stderr, "bad --size '%s' (WxH, at most 16384)\n", optarg);
				return 2;
			}
			bytes = (unsigned long long)w * (unsigned long long)h * 4;
			break;
		}
		case 'c':
			copies = strtol(optarg, &end, 10);
			if (*end || copies < 1 || copies > 1000000) {
				fprintf(stderr, "bad --copies '%s' (1 .. 1000000)\n", optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	src = malloc(bytes);
	dst = malloc(bytes);
	ms = calloc((size_t)copies, sizeof(*ms));
	if (!src || !dst || !ms) {
		fprintf(stderr, "wlseal-memcpy-bound: out of memory for 2 x %llu bytes\n", bytes);
		return 1;
	}
	memset(dst, 0, bytes);		/* fault every page in before timing */
	for (i = 0; i < copies; i++) {
		double t0;

		memset(src, (int)(i & 0xff), bytes);
		t0 = thread_ms();
		memcpy(dst, src, bytes);
		ms[i] = thread_ms() - t0;
		/* Keep the copy observable so it is not optimized away. */
		__asm__ volatile("" : : "r"(dst) : "memory");
	}
	qsort(ms, (size_t)copies, sizeof(*ms), cmp_double);
	printf("WLSEAL-MEMCPY bytes=%llu copies=%ld ms_min=%.4f ms_median=%.4f ms_max=%.4f\n",
	       bytes, copies, ms[0], ms[copies / 2], ms[copies - 1]);
	free(ms);
	free(dst);
	free(src);
	return 0;
}
