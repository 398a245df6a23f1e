/* SPDX-License-Identifier: MIT */
/*
 * test-scanout - direct scanout on the headless output: a full-screen,
 * opaque, sealed buffer is shown as it is (the output's image is the
 * client's pixels), with the zero_copy presentation kind and 0 bytes
 * copied in the compositor's frame line, the same pixels as composition,
 * the buffer released only once a later frame replaced it, and every
 * buffer that does not qualify composed as before.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <wayland-client.h>

#include "presentation-time-client-protocol.h"
#include "toplevel.h"

#define ZERO_COPY WP_PRESENTATION_FEEDBACK_KIND_ZERO_COPY

/* The order events arrived in, across objects. */
static int ordinal;

struct fb_state {
	bool done, presented;
	uint32_t kind;
};

static void fb_sync_output(void *data, struct wp_presentation_feedback *f,
			   struct wl_output *o)
{
}

static void fb_presented(void *data, struct wp_presentation_feedback *f,
			 uint32_t sec_hi, uint32_t sec_lo, uint32_t nsec,
			 uint32_t refresh, uint32_t seq_hi, uint32_t seq_lo,
			 uint32_t flags)
{
	struct fb_state *st = data;

	st->done = st->presented = true;
	st->kind = flags;
	wp_presentation_feedback_destroy(f);
}

static void fb_discarded(void *data, struct wp_presentation_feedback *f)
{
	struct fb_state *st = data;

	st->done = true;
	wp_presentation_feedback_destroy(f);
}

static const struct wp_presentation_feedback_listener fb_listener = {
	.sync_output = fb_sync_output,
	.presented = fb_presented,
	.discarded = fb_discarded,
};

struct buf {
	struct wl_buffer *b;
	int released;		/* ordinal of the release, 0: none yet */
};

static void buf_release(void *data, struct wl_buffer *b)
{
	struct buf *bb = data;

	bb->released = ++ordinal;
}

static const struct wl_buffer_listener buf_listener = {
	.release = buf_release,
};

static void sync_done(void *data, struct wl_callback *cb, uint32_t serial)
{
	*(int *)data = ++ordinal;
	wl_callback_destroy(cb);
}

static const struct wl_callback_listener sync_listener = {
	.done = sync_done,
};

/* A @w x @h buffer of @format filled with @pixel, from a SEAL_SHRINK
 * memfd whose pool is destroyed at once (as most clients do). */
static void make_buf(struct t *t, struct buf *out, int w, int h,
		     uint32_t format, uint32_t pixel)
{
	size_t size = (size_t)w * h * 4;
	int fd = make_memfd(size, F_SEAL_SHRINK);
	struct wl_shm_pool *pool;
	uint32_t *px;

	px = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (px == MAP_FAILED)
		fail("mmap: %s", strerror(errno));
	for (size_t i = 0; i < (size_t)w * h; i++)
		px[i] = pixel;
	munmap(px, size);
	pool = wl_shm_create_pool(t->shm, fd, (int32_t)size);
	out->b = wl_shm_pool_create_buffer(pool, 0, w, h, w * 4, format);
	out->released = 0;
	wl_buffer_add_listener(out->b, &buf_listener, out);
	wl_shm_pool_destroy(pool);
	close(fd);
}

static struct wp_presentation *bind_presentation(struct t *t)
{
	struct wp_presentation *p = NULL;
	const struct global_want want[] = {
		{ "wp_presentation", &wp_presentation_interface, 1,
		  (void **)&p },
	};

	bind_globals(t->display, want, 1);
	return p;
}

/* Attaches @b to @s (all damaged) with a presentation feedback, commits,
 * and waits until the feedback is answered. */
static void present(struct t *t, struct wp_presentation *p,
		    struct wl_surface *s, struct buf *b, int w, int h,
		    struct fb_state *st)
{
	struct wp_presentation_feedback *f = wp_presentation_feedback(p, s);

	*st = (struct fb_state){ 0 };
	wp_presentation_feedback_add_listener(f, &fb_listener, st);
	wl_surface_attach(s, b->b, 0, 0);
	wl_surface_damage_buffer(s, 0, 0, w, h);
	wl_surface_commit(s);
	while (!st->done)
		if (wl_display_dispatch(t->display) < 0)
			fail("connection lost waiting for a presentation: %s",
			     last_client_log);
}

