/* SPDX-License-Identifier: MIT */
/*
 * shm-cases.c - test-compositor's cases of the wl_shm policy: which pools
 * and buffers a raw client gets, which are refused with which error, and
 * that the compositor stays up for the next client.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "test-compositor.h"
#include "wlseal-seals.h"

static void refused_pool(const char *what, int fd, int32_t size,
			 const char *reason)
{
	struct comp c;
	struct raw raw;
	struct wl_shm_pool *pool;

	comp_start(&c, NULL);
	raw_connect(&raw);
	pool = wl_shm_create_pool(raw.shm, fd, size);
	(void)pool;
	close(fd);
	expect_error(&raw, what, "wl_shm", WL_SHM_ERROR_INVALID_FD, reason);
	raw_disconnect(&raw);
	expect_refusal_logged(&c, "wl_shm.create_pool", reason);
	expect_alive(&c);
	comp_stop(&c);
}

/*
 * Each pool keeps an fd open in the compositor: one client must not be able
 * to take them all. Past --max-pools-per-client live pools the next one is
 * refused, and another client still gets its pool.
 */
void test_pool_budget(void)
{
	static const char *const budget[] = { "--max-pools-per-client=20", NULL };
	struct comp c;
	struct raw greedy, other;

	comp_start(&c, budget);
	raw_connect(&greedy);
	for (int i = 0; i < 20; i++) {
		int fd = make_memfd(4096, F_SEAL_SHRINK);

		wl_shm_create_pool(greedy.shm, fd, 4096);
		close(fd);
	}
	expect_accepted(&greedy, "20 live pools");
	raw_connect(&other);
	{
		int fd = make_memfd(4096, F_SEAL_SHRINK);

		wl_shm_create_pool(greedy.shm, fd, 4096);
		close(fd);
	}
	expect_error(&greedy, "a 21st live pool", "wl_shm", WL_SHM_ERROR_INVALID_FD,
		     "too many pools (20 live, limit 20 per client)");
	expect_refusal_logged(&c, "wl_shm.create_pool", "too many pools");
	raw_disconnect(&greedy);
	{
		int fd = make_memfd(4096, F_SEAL_SHRINK);

		wl_shm_create_pool(other.shm, fd, 4096);
		close(fd);
	}
	expect_accepted(&other, "another client's pool beside the greedy one");
	raw_disconnect(&other);
	expect_alive(&c);
	comp_stop(&c);
}

/*
 * Whatever the per-client budget, pools stop before the compositor's fd
 * table is full: it keeps WLSEAL_FD_RESERVE fds for new clients. Run it
 * under a hard limit of 256 fds (inherited from this test process).
 */
void test_fd_reserve(void)
{
	static const char *const budget[] = { "--max-pools-per-client=100000", NULL };
	struct rlimit rl = { .rlim_cur = 256, .rlim_max = 256 };
	struct comp c;
	struct raw greedy, late;
	int sent;

	if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
		fail("setrlimit: %s", strerror(errno));
	comp_start(&c, budget);
	raw_connect(&greedy);
	for (sent = 0; sent < 300; sent++) {
		int fd = make_memfd(4096, F_SEAL_SHRINK);

		wl_shm_create_pool(greedy.shm, fd, 4096);
		close(fd);
		if (sent % 20 == 19 && wl_display_roundtrip(greedy.display) < 0)
			break;
	}
	check(sent < 256 - 128,
	      "refused after %d pools, before the last 128 of 256 fds", sent);
	{
		const struct wl_interface *iface = NULL;
		uint32_t id, code;

		code = wl_display_get_protocol_error(greedy.display, &iface, &id);
		check(wl_display_get_error(greedy.display) == EPROTO && iface &&
		      !strcmp(iface->name, "wl_shm") && code == WL_SHM_ERROR_INVALID_FD &&
		      strstr(last_client_log, "compositor near its file descriptor limit"),
		      "refused: %s error %u, message '%s'", iface ? iface->name : "?",
		      code, strtok(last_client_log, "\n"));
	}
	raw_connect(&late);
	expect_accepted(&late, "a new client while the greedy one held its pools");
	raw_disconnect(&late);
	raw_disconnect(&greedy);
	expect_alive(&c);
	comp_stop(&c);
}

