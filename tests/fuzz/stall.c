/* SPDX-License-Identifier: MIT */
/*
 * stall.c - wlseal-fuzz --stall: a search for the request sequence that
 * makes the compositor spend the most CPU on one loop turn, while a
 * victim client measures its frames.
 *
 * Hostile connections (--clients, 4 by default) each keep a standing
 * state at their budgets (stall-client.c). A sequence is a list of
 * operations (stall-ops.c), each a burst of requests on one connection;
 * every burst is sent with a wl_display.sync, and the compositor thread's
 * CPU time is read before the send and after the sync's answer, from
 * /proc/PID/task/PID/schedstat (the same clock as the compositor's own
 * CLOCK_THREAD_CPUTIME_ID in compositor/account/cpu.c). Such a window
 * holds the dispatch of the burst (a burst is at most the 4096 bytes
 * libwayland reads at once) and whatever else the loop did meanwhile (a
 * repaint, the victim's frame), so its CPU is at least the worst turn
 * within it: a sequence's cost is its worst window, and the repaint of
 * the state it left (a frame waited for at its end) is one more window.
 *
 * The search keeps the --keep costliest sequences and makes each new one
 * either at random or from one of them, mutated: an operation inserted,
 * deleted, repeated, swapped, or its arguments changed. Sequence i draws
 * from a generator seeded by (--seed, i); which sequences are kept
 * depends on what was measured, so a search is not replayed by its seed
 * alone: the sequences it found are, from the file --out writes them to
 * (--replay=FILE runs them again).
 *
 * The victim, a process of its own with libwayland-client, redraws a
 * 256x256 window on every frame callback and counts frames and the
 * worst gap between two (wall clock: reported, never judged). What this
 * program fails on: the compositor stopped answering (a sync unanswered
 * for --timeout) or died, or the victim lost its connection or got no
 * frames after the search. The bound on CPU per turn is judged from the
 * compositor's own report at exit (tests/fuzz/run-fuzz).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <wayland-client.h>

#include "stall.h"
#include "wlseal-seals.h"

#define MAX_OPS 24
#define MAX_KEEP 32
#define FRAME_NS 16000000ull

struct seq {
	struct op op[MAX_OPS];
	int n;
	uint64_t cost_ns;	/* worst window */
	uint64_t total_ns;	/* all windows */
	uint64_t iteration;
	int worst_op;		/* -1: the repaint window at its end */
};

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

/* ---- the victim ------------------------------------------------------- */

#define VICTIM_W 256
#define VICTIM_H 256
#define VICTIM_SIZE (VICTIM_W * VICTIM_H * 4)
#define VICTIM_AFTER 5		/* frames it must get once the search ends */
#define VICTIM_AFTER_MS 10000

struct victim_report {
	long frames;
	long frames_after;	/* after the search ended */
	int worst_gap_ms;
	char error[160];
};

struct victim {
	struct wl_display *dpy;
	struct wl_compositor *comp;
	struct wl_shm *shm;
	struct xdg_wm_base *wm;
	struct wl_surface *surface;
	struct xdg_surface *xs;
	struct xdg_toplevel *tl;
	struct wl_buffer *buf[2];
	uint32_t *px;
	bool configured, frame_done;
	int frame;
	double last;
	struct victim_report r;
};

static void v_global(void *data, struct wl_registry *reg, uint32_t name,
		     const char *iface, uint32_t version)
{
	struct victim *v = data;

	if (!strcmp(iface, "wl_compositor"))
		v->comp = wl_registry_bind(reg, name, &wl_compositor_interface, 4);
	else if (!strcmp(iface, "wl_shm"))
		v->shm = wl_registry_bind(reg, name, &wl_shm_interface, 1);
	else if (!strcmp(iface, "xdg_wm_base"))
		v->wm = wl_registry_bind(reg, name, &xdg_wm_base_interface, 1);
}

static void v_global_remove(void *data, struct wl_registry *reg, uint32_t name)
{
}

