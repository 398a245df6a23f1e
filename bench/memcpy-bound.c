/* SPDX-License-Identifier: MIT */
/*
 * wlseal-memcpy-bound - the physical bound for a composited frame: what a
 * plain memcpy() of the same bytes costs on this machine, in thread CPU
 * time (CLOCK_THREAD_CPUTIME_ID), so that scripts/bench can put a
 * compositor's CPU per frame beside it.
 *
 * The source and destination are two separate buffers of the frame's
 * size, like a client's buffer and the compositor's output image. The
 * source is what a client's buffer is, a memfd mapped MAP_SHARED (shmem,
 * 4 KiB pages); a malloc() of megabytes may get transparent huge pages,
 * whose few TLB misses make the copy several times faster in a VM than a
 * compositor reading a client's pool can ever be. Before
 * each copy the source is rewritten (not timed), as a client draws a new
 * frame: by a second thread pinned to another CPU when there is one, as
 * a client on another core writes its frame. Rewriting it on the copying
 * thread itself (--same-cpu, or on a 1-CPU machine) leaves the frame in
 * this core's caches, a bound no compositor can reach: a client's fresh
 * frame has to come over from the other core's cache or from memory.
 * --cold also flushes the source out of every cache (clflush, x86) before
 * the copy, untimed: the frame then comes from memory, as it does when
 * the client's core is far away (another CCX) or the frame waited.
 *
 * Output, one line:
 *   WLSEAL-MEMCPY bytes=N copies=C ms_min=A ms_median=B ms_max=C source=other-cpu|same-cpu[,cold]
 */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static void usage(FILE *f)
{
	fprintf(f, "usage: wlseal-memcpy-bound [--bytes N | --size WxH] [--copies N] [--same-cpu]\n"
		   "Time memcpy() of N bytes (or W*H*4) between two buffers, --copies\n"
		   "times (default 200), in thread CPU time; print min/median/max ms.\n"
		   "The source is rewritten before each copy by a thread on another CPU\n"
		   "(--same-cpu: by the copying thread, leaving it in this core's cache;\n"
		   "--cold: flushed from every cache before each copy, x86 only).\n");
}

static double thread_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The writer: rewrites the source on another CPU, one frame per turn. */
struct writer {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned char *src;
	unsigned long long bytes;
	long turn, done;	/* frames asked for, frames written */
	int cpu;
};

static void *writer_main(void *data)
{
	struct writer *w = data;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (w->done == w->turn)
			pthread_cond_wait(&w->cond, &w->lock);
		if (w->turn < 0)
			break;
		pthread_mutex_unlock(&w->lock);
		/* In 4 KiB pieces, as a client draws rows: one memset of
		 * megabytes would use non-temporal stores and leave the frame
		 * in memory instead of in the writer's cache. */
		for (unsigned long long o = 0; o < w->bytes; o += 4096)
			memset(w->src + o, (int)(w->turn & 0xff),
			       w->bytes - o < 4096 ? w->bytes - o : 4096);
		pthread_mutex_lock(&w->lock);
		w->done = w->turn;
		pthread_cond_broadcast(&w->cond);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

/* Ask the writer for frame @turn (or to stop, @turn -1) and wait for it. */
static void writer_frame(struct writer *w, long turn)
{
	pthread_mutex_lock(&w->lock);
	w->turn = turn;
	pthread_cond_broadcast(&w->cond);
	while (turn >= 0 && w->done != turn)
		pthread_cond_wait(&w->cond, &w->lock);
	pthread_mutex_unlock(&w->lock);
}

/* Pin this thread to one CPU and return another for the writer, or -1. */
static int pick_cpus(void)
{
	cpu_set_t set;
	int me = -1, other = -1;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return -1;
	for (int c = 0; c < CPU_SETSIZE; c++) {
		if (!CPU_ISSET(c, &set))
			continue;
		if (me < 0)
			me = c;
		else if (other < 0)
			other = c;
	}
	if (other < 0)
		return -1;
	CPU_ZERO(&set);
	CPU_SET(me, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0)
		return -1;
	return other;
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
		{ "same-cpu", no_argument, NULL, 'S' },
		{ "cold", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	unsigned long long bytes = 1024ull * 768 * 4;
	long copies = 200, i;
	unsigned char *src, *dst;
	double *ms;
	char *end;
	int c;
	bool same_cpu = false, cold = false;
	struct writer w = { .lock = PTHREAD_MUTEX_INITIALIZER,
			    .cond = PTHREAD_COND_INITIALIZER, .cpu = -1 };
	pthread_t writer_thread;

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
		case 'S':
			same_cpu = true;
			break;
		case 'C':
#if defined(__x86_64__) || defined(__i386__)
			cold = true;
			break;
#else
			fprintf(stderr, "--cold needs clflush (x86)\n");
			return 2;
#endif
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
	{
		int fd = memfd_create("wlseal-memcpy-bound", MFD_CLOEXEC);

		src = NULL;
		if (fd >= 0 && ftruncate(fd, (off_t)bytes) == 0) {
			src = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
				   MAP_SHARED, fd, 0);
			if (src == MAP_FAILED)
				src = NULL;
		}
		if (fd >= 0)
			close(fd);
	}
	dst = malloc(bytes);
	ms = calloc((size_t)copies, sizeof(*ms));
	if (!src || !dst || !ms) {
		fprintf(stderr, "wlseal-memcpy-bound: out of memory for 2 x %llu bytes\n", bytes);
		return 1;
	}
	memset(dst, 0, bytes);		/* fault every page in before timing */
	memset(src, 0xff, bytes);
	if (!same_cpu)
		w.cpu = pick_cpus();
	if (w.cpu >= 0) {
		w.src = src;
		w.bytes = bytes;
		if (pthread_create(&writer_thread, NULL, writer_main, &w) != 0)
			w.cpu = -1;
	}
	for (i = 0; i < copies; i++) {
		double t0;

		if (w.cpu >= 0)
			writer_frame(&w, i + 1);
		else
			memset(src, (int)(i & 0xff), bytes);
#if defined(__x86_64__) || defined(__i386__)
		if (cold) {
			for (unsigned long long o = 0; o < bytes; o += 64)
				__builtin_ia32_clflush(src + o);
			__builtin_ia32_mfence();
		}
#endif
		t0 = thread_ms();
		memcpy(dst, src, bytes);
		ms[i] = thread_ms() - t0;
		/* Keep the copy observable so it is not optimized away. */
		__asm__ volatile("" : : "r"(dst) : "memory");
	}
	if (w.cpu >= 0) {
		writer_frame(&w, -1);
		pthread_join(writer_thread, NULL);
	}
	qsort(ms, (size_t)copies, sizeof(*ms), cmp_double);
	printf("WLSEAL-MEMCPY bytes=%llu copies=%ld ms_min=%.4f ms_median=%.4f ms_max=%.4f source=%s%s\n",
	       bytes, copies, ms[0], ms[copies / 2], ms[copies - 1],
	       w.cpu >= 0 ? "other-cpu" : "same-cpu", cold ? ",cold" : "");
	free(ms);
	free(dst);
	munmap(src, bytes);
	return 0;
}