/* A fullscreen toplevel, configured at the output's size. */
static void fullscreen_window(struct t *t, struct win *w)
{
	win_create(t, w);
	xdg_toplevel_set_fullscreen(w->tl, NULL);
	win_initial_commit(w);
	check(w->fullscreen && w->w == OUT_W && w->h == OUT_H,
	      "fullscreen configure %dx%d", w->w, w->h);
	xdg_surface_ack_configure(w->xs, w->serial);
}

/* Waits for a compositor frame line with zero_copy=@zc and at least
 * @least bytes copied (the frames before the window's copy less); its
 * copied= value. */
static unsigned long long frame_copied(struct t *t, int zc,
				       unsigned long long least,
				       const char *what)
{
	char line[512], want[32];
	size_t from = 0;
	const char *c;

	snprintf(want, sizeof(want), "zero_copy=%d ", zc);
	while (proc_wait(&t->c.p, &from, want, TIMEOUT_MS, line,
			 sizeof(line)) && (c = strstr(line, "copied="))) {
		unsigned long long v = strtoull(c + strlen("copied="), NULL, 10);

		if (v >= least)
			return v;
	}
	fail("%s: no frame line with %s and %llu bytes copied or more", what,
	     want, least);
}

/* The quadrant screenshot of one mode, and what its frames said. */
static void run_fullscreen(const char *mode, uint8_t **rgb)
{
	static struct t t;
	static struct win w;
	const char *args[] = { mode, NULL };
	struct wp_presentation *p;
	struct fb_state st;
	struct buf b;
	bool direct = !strcmp(mode, "--scanout=direct");
	unsigned long long copied;

	t_start_args(&t, args);
	p = bind_presentation(&t);
	fullscreen_window(&t, &w);
	{
		/* quadrants(), with a release listener of ours */
		b.b = quadrants(&t, OUT_W, OUT_H);
		b.released = 0;
		wl_buffer_add_listener(b.b, &buf_listener, &b);
	}
	present(&t, p, w.s, &b, OUT_W, OUT_H, &st);
	check(st.presented, "%s: the frame was presented", mode);
	check(!!(st.kind & ZERO_COPY) == direct,
	      "%s: presentation kind 0x%x %s zero_copy", mode, st.kind,
	      direct ? "has" : "lacks");
	copied = frame_copied(&t, direct,
			      direct ? 0 : (unsigned long long)OUT_W * OUT_H * 4,
			      mode);
	if (direct)
		check(copied == 0, "%s: 0 bytes copied (%llu)", mode, copied);
	else
		check(copied >= (unsigned long long)OUT_W * OUT_H * 4,
		      "%s: the whole output copied (%llu bytes)", mode, copied);
	screenshot(&t);
	expect_rect(&t, 0, 0, OUT_W / 2, OUT_H / 2, RED, mode);
	expect_rect(&t, OUT_W / 2, OUT_H / 2, OUT_W / 2, OUT_H / 2, YELLOW,
		    mode);
	*rgb = malloc((size_t)OUT_W * OUT_H * 3);
	memcpy(*rgb, t.rgb, (size_t)OUT_W * OUT_H * 3);
	t_stop(&t);
}

/* The same window scanned out and composed: the same pixels, only the
 * scanned-out frame with zero_copy and 0 bytes copied. */
static void test_fullscreen(void)
{
	uint8_t *direct, *composed;

	run_fullscreen("--scanout=direct", &direct);
	run_fullscreen("--scanout=composite", &composed);
	check(!memcmp(direct, composed, (size_t)OUT_W * OUT_H * 3),
	      "the scanned-out frame equals the composed one, pixel for pixel");
	free(direct);
	free(composed);
}

/*
 * A buffer on the screen is released only once a later frame replaced
 * it. The events of one connection arrive in the order they were sent:
 * composed, A's release is sent while B's commit is handled, before the
 * done of a sync sent right after it; scanned out, A stays on the screen
 * until B's frame, so the release comes after that done.
 */