static const struct wl_registry_listener v_registry = { v_global, v_global_remove };

static void v_ping(void *data, struct xdg_wm_base *wm, uint32_t serial)
{
	xdg_wm_base_pong(wm, serial);
}

static const struct xdg_wm_base_listener v_wm = { v_ping };

static void v_configure(void *data, struct xdg_surface *xs, uint32_t serial)
{
	struct victim *v = data;

	xdg_surface_ack_configure(xs, serial);
	v->configured = true;
}

static const struct xdg_surface_listener v_xs = { v_configure };

static void v_done(void *data, struct wl_callback *cb, uint32_t t)
{
	struct victim *v = data;

	wl_callback_destroy(cb);
	v->frame_done = true;
}

static const struct wl_callback_listener v_frame = { v_done };

static void v_draw(struct victim *v)
{
	int i = v->frame++ & 1;
	uint32_t *p = v->px + i * (VICTIM_SIZE / 4);
	struct wl_callback *cb;

	for (int n = 0; n < VICTIM_W * VICTIM_H; n++)
		p[n] = 0xff000000u | ((uint32_t)(v->frame * 0x010305) ^ (uint32_t)(n & 0xff));
	wl_surface_attach(v->surface, v->buf[i], 0, 0);
	wl_surface_damage(v->surface, 0, 0, VICTIM_W, VICTIM_H);
	cb = wl_surface_frame(v->surface);
	wl_callback_add_listener(cb, &v_frame, v);
	v->frame_done = false;
	wl_surface_commit(v->surface);
	wl_display_flush(v->dpy);
}

static int v_setup(struct victim *v, const char *socket)
{
	struct wl_shm_pool *pool;
	int fd;

	v->dpy = wl_display_connect(socket);
	if (!v->dpy)
		return snprintf(v->r.error, sizeof(v->r.error), "cannot connect"), -1;
	wl_registry_add_listener(wl_display_get_registry(v->dpy), &v_registry, v);
	if (wl_display_roundtrip(v->dpy) < 0 || !v->comp || !v->shm || !v->wm)
		return snprintf(v->r.error, sizeof(v->r.error), "globals missing"), -1;
	xdg_wm_base_add_listener(v->wm, &v_wm, v);
	v->surface = wl_compositor_create_surface(v->comp);
	v->xs = xdg_wm_base_get_xdg_surface(v->wm, v->surface);
	xdg_surface_add_listener(v->xs, &v_xs, v);
	v->tl = xdg_surface_get_toplevel(v->xs);
	xdg_toplevel_set_title(v->tl, "wlseal-fuzz victim");
	wl_surface_commit(v->surface);
	while (!v->configured)
		if (wl_display_dispatch(v->dpy) < 0)
			return snprintf(v->r.error, sizeof(v->r.error), "no configure"), -1;
	fd = wlseal_memfd_create_upstream("wlseal-fuzz-victim", 2 * VICTIM_SIZE);
	if (fd < 0 || fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW) != 0)
		return snprintf(v->r.error, sizeof(v->r.error), "memfd: %s", strerror(errno)), -1;
	v->px = mmap(NULL, 2 * VICTIM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (v->px == MAP_FAILED)
		return snprintf(v->r.error, sizeof(v->r.error), "mmap: %s", strerror(errno)), -1;
	pool = wl_shm_create_pool(v->shm, fd, 2 * VICTIM_SIZE);
	close(fd);
	for (int i = 0; i < 2; i++)
		v->buf[i] = wl_shm_pool_create_buffer(pool, i * VICTIM_SIZE, VICTIM_W,
						      VICTIM_H, VICTIM_W * 4,
						      WL_SHM_FORMAT_XRGB8888);
	wl_shm_pool_destroy(pool);
	return 0;
}

/* Redraw on every frame callback until @ctl closes, then until
 * VICTIM_AFTER more frames came (or VICTIM_AFTER_MS passed); 'R' on
 * @out after the first frame, the report at the end. */
