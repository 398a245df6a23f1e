/* SPDX-License-Identifier: MIT */
/*
 * test-resident - a view of a sparse sealed pool is drawn once the pages
 * it samples are in memory, and the repaint takes no page fault for them
 * (compositor/shm/resident.c, populate.c).
 *
 * Usage: test-resident TEST. The pool is a 64 MiB memfd never written:
 * all holes. Its 4096x4096 buffer (16 KiB rows, 4 pages each) is shown
 * through a viewport at 200x160, so each repaint of it samples about
 * 320 rows of 4 pages: 1280 holes. The compositor logs (--verbose) how
 * many sampled pages were not in memory, when the populate thread has
 * brought them in, and with every frame the page faults its repaint
 * took (getrusage(RUSAGE_THREAD) around the repaint,
 * compositor/account/cpu.c); --print-frames gives each frame's
 * checksum. Counts are asserted, never times.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>

#include "toplevel.h"

#define SPARSE_W 4096
#define SPARSE_H 4096
#define SPARSE_STRIDE (SPARSE_W * 4)
#define SPARSE_SIZE ((size_t)SPARSE_STRIDE * SPARSE_H)
#define SHOWN_W 200
#define SHOWN_H 160
#define BLACK 0xff000000u
/* Pages sampled: 2 rows a shown row (bilinear), 4 pages a row. The
 * compositor must find at least this many missing. */
#define SAMPLED_MIN 1000
/* Faults a repaint may take besides the pool's: the compositor's own
 * heap (a few pages at most). */
#define OWN_FAULTS_MAX 64

static void attach(struct t *t, struct wl_surface *s, struct wl_buffer *b)
{
	wl_surface_attach(s, b, 0, 0);
	wl_surface_damage_buffer(s, 0, 0, INT32_MAX, INT32_MAX);
	wl_surface_commit(s);
	wl_display_flush(t->display);
}

/* A window showing GREEN, then the sparse buffer through a viewport
 * attached and committed; *@from is where the compositor's output was
 * at the commit. */
static void show_sparse(struct t *t, struct win *w, size_t *from)
{
	struct wl_shm_pool *pool;
	struct wp_viewport *vp;
	struct wl_buffer *b;
	int fd;

	win_create(t, w);
	win_initial_commit(w);
	xdg_surface_ack_configure(w->xs, w->serial);
	attach(t, w->s, solid(t, SHOWN_W, SHOWN_H, GREEN));
	wait_mapped(t, &t->ox, &t->oy, "green");
	screenshot(t);
	expect_rect(t, 0, 0, SHOWN_W, SHOWN_H, GREEN, "before the sparse buffer");
	if (!t->viewporter)
		fail("no wp_viewporter");

	fd = make_memfd(SPARSE_SIZE, F_SEAL_SHRINK | F_SEAL_GROW);
	pool = wl_shm_create_pool(t->shm, fd, (int32_t)SPARSE_SIZE);
	b = wl_shm_pool_create_buffer(pool, 0, SPARSE_W, SPARSE_H,
				      SPARSE_STRIDE, WL_SHM_FORMAT_XRGB8888);
	wl_shm_pool_destroy(pool);
	close(fd);
	vp = wp_viewporter_get_viewport(t->viewporter, w->s);
	wp_viewport_set_source(vp, 0, 0, wl_fixed_from_int(SPARSE_W),
			       wl_fixed_from_int(SPARSE_H));
	wp_viewport_set_destination(vp, SHOWN_W, SHOWN_H);
	*from = t->c.p.len;
	attach(t, w->s, b);
}

/* The checksum of frame @seq ("WLSEAL-FRAME seq crc"), found after
 * @from. */
static unsigned long frame_crc(struct t *t, size_t from, unsigned long long seq)
{
	char needle[64], line[128];
	unsigned long long s;
	unsigned long crc;

	snprintf(needle, sizeof(needle), "WLSEAL-FRAME %llu ", seq);
	if (!proc_wait(&t->c.p, &from, needle, TIMEOUT_MS, line, sizeof(line)) ||
	    sscanf(line, "WLSEAL-FRAME %llu %lx", &s, &crc) != 2)
		fail("no line for frame %llu", seq);
	return crc;
}

/* The frame the last screenshot was taken of. */
static unsigned long long shot_seq(struct t *t)
{
	const char *p = NULL, *q = t->c.p.buf;
	unsigned long long seq;

	while ((q = strstr(q, "screenshot frame=")))
		p = q++;
	if (!p || sscanf(p, "screenshot frame=%llu", &seq) != 1)
		fail("no screenshot line");
	return seq;
}

/* The first "frame seq=N" line after @from whose frame has checksum
 * @crc: its position (SIZE_MAX: none), and its faults=. */
static size_t first_frame_with(struct t *t, size_t from, unsigned long crc,
			       unsigned long long *faults)
{
	char needle[48];
	const char *p = t->c.p.buf + from;

	snprintf(needle, sizeof(needle), " %08lx\n", crc);
	while ((p = strstr(p, "WLSEAL-FRAME "))) {
		unsigned long long seq;
		unsigned long c;
		const char *f;
		char line[64];

		if (sscanf(p, "WLSEAL-FRAME %llu %lx", &seq, &c) == 2 && c == crc) {
			snprintf(line, sizeof(line), "frame seq=%llu ", seq);
			f = strstr(t->c.p.buf + from, line);
			if (!f || !(f = strstr(f, "faults=")) ||
			    sscanf(f, "faults=%llu", faults) != 1)
				fail("no faults= for frame %llu", seq);
			return (size_t)(p - t->c.p.buf);
		}
		p++;
	}
	(void)needle;
	return SIZE_MAX;
}

