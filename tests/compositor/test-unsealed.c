/* SPDX-License-Identifier: MIT */
/*
 * test-unsealed.c - wlseal-compositor --unsealed=refuse|seal|copy: what a
 * pool whose file lacks F_SEAL_SHRINK gets in each mode, read back from
 * the file's seals, the screen, the log and the compositor's mappings.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "toplevel.h"
#include "wlseal-seals.h"

#define W 64
#define H 64
#define STRIDE (W * 4)
#define SIZE (STRIDE * H)
#define MEMFD_NAME "wlseal-test-unsealed"

/* A memfd of @size bytes: sealable (MFD_ALLOW_SEALING, no seal yet) or
 * not (F_SEAL_SEAL from the start). */
static int memfd(size_t size, bool sealable)
{
	int fd = memfd_create(MEMFD_NAME, MFD_CLOEXEC |
			      (sealable ? MFD_ALLOW_SEALING : 0));

	if (fd < 0 || ftruncate(fd, (off_t)size) < 0)
		fail("memfd: %s", strerror(errno));
	return fd;
}

/* Rows [@y1, @y2) of the W x H buffer at offset 0 of @fd in @color. */
static void fill_rows(int fd, int y1, int y2, uint32_t color)
{
	uint32_t row[W];

	for (int x = 0; x < W; x++)
		row[x] = color;
	for (int y = y1; y < y2; y++)
		if (pwrite(fd, row, sizeof(row), (off_t)y * STRIDE) != sizeof(row))
			fail("pwrite: %s", strerror(errno));
}

/* A toplevel showing a W x H ARGB8888 buffer of a pool on @fd; its
 * origin becomes the screenshots' 0,0. */
static struct wl_buffer *show_fd(struct t *t, struct win *w, int fd)
{
	struct wl_shm_pool *pool = wl_shm_create_pool(t->shm, fd, SIZE);
	struct wl_buffer *b = wl_shm_pool_create_buffer(pool, 0, W, H, STRIDE,
							WL_SHM_FORMAT_ARGB8888);
	int x, y;

	wl_shm_pool_destroy(pool);
	win_create(t, w);
	win_initial_commit(w);
	xdg_surface_ack_configure(w->xs, w->serial);
	wl_surface_attach(w->s, b, 0, 0);
	wl_surface_damage_buffer(w->s, 0, 0, W, H);
	wl_surface_commit(w->s);
	if (wl_display_roundtrip(t->display) < 0)
		fail("connection lost after the commit");
	wait_mapped(t, &x, &y, "the window");
	t->ox = x;
	t->oy = y;
	return b;
}

/* Lines of the compositor's log that contain @needle. */
static int log_count(struct t *t, const char *needle)
{
	const char *p = t->c.p.buf;
	int n = 0;

	while (p && (p = strstr(p, needle))) {
		n++;
		p += strlen(needle);
	}
	return n;
}

