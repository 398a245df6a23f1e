/* SPDX-License-Identifier: MIT */
/*
 * test-compositor - host tests of wlseal-compositor's headless backend.
 *
 * Usage: test-compositor TEST. Each TEST starts its own compositor in a
 * private XDG_RUNTIME_DIR, prints TAP lines, and exits non-zero on the
 * first failed check.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <png.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <sys/resource.h>
#include <unistd.h>
#include <zlib.h>

#include <wayland-client.h>

#include "harness.h"
#include "pattern.h"
#include "wlseal-seals.h"

/* Must match compositor/compositor.h. */
#define BACKGROUND 0xff203040u

/* ---- a raw client, to send exactly the requests a test needs ---- */

struct raw {
	struct wl_display *display;
	struct wl_registry *registry;
	struct wl_shm *shm;
	struct wl_compositor *compositor;
};

static char last_client_log[1024];

/* libwayland-client logs the protocol error text here; keep it. */
static void client_log(const char *fmt, va_list ap)
{
	vsnprintf(last_client_log, sizeof(last_client_log), fmt, ap);
}

static void reg_global(void *data, struct wl_registry *r, uint32_t name,
		       const char *iface, uint32_t version)
{
	struct raw *raw = data;

	(void)version;
	if (!strcmp(iface, "wl_shm"))
		raw->shm = wl_registry_bind(r, name, &wl_shm_interface, 1);
	else if (!strcmp(iface, "wl_compositor"))
		raw->compositor = wl_registry_bind(r, name,
						   &wl_compositor_interface, 4);
}

static void reg_remove(void *data, struct wl_registry *r, uint32_t name)
{
	(void)data; (void)r; (void)name;
}

static const struct wl_registry_listener reg_listener = {
	.global = reg_global,
	.global_remove = reg_remove,
};

static void raw_connect(struct raw *raw)
{
	memset(raw, 0, sizeof(*raw));
	wl_log_set_handler_client(client_log);
	raw->display = wl_display_connect(NULL);
	if (!raw->display)
		fail("cannot connect: %s", strerror(errno));
	raw->registry = wl_display_get_registry(raw->display);
	wl_registry_add_listener(raw->registry, &reg_listener, raw);
	if (wl_display_roundtrip(raw->display) < 0 || !raw->shm || !raw->compositor)
		fail("no wl_shm/wl_compositor");
}

static void raw_disconnect(struct raw *raw)
{
	wl_display_disconnect(raw->display);
}

/* A memfd of @size bytes with @seals added (-1: without MFD_ALLOW_SEALING). */
static int make_memfd(size_t size, int seals)
{
	unsigned int flags = MFD_CLOEXEC | (seals >= 0 ? MFD_ALLOW_SEALING : 0);
	int fd = memfd_create("wlseal-test", flags);

	if (fd < 0 || ftruncate(fd, (off_t)size) < 0)
		fail("memfd: %s", strerror(errno));
	if (seals > 0 && fcntl(fd, F_ADD_SEALS, seals) < 0)
		fail("F_ADD_SEALS 0x%x: %s", seals, strerror(errno));
	return fd;
}

/* The connection must be alive: a roundtrip succeeds. */
static void expect_accepted(struct raw *raw, const char *what)
{
	int r = wl_display_roundtrip(raw->display);

	check(r >= 0, "%s accepted (roundtrip %d, log '%s')", what, r,
	      last_client_log);
}

/* The connection must die with exactly this protocol error. */
static void expect_error(struct raw *raw, const char *what, const char *iface,
			 uint32_t code, const char *msg)
{
	const struct wl_interface *got_iface = NULL;
	uint32_t got_code, id;
	int err;

	last_client_log[0] = 0;
	if (wl_display_roundtrip(raw->display) >= 0)
		fail("%s: accepted, expected %s error %u", what, iface, code);
	err = wl_display_get_error(raw->display);
	if (err != EPROTO)
		fail("%s: connection error %d (%s), expected a protocol error",
		     what, err, strerror(err));
	got_code = wl_display_get_protocol_error(raw->display, &got_iface, &id);
	check(got_iface && !strcmp(got_iface->name, iface) && got_code == code &&
	      strstr(last_client_log, msg),
	      "%s refused: %s error %u, message '%s' (want %s %u '%s')", what,
	      got_iface ? got_iface->name : "?", got_code,
	      strtok(last_client_log, "\n"), iface, code, msg);
}