static void victim_main(const char *socket, int ctl, int out)
{
	struct victim v = { 0 };
	double end_by = 0;
	bool ready = false;

	if (v_setup(&v, socket) != 0)
		goto report;
	v_draw(&v);
	for (;;) {
		struct pollfd p[2] = {
			{ .fd = wl_display_get_fd(v.dpy), .events = POLLIN },
			{ .fd = ctl, .events = POLLIN },
		};
		double t;

		bool lost = false;

		while (!lost && wl_display_prepare_read(v.dpy) != 0)
			lost = wl_display_dispatch_pending(v.dpy) < 0;
		if (lost) {
			snprintf(v.r.error, sizeof(v.r.error), "connection lost: %s",
				 strerror(wl_display_get_error(v.dpy)));
			break;
		}
		wl_display_flush(v.dpy);
		poll(p, end_by ? 1 : 2, 100);
		if (p[0].revents & (POLLIN | POLLERR | POLLHUP)) {
			if (wl_display_read_events(v.dpy) < 0) {
				snprintf(v.r.error, sizeof(v.r.error), "connection lost: %s",
					 strerror(wl_display_get_error(v.dpy)));
				break;
			}
		} else {
			wl_display_cancel_read(v.dpy);
		}
		if (wl_display_dispatch_pending(v.dpy) < 0) {
			snprintf(v.r.error, sizeof(v.r.error), "connection lost: %s",
				 strerror(wl_display_get_error(v.dpy)));
			break;
		}
		t = now_s();
		if (!end_by && (p[1].revents & (POLLIN | POLLHUP)))
			end_by = t + VICTIM_AFTER_MS / 1000.0;
		if (v.frame_done) {
			if (!ready) {
				ready = write(out, "R", 1) == 1;
			} else {
				int gap = (int)((t - v.last) * 1000);

				if (gap > v.r.worst_gap_ms)
					v.r.worst_gap_ms = gap;
			}
			v.last = t;
			v.r.frames++;
			if (end_by)
				v.r.frames_after++;
			if (v.r.frames_after >= VICTIM_AFTER)
				break;
			v_draw(&v);
		}
		if (end_by && t > end_by) {
			snprintf(v.r.error, sizeof(v.r.error),
				 "%ld frames in the %d ms after the search", v.r.frames_after,
				 VICTIM_AFTER_MS);
			break;
		}
	}
report:
	if (write(out, &v.r, sizeof(v.r)) != (ssize_t)sizeof(v.r))
		_exit(1);
	_exit(0);
}

struct victim_proc {
	pid_t pid;
	int ctl, report;
};

static int victim_start(struct victim_proc *vp, const char *socket)
{
	int ctl[2], rep[2];
	struct pollfd p;
	char ready;

	if (pipe2(ctl, O_CLOEXEC) || pipe2(rep, O_CLOEXEC))
		return -1;
	fflush(stdout);
	vp->pid = fork();
	if (vp->pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(ctl[1]);
		close(rep[0]);
		victim_main(socket, ctl[0], rep[1]);
	}
	close(ctl[0]);
	close(rep[1]);
	vp->ctl = ctl[1];
	vp->report = rep[0];
	if (vp->pid < 0)
		return -1;
	p = (struct pollfd){ .fd = vp->report, .events = POLLIN };
	if (poll(&p, 1, VICTIM_AFTER_MS) <= 0 || read(vp->report, &ready, 1) != 1 ||
	    ready != 'R')
		return -1;
	return 0;
}

static void victim_end(struct victim_proc *vp, struct victim_report *r)
{
	struct pollfd p = { .fd = vp->report, .events = POLLIN };

	*r = (struct victim_report){ .error = "no report" };
	close(vp->ctl);
	if (poll(&p, 1, VICTIM_AFTER_MS + 5000) > 0 &&
	    read(vp->report, r, sizeof(*r)) != (ssize_t)sizeof(*r))
		snprintf(r->error, sizeof(r->error), "no report");
	close(vp->report);
	kill(vp->pid, SIGKILL);
	waitpid(vp->pid, NULL, 0);
}