static void run_release(const char *mode, bool direct)
{
	static struct t t;
	static struct win w;
	const char *args[] = { mode, NULL };
	struct wp_presentation *p;
	struct fb_state st;
	struct buf a, b;
	int synced = 0;

	t_start_args(&t, args);
	p = bind_presentation(&t);
	fullscreen_window(&t, &w);
	make_buf(&t, &a, OUT_W, OUT_H, WL_SHM_FORMAT_XRGB8888, RED);
	make_buf(&t, &b, OUT_W, OUT_H, WL_SHM_FORMAT_XRGB8888, GREEN);
	present(&t, p, w.s, &a, OUT_W, OUT_H, &st);
	check(!!(st.kind & ZERO_COPY) == direct, "%s: A's kind 0x%x", mode,
	      st.kind);
	check(!a.released, "%s: A on screen, not released", mode);

	wl_surface_attach(w.s, b.b, 0, 0);
	wl_surface_damage_buffer(w.s, 0, 0, OUT_W, OUT_H);
	wl_surface_commit(w.s);
	wl_callback_add_listener(wl_display_sync(t.display), &sync_listener,
				 &synced);
	while (!synced || !a.released)
		if (wl_display_dispatch(t.display) < 0)
			fail("%s: connection lost: %s", mode, last_client_log);
	if (direct)
		check(a.released > synced,
		      "%s: A released after B's frame (release %d, sync %d)",
		      mode, a.released, synced);
	else
		check(a.released < synced,
		      "%s: A released at B's commit (release %d, sync %d)",
		      mode, a.released, synced);
	screenshot(&t);
	expect_rect(&t, 0, 0, OUT_W, OUT_H, GREEN, "B on screen");
	check(!b.released, "%s: B, on screen, not released", mode);
	t_stop(&t);
}

static void test_release(void)
{
	run_release("--scanout=direct", true);
	run_release("--scanout=composite", false);
}

/*
 * What does not qualify is composed: a window smaller than the output,
 * an a8r8g8b8 buffer without an opaque region (it blends over the
 * background), a surface with a subsurface shown above it. An a8r8g8b8
 * buffer whose opaque region covers it all qualifies.
 */
static void test_fallbacks(void)
{
	static struct t t;
	static struct win w;
	struct wp_presentation *p;
	struct wl_region *opaque;
	struct fb_state st;
	struct buf small, argb, argb2, top, full;
	struct wl_surface *sub_s;
	struct wl_subsurface *sub;

	t_start(&t);
	p = bind_presentation(&t);
	fullscreen_window(&t, &w);

	make_buf(&t, &small, 100, 80, WL_SHM_FORMAT_XRGB8888, BLUE);
	present(&t, p, w.s, &small, 100, 80, &st);
	check(st.presented && !(st.kind & ZERO_COPY),
	      "a buffer smaller than the output is composed (kind 0x%x)",
	      st.kind);

	/* Half-transparent black over the background. */
	make_buf(&t, &argb, OUT_W, OUT_H, WL_SHM_FORMAT_ARGB8888, 0x80000000u);
	present(&t, p, w.s, &argb, OUT_W, OUT_H, &st);
	check(st.presented && !(st.kind & ZERO_COPY),
	      "a8r8g8b8 without an opaque region is composed (kind 0x%x)",
	      st.kind);
	screenshot(&t);
	check(at(&t, 10, 10) != BACKGROUND && at(&t, 10, 10) != 0xff000000u,
	      "blended over the background (%08x)", at(&t, 10, 10));

	opaque = wl_compositor_create_region(t.compositor);
	wl_region_add(opaque, 0, 0, OUT_W, OUT_H);
	wl_surface_set_opaque_region(w.s, opaque);
	wl_region_destroy(opaque);
	make_buf(&t, &argb2, OUT_W, OUT_H, WL_SHM_FORMAT_ARGB8888, 0x80ff0000u);
	present(&t, p, w.s, &argb2, OUT_W, OUT_H, &st);
	check(st.presented && (st.kind & ZERO_COPY),
	      "a8r8g8b8 under an opaque region covering it is scanned out (kind 0x%x)",
	      st.kind);
	screenshot(&t);
	expect_rect(&t, 0, 0, OUT_W, OUT_H, RED,
		    "opaque: the alpha ignored, as composition does");

	if (!t.subcompositor)
		fail("no wl_subcompositor");
	make_buf(&t, &top, 40, 40, WL_SHM_FORMAT_XRGB8888, WHITE);
	sub_s = surface(&t);
	sub = wl_subcompositor_get_subsurface(t.subcompositor, sub_s, w.s);
	wl_subsurface_set_position(sub, 10, 10);
	wl_subsurface_set_desync(sub);
	wl_surface_attach(sub_s, top.b, 0, 0);
	wl_surface_commit(sub_s);
	make_buf(&t, &full, OUT_W, OUT_H, WL_SHM_FORMAT_XRGB8888, GREEN);
	present(&t, p, w.s, &full, OUT_W, OUT_H, &st);
	check(st.presented && !(st.kind & ZERO_COPY),
	      "a subsurface above: composed (kind 0x%x)", st.kind);
	screenshot(&t);
	expect_rect(&t, 10, 10, 40, 40, WHITE, "the subsurface shows");
	expect_rect(&t, 60, 60, 100, 100, GREEN, "the window below it");
	wl_subsurface_destroy(sub);
	wl_surface_destroy(sub_s);
	t_stop(&t);
}