/* The compositor logged the refusal with our pid and the reason. */
static void expect_refusal_logged(struct comp *c, const char *request,
				  const char *reason)
{
	char needle[256];

	snprintf(needle, sizeof(needle), "refused client pid=%d %s: %s",
		 (int)getpid(), request, reason);
	check(proc_wait(&c->p, NULL, needle, TIMEOUT_MS, NULL, 0),
	      "compositor logged '%s'", needle);
}

static void expect_alive(struct comp *c)
{
	struct raw raw;

	check(proc_alive(&c->p), "compositor still running");
	raw_connect(&raw);
	expect_accepted(&raw, "a new connection after the refusal");
	raw_disconnect(&raw);
}

/* ---- wl_shm policy tests ---- */

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
static void test_pool_budget(void)
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
static void test_fd_reserve(void)
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

static void test_sealed_pool(void)
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

static void test_unsealed(void)
{
	refused_pool("unsealed memfd", make_memfd(16384, 0), 16384,
		     "missing F_SEAL_SHRINK (file seals 0x0)");
}

static void test_grow_only(void)
{
	refused_pool("GROW-only memfd", make_memfd(16384, F_SEAL_GROW), 16384,
		     "missing F_SEAL_SHRINK (file seals 0x4)");
}

static void test_write_only(void)
{
	refused_pool("WRITE-only memfd", make_memfd(16384, F_SEAL_WRITE), 16384,
		     "missing F_SEAL_SHRINK (file seals 0x8)");
}

static void test_not_sealable(void)
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

static void test_pool_larger(void)
{
	refused_pool("pool larger than file",
		     make_memfd(16384, F_SEAL_SHRINK), 16385,
		     "file smaller than pool (file 16384 bytes, pool 16385 bytes)");
}

static void test_resize_past_file(void)
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

static void test_buffer_overflow(void)
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

static void test_permissive(void)
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

/* ---- scenes: the real client ---- */

static void run_client(struct proc *p, const char *const extra[])
{
	char *argv[16];
	int n = 0;

	argv[n++] = (char *)bin_client();
	while (extra && *extra && n < 15)
		argv[n++] = (char *)*extra++;
	argv[n] = NULL;
	proc_spawn(p, argv);
}

static void client_exits_ok(struct proc *p, const char *what)
{
	if (!proc_wait_exit(p, TIMEOUT_MS))
		fail("%s: client did not exit", what);
	check(WIFEXITED(p->status) && WEXITSTATUS(p->status) == 0,
	      "%s: client exit status 0x%x", what, p->status);
}

static bool read_png(const char *path, png_image *img, uint8_t **rgb)
{
	memset(img, 0, sizeof(*img));
	img->version = PNG_IMAGE_VERSION;
	if (!png_image_begin_read_from_file(img, path))
		return false;
	img->format = PNG_FORMAT_RGB;
	*rgb = malloc(PNG_IMAGE_SIZE(*img));
	return png_image_finish_read(img, NULL, *rgb, 0, NULL);
}

