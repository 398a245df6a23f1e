/* SPDX-License-Identifier: MIT */
/*
 * seal-fuzz-model.c - seal-fuzz's model of every file (seals, size, fds,
 * mappings, watchers, messages in flight, pinned pages), the generator,
 * findings, and the invariant check of the kernel's seals and size
 * against the model after each operation.
 */
#include <stdarg.h>
#include <stdio.h>

#include "ktest.h"
#include "seal-fuzz.h"

uint64_t rng;

static uint64_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 2685821657736338717ULL;
}

unsigned int pick(unsigned int n)
{
	return n ? (unsigned int)(rnd() % n) : 0;
}

/* The model. */
struct mfile files[MAXF];
struct fdinfo fds[MAXFD];
struct map maps[MAXMAP];
struct watcher watchers[MAXWATCH];
struct flight flights[MAXFLIGHT];
struct pin pins[MAXPIN];
int nmaps, nwatch, nflight, npins;
long step, fatal, closed_findings, ops_done;
bool verbose;
int next_id;
const char *opname;

void finding(bool is_fatal, const char *fmt, ...)
{
	va_list ap;

	if (is_fatal)
		fatal++;
	else
		closed_findings++;
	if (!is_fatal && closed_findings > 20)
		return;
	printf("# %s at step %ld (%s): ", is_fatal ? "FAIL" : "note", step, opname);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* --- the model -------------------------------------------------------- */

static int fd_count(int f)
{
	int n = 0;

	for (int i = 0; i < MAXFD; i++)
		n += fds[i].file == f;
	return n;
}

int map_count(int f, bool writable_only)
{
	int n = 0;

	for (int i = 0; i < nmaps; i++)
		n += maps[i].file == f && (!writable_only || maps[i].shared_w);
	for (int i = 0; writable_only && i < nwatch; i++)
		n += watchers[i].file == f && watchers[i].shared_w;
	return n;
}

int others(int f, int count_of_own_fds)
{
	int n = fd_count(f) - count_of_own_fds + map_count(f, false);

	for (int i = 0; i < nwatch; i++)
		n += watchers[i].file == f;
	for (int i = 0; i < nflight; i++)
		n += flights[i].file == f;
	return n;
}

bool pinned(int f)
{
	for (int i = 0; i < npins; i++)
		if (pins[i].file == f)
			return true;
	return false;
}

/* A random fd of ours for file @f (any file if @f < 0), or -1. */
int some_fd(int f)
{
	int cand[MAXFD], n = 0;

	for (int i = 0; i < MAXFD; i++)
		if (fds[i].file >= 0 && (f < 0 || fds[i].file == f))
			cand[n++] = i;
	return n ? cand[pick(n)] : -1;
}

void track(int fd, int f, bool writable)
{
	if (fd >= 0 && fd < MAXFD) {
		fds[fd].file = f;
		fds[fd].writable = writable;
	} else if (fd >= MAXFD) {
		close(fd);
	}
}

/* No reference left: the file is gone, and so are our pins of it. */
void maybe_dead(int f)
{
	if (f < 0 || !files[f].live || others(f, 0))
		return;
	files[f].live = false;
	for (int i = 0; i < npins; i++) {
		if (pins[i].file != f)
			continue;
		close(pins[i].pipe[0]);
		close(pins[i].pipe[1]);
		pins[i--] = pins[--npins];
	}
}

void untrack(int fd)
{
	if (fd >= 0 && fd < MAXFD) {
		int f = fds[fd].file;

		fds[fd].file = -1;
		maybe_dead(f);
	}
}

unsigned int seed_to_up(unsigned int s)
{
	return (unsigned int)wlseal_seed_to_upstream((int)s);
}

/* Compare the kernel's seals of @f (read through @fd) with the model. */
void check_seals(int f, int fd)
{
	int up = ktest_get_upstream(fd), seed = ktest_get(fd);
	off_t size = ktest_size(fd);

	if (up < 0 || seed < 0) {
		finding(true, "F_GET_SEALS %d, SHMEM_GET_SEALS %d on fd %d", up, seed, fd);
		return;
	}
	if ((unsigned int)(up & SEEDBITS) != seed_to_up(seed))
		finding(true, "F_GET_SEALS 0x%x and SHMEM_GET_SEALS 0x%x disagree", up, seed);
	if ((unsigned int)up != files[f].seals) {
		finding(true, "file %d: kernel seals 0x%x, expected 0x%x", f, up, files[f].seals);
		files[f].seals = up;
	}
	if (size != files[f].size) {
		finding(true, "file %d: size %lld, expected %lld", f,
			(long long)size, (long long)files[f].size);
		files[f].size = size;
	}
}