/* Mappings of our memfd in the compositor (/proc/PID/maps names it). */
static int maps_of_memfd(pid_t pid)
{
	char path[64], line[512];
	FILE *f;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		fail("%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f))
		n += strstr(line, "memfd:" MEMFD_NAME) != NULL;
	fclose(f);
	return n;
}

/* refuse (and the default): exactly the old answer, and the file is
 * left as it came. */
static void test_refuse(void)
{
	static const char *const args[] = { "--unsealed=refuse", NULL };
	static struct t t;
	int fd = memfd(SIZE, true);

	t_start_args(&t, args);
	wl_shm_create_pool(t.shm, fd, SIZE);
	expect_error(&t, "unsealed memfd", "wl_shm", WL_SHM_ERROR_INVALID_FD);
	check(strstr(t.error, "missing F_SEAL_SHRINK (file seals 0x0)") != NULL,
	      "the error names the missing seal: %s", t.error);
	check(fcntl(fd, F_GET_SEALS) == 0, "the file still carries no seal (0x%x)",
	      fcntl(fd, F_GET_SEALS));
	close(fd);
	wl_display_disconnect(t.display);
	comp_stop(&t.c);
}

static void test_seal(void)
{
	static const char *const args[] = { "--unsealed=seal", NULL };
	static struct t t;
	static struct win w1, w2;
	int fd = memfd(SIZE, true), fd2 = memfd(SIZE, true), ro, seals;

	t_start_args(&t, args);
	fill_rows(fd, 0, H, GREEN);
	show_fd(&t, &w1, fd);
	screenshot(&t);
	expect_rect(&t, 0, 0, W, H, GREEN, "the pool sealed on receipt");
	seals = fcntl(fd, F_GET_SEALS);
	check(seals == F_SEAL_SHRINK, "F_GET_SEALS afterwards: 0x%x (want F_SEAL_SHRINK)",
	      seals);
	check(ftruncate(fd, 0) < 0 && errno == EPERM,
	      "the client's own shrink fails with EPERM");
	check(ftruncate(fd, 2 * SIZE) == 0, "growing is still allowed");
	/* The counterpart of test_copy's check: a sealed pool is mapped,
	 * and /proc/PID/maps names the memfd. */
	check(maps_of_memfd(t.c.p.pid) == 1, "the sealed pool is mapped (%d mappings)",
	      maps_of_memfd(t.c.p.pid));

	/* A second pool of the same client: sealed too, said once. */
	show_fd(&t, &w2, fd2);
	check(fcntl(fd2, F_GET_SEALS) == F_SEAL_SHRINK, "second file sealed as well");
	check(log_count(&t, "the compositor sealed it") == 1,
	      "logged once for the client (%d lines)",
	      log_count(&t, "the compositor sealed it"));

	/* Files that cannot take the seal are refused as before. */
	close(fd2);
	fd2 = memfd(SIZE, false);
	wl_shm_create_pool(t.shm, fd2, SIZE);
	expect_error(&t, "memfd without sealing", "wl_shm", WL_SHM_ERROR_INVALID_FD);
	check(strstr(t.error, "missing F_SEAL_SHRINK (file seals 0x1)") != NULL,
	      "refused: %s", t.error);
	close(fd2);
	fd2 = memfd(SIZE, true);
	{
		char path[64];

		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd2);
		ro = open(path, O_RDONLY | O_CLOEXEC);
	}
	if (ro < 0)
		fail("reopen: %s", strerror(errno));
	wl_shm_create_pool(t.shm, ro, SIZE);
	expect_error(&t, "read-only fd of a sealable file", "wl_shm",
		     WL_SHM_ERROR_INVALID_FD);
	check(strstr(t.error, "F_ADD_SEALS of it failed: Operation not permitted") != NULL,
	      "F_ADD_SEALS refused (EPERM): %s", t.error);
	check(fcntl(fd2, F_GET_SEALS) == 0, "that file stays unsealed");
	close(ro);
	close(fd2);
	close(fd);
	wl_display_disconnect(t.display);
	comp_stop(&t.c);
}

