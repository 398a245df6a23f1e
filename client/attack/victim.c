/* SPDX-License-Identifier: MIT */
/*
 * victim.c - the well-behaved clients measured beside a stall scenario
 * (stalls.c): does an attacker that stays inside every budget starve the
 * others?
 *
 * - The victim, a process of its own with its own connection: a 256x256
 *   window redrawn on every frame callback, from before the attack until
 *   after it. Over a window of VICTIM_WINDOW_MS it counts the frame
 *   callbacks and the worst gap between two of them (a gap still open
 *   when the window ends is closed by the next callback, waited for at
 *   most FIRST_FRAME_MS more).
 * - A fresh client that connects NEWCOMER_DELAY_MS into the window, and
 *   another once the attacker has closed everything: each times connect
 *   to its first frame callback (window, configure, a 256x256 buffer),
 *   giving up after FIRST_FRAME_MS.
 *
 * Every one of them runs in a forked process, so that neither its
 * libwayland log nor its timing mixes with the attacker's; each closes
 * the fds it inherited (the attacker's connections must close when the
 * attacker closes them) and writes one report to a pipe.
 *
 * The figures are printed, not judged: how long a gap may be depends on
 * the host's load. What is asserted is what no load excuses: the victim
 * stayed connected and got frames, and both fresh clients got a first
 * frame within FIRST_FRAME_MS.
 *
 *   VICTIM frames=N window_ms=5000 worst_gap_ms=G first_frame_ms=F
 *          after_first_frame_ms=A worst_gap_at_ms=T
 *
 * (-1: no frame within FIRST_FRAME_MS; T: when the worst gap ended,
 * from the window's start.)
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "attack.h"
#include "wlseal-seals.h"

#define VICTIM_W 256
#define VICTIM_H 256
#define VICTIM_STRIDE (VICTIM_W * 4)
#define VICTIM_SIZE (VICTIM_STRIDE * VICTIM_H)
#define VICTIM_WINDOW_MS 5000
#define NEWCOMER_DELAY_MS 1000
#define FIRST_FRAME_MS 10000

/* What a child writes to its pipe, once (smaller than PIPE_BUF). */
struct report {
	int frames;		/* callbacks inside the window */
	int late;		/* callbacks after it, while closing the gap */
	int worst_gap_ms;
	int worst_gap_at_ms;	/* when it ended, from the window's start */
	int first_frame_ms;	/* the fresh clients: -1 when none came */
	char error[160];	/* empty: all well */
};

/* --- a window redrawn on request --------------------------------------- */

struct drawer {
	struct attack c;
	struct wl_shm_pool *pool;
	struct wl_buffer *buf[2];
	uint32_t *pixels;
	int frame;
	bool done;		/* the last frame callback came */
	int64_t done_ms;
};

static void frame_done(void *data, struct wl_callback *cb, uint32_t t)
{
	struct drawer *d = data;

	(void)t;
	wl_callback_destroy(cb);
	d->done = true;
	d->done_ms = att_now_ms();
}

static const struct wl_callback_listener frame_listener = {
	.done = frame_done,
};

/* Connect, map nothing yet: a toplevel configured, two buffers. */
static int drawer_setup(struct drawer *d, int timeout_ms, char *err,
			size_t len)
{
	int fd;

	*d = (struct drawer){ .c = { .timeout_ms = timeout_ms } };
	if (att_connect(&d->c) != 0) {
		snprintf(err, len, "cannot connect");
		return -1;
	}
	if (att_window(&d->c) != 0) {
		snprintf(err, len, "no configure for its window");
		return -1;
	}
	fd = att_memfd(2 * VICTIM_SIZE, MFD_ALLOW_SEALING,
		       F_SEAL_SHRINK | F_SEAL_GROW);
	if (fd < 0) {
		snprintf(err, len, "memfd: %s", strerror(errno));
		return -1;
	}
	d->pixels = mmap(NULL, 2 * VICTIM_SIZE, PROT_READ | PROT_WRITE,
			 MAP_SHARED, fd, 0);
	if (d->pixels == MAP_FAILED) {
		d->pixels = NULL;
		close(fd);
		snprintf(err, len, "mmap: %s", strerror(errno));
		return -1;
	}
	d->pool = wl_shm_create_pool(d->c.shm, fd, 2 * VICTIM_SIZE);
	close(fd);
	for (int i = 0; i < 2; i++)
		d->buf[i] = wl_shm_pool_create_buffer(d->pool, i * VICTIM_SIZE,
			VICTIM_W, VICTIM_H, VICTIM_STRIDE, WL_SHM_FORMAT_XRGB8888);
	return 0;
}