static uint32_t rgb_at(const uint8_t *rgb, int w, int x, int y)
{
	const uint8_t *p = rgb + ((size_t)y * w + x) * 3;

	return 0xff000000u | (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

/*
 * Shows wlseal-client's frame @frames with @client_args, takes a
 * screenshot (SIGUSR1) and compares every pixel with the pattern and the
 * background; also checks that the compositor's WLSEAL-FRAME checksum of
 * that frame is the checksum of the screenshot.
 */
static void pixel_test(const char *const client_args[], uint32_t frames,
		       int32_t cw, int32_t ch)
{
	static const char *const args[] = { "--size=640x480", "--verbose",
					    "--print-frames", NULL };
	char line[256], want[64], fr[32], sz[32];
	const char *cargs[12];
	struct comp c;
	struct proc client;
	unsigned long long seq, shot_seq;
	unsigned int crc_printed;
	int mx, my, mw, mh, x, y, n = 0, bad = 0;
	png_image img;
	uint8_t *rgb;
	uLong crc;

	comp_start(&c, args);
	snprintf(fr, sizeof(fr), "--frames=%u", frames);
	snprintf(sz, sizeof(sz), "--size=%dx%d", cw, ch);
	cargs[n++] = fr;
	cargs[n++] = sz;
	while (client_args && *client_args)
		cargs[n++] = *client_args++;
	cargs[n] = NULL;
	run_client(&client, cargs);

	snprintf(want, sizeof(want), "WLSEAL-CLIENT-LAST frame=%u seq=", frames);
	if (!proc_wait(&client, NULL, want, TIMEOUT_MS, line, sizeof(line)))
		fail("client never reported frame %u on screen", frames);
	seq = strtoull(strstr(line, "seq=") + 4, NULL, 10);
	tap_ok("client frame %u presented in compositor frame %llu", frames, seq);

	if (!proc_wait(&c.p, NULL, "mapped pid=", TIMEOUT_MS, line, sizeof(line)) ||
	    sscanf(strstr(line, " at "), " at %d,%d size %dx%d", &mx, &my, &mw, &mh) != 4)
		fail("no mapping line");
	check(mw == cw && mh == ch, "window mapped at %d,%d size %dx%d", mx, my, mw, mh);

	snprintf(want, sizeof(want), "WLSEAL-FRAME %llu ", seq);
	if (!proc_wait(&c.p, NULL, want, TIMEOUT_MS, line, sizeof(line)))
		fail("no WLSEAL-FRAME line for frame %llu", seq);
	crc_printed = (unsigned int)strtoul(line + strlen(want), NULL, 16);

	/* The client asks for nothing more: the screen stays on @seq. */
	proc_kill(&c.p, SIGUSR1);
	if (!proc_wait(&c.p, NULL, "screenshot frame=", TIMEOUT_MS, line, sizeof(line)))
		fail("no screenshot written");
	shot_seq = strtoull(strstr(line, "frame=") + 6, NULL, 10);
	check(shot_seq == seq, "screenshot is of frame %llu (client's last: %llu)",
	      shot_seq, seq);

	if (!read_png(c.shot, &img, &rgb))
		fail("cannot read %s: %s", c.shot, img.message);
	check(img.width == 640 && img.height == 480, "screenshot is %ux%u",
	      img.width, img.height);
	for (y = 0; y < 480; y++) {
		for (x = 0; x < 640; x++) {
			bool inside = x >= mx && x < mx + mw && y >= my && y < my + mh;
			uint32_t expect = inside ?
				wlseal_pattern_pixel(frames, cw, ch, x - mx, y - my) |
					0xff000000u :
				BACKGROUND;
			uint32_t got = rgb_at(rgb, 640, x, y);

			if (got != expect && bad++ < 5)
				printf("# pixel %d,%d: got %08x want %08x\n", x, y,
				       got, expect);
		}
	}
	check(bad == 0, "all 640x480 pixels as computed (%d differ)", bad);

	/* The checksum contract: XRGB8888 rows, bytes B, G, R, 0. */
	crc = crc32(0L, Z_NULL, 0);
	for (y = 0; y < 480; y++) {
		uint8_t row[640 * 4];

		for (x = 0; x < 640; x++) {
			const uint8_t *p = rgb + ((size_t)y * 640 + x) * 3;

			row[x * 4 + 0] = p[2];
			row[x * 4 + 1] = p[1];
			row[x * 4 + 2] = p[0];
			row[x * 4 + 3] = 0;
		}
		crc = crc32(crc, row, sizeof(row));
	}
	check((uint32_t)crc == crc_printed,
	      "WLSEAL-FRAME checksum %08x matches the screenshot's %08x",
	      crc_printed, (unsigned int)crc);
	free(rgb);

	check(!proc_contains(&c.p, "refused"), "compositor logged no refusal");
	proc_kill(&client, SIGTERM);
	client_exits_ok(&client, "client on SIGTERM");
	check(proc_contains(&client, "WLSEAL-CLIENT-SUMMARY"),
	      "client printed its timing summary");
	comp_stop(&c);
}

static void test_pixels(void)
{
	static const char *const args[] = { "--seal-api=upstream", NULL };

	pixel_test(args, 7, 320, 240);
}

static void test_write_sealed(void)
{
	static const char *const args[] = { "--seals=shrink,write", NULL };

	pixel_test(args, 5, 200, 150);
}

static void test_screenshot_frame(void)
{
	static const char *const args[] = { "--size=320x200",
					    "--screenshot-frame=1", NULL };
	struct comp c;
	png_image img;
	uint8_t *rgb;
	int x, y, bad = 0;

	/* Frame 1 is the background alone, written without any signal. */
	comp_start(&c, args);
	if (!proc_wait(&c.p, NULL, "screenshot frame=1 written", TIMEOUT_MS,
		       NULL, 0))
		fail("--screenshot-frame=1 wrote nothing");
	if (!read_png(c.shot, &img, &rgb))
		fail("cannot read %s: %s", c.shot, img.message);
	check(img.width == 320 && img.height == 200, "screenshot is %ux%u",
	      img.width, img.height);
	for (y = 0; y < 200; y++)
		for (x = 0; x < 320; x++)
			bad += rgb_at(rgb, 320, x, y) != BACKGROUND;
	check(bad == 0, "frame 1 is the plain background (%d pixels differ)", bad);
	free(rgb);
	comp_stop(&c);
}

static void test_damage(void)
{
	static const char *const args[] = { "--verbose", NULL };
	static const char *const cargs[] = { "--frames=20", "--exit",
					     "--verbose", NULL };
	struct comp c;
	struct proc client;
	char line[256], want[64];
	unsigned long long seq[21];
	uint32_t f;

	comp_start(&c, args);
	run_client(&client, cargs);
	for (f = 1; f <= 20; f++) {
		size_t from = 0;

		snprintf(want, sizeof(want), "PRESENTED frame=%u seq=", f);
		if (!proc_wait(&client, &from, want, TIMEOUT_MS, line, sizeof(line)))
			fail("no presentation of frame %u", f);
		seq[f] = strtoull(strstr(line, "seq=") + 4, NULL, 10);
	}
	client_exits_ok(&client, "20 frames");
	for (f = 3; f <= 20; f++) {
		unsigned long long area;

		snprintf(want, sizeof(want), "frame seq=%llu repainted=", seq[f]);
		if (!proc_wait(&c.p, NULL, want, TIMEOUT_MS, line, sizeof(line)))
			fail("no repaint line for seq %llu", seq[f]);
		area = strtoull(strstr(line, "repainted=") + 10, NULL, 10);
		/* Counter strip + old and new 64x64 square. */
		if (area > 128 * 8 + 2 * 64 * 64 || area == 0)
			fail("frame %u repainted %llu pixels", f, area);
	}
	tap_ok("frames 3..20 each repainted at most the counter and two 64x64 squares");
	comp_stop(&c);
}

static void test_frames_presentation(void)
{
	static const char *const cargs[] = { "--frames=30", "--exit",
					     "--verbose", NULL };
	struct comp c;
	struct proc client;
	char line[512], want[64];
	unsigned long long seq, prev = 0;
	unsigned int callbacks, presented;
	double avg;
	uint32_t f;

	comp_start(&c, NULL);
	run_client(&client, cargs);
	client_exits_ok(&client, "30 frames with --exit");
	for (f = 1; f <= 30; f++) {
		snprintf(want, sizeof(want), "PRESENTED frame=%u seq=", f);
		if (!proc_wait(&client, NULL, want, 0, line, sizeof(line)))
			fail("no presentation feedback for frame %u", f);
		seq = strtoull(strstr(line, "seq=") + 4, NULL, 10);
		/* One commit per frame callback, one frame per commit. */
		if (f > 1 && seq != prev + 1)
			fail("frame %u presented at seq %llu after %llu", f, seq, prev);
		prev = seq;
	}
	tap_ok("presentation feedback for all 30 frames, consecutive output frames");
	if (!proc_wait(&client, NULL, "WLSEAL-CLIENT-SUMMARY", 0, line, sizeof(line)) ||
	    sscanf(strstr(line, "callbacks="), "callbacks=%u presented=%u",
		   &callbacks, &presented) != 2 ||
	    !strstr(line, "interval_ms_avg="))
		fail("no summary line");
	avg = strtod(strstr(line, "interval_ms_avg=") + 16, NULL);
	check(callbacks == 30 && presented == 30,
	      "30 frame callbacks and 30 presented events (%u, %u)", callbacks,
	      presented);
	/* Paced by the 60 Hz output, not free-running. */
	check(avg > 12.0, "frame callbacks paced by the output (avg %.2f ms)", avg);
	comp_stop(&c);
}

static void sigbus_test(const char *const comp_args[],
			const char *const cargs[], bool want_handler)
{
	struct comp c;
	struct proc client;

	comp_start(&c, comp_args);
	/* Let it read a client's pixels first: libwayland installs its
	 * handler lazily, on the first buffer access. */
	run_client(&client, cargs);
	client_exits_ok(&client, "3 frames");
	check(has_signal_handler(c.p.pid, SIGBUS) == want_handler,
	      "SigCgt bit for SIGBUS is %s", want_handler ? "set" : "clear");
	comp_stop(&c);
}

static void test_no_sigbus_handler(void)
{
	static const char *const cargs[] = { "--frames=3", "--exit", NULL };

	sigbus_test(NULL, cargs, false);
}

static void test_libwayland_sigbus_handler(void)
{
	static const char *const args[] = { "--shm=libwayland", NULL };
	/* libwayland >= 1.20 skips its handler for SEAL_SHRINK pools, so the
	 * contrast needs an unsealed one. */
	static const char *const cargs[] = { "--frames=3", "--exit",
					     "--seals=none", NULL };

	/* The contrast: proves the check above can see a handler. */
	sigbus_test(args, cargs, true);
}

static void test_resize(void)
{
	static const char *const cargs[] = { "--frames=70", "--exit", "--resize",
					     "--size=160x120", NULL };
	struct comp c;
	struct proc client;

	comp_start(&c, NULL);
	run_client(&client, cargs);
	client_exits_ok(&client, "--resize over 70 frames (grow, shrink, grow)");
	check(!proc_contains(&c.p, "refused"), "compositor logged no refusal");
	comp_stop(&c);
}

static void test_seal_api(void)
{
	static const char *const v1[] = { "--seal-api=v1", "--frames=2", "--exit", NULL };
	static const char *const autoapi[] = { "--seal-api=auto", "--frames=2", "--exit", NULL };
	struct comp c;
	struct proc client;
	bool seed = wlseal_seed_abi_available();

	comp_start(&c, NULL);
	run_client(&client, v1);
	if (!proc_wait_exit(&client, TIMEOUT_MS))
		fail("client did not exit");
	if (seed)
		check(WIFEXITED(client.status) && WEXITSTATUS(client.status) == 0,
		      "--seal-api=v1 works on the seed-ABI kernel");
	else
		check(WIFEXITED(client.status) && WEXITSTATUS(client.status) == 1 &&
		      proc_contains(&client, "no seed sealing ABI"),
		      "--seal-api=v1 fails clearly on a stock kernel");
	run_client(&client, autoapi);
	client_exits_ok(&client, "--seal-api=auto");
	check(proc_contains(&client, seed ? "seal-api=v1" : "seal-api=upstream"),
	      "auto picked %s", seed ? "v1" : "upstream");
	comp_stop(&c);
}

/* Unmodified clients from the weston package. */
static void weston_client_test(const char *prog)
{
	static const char *const args[] = { "--print-frames", NULL };
	char *argv[] = { (char *)prog, NULL };
	char needle[64], line[128];
	struct comp c;
	struct proc client;
	size_t from;
	int i;

	if (access(prog, X_OK) != 0) {
		printf("ok - # SKIP %s not installed\n", prog);
		return;
	}
	comp_start(&c, args);
	proc_spawn(&client, argv);
	snprintf(needle, sizeof(needle), "client connected pid=%d", (int)client.pid);
	if (!proc_wait(&c.p, NULL, needle, TIMEOUT_MS, NULL, 0))
		fail("%s never connected", prog);
	/* Bounded: 60 frames shown after it connected. */
	from = c.p.len;
	for (i = 0; i < 60; i++)
		if (!proc_wait(&c.p, &from, "WLSEAL-FRAME ", TIMEOUT_MS, line,
			       sizeof(line)))
			fail("%s: only %d frames shown", prog, i);
	check(proc_alive(&client), "%s still running after 60 frames", prog);
	snprintf(needle, sizeof(needle), "client disconnected pid=%d", (int)client.pid);
	check(!proc_contains(&c.p, "refused") && !proc_contains(&c.p, needle),
	      "%s connected, nothing refused", prog);
	proc_kill(&client, SIGTERM);
	proc_wait_exit(&client, TIMEOUT_MS);
	comp_stop(&c);
}

static void test_weston_simple_shm(void)
{
	weston_client_test("/usr/bin/weston-simple-shm");
}

static void test_weston_presentation_shm(void)
{
	weston_client_test("/usr/bin/weston-presentation-shm");
}

static void test_help(void)
{
	struct proc p;
	char *argv[] = { (char *)bin_compositor(), "--help", NULL };
	char *cargv[] = { (char *)bin_client(), "--help", NULL };

	proc_spawn(&p, argv);
	if (!proc_wait_exit(&p, TIMEOUT_MS))
		fail("--help hangs");
	check(WIFEXITED(p.status) && WEXITSTATUS(p.status) == 0 &&
	      proc_contains(&p, "--backend=drm|headless") &&
	      proc_contains(&p, "--shm=wlseal|libwayland") &&
	      proc_contains(&p, "--policy=secure|permissive"),
	      "wlseal-compositor --help");
	proc_spawn(&p, cargv);
	if (!proc_wait_exit(&p, TIMEOUT_MS))
		fail("--help hangs");
	check(WIFEXITED(p.status) && WEXITSTATUS(p.status) == 0 &&
	      proc_contains(&p, "--seal-api=auto|upstream|v1"),
	      "wlseal-client --help");
}

static const struct harness_test tests[] = {
	{ "help", test_help },
	{ "sealed-pool-accepted", test_sealed_pool },
	{ "pool-budget", test_pool_budget },
	{ "fd-reserve", test_fd_reserve },
	{ "unsealed-refused", test_unsealed },
	{ "grow-only-refused", test_grow_only },
	{ "write-only-refused", test_write_only },
	{ "not-sealable-refused", test_not_sealable },
	{ "pool-larger-than-file-refused", test_pool_larger },
	{ "resize-past-file-refused", test_resize_past_file },
	{ "buffer-overflow-refused", test_buffer_overflow },
	{ "permissive-policy", test_permissive },
	{ "no-sigbus-handler", test_no_sigbus_handler },
	{ "libwayland-sigbus-handler", test_libwayland_sigbus_handler },
	{ "screenshot-frame", test_screenshot_frame },
	{ "client-pixels", test_pixels },
	{ "write-sealed-shown", test_write_sealed },
	{ "frame-callbacks-presentation", test_frames_presentation },
	{ "damage-tracking", test_damage },
	{ "client-resize", test_resize },
	{ "client-seal-api", test_seal_api },
	{ "weston-simple-shm", test_weston_simple_shm },
	{ "weston-presentation-shm", test_weston_presentation_shm },
};

int main(int argc, char **argv)
{
	return harness_main("test-compositor", tests, sizeof(tests) / sizeof(tests[0]),
			    argc, argv);
}