/* The most faults= of any frame line after @from. */
static unsigned long long most_faults(struct t *t, size_t from)
{
	const char *p = t->c.p.buf + from;
	unsigned long long most = 0, f;

	while ((p = strstr(p, " faults="))) {
		if (sscanf(p, " faults=%llu", &f) == 1 && f > most)
			most = f;
		p++;
	}
	return most;
}

/*
 * The sparse buffer's first frame comes after its pages were populated,
 * not before; that frame's repaint took no fault for them, nor did any
 * repaint after the commit.
 */
static void test_sparse(void)
{
	static struct t t;
	static struct win w;
	static const char *const args[] = { "--print-frames", NULL };
	char line[256];
	size_t from, at, populated;
	unsigned long long missing, pages, faults;
	unsigned long black;

	t_start_args(&t, args);
	show_sparse(&t, &w, &from);
	at = from;
	if (!proc_wait(&t.c.p, &at, "sampled pages not in memory", TIMEOUT_MS,
		       line, sizeof(line)) ||
	    !strstr(line, "pid=") ||
	    sscanf(strstr(line, "pid="), "pid=%*d: %llu of %llu", &missing,
		   &pages) != 2)
		fail("the compositor never found the sparse pool's pages missing");
	check(missing >= SAMPLED_MIN && missing <= pages,
	      "%llu of %llu sampled pages missing (at least %d expected)",
	      missing, pages, SAMPLED_MIN);
	tap_ok("the repaint found %llu of %llu sampled pages not in memory",
	       missing, pages);
	if (!proc_wait(&t.c.p, &at, "resident: populated", TIMEOUT_MS, line,
		       sizeof(line)))
		fail("the populate thread never reported back");
	populated = at;

	/* Once populated the view is drawn: the holes read as zeros. */
	screenshot(&t);
	expect_rect(&t, 0, 0, SHOWN_W, SHOWN_H, BLACK, "the sparse buffer");
	black = frame_crc(&t, from, shot_seq(&t));
	at = first_frame_with(&t, from, black, &faults);
	if (at == SIZE_MAX)
		fail("no frame line with the screenshot's checksum %08lx", black);
	check(at >= populated,
	      "no frame showed the sparse buffer before its pages were populated");
	tap_ok("the sparse buffer's first frame came after its population");
	check(faults <= OWN_FAULTS_MAX,
	      "the repaint that first drew it took %llu page faults (at most %d)",
	      faults, OWN_FAULTS_MAX);
	faults = most_faults(&t, from);
	check(faults <= OWN_FAULTS_MAX,
	      "the most page faults of a repaint since the commit: %llu (at most %d)",
	      faults, OWN_FAULTS_MAX);
	tap_ok("no repaint since the commit took more than %llu page faults (%llu holes sampled)",
	       faults, missing);
	t_stop(&t);
}

/*
 * The same without the check (--residency-check=off): the repaint that
 * draws the sparse buffer faults every sampled page in itself. This is
 * what test_sparse's counts would see if the check did nothing.
 */
static void test_off(void)
{
	static struct t t;
	static struct win w;
	static const char *const args[] = { "--print-frames",
					    "--residency-check=off", NULL };
	unsigned long long faults;
	unsigned long black;
	size_t from;

	t_start_args(&t, args);
	show_sparse(&t, &w, &from);
	screenshot(&t);
	expect_rect(&t, 0, 0, SHOWN_W, SHOWN_H, BLACK, "the sparse buffer");
	black = frame_crc(&t, from, shot_seq(&t));
	if (first_frame_with(&t, from, black, &faults) == SIZE_MAX)
		fail("no frame line with the screenshot's checksum %08lx", black);
	check(faults >= SAMPLED_MIN,
	      "without the check, the repaint that drew it took %llu page faults (at least %d)",
	      faults, SAMPLED_MIN);
	check(!proc_contains(&t.c.p, "sampled pages not in memory"),
	      "no residency check ran (off)");
	tap_ok("without the check, its first repaint took %llu page faults",
	       faults);
	t_stop(&t);
}

/*
 * The client goes while its pages are being populated: the job holds the
 * pool, whose mapping outlives it; its report finds no view, and the
 * pool is released after it. Another client is shown afterwards.
 */
static void test_gone(void)
{
	static struct t t, other;
	static struct win w, w2;
	size_t from, at, seen;

	t_start(&t);
	show_sparse(&t, &w, &from);
	at = from;
	if (!proc_wait(&t.c.p, &at, "sampled pages not in memory", TIMEOUT_MS,
		       NULL, 0))
		fail("the compositor never found the sparse pool's pages missing");
	wl_display_disconnect(t.display);
	seen = at;
	if (!proc_wait(&t.c.p, &seen, "client disconnected", TIMEOUT_MS, NULL, 0))
		fail("no disconnect line");
	seen = at;
	if (!proc_wait(&t.c.p, &seen, "resident: populated", TIMEOUT_MS, NULL, 0))
		fail("the populate thread never reported back");
	tap_ok("the population of a departed client's pool finished");

	/* The same compositor, another client. */
	other.c = t.c;
	other.log_from = seen;
	t_connect(&other);
	win_create(&other, &w2);
	win_initial_commit(&w2);
	win_draw(&w2, 100, 80, RED);
	wait_mapped(&other, &other.ox, &other.oy, "after");
	screenshot(&other);
	expect_rect(&other, 0, 0, 100, 80, RED, "another client after it");
	tap_ok("another client is shown after it");
	t_stop(&other);
}

static const struct harness_test tests[] = {
	{ "resident-sparse", test_sparse },
	{ "resident-off", test_off },
	{ "resident-gone", test_gone },
};

int main(int argc, char **argv)
{
	return harness_main("test-resident", tests,
			    sizeof(tests) / sizeof(tests[0]), argc, argv);
}