/* ---- sequences ------------------------------------------------------- */

static void seq_random(struct rng *r, struct seq *s, int n_clients)
{
	s->n = 2 + (int)below(r, 10);
	for (int i = 0; i < s->n; i++)
		op_random(r, &s->op[i], n_clients);
}

static void seq_mutate(struct rng *r, struct seq *s, int n_clients)
{
	int times = 1 + (int)below(r, 3);

	for (int t = 0; t < times; t++) {
		int i = (int)below(r, (uint32_t)s->n);

		switch (below(r, 6)) {
		case 0:		/* insert a new operation */
			if (s->n < MAX_OPS) {
				memmove(&s->op[i + 1], &s->op[i], sizeof(s->op[0]) * (size_t)(s->n - i));
				op_random(r, &s->op[i], n_clients);
				s->n++;
			}
			break;
		case 1:		/* delete one */
			if (s->n > 1) {
				memmove(&s->op[i], &s->op[i + 1], sizeof(s->op[0]) * (size_t)(s->n - i - 1));
				s->n--;
			}
			break;
		case 2:		/* repeat one */
			if (s->n < MAX_OPS) {
				memmove(&s->op[i + 1], &s->op[i], sizeof(s->op[0]) * (size_t)(s->n - i));
				s->n++;
			}
			break;
		case 3: {	/* swap two */
			int j = (int)below(r, (uint32_t)s->n);
			struct op o = s->op[i];

			s->op[i] = s->op[j];
			s->op[j] = o;
			break;
		}
		default:	/* change its arguments */
			op_mutate_args(r, &s->op[i], n_clients);
			break;
		}
	}
}

static void seq_print(FILE *f, const struct seq *s, const char *indent)
{
	char buf[160];

	for (int i = 0; i < s->n; i++) {
		op_format(&s->op[i], buf, sizeof(buf));
		fprintf(f, "%s%-48s # %.3f ms%s\n", indent, buf, ms(s->op[i].cost_ns),
			i == s->worst_op ? " <- worst" : "");
	}
}

/*
 * Connection @c waited in vain for its frame. When the compositor's
 * events to it did not fit its socket within one turn (a frame's
 * presentation events by the ten thousand), libwayland marks the client
 * failed, drops every later event and ends it only once the connection
 * is heard from again: a loss of the connection's own making, not a
 * stalled compositor. True (and @c closed, to be rebuilt) when @c
 * does not answer a sync while a fresh connection does.
 */
static bool lost_connection(struct stall_env *e, struct sclient *c)
{
	int timeout = e->timeout_ms, rc;
	int fd;

	e->timeout_ms = 1000;
	rc = sc_flush(e, c);
	e->timeout_ms = timeout;
	if (rc == 0)
		return false;	/* it answers, but sent no frame */
	fd = connect_socket(e->socket);
	if (fd >= 0) {
		static struct conn probe;

		memset(&probe, 0, sizeof(probe));
		probe.fd = fd;
		probe.obj[1] = (struct object){ .iface = &wl_display_interface,
						.version = 1, .live = true };
		probe.next_id = 2;
		rc = roundtrip(&probe, e->timeout_ms) ? 0 : -1;
		close(fd);
		if (rc != 0)
			return false;
	}
	fprintf(stderr, "wlseal-fuzz: stall: connection %d answers no more (its events "
		"overflowed its socket); closed\n", (int)(c - e->clients));
	sc_close(c);
	e->stalled = false;
	e->why[0] = 0;
	return true;
}

