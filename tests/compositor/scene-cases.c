/* SPDX-License-Identifier: MIT */
/*
 * scene-cases.c - test-compositor's cases with real clients: the pixels of
 * wlseal-client's frames in a screenshot and the frame checksum, damage,
 * frame callbacks and presentation feedback, resizing, the seal APIs, the
 * SIGBUS handler (or its absence), and unmodified weston clients.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "pattern.h"
#include "test-compositor.h"
#include "wlseal-seals.h"

/* Must match compositor/compositor.h. */
#define BACKGROUND 0xff203040u

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
	client_spawn(&client, cargs);

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

void test_pixels(void)
{
	static const char *const args[] = { "--seal-api=upstream", NULL };

	pixel_test(args, 7, 320, 240);
}

void test_write_sealed(void)
{
	static const char *const args[] = { "--seals=shrink,write", NULL };

	pixel_test(args, 5, 200, 150);
}

void test_screenshot_frame(void)
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

void test_damage(void)
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
	client_spawn(&client, cargs);
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

void test_frames_presentation(void)
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
	client_spawn(&client, cargs);
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
	client_spawn(&client, cargs);
	client_exits_ok(&client, "3 frames");
	check(has_signal_handler(c.p.pid, SIGBUS) == want_handler,
	      "SigCgt bit for SIGBUS is %s", want_handler ? "set" : "clear");
	comp_stop(&c);
}

void test_no_sigbus_handler(void)
{
	static const char *const cargs[] = { "--frames=3", "--exit", NULL };

	sigbus_test(NULL, cargs, false);
}

void test_libwayland_sigbus_handler(void)
{
	static const char *const args[] = { "--shm=libwayland", NULL };
	/* libwayland >= 1.20 skips its handler for SEAL_SHRINK pools, so the
	 * contrast needs an unsealed one. */
	static const char *const cargs[] = { "--frames=3", "--exit",
					     "--seals=none", NULL };

	/* The contrast: proves the check above can see a handler. */
	sigbus_test(args, cargs, true);
}

void test_resize(void)
{
	static const char *const cargs[] = { "--frames=70", "--exit", "--resize",
					     "--size=160x120", NULL };
	struct comp c;
	struct proc client;

	comp_start(&c, NULL);
	client_spawn(&client, cargs);
	client_exits_ok(&client, "--resize over 70 frames (grow, shrink, grow)");
	check(!proc_contains(&c.p, "refused"), "compositor logged no refusal");
	comp_stop(&c);
}

void test_seal_api(void)
{
	static const char *const v1[] = { "--seal-api=v1", "--frames=2", "--exit", NULL };
	static const char *const autoapi[] = { "--seal-api=auto", "--frames=2", "--exit", NULL };
	struct comp c;
	struct proc client;
	bool seed = wlseal_seed_abi_available();

	comp_start(&c, NULL);
	client_spawn(&client, v1);
	if (!proc_wait_exit(&client, TIMEOUT_MS))
		fail("client did not exit");
	if (seed)
		check(WIFEXITED(client.status) && WEXITSTATUS(client.status) == 0,
		      "--seal-api=v1 works on the seed-ABI kernel");
	else
		check(WIFEXITED(client.status) && WEXITSTATUS(client.status) == 1 &&
		      proc_contains(&client, "no seed sealing ABI"),
		      "--seal-api=v1 fails clearly on a stock kernel");
	client_spawn(&client, autoapi);
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

void test_weston_simple_shm(void)
{
	weston_client_test("/usr/bin/weston-simple-shm");
}

void test_weston_presentation_shm(void)
{
	weston_client_test("/usr/bin/weston-presentation-shm");
}