/* How many of the compositor's fds and mappings (only its mappings, with
 * @maps_only) are our test memfds. */
static int test_files_held(pid_t pid, bool maps_only)
{
	char cmd[160], out[32];
	FILE *f;
	int n = -1;

	if (maps_only)
		snprintf(cmd, sizeof(cmd), "cat /proc/%d/maps", (int)pid);
	else
		snprintf(cmd, sizeof(cmd), "{ ls -l /proc/%d/fd; cat /proc/%d/maps; }",
			 (int)pid, (int)pid);
	strncat(cmd, " 2>/dev/null | grep -c 'memfd:wlseal-test'",
		sizeof(cmd) - strlen(cmd) - 1);
	f = popen(cmd, "r");
	if (f && fgets(out, sizeof(out), f))
		n = atoi(out);
	if (f)
		pclose(f);
	return n;
}

/*
 * Lifetimes: the buffer on the screen destroyed, then its client gone,
 * while the compositor still shows it. Nothing breaks, the next frame is
 * composed, a new client is scanned out, and once nothing shows them the
 * compositor holds none of the files.
 */
static void test_lifetimes(void)
{
	static struct t t, t2;
	static struct win w, w2;
	struct wp_presentation *p;
	struct fb_state st;
	struct buf a, b;
	int held = -1;

	t_start(&t);
	p = bind_presentation(&t);
	fullscreen_window(&t, &w);
	make_buf(&t, &a, OUT_W, OUT_H, WL_SHM_FORMAT_XRGB8888, RED);
	present(&t, p, w.s, &a, OUT_W, OUT_H, &st);
	check(st.kind & ZERO_COPY, "A scanned out (kind 0x%x)", st.kind);
	wl_buffer_destroy(a.b);
	screenshot(&t);
	expect_rect(&t, 0, 0, OUT_W, OUT_H, BACKGROUND,
		    "A destroyed: the surface shows nothing");

	make_buf(&t, &b, OUT_W, OUT_H, WL_SHM_FORMAT_XRGB8888, BLUE);
	present(&t, p, w.s, &b, OUT_W, OUT_H, &st);
	check(st.kind & ZERO_COPY, "B scanned out (kind 0x%x)", st.kind);
	/* The client goes while B is on the screen. */
	wl_display_disconnect(t.display);
	t.display = NULL;

	t_connect(&t2);
	p = bind_presentation(&t2);
	fullscreen_window(&t2, &w2);
	make_buf(&t2, &a, OUT_W, OUT_H, WL_SHM_FORMAT_XRGB8888, YELLOW);
	present(&t2, p, w2.s, &a, OUT_W, OUT_H, &st);
	check(st.kind & ZERO_COPY, "a new client scanned out (kind 0x%x)",
	      st.kind);
	/* Presented: the screenshot (the compositor is t's) shows it. */
	comp_screenshot(&t.c, &t.log_from, &t.rgb, &t.shot_w, &t.shot_h);
	expect_rect(&t, 0, 0, OUT_W, OUT_H, YELLOW, "the new client shows");
	wl_display_disconnect(t2.display);
	t2.display = NULL;
	/* Its frame replaced by the background; then every pool goes
	 * (the reaper, the closer thread): wait for the count, bounded. */
	for (int i = 0; i < 200 && held != 0; i++) {
		size_t from = t.log_from;
		uint8_t *rgb = NULL;
		unsigned int sw, sh;

		comp_screenshot(&t.c, &from, &rgb, &sw, &sh);
		t.log_from = from;
		free(rgb);
		held = test_files_held(t.c.p.pid, false);
	}
	check(held == 0, "no test memfd held by the compositor (%d)", held);
	check(proc_alive(&t.c.p), "the compositor lives");
	comp_stop(&t.c);
}

/*
 * wlseal-client --fullscreen qualifies as it is: every frame it shows is
 * its own buffer (zero_copy in its summary, 0 bytes copied by the
 * compositor), from its shared pool and, with --seals=shrink,write, from
 * a write-sealed file per frame.
 */