/* Run @s; its costs in it. -1 when the compositor stopped answering. */
static int seq_run(struct stall_env *e, struct seq *s)
{
	struct sclient *c = NULL;
	int rc;

	s->cost_ns = 0;
	s->total_ns = 0;
	s->worst_op = -1;
	for (int i = 0; i < s->n; i++) {
		uint64_t before = e->window_total;

		if (op_run(e, &s->op[i]) != 0)
			return -1;
		s->total_ns += e->window_total - before;
		if (s->op[i].cost_ns > s->cost_ns) {
			s->cost_ns = s->op[i].cost_ns;
			s->worst_op = i;
		}
	}
	/* The repaint of what the sequence left: a frame of a live
	 * connection, waited for. */
	for (int i = 0; i < e->n_clients && !c; i++)
		if (!e->clients[i].dead)
			c = &e->clients[i];
	if (c) {
		uint64_t t0;
		double deadline = now_s() + e->timeout_ms / 1000.0;
		int before;

		sc_pump_all(e, 0);
		t0 = stall_cpu_ns(e);
		sc_req(c, c->surface, WL_SURFACE_FRAME, "n", K_FRAME);
		c->frames_pending++;
		before = c->frames_pending;
		sc_req(c, c->surface, WL_SURFACE_DAMAGE, "iiii", 0, 0, INT32_MAX, INT32_MAX);
		sc_req(c, c->surface, WL_SURFACE_COMMIT, "");
		e->window_worst = 0;
		rc = sc_flush(e, c);
		if (rc == -2)
			return -1;
		while (!c->dead && c->frames_pending >= before && now_s() < deadline)
			sc_pump_all(e, 100);
		if (!c->dead && c->frames_pending >= before) {
			if (!lost_connection(e, c)) {
				snprintf(e->why, sizeof(e->why),
					 "connection %d: no frame callback within %d ms of its commit",
					 (int)(c - e->clients), e->timeout_ms);
				return -1;
			}
			/* seconds of waiting hold many turns: not a window */
			return 0;
		}
		{
			uint64_t spent = stall_cpu_ns(e) - t0;

			s->total_ns += spent;
			if (spent > s->cost_ns) {
				s->cost_ns = spent;
				s->worst_op = -1;
			}
		}
	}
	return 0;
}

static int seq_read(FILE *f, struct seq *s, int n_clients, bool *more)
{
	char line[512];

	*s = (struct seq){ .worst_op = -2 };
	*more = false;
	while (fgets(line, sizeof(line), f)) {
		char *p = line + strspn(line, " \t");

		if (!strncmp(p, "end", 3)) {
			*more = true;
			return s->n ? 0 : -1;
		}
		if (*p == '#' || *p == '\n' || !*p || !strncmp(p, "sequence", 8))
			continue;
		if (s->n == MAX_OPS || !op_parse(p, &s->op[s->n], n_clients)) {
			fprintf(stderr, "wlseal-fuzz: stall: cannot read '%s'\n", p);
			return -1;
		}
		s->n++;
	}
	return s->n ? 0 : 1;
}

/* Keep @s among the costliest (sorted, costliest first). */
static void keep(struct seq *pop, int *n, int max, const struct seq *s)
{
	int i;

	if (*n == max && s->cost_ns <= pop[max - 1].cost_ns)
		return;
	if (*n < max)
		(*n)++;
	for (i = *n - 1; i > 0 && pop[i - 1].cost_ns < s->cost_ns; i--)
		pop[i] = pop[i - 1];
	pop[i] = *s;
}