void test_sealed_pool(void)
{
	struct comp c;
	struct raw raw;
	struct wl_shm_pool *pool;
	struct wl_buffer *buf;
	int fd = make_memfd(64 * 64 * 4, F_SEAL_SHRINK);

	comp_start(&c, NULL);
	raw_connect(&raw);
	pool = wl_shm_create_pool(raw.shm, fd, 64 * 64 * 4);
	buf = wl_shm_pool_create_buffer(pool, 0, 64, 64, 256,
					WL_SHM_FORMAT_ARGB8888);
	expect_accepted(&raw, "SEAL_SHRINK pool and buffer");
	/* Growing the file and then the pool is fine under SEAL_SHRINK. */
	if (ftruncate(fd, 2 * 64 * 64 * 4) < 0)
		fail("ftruncate: %s", strerror(errno));
	wl_shm_pool_resize(pool, 2 * 64 * 64 * 4);
	expect_accepted(&raw, "resize within the grown file");
	wl_buffer_destroy(buf);
	wl_shm_pool_destroy(pool);
	close(fd);
	raw_disconnect(&raw);
	check(!proc_contains(&c.p, "refused"), "compositor logged no refusal");
	comp_stop(&c);
}

void test_unsealed(void)
{
	refused_pool("unsealed memfd", make_memfd(16384, 0), 16384,
		     "missing F_SEAL_SHRINK (file seals 0x0)");
}

void test_grow_only(void)
{
	refused_pool("GROW-only memfd", make_memfd(16384, F_SEAL_GROW), 16384,
		     "missing F_SEAL_SHRINK (file seals 0x4)");
}

void test_write_only(void)
{
	refused_pool("WRITE-only memfd", make_memfd(16384, F_SEAL_WRITE), 16384,
		     "missing F_SEAL_SHRINK (file seals 0x8)");
}

void test_not_sealable(void)
{
	int p[2];

	/* A memfd created without MFD_ALLOW_SEALING carries F_SEAL_SEAL. */
	refused_pool("memfd without sealing", make_memfd(16384, -1), 16384,
		     "missing F_SEAL_SHRINK (file seals 0x1)");
	if (pipe(p) < 0)
		fail("pipe");
	close(p[1]);
	refused_pool("pipe", p[0], 16384, "not a sealable file");
}

void test_pool_larger(void)
{
	refused_pool("pool larger than file",
		     make_memfd(16384, F_SEAL_SHRINK), 16385,
		     "file smaller than pool (file 16384 bytes, pool 16385 bytes)");
}

void test_resize_past_file(void)
{
	struct comp c;
	struct raw raw;
	struct wl_shm_pool *pool;
	int fd = make_memfd(16384, F_SEAL_SHRINK);

	comp_start(&c, NULL);
	raw_connect(&raw);
	pool = wl_shm_create_pool(raw.shm, fd, 16384);
	expect_accepted(&raw, "pool of the file's size");
	wl_shm_pool_resize(pool, 32768);
	expect_error(&raw, "resize past the end of the file", "wl_shm_pool",
		     WL_SHM_ERROR_INVALID_FD,
		     "file smaller than pool (file 16384 bytes, pool 32768 bytes)");
	raw_disconnect(&raw);
	close(fd);
	expect_refusal_logged(&c, "wl_shm_pool.resize", "file smaller than pool");
	expect_alive(&c);
	comp_stop(&c);
}

struct bad_buffer {
	const char *what;
	int32_t offset, width, height, stride;
	uint32_t format;
	uint32_t code;
	const char *msg;
};