static void run_client(const char *seals)
{
	static struct comp c;
	static struct proc client;
	const char *cargs[] = { "--size=320x240", "--verbose", NULL };
	char seals_arg[64], line[512];
	const char *args[] = { "--fullscreen", "--frames=30", "--exit",
			       "--seal-api=upstream", seals_arg, NULL };
	unsigned int frames = 0, zc = 0, n = 0, bad = 0;
	size_t from = 0;
	const char *z;

	snprintf(seals_arg, sizeof(seals_arg), "--seals=%s", seals);
	comp_start(&c, cargs);
	client_spawn(&client, args);
	if (!proc_wait_exit(&client, TIMEOUT_MS * 3))
		fail("%s: the client did not finish its 30 frames", seals);
	check(proc_contains(&client, "WLSEAL-CLIENT-FULLSCREEN size=320x240"),
	      "%s: the client took the output's size", seals);
	if (!proc_wait(&client, NULL, "WLSEAL-CLIENT-SUMMARY", 0, line,
		       sizeof(line)) || !(z = strstr(line, "zero_copy=")) ||
	    sscanf(strstr(line, "frames="), "frames=%u", &frames) != 1)
		fail("%s: no summary from the client", seals);
	zc = (unsigned int)strtoul(z + strlen("zero_copy="), NULL, 10);
	check(frames == 30 && zc == 30,
	      "%s: all %u frames presented zero-copy (%u)", seals, frames, zc);
	/* Every frame line with the client's frames: nothing copied. The
	 * client saw its 30th frame presented, so its line was written. */
	while (proc_wait(&c.p, &from, "zero_copy=1 ", n ? 0 : TIMEOUT_MS, line,
			 sizeof(line))) {
		n++;
		if (!strstr(line, "copied=0 "))
			bad++;
	}
	check(n >= 30 && !bad,
	      "%s: %u frame lines zero_copy=1, %u of them with bytes copied",
	      seals, n, bad);
	check(!proc_contains(&c.p, "direct scanout: composing instead"),
	      "%s: no buffer composed instead", seals);
	comp_stop(&c);
	/* Its report at exit counts them too. */
	{
		unsigned long long composed = 0, scanned = 0;
		const char *r = NULL;

		if (proc_wait(&c.p, NULL, "scanned out (none copied)", TIMEOUT_MS,
			      line, sizeof(line)))
			r = strstr(line, "frames: ");
		bool ok = r && sscanf(r, "frames: %llu composed (%*u bytes of client pixels copied), %llu scanned out",
				  &composed, &scanned) == 2 && scanned >= 30;

		check(ok, "%s: the exit report counts %llu frames scanned out (%llu composed)",
		      seals, scanned, composed);
	}
}

static void test_client(void)
{
	run_client("shrink");
	run_client("shrink,write");
}

/*
 * A pool grown while its buffer is on the screen (the display, the
 * screenshot and the --print-frames checksum read that buffer through
 * an address into the pool's mapping). The file grows by 256 MiB first,
 * then the pool; the compositor lives, the buffer still on the screen
 * shows its pixels before and after the client changes them, and a
 * buffer from the part just added shows its own. With --pool-resize=move
 * the mapping cannot stay where it is: the one the display holds is kept
 * beside the new one (two mappings of the file) until the buffer is gone
 * and a later frame replaced it (one).
 */