static void write_findings(const char *path, const struct options *o,
			   const struct seq *pop, int n, uint64_t iterations)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		fprintf(stderr, "wlseal-fuzz: stall: %s: %s\n", path, strerror(errno));
		return;
	}
	fprintf(f, "# wlseal-fuzz --stall --seed=%" PRIu64 " --clients=%d%s%s: %" PRIu64
		" sequences run, the %d costliest kept.\n", o->seed, o->clients,
		o->exclude ? " --exclude=" : "", o->exclude ? o->exclude : "",
		iterations, n);
	fprintf(f, "# cost: the compositor thread's most CPU between sending one burst and\n"
		   "# its sync's answer (or the repaint of the state left, waited for at the\n"
		   "# end); each such window holds the worst loop turn in it and maybe more.\n"
		   "# Replay: wlseal-fuzz --stall --replay=THIS-FILE --pid=... (run-fuzz --stall --replay)\n\n");
	for (int i = 0; i < n; i++) {
		fprintf(f, "sequence %d: worst window %.3f ms%s, all windows %.3f ms (iteration %" PRIu64 ")\n",
			i + 1, ms(pop[i].cost_ns),
			pop[i].worst_op == -1 ? " (the repaint at its end)" : "",
			ms(pop[i].total_ns), pop[i].iteration);
		seq_print(f, &pop[i], "  ");
		fprintf(f, "end\n\n");
	}
	fclose(f);
}

static int env_open(struct stall_env *e, const struct options *o)
{
	char path[64];

	*e = (struct stall_env){ .socket = o->socket, .pid = o->pid,
				 .n_clients = o->clients, .timeout_ms = o->timeout_ms,
				 .out_w = o->out_w, .out_h = o->out_h };
	snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat", (int)o->pid, (int)o->pid);
	e->stat_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (e->stat_fd < 0) {
		fprintf(stderr, "wlseal-fuzz: stall: %s: %s\n", path, strerror(errno));
		return -1;
	}
	e->clients = calloc((size_t)e->n_clients, sizeof(*e->clients));
	if (!e->clients)
		return -1;
	for (int i = 0; i < e->n_clients; i++) {
		struct sclient *c = &e->clients[i];

		c->fd = -1;
		if (sc_connect(e, c) != 0)
			return -1;
		if (sc_setup(e, c) != 0) {
			fprintf(stderr, "wlseal-fuzz: stall: connection %d: setup failed: %s\n",
				i, c->error[0] ? c->error : "no answer");
			return -1;
		}
	}
	return 0;
}