/* Draw the next frame (a colour that changes every frame), ask for its
 * callback, commit. */
static void drawer_draw(struct drawer *d)
{
	int i = d->frame++ & 1;
	uint32_t *p = d->pixels + i * (VICTIM_SIZE / 4);
	uint32_t colour = 0xff000000u | (uint32_t)(d->frame * 0x010305);
	struct wl_callback *cb;

	for (int n = 0; n < VICTIM_W * VICTIM_H; n++)
		p[n] = colour ^ (uint32_t)(n & 0xff);
	wl_surface_attach(d->c.surface, d->buf[i], 0, 0);
	wl_surface_damage(d->c.surface, 0, 0, VICTIM_W, VICTIM_H);
	cb = wl_surface_frame(d->c.surface);
	wl_callback_add_listener(cb, &frame_listener, d);
	d->done = false;
	wl_surface_commit(d->c.surface);
}

static void drawer_finish(struct drawer *d)
{
	if (d->pixels)
		munmap(d->pixels, 2 * VICTIM_SIZE);
	att_disconnect(&d->c);
}

/*
 * One turn of the event loop: flush, wait at most @timeout_ms for the
 * connection or @extra (-1: none), read, dispatch. Returns -1 when the
 * connection failed; *@extra_ready says whether @extra is readable.
 */
static int pump(struct wl_display *dpy, int extra, int timeout_ms,
		bool *extra_ready)
{
	struct pollfd p[2] = {
		{ .fd = wl_display_get_fd(dpy), .events = POLLIN },
		{ .fd = extra, .events = POLLIN },
	};
	int r;

	*extra_ready = false;
	if (wl_display_get_error(dpy))
		return -1;
	while (wl_display_prepare_read(dpy) != 0)
		if (wl_display_dispatch_pending(dpy) < 0)
			return -1;
	if (wl_display_flush(dpy) < 0 && errno == EAGAIN)
		p[0].events |= POLLOUT;
	r = poll(p, extra >= 0 ? 2 : 1, timeout_ms > 0 ? timeout_ms : 0);
	if (r > 0 && (p[0].revents & (POLLIN | POLLERR | POLLHUP))) {
		if (wl_display_read_events(dpy) < 0)
			return -1;
	} else {
		wl_display_cancel_read(dpy);
	}
	*extra_ready = r > 0 && extra >= 0 && (p[1].revents & (POLLIN | POLLHUP));
	return wl_display_dispatch_pending(dpy) < 0 ? -1 : 0;
}

/* --- the children ------------------------------------------------------- */

/* Close every inherited fd but stdio and @keep1, @keep2. */
static void close_inherited(int keep1, int keep2)
{
	int fds[1024], n = 0;
	DIR *d;

	do {
		struct dirent *e;

		n = 0;
		d = opendir("/proc/self/fd");
		if (!d)
			return;
		while ((e = readdir(d)) && n < (int)(sizeof(fds) / sizeof(fds[0]))) {
			int fd = atoi(e->d_name);

			if (e->d_name[0] != '.' && fd > 2 && fd != keep1 &&
			    fd != keep2 && fd != dirfd(d))
				fds[n++] = fd;
		}
		closedir(d);
		for (int i = 0; i < n; i++)
			close(fds[i]);
	} while (n == (int)(sizeof(fds) / sizeof(fds[0])));
}

static void send_report(int fd, const struct report *r)
{
	ssize_t w = write(fd, r, sizeof(*r));

	(void)w;
}

/* A fresh client: @delay_ms after its start, time connect to first frame. */
static void newcomer_main(int out, int delay_ms)
{
	struct report r = { .first_frame_ms = -1 };
	struct drawer d;
	int64_t t0;

	if (delay_ms > 0)
		usleep((useconds_t)delay_ms * 1000);
	t0 = att_now_ms();
	if (drawer_setup(&d, FIRST_FRAME_MS, r.error, sizeof(r.error)) == 0) {
		drawer_draw(&d);
		while (!d.done && att_now_ms() - t0 < FIRST_FRAME_MS) {
			bool x;

			if (pump(d.c.display, -1, (int)(t0 + FIRST_FRAME_MS - att_now_ms()), &x) < 0)
				break;
		}
		if (d.done)
			r.first_frame_ms = (int)(d.done_ms - t0);
		else
			snprintf(r.error, sizeof(r.error), "%s",
				 wl_display_get_error(d.c.display) ?
					 "connection lost before its first frame" :
					 "no first frame");
	}
	drawer_finish(&d);
	send_report(out, &r);
}