static void test_copy(void)
{
	static const char *const args[] = { "--unsealed=copy",
					    "--max-pool-memory=67108864", NULL };
	static struct t t;
	static struct win w;
	struct wl_shm_pool *pool;
	struct wl_buffer *b;
	int fd = memfd(SIZE, false), big;

	t_start_args(&t, args);
	fill_rows(fd, 0, H, RED);
	b = show_fd(&t, &w, fd);
	screenshot(&t);
	expect_rect(&t, 0, 0, W, H, RED, "copied buffer, first commit");
	check(maps_of_memfd(t.c.p.pid) == 0,
	      "the compositor maps no part of the unsealable file");

	/* Only damaged rows are read: rows 0-15 damaged, 32-63 changed in
	 * the file but not damaged, so the compositor keeps its copy. */
	fill_rows(fd, 0, 16, BLUE);
	fill_rows(fd, 32, H, GREEN);
	wl_surface_damage_buffer(w.s, 0, 0, W, 16);
	wl_surface_commit(w.s);
	screenshot(&t);
	expect_rect(&t, 0, 0, W, 16, BLUE, "damaged rows read again");
	expect_rect(&t, 0, 16, W, H - 16, RED, "undamaged rows not read");

	/* Truncated under the compositor: a short read, never SIGBUS; the
	 * client broke its pool and is ended with invalid_fd on the
	 * buffer, as libwayland's wl_shm does. */
	if (ftruncate(fd, STRIDE * 40) < 0)
		fail("ftruncate: %s", strerror(errno));
	wl_surface_damage_buffer(w.s, 0, 0, W, H);
	wl_surface_commit(w.s);
	expect_error(&t, "a commit of a buffer whose file was truncated",
		     "wl_buffer", WL_SHM_ERROR_INVALID_FD);
	check(proc_wait(&t.c.p, &t.log_from,
			"copied buffer short by 6144 of 16384 bytes",
			TIMEOUT_MS, NULL, 0),
	      "the short read is logged");
	check(proc_alive(&t.c.p) && !has_signal_handler(t.c.p.pid, SIGBUS),
	      "compositor alive, without a SIGBUS handler");
	check(maps_of_memfd(t.c.p.pid) == 0, "still no mapping of the file");
	(void)b;

	/* A pool larger than its file: accepted (nothing is mapped); the
	 * buffer's first commit finds the file short. */
	close(fd);
	fd = memfd(STRIDE * 8, false);
	{
		struct wl_shm_pool *small = wl_shm_create_pool(t.shm, fd, SIZE);

		b = wl_shm_pool_create_buffer(small, 0, W, H, STRIDE,
					      WL_SHM_FORMAT_ARGB8888);
		wl_shm_pool_destroy(small);
	}
	if (wl_display_roundtrip(t.display) < 0)
		fail("a copied pool larger than its file was refused: %s",
		     last_client_log);
	tap_ok("a copied pool larger than its file is accepted");
	win_create(&t, &w);
	win_initial_commit(&w);
	xdg_surface_ack_configure(w.xs, w.serial);
	wl_surface_attach(w.s, b, 0, 0);
	wl_surface_commit(w.s);
	expect_error(&t, "a buffer past the end of its file, committed",
		     "wl_buffer", WL_SHM_ERROR_INVALID_FD);

	/* The copies count against the pool memory budget: a sparse 48 MiB
	 * unsealable pool's buffer is within 64 MiB, a second is not. */
	big = memfd(48 << 20, false);
	pool = wl_shm_create_pool(t.shm, big, 48 << 20);
	wl_shm_pool_create_buffer(pool, 0, 1024, 12288, 4096,
				  WL_SHM_FORMAT_XRGB8888);
	if (wl_display_roundtrip(t.display) < 0)
		fail("a 48 MiB copied buffer within the budget was refused");
	wl_shm_pool_create_buffer(pool, 0, 1024, 12288, 4096,
				  WL_SHM_FORMAT_XRGB8888);
	expect_error(&t, "a second 48 MiB copied buffer", "wl_shm_pool",
		     WL_SHM_ERROR_INVALID_FD);
	check(strstr(t.error, "pool memory limit") != NULL ||
	      strstr(t.error, "pool bytes") != NULL,
	      "refused by the pool memory budget: %s", t.error);
	close(big);

	/* Not a regular file: nothing to pread from. */
	{
		int p[2];

		if (pipe(p) < 0)
			fail("pipe");
		wl_shm_create_pool(t.shm, p[0], SIZE);
		expect_error(&t, "a pipe", "wl_shm", WL_SHM_ERROR_INVALID_FD);
		check(strstr(t.error, "not a regular file") != NULL,
		      "refused: %s", t.error);
		close(p[0]);
		close(p[1]);
	}
	close(fd);
	wl_display_disconnect(t.display);
	comp_stop(&t.c);
}

/*
 * A large copied commit is read off the loop: a 64 MiB buffer's first
 * commit (all of it) is read on the populate thread, so no dispatch of
 * the client takes a frame of the compositor thread's CPU (the exit
 * report's worst dispatch, thread CPU); its content shows once the read
 * is back, and a truncated file found by such a read still ends the
 * client with invalid_fd on the buffer.
 */
#define BIG_W 1024
#define BIG_H 16384
#define BIG_STRIDE (BIG_W * 4)