static void run_resize(const char *mode, const char *resize)
{
	static struct t t;
	static struct win w;
	const char *args[] = { mode, resize, "--print-frames", NULL };
	const size_t span = (size_t)OUT_W * OUT_H * 4;
	const size_t grown = span + (256u << 20);
	bool direct = !strcmp(mode, "--scanout=direct");
	bool moves = !strcmp(resize, "--pool-resize=move");
	struct wp_presentation *p;
	struct wl_shm_pool *pool;
	struct fb_state st;
	struct buf a, b, c;
	uint32_t *px;
	int fd, maps;

	t_start_args(&t, args);
	p = bind_presentation(&t);
	fullscreen_window(&t, &w);
	fd = make_memfd(span, F_SEAL_SHRINK);
	px = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (px == MAP_FAILED)
		fail("mmap: %s", strerror(errno));
	for (size_t i = 0; i < (size_t)OUT_W * OUT_H; i++)
		px[i] = RED;
	pool = wl_shm_create_pool(t.shm, fd, (int32_t)span);
	a.b = wl_shm_pool_create_buffer(pool, 0, OUT_W, OUT_H, OUT_W * 4,
					WL_SHM_FORMAT_XRGB8888);
	a.released = 0;
	wl_buffer_add_listener(a.b, &buf_listener, &a);
	for (int i = 0; i < 3; i++)
		present(&t, p, w.s, &a, OUT_W, OUT_H, &st);
	check(!!(st.kind & ZERO_COPY) == direct, "%s: A's kind 0x%x", mode,
	      st.kind);

	/* The file, then the pool, 256 MiB larger; the tail green. */
	if (ftruncate(fd, (off_t)grown) < 0)
		fail("ftruncate: %s", strerror(errno));
	{
		uint32_t *tail = mmap(NULL, span, PROT_READ | PROT_WRITE,
				      MAP_SHARED, fd, (off_t)(grown - span));

		if (tail == MAP_FAILED)
			fail("mmap of the tail: %s", strerror(errno));
		for (size_t i = 0; i < (size_t)OUT_W * OUT_H; i++)
			tail[i] = GREEN;
		munmap(tail, span);
	}
	wl_shm_pool_resize(pool, (int32_t)grown);
	/* Nothing committed since: A is on the screen as it was. */
	screenshot(&t);
	expect_rect(&t, 0, 0, OUT_W, OUT_H, RED,
		    "after the resize, A still shown");
	maps = test_files_held(t.c.p.pid, true);
	if (moves && direct)
		check(maps == 2, "%s %s: the display's mapping kept beside the moved one (%d mappings)",
		      mode, resize, maps);

	/* A changed by the client and shown again: the new pixels. */
	for (size_t i = 0; i < (size_t)OUT_W * OUT_H; i++)
		px[i] = BLUE;
	present(&t, p, w.s, &a, OUT_W, OUT_H, &st);
	screenshot(&t);
	expect_rect(&t, 0, 0, OUT_W, OUT_H, BLUE, "A changed after the resize");

	/* A buffer of the new part. */
	b.b = wl_shm_pool_create_buffer(pool, (int32_t)(grown - span), OUT_W,
					OUT_H, OUT_W * 4,
					WL_SHM_FORMAT_XRGB8888);
	b.released = 0;
	wl_buffer_add_listener(b.b, &buf_listener, &b);
	present(&t, p, w.s, &b, OUT_W, OUT_H, &st);
	check(!!(st.kind & ZERO_COPY) == direct, "%s: B's kind 0x%x", mode,
	      st.kind);
	screenshot(&t);
	expect_rect(&t, 0, 0, OUT_W, OUT_H, GREEN, "B from the grown part");

	/* A gone, a frame later than B's: its mapping's place goes too. */
	wl_buffer_destroy(a.b);
	c.b = solid(&t, OUT_W, OUT_H, YELLOW);
	present(&t, p, w.s, &c, OUT_W, OUT_H, &st);
	present(&t, p, w.s, &c, OUT_W, OUT_H, &st);
	if (moves && direct) {
		for (int i = 0; i < 200 && (maps = test_files_held(t.c.p.pid, true)) > 2; i++)
			present(&t, p, w.s, &c, OUT_W, OUT_H, &st);
		/* The pool's mapping and solid()'s. */
		check(maps == 2, "%s %s: the kept mapping let go once nothing shows it (%d mappings)",
		      mode, resize, maps);
	}
	check(proc_contains(&t.c.p, "WLSEAL-FRAME "), "%s: frame checksums printed",
	      mode);
	check(proc_alive(&t.c.p), "%s %s: the compositor lives", mode, resize);
	munmap(px, span);
	close(fd);
	t_stop(&t);
}

static void test_resize(void)
{
	run_resize("--scanout=direct", "--pool-resize=move");
	run_resize("--scanout=direct", "--pool-resize=grow");
	run_resize("--scanout=composite", "--pool-resize=move");
}

static const struct harness_test tests[] = {
	{ "scanout-fullscreen", test_fullscreen },
	{ "scanout-release", test_release },
	{ "scanout-fallbacks", test_fallbacks },
	{ "scanout-lifetimes", test_lifetimes },
	{ "scanout-client", test_client },
	{ "scanout-resize", test_resize },
};

int main(int argc, char **argv)
{
	return harness_main("test-scanout", tests,
			    sizeof(tests) / sizeof(tests[0]), argc, argv);
}