void test_buffer_overflow(void)
{
	const int32_t size = 65536;
	static const struct bad_buffer cases[] = {
		{ "negative offset", -4, 16, 16, 64, 1, 1, "invalid buffer parameters" },
		{ "zero width", 0, 0, 16, 64, 1, 1, "invalid buffer parameters" },
		{ "negative height", 0, 16, -5, 64, 1, 1, "invalid buffer parameters" },
		{ "negative stride", 0, 16, 16, -64, 1, 1, "invalid buffer parameters" },
		{ "stride < width * 4", 0, 16, 16, 60, 1, 1, "stride 60 too small" },
		{ "width * 4 overflows int32", 0, INT32_MAX, 1, 64, 1, 1, "too small for width" },
		{ "width 2^29-1 with stride 2^31-4", 0, (1 << 29) - 1, 1, INT32_MAX - 3, 1, 1, "buffer outside pool" },
		{ "stride not a multiple of 4", 0, 1, 16, 6, 1, 1, "not a multiple of 4" },
		{ "stride * height overflows int32", 0, 16, INT32_MAX, 64, 1, 1, "buffer outside pool" },
		{ "stride * height at int32 max", 0, 16, 2, INT32_MAX - 3, 1, 1, "buffer outside pool" },
		{ "offset at int32 max", INT32_MAX, 16, 16, 64, 1, 1, "buffer outside pool" },
		{ "offset + size one past pool", 65536 - 1024 + 4, 16, 16, 64, 1, 1, "buffer outside pool" },
		{ "unsupported format", 0, 16, 16, 64, 0x34325258 /* XR24 fourcc */,
		  WL_SHM_ERROR_INVALID_FORMAT, "unsupported format" },
	};
	struct comp c;
	struct raw raw;
	struct wl_shm_pool *pool;
	size_t i;
	int fd = make_memfd(size, F_SEAL_SHRINK);

	comp_start(&c, NULL);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct bad_buffer *b = &cases[i];

		raw_connect(&raw);
		pool = wl_shm_create_pool(raw.shm, fd, size);
		wl_shm_pool_create_buffer(pool, b->offset, b->width, b->height,
					  b->stride, b->format);
		expect_error(&raw, b->what, "wl_shm_pool", b->code, b->msg);
		raw_disconnect(&raw);
	}
	/* The exact fit is fine. */
	raw_connect(&raw);
	pool = wl_shm_create_pool(raw.shm, fd, size);
	wl_shm_pool_create_buffer(pool, size - 1024, 16, 16, 64,
				  WL_SHM_FORMAT_XRGB8888);
	expect_accepted(&raw, "buffer ending exactly at the pool's end");
	raw_disconnect(&raw);
	close(fd);
	expect_alive(&c);
	comp_stop(&c);
}

void test_permissive(void)
{
	static const char *const args[] = { "--policy=permissive", NULL };
	struct comp c;
	struct raw raw;
	int fd = make_memfd(16384, 0);

	comp_start(&c, args);
	raw_connect(&raw);
	wl_shm_create_pool(raw.shm, fd, 16384);
	expect_accepted(&raw, "permissive policy: unsealed pool");
	raw_disconnect(&raw);
	close(fd);
	check(!has_signal_handler(c.p.pid, SIGBUS),
	      "permissive policy installs no SIGBUS handler either");
	comp_stop(&c);
}