/* Account for a callback that came at @t, the previous one at @last. */
static void count_frame(struct report *r, int64_t go, int64_t t, int64_t last)
{
	if (t < go)
		return;
	if (t < go + VICTIM_WINDOW_MS)
		r->frames++;
	else
		r->late++;
	if (t - last > r->worst_gap_ms) {
		r->worst_gap_ms = (int)(t - last);
		r->worst_gap_at_ms = (int)(t - go);
	}
}

/*
 * The victim: first frame, then 'R' on @out; redraw on every callback;
 * the go time (int64_t ms) on @ctl starts the window; at its end (and
 * the gap then open closed) the report.
 */
static void victim_main(int out, int ctl)
{
	struct report r = { .first_frame_ms = -1 };
	struct drawer d;
	int64_t go = 0, last, t0 = att_now_ms();
	bool readable;

	if (drawer_setup(&d, FIRST_FRAME_MS, r.error, sizeof(r.error)) != 0)
		goto out;
	drawer_draw(&d);
	while (!d.done && att_now_ms() - t0 < FIRST_FRAME_MS)
		if (pump(d.c.display, -1, 100, &readable) < 0)
			break;
	if (!d.done) {
		snprintf(r.error, sizeof(r.error), "no first frame");
		goto out;
	}
	r.first_frame_ms = (int)(d.done_ms - t0);
	if (write(out, "R", 1) != 1)
		goto out;
	last = d.done_ms;
	drawer_draw(&d);
	for (;;) {
		int64_t now = att_now_ms(), wait = 100;

		if (go) {
			int64_t end = go + VICTIM_WINDOW_MS;

			/* Past the window and past the grace for its last gap. */
			if (now >= end + FIRST_FRAME_MS) {
				if (now - last > r.worst_gap_ms) {
					r.worst_gap_ms = (int)(now - last);
					r.worst_gap_at_ms = (int)(now - go);
				}
				snprintf(r.error, sizeof(r.error),
					 "no frame callback for %lld ms",
					 (long long)(now - last));
				break;
			}
			wait = end + FIRST_FRAME_MS - now;
		}
		if (pump(d.c.display, go ? -1 : ctl, (int)(wait < 100 ? wait : 100),
			 &readable) < 0) {
			snprintf(r.error, sizeof(r.error), "connection lost: %s",
				 strerror(wl_display_get_error(d.c.display)));
			break;
		}
		if (readable && !go) {
			if (read(ctl, &go, sizeof(go)) != (ssize_t)sizeof(go))
				break;	/* the attacker went away */
		}
		if (d.done) {
			count_frame(&r, go ? go : INT64_MAX, d.done_ms, last);
			last = d.done_ms;
			if (go && last >= go + VICTIM_WINDOW_MS)
				break;
			drawer_draw(&d);
		}
	}
out:
	drawer_finish(&d);
	send_report(out, &r);
}

/* Fork the victim (@victim) or a fresh client starting after @delay_ms;
 * its report comes on *@rd. Its pid, or -1. */
static pid_t spawn(int *rd, int ctl, int delay_ms, bool victim)
{
	int p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) != 0)
		return -1;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		/* An attacker killed by its timeout takes its clients along. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close_inherited(p[1], ctl);
		signal(SIGPIPE, SIG_IGN);
		if (victim)
			victim_main(p[1], ctl);
		else
			newcomer_main(p[1], delay_ms);
		_exit(0);
	}
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		return -1;
	}
	*rd = p[0];
	return pid;
}

/* Read @len bytes from @fd within @timeout_ms; false otherwise. */
static bool read_within(int fd, void *buf, size_t len, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int64_t end = att_now_ms() + timeout_ms;

	while (poll(&p, 1, (int)(end - att_now_ms() > 0 ? end - att_now_ms() : 0)) > 0)
		return read(fd, buf, len) == (ssize_t)len;
	return false;
}