int stall_main(const struct options *o)
{
	static struct seq pop[MAX_KEEP];
	struct stall_env e = { 0 };
	struct victim_proc vp;
	struct victim_report vr;
	int n_pop = 0, rc = 0;
	uint64_t it, ops_run = 0, over = 0;
	double t0 = now_s();
	struct seq s, best = { .cost_ns = 0 };

	/* progress by the line: a long search is watched, and a line
	 * printed is not lost whatever ends the process */
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("wlseal-fuzz: stall: seed=%" PRIu64 " socket=%s clients=%d iterations=%" PRIu64 "\n",
	       o->seed, o->socket, o->clients, o->iterations);
	fflush(stdout);
	if (!o->pid) {
		fprintf(stderr, "wlseal-fuzz: --stall needs --pid (the compositor's CPU time is the score)\n");
		return 2;
	}
	if (victim_start(&vp, o->socket) != 0) {
		printf("wlseal-fuzz: stall: FAIL: the victim got no first frame\n");
		return 1;
	}
	if (env_open(&e, o) != 0) {
		printf("wlseal-fuzz: stall: FAIL: the hostile connections could not be set up\n");
		victim_end(&vp, &vr);
		return 1;
	}
	printf("wlseal-fuzz: stall: %d connections set up (%d subsurfaces, %d wl_output binds each), %.1f s\n",
	       e.n_clients, SUBS, BUDGET_OUTPUTS, now_s() - t0);
	fflush(stdout);

	if (o->replay) {
		FILE *f = fopen(o->replay, "r");
		bool more = true;
		int k = 0;

		if (!f) {
			fprintf(stderr, "wlseal-fuzz: stall: %s: %s\n", o->replay, strerror(errno));
			rc = 2;
			goto out;
		}
		while (more && !rc) {
			int r = seq_read(f, &s, e.n_clients, &more);

			if (r > 0)
				break;
			if (r < 0) {
				rc = 2;
				break;
			}
			k++;
			for (uint64_t rep = 0; rep < o->iterations; rep++) {
				if (seq_run(&e, &s) != 0) {
					rc = 1;
					break;
				}
				printf("replay: sequence %d run %" PRIu64 ": worst window %.3f ms%s, all windows %.3f ms\n",
				       k, rep + 1, ms(s.cost_ns), s.worst_op == -1 ? " (repaint)" : "",
				       ms(s.total_ns));
				seq_print(stdout, &s, "  ");
				if (s.cost_ns > best.cost_ns)
					best = s;
			}
		}
		fclose(f);
		goto out;
	}

	for (it = 0; it < o->iterations; it++) {
		struct rng r = { o->seed ^ ((it + 1) * 0xd1342543de82ef95ull) };

		if (o->seconds > 0 && now_s() - t0 >= o->seconds)
			break;
		rnd(&r);
		if (n_pop < o->keep / 2 || chance(&r, 250)) {
			s = (struct seq){ 0 };
			seq_random(&r, &s, e.n_clients);
		} else {
			/* the better of two picks: costlier parents more often */
			uint32_t i = below(&r, (uint32_t)n_pop), j = below(&r, (uint32_t)n_pop);

			s = pop[i < j ? i : j];
			seq_mutate(&r, &s, e.n_clients);
		}
		s.iteration = it;
		if (seq_run(&e, &s) != 0) {
			printf("wlseal-fuzz: stall: FAIL at iteration %" PRIu64 ": the compositor stopped answering: %s\n",
			       it, e.why[0] ? e.why : "a connection could not be rebuilt");
			seq_print(stdout, &s, "  ");
			best = s;
			rc = 1;
			break;
		}
		ops_run += (uint64_t)s.n;
		if (s.cost_ns > FRAME_NS)
			over++;
		if (s.cost_ns > best.cost_ns) {
			char buf[160] = "the repaint at its end";

			if (s.worst_op >= 0)
				op_format(&s.op[s.worst_op], buf, sizeof(buf));
			printf("wlseal-fuzz: stall: iteration %" PRIu64 ": new worst window %.3f ms (%s)\n",
			       it, ms(s.cost_ns), buf);
			fflush(stdout);
			best = s;
		}
		keep(pop, &n_pop, o->keep, &s);
		if (o->verbose)
			fprintf(stderr, "iteration %" PRIu64 ": %d ops, worst %.3f ms, all %.3f ms\n",
				it, s.n, ms(s.cost_ns), ms(s.total_ns));
	}
	if (o->out)
		write_findings(o->out, o, pop, n_pop, it);
	printf("wlseal-fuzz: stall: %" PRIu64 " sequences, %" PRIu64 " operations, %" PRIu64
	       " requests, %" PRIu64 " reconnects, %" PRIu64 " sequences with a window over 16 ms, %.1f s\n",
	       it, ops_run, e.requests, e.reconnects, over, now_s() - t0);
	if (n_pop) {
		printf("wlseal-fuzz: stall: costliest sequence (worst window %.3f ms, all windows %.3f ms):\n",
		       ms(pop[0].cost_ns), ms(pop[0].total_ns));
		seq_print(stdout, &pop[0], "  ");
	}
out:
	victim_end(&vp, &vr);
	printf("VICTIM frames=%ld worst_gap_ms=%d frames_after=%ld%s%s\n", vr.frames,
	       vr.worst_gap_ms, vr.frames_after, vr.error[0] ? " error=" : "", vr.error);
	if (!rc && (vr.error[0] || vr.frames_after < VICTIM_AFTER)) {
		printf("wlseal-fuzz: stall: FAIL: the victim: %s\n", vr.error[0] ? vr.error : "too few frames");
		rc = 1;
	}
	for (int i = 0; e.clients && i < e.n_clients; i++) {
		sc_close(&e.clients[i]);
		free(e.clients[i].kind);
	}
	free(e.clients);
	if (!rc)
		printf("wlseal-fuzz: stall: PASS seed=%" PRIu64 "\n", o->seed);
	return rc;
}