/* Open fds of process @pid (-1 when /proc cannot tell). */
static int count_fds(pid_t pid)
{
	char path[64];
	struct dirent *e;
	DIR *d;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	d = opendir(path);
	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/*
 * A departed client's pools are released a batch per loop turn
 * (compositor/shm/pool.c, the reaper), not all inside its disconnect:
 * 200 pools, then the client goes. The verbose log must show the release
 * in batches of at most 32 whose counts add up to 200, ending at 0 left,
 * a connected client is served meanwhile, and afterwards every fd the
 * pools held is closed (the compositor's fd count is back where it was
 * before the greedy client came).
 */
void test_reaper(void)
{
	static const char *const verbose[] = { "--verbose", NULL };
	struct comp c;
	struct raw greedy, other;
	size_t from = 0;
	char line[256];
	int base, released = 0, batches = 0, left = -1;

	comp_start(&c, verbose);
	raw_connect(&other);
	expect_accepted(&other, "a client beside the greedy one");
	base = count_fds(c.p.pid);
	raw_connect(&greedy);
	for (int i = 0; i < 200; i++) {
		int fd = make_memfd(4096, F_SEAL_SHRINK);

		wl_shm_create_pool(greedy.shm, fd, 4096);
		close(fd);
		if (i % 20 == 19)
			expect_accepted(&greedy, "20 more pools");
	}
	check(count_fds(c.p.pid) >= base + 200,
	      "200 pools hold 200 fds (%d, %d before)", count_fds(c.p.pid), base);
	raw_disconnect(&greedy);
	while (left != 0) {
		int n, l;

		if (!proc_wait(&c.p, &from, "reaper: released ", TIMEOUT_MS,
			       line, sizeof(line)))
			fail("no reaper line after the greedy client left "
			     "(%d released, %d left)", released, left);
		if (sscanf(strstr(line, "reaper: released "),
			   "reaper: released %d pools, %d left",
			   &n, &l) != 2)
			fail("bad reaper line: %s", line);
		check(n >= 1 && n <= 32, "a batch of %d pools (1..32)", n);
		released += n;
		batches++;
		left = l;
	}
	check(released == 200 && batches >= 7,
	      "200 pools released in %d batches (%d released)", batches, released);
	expect_accepted(&other, "the other client is served");
	/* The last close of each file happens on the compositor's closer
	 * thread (shm/closer.c); the heap is trimmed only once nothing is
	 * being released any more. */
	if (!proc_wait(&c.p, &from, "heap trimmed after clients left",
		       TIMEOUT_MS, line, sizeof(line)))
		fail("no heap trim after the greedy client's pools were released");
	check(count_fds(c.p.pid) == base,
	      "every pool fd closed: %d fds, %d before the greedy client",
	      count_fds(c.p.pid), base);
	raw_disconnect(&other);
	expect_alive(&c);
	comp_stop(&c);
}

/*
 * A large pool is unmapped a slice per loop turn (compositor/shm/pool.c,
 * REAP_SLICE, 4 MiB), even while its client stays connected: a 16 MiB
 * pool, created and destroyed with no buffer, goes in three slices and
 * a last release, and the client that destroyed it is served after.
 */
void test_large_pool_sliced(void)
{
	static const char *const verbose[] = { "--verbose", NULL };
	struct comp c;
	struct raw cl;
	struct wl_shm_pool *pool;
	size_t from = 0;
	char line[256];
	int fd, slices = 0, mib = -1;

	comp_start(&c, verbose);
	raw_connect(&cl);
	fd = make_memfd(16 << 20, F_SEAL_SHRINK);
	pool = wl_shm_create_pool(cl.shm, fd, 16 << 20);
	close(fd);
	expect_accepted(&cl, "a 16 MiB pool");
	wl_shm_pool_destroy(pool);
	expect_accepted(&cl, "the pool destroyed");
	while (mib != 4) {
		if (!proc_wait(&c.p, &from, "reaper: unmapped ", TIMEOUT_MS,
			       line, sizeof(line)))
			fail("no slice line after %d slices", slices);
		if (sscanf(strstr(line, "reaper: unmapped "),
			   "reaper: unmapped 4 MiB of a pool, %d MiB left",
			   &mib) != 1)
			fail("bad slice line: %s", line);
		slices++;
	}
	check(slices == 3, "16 MiB unmapped in 3 slices of 4 MiB and a last release (%d slices)",
	      slices);
	if (!proc_wait(&c.p, &from, "reaper: released 1 pools, 0 left",
		       TIMEOUT_MS, line, sizeof(line)))
		fail("the last 16 MiB were not released");
	expect_accepted(&cl, "the client is served after");
	raw_disconnect(&cl);
	expect_alive(&c);
	comp_stop(&c);
}