static void reap(pid_t *pid, int *fd)
{
	if (*pid > 0) {
		kill(*pid, SIGKILL);
		waitpid(*pid, NULL, 0);
	}
	*pid = 0;
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* --- the attacker's side ------------------------------------------------ */

int att_victim_start(struct victim *v, struct outcome *o)
{
	int ctl[2];
	char ready;

	*v = (struct victim){ .report = -1, .ctl = -1, .newcomer_report = -1 };
	if (pipe2(ctl, O_CLOEXEC) != 0) {
		att_fail_setup(o, "pipe: %s", strerror(errno));
		return -1;
	}
	v->pid = spawn(&v->report, ctl[0], 0, true);
	close(ctl[0]);
	v->ctl = ctl[1];
	if (v->pid < 0) {
		v->pid = 0;
		att_fail_setup(o, "cannot fork the victim");
		att_victim_cancel(v);
		return -1;
	}
	if (!read_within(v->report, &ready, 1, FIRST_FRAME_MS + 2000)) {
		struct report r = { .error = "" };

		read_within(v->report, &r, sizeof(r), 1000);
		att_fail_setup(o, "the victim got no first frame before the attack (%s)",
			       r.error[0] ? r.error : "timeout");
		att_victim_cancel(v);
		return -1;
	}
	return 0;
}

void att_victim_go(struct victim *v)
{
	ssize_t w;

	v->go_ms = att_now_ms();
	/* A victim that is gone says why in its report. */
	w = write(v->ctl, &v->go_ms, sizeof(v->go_ms));
	(void)w;
	v->newcomer = spawn(&v->newcomer_report, -1, NEWCOMER_DELAY_MS, false);
	if (v->newcomer < 0)
		v->newcomer = 0;
}

int att_victim_left_ms(const struct victim *v)
{
	int64_t left = v->go_ms + VICTIM_WINDOW_MS - att_now_ms();

	return left > 0 ? (int)left : 0;
}

void att_victim_cancel(struct victim *v)
{
	reap(&v->pid, &v->report);
	reap(&v->newcomer, &v->newcomer_report);
	if (v->ctl >= 0)
		close(v->ctl);
	v->ctl = -1;
}

void att_victim_end(struct victim *v, struct attack *a, struct outcome *o)
{
	struct report vr = { .error = "no report" }, nr = { .first_frame_ms = -1 },
		      ar = { .first_frame_ms = -1 };
	int after_rd = -1, left;
	pid_t after = 0;

	if (!v->go_ms)
		att_victim_go(v);
	left = att_victim_left_ms(v);
	if (!read_within(v->report, &vr, sizeof(vr), left + 2 * FIRST_FRAME_MS))
		snprintf(vr.error, sizeof(vr.error), "the victim gave no report");
	if (!read_within(v->newcomer_report, &nr, sizeof(nr),
			 NEWCOMER_DELAY_MS + FIRST_FRAME_MS + 5000))
		snprintf(nr.error, sizeof(nr.error), "no report");
	att_victim_cancel(v);

	after = spawn(&after_rd, -1, 0, false);
	if (after < 0 || !read_within(after_rd, &ar, sizeof(ar), FIRST_FRAME_MS + 5000))
		snprintf(ar.error, sizeof(ar.error), "no report");
	if (after < 0)
		after = 0;
	reap(&after, &after_rd);

	printf("VICTIM frames=%d window_ms=%d worst_gap_ms=%d first_frame_ms=%d after_first_frame_ms=%d worst_gap_at_ms=%d\n",
	       vr.frames, VICTIM_WINDOW_MS, vr.worst_gap_ms, nr.first_frame_ms,
	       ar.first_frame_ms, vr.worst_gap_at_ms);
	fflush(stdout);
	att_note(o, "victim: %d frames in %d ms, worst gap %d ms; first frame %d ms during, %d ms after",
		 vr.frames, VICTIM_WINDOW_MS, vr.worst_gap_ms, nr.first_frame_ms,
		 ar.first_frame_ms);
	/* A dead compositor is the verdict's to say (compositor-gone). */
	if (!att_alive(a))
		return;
	if (vr.error[0])
		att_fail_setup(o, "the victim: %s", vr.error);
	else if (vr.frames + vr.late == 0)
		att_fail_setup(o, "the victim got no frame during the attack");
	if (nr.first_frame_ms < 0)
		att_fail_setup(o, "a client connecting during the attack got no first frame within %d ms (%s)",
			       FIRST_FRAME_MS, nr.error);
	if (ar.first_frame_ms < 0)
		att_fail_setup(o, "a client connecting after the attack got no first frame within %d ms (%s)",
			       FIRST_FRAME_MS, ar.error);
}