static void test_copy_large(void)
{
	static const char *const args[] = { "--unsealed=copy",
					    "--max-pool-memory=268435456", NULL };
	static struct t t;
	static struct win w;
	size_t size = (size_t)BIG_STRIDE * BIG_H;
	uint32_t *row = malloc(BIG_STRIDE);
	struct wl_shm_pool *pool;
	struct wl_buffer *b;
	char line[256];
	const char *worst;
	int fd = memfd(size, false), x, y;
	size_t from;
	long us = -1;

	if (!row)
		fail("malloc");
	t_start_args(&t, args);
	/* The rows the output can show in red; the rest a sparse hole. */
	for (int i = 0; i < BIG_W; i++)
		row[i] = RED;
	for (int r = 0; r < 256; r++)
		if (pwrite(fd, row, BIG_STRIDE, (off_t)r * BIG_STRIDE) != BIG_STRIDE)
			fail("pwrite: %s", strerror(errno));
	free(row);
	pool = wl_shm_create_pool(t.shm, fd, (int32_t)size);
	b = wl_shm_pool_create_buffer(pool, 0, BIG_W, BIG_H, BIG_STRIDE,
				      WL_SHM_FORMAT_XRGB8888);
	wl_shm_pool_destroy(pool);
	win_create(&t, &w);
	win_initial_commit(&w);
	xdg_surface_ack_configure(w.xs, w.serial);
	wl_surface_attach(w.s, b, 0, 0);
	wl_surface_damage_buffer(w.s, 0, 0, BIG_W, BIG_H);
	from = t.log_from;
	wl_surface_commit(w.s);
	if (wl_display_roundtrip(t.display) < 0)
		fail("connection lost after the commit");
	wait_mapped(&t, &x, &y, "the window");
	t.ox = x;
	t.oy = y;
	check(proc_wait(&t.c.p, &from, "rows of 1 spans read off the loop",
			TIMEOUT_MS, NULL, 0),
	      "the 64 MiB first commit is handed to the populate thread");
	check(proc_wait(&t.c.p, &from, "read 67108864 bytes in 1 spans",
			TIMEOUT_MS, NULL, 0),
	      "the read is back: all 64 MiB");
	screenshot(&t);
	expect_rect(&t, 0, 0, 64, 64, RED, "the copied content shows once read");
	check(maps_of_memfd(t.c.p.pid) == 0,
	      "the compositor maps no part of the unsealable file");

	/* Truncated: the thread's read comes back short, and the report,
	 * on the loop, ends the client on its live buffer. */
	if (ftruncate(fd, BIG_STRIDE * 100) < 0)
		fail("ftruncate: %s", strerror(errno));
	wl_surface_damage_buffer(w.s, 0, 0, BIG_W, BIG_H);
	if (from < t.log_from)
		from = t.log_from;
	wl_surface_commit(w.s);
	wl_display_flush(t.display);
	/* The error is posted when the read is back, after the log line:
	 * then the roundtrip finds it. */
	check(proc_wait(&t.c.p, &from, "rows of 1 spans read off the loop",
			TIMEOUT_MS, NULL, 0),
	      "the truncated commit's rows were read off the loop too");
	check(proc_wait(&t.c.p, &from, "copied buffer short by",
			TIMEOUT_MS, NULL, 0),
	      "the short read is logged");
	expect_error(&t, "a large commit of a buffer whose file was truncated",
		     "wl_buffer", WL_SHM_ERROR_INVALID_FD);
	close(fd);
	wl_display_disconnect(t.display);
	comp_stop(&t.c);

	/* The exit report: the worst dispatch's thread CPU. */
	worst = strstr(t.c.p.buf, "turn cpu: worst dispatch ");
	if (worst && sscanf(worst, "turn cpu: worst dispatch %ld us", &us) != 1)
		us = -1;
	snprintf(line, sizeof(line), "%ld", us);
	check(us >= 0 && us < 16000,
	      "no dispatch took a frame (16 ms) of thread CPU: worst %s us",
	      line);
}

static const struct harness_test tests[] = {
	{ "unsealed-refuse", test_refuse },
	{ "unsealed-seal", test_seal },
	{ "unsealed-copy", test_copy },
	{ "unsealed-copy-large", test_copy_large },
};

int main(int argc, char **argv)
{
	return harness_main("test-unsealed", tests,
			    sizeof(tests) / sizeof(tests[0]), argc, argv);
}
