/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <wayland-client.h>

#include "harness.h"
#include "memfd.h"
#include "wlseal-seals.h"

/*
 * What the exit-time cleanup needs, kept here rather than behind the
 * callers' pointers: a test's struct proc or struct comp may be a local
 * that is gone by exit. cleanup() kills only pids of children not yet
 * reaped (a zombie keeps its pid, so it cannot be someone else's) and
 * never reads through procs[]; fail() reads procs[] only while the pid
 * there still matches, to dump output of the test that is failing.
 */
#define MAX_PROCS 16
static struct proc *procs[MAX_PROCS];
static pid_t pids[MAX_PROCS];	/* 0 once reaped */
static int nprocs;
static struct comp *the_comp;
static char comp_dir[64];	/* the_comp->dir, kept for cleanup() */

static void reaped(pid_t pid)
{
	for (int i = 0; i < nprocs; i++)
		if (pids[i] == pid)
			pids[i] = 0;
}

static void dump_proc(struct proc *p, const char *what)
{
	fprintf(stderr, "----- output of %s (pid %d) -----\n%.*s\n-----\n", what,
		(int)p->pid, (int)p->len, p->buf ? p->buf : "");
}

static void cleanup(void)
{
	int i;

	for (i = 0; i < nprocs; i++)
		if (pids[i] > 0) {
			kill(pids[i], SIGKILL);
			waitpid(pids[i], NULL, 0);
			pids[i] = 0;
		}
	if (comp_dir[0]) {
		DIR *d = opendir(comp_dir);
		struct dirent *e;
		char path[512];

		while (d && (e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", comp_dir, e->d_name);
			unlink(path);
		}
		if (d)
			closedir(d);
		rmdir(comp_dir);
		comp_dir[0] = 0;
	}
	the_comp = NULL;
}

void fail(const char *fmt, ...)
{
	va_list ap;
	int i;

	fprintf(stdout, "not ok - ");
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	fprintf(stdout, "\n");
	fflush(stdout);
	for (i = 0; i < nprocs; i++)
		if (pids[i] > 0 && procs[i]->pid == pids[i])
			dump_proc(procs[i], i == 0 && the_comp ? "compositor" : "child");
	cleanup();
	exit(1);
}

void check(bool cond, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!cond)
		fail("%s", msg);
	printf("ok - %s\n", msg);
	fflush(stdout);
}

void tap_ok(const char *fmt, ...)
{
	va_list ap;

	printf("ok - ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

const char *bin_compositor(void)
{
	const char *p = getenv("WLSEAL_COMPOSITOR");

	return p ? p : "wlseal-compositor";
}

const char *bin_client(void)
{
	const char *p = getenv("WLSEAL_CLIENT");

	return p ? p : "wlseal-client";
}

void proc_spawn(struct proc *p, char *const argv[])
{
	int fds[2];

	memset(p, 0, sizeof(*p));
	if (pipe2(fds, O_CLOEXEC) < 0)
		fail("pipe: %s", strerror(errno));
	fflush(NULL);
	p->pid = fork();
	if (p->pid < 0)
		fail("fork: %s", strerror(errno));
	if (p->pid == 0) {
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		execvp(argv[0], argv);
		fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	p->fd = fds[0];
	p->cap = 65536;
	p->buf = malloc(p->cap);
	if (nprocs < MAX_PROCS) {
		pids[nprocs] = p->pid;
		procs[nprocs++] = p;
	}
}

void client_spawn(struct proc *p, const char *const extra[])
{
	char *argv[16];
	int n = 0;

	argv[n++] = (char *)bin_client();
	while (extra && *extra && n < 15)
		argv[n++] = (char *)*extra++;
	argv[n] = NULL;
	proc_spawn(p, argv);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Reads what is available, waiting at most @ms. */
static void proc_read(struct proc *p, int ms)
{
	struct pollfd pfd = { .fd = p->fd, .events = POLLIN };
	ssize_t n;

	if (p->eof) {
		if (ms > 0)
			usleep(1000 * (ms < 20 ? ms : 20));
		return;
	}
	if (poll(&pfd, 1, ms) <= 0)
		return;
	if (p->len + 4096 > p->cap) {
		p->cap *= 2;
		p->buf = realloc(p->buf, p->cap);
	}
	n = read(p->fd, p->buf + p->len, p->cap - p->len - 1);
	if (n <= 0) {
		p->eof = true;
		return;
	}
	p->len += (size_t)n;
	p->buf[p->len] = 0;
}

bool proc_wait(struct proc *p, size_t *from, const char *needle,
	       int timeout_ms, char *line, size_t line_len)
{
	long long deadline = now_ms() + timeout_ms;
	size_t start = from ? *from : 0;

	for (;;) {
		char *hit = p->len > start ? strstr(p->buf + start, needle) : NULL;
		char *eol;

		/* Only complete lines count. */
		if (hit && (eol = strchr(hit, '\n'))) {
			char *bol = hit;

			while (bol > p->buf && bol[-1] != '\n')
				bol--;
			if (line) {
				size_t n = (size_t)(eol - bol);

				if (n >= line_len)
					n = line_len - 1;
				memcpy(line, bol, n);
				line[n] = 0;
			}
			if (from)
				*from = (size_t)(eol + 1 - p->buf);
			return true;
		}
		if (now_ms() >= deadline || (p->eof && !hit))
			return false;
		proc_read(p, (int)(deadline - now_ms()));
	}
}

bool proc_contains(struct proc *p, const char *needle)
{
	proc_read(p, 0);
	return p->buf && p->len && strstr(p->buf, needle);
}

bool proc_wait_exit(struct proc *p, int timeout_ms)
{
	long long deadline = now_ms() + timeout_ms;

	while (!p->exited) {
		pid_t r = waitpid(p->pid, &p->status, WNOHANG);

		if (r == p->pid) {
			p->exited = true;
			reaped(p->pid);
			break;
		}
		if (now_ms() >= deadline)
			return false;
		/* Drain output meanwhile; EOF comes with the exit. */
		proc_read(p, 20);
	}
	while (!p->eof)
		proc_read(p, 100);
	return true;
}

bool proc_alive(struct proc *p)
{
	if (p->exited)
		return false;
	if (waitpid(p->pid, &p->status, WNOHANG) == p->pid) {
		p->exited = true;
		reaped(p->pid);
		return false;
	}
	return true;
}

void proc_kill(struct proc *p, int sig)
{
	if (!p->exited)
		kill(p->pid, sig);
}

void comp_start(struct comp *c, const char *const extra[])
{
	char *argv[32];
	int n = 0;

	memset(c, 0, sizeof(*c));
	strcpy(c->dir, "/tmp/wlseal-test-XXXXXX");
	if (!mkdtemp(c->dir))
		fail("mkdtemp: %s", strerror(errno));
	the_comp = c;
	snprintf(comp_dir, sizeof(comp_dir), "%s", c->dir);
	atexit(cleanup);
	snprintf(c->shot, sizeof(c->shot), "%s/shot.png", c->dir);
	setenv("XDG_RUNTIME_DIR", c->dir, 1);
	setenv("WAYLAND_DISPLAY", "wlseal-test", 1);
	unsetenv("WAYLAND_SOCKET");

	argv[n++] = (char *)bin_compositor();
	argv[n++] = "--backend=headless";
	argv[n++] = "--socket=wlseal-test";
	snprintf(c->shot_arg, sizeof(c->shot_arg), "--screenshot=%s", c->shot);
	argv[n++] = c->shot_arg;
	while (extra && *extra && n < 30)
		argv[n++] = (char *)*extra++;
	argv[n] = NULL;
	proc_spawn(&c->p, argv);
	if (!proc_wait(&c->p, NULL, "ready WAYLAND_DISPLAY=wlseal-test",
		       TIMEOUT_MS, NULL, 0))
		fail("compositor did not become ready");
}

void comp_stop(struct comp *c)
{
	proc_kill(&c->p, SIGTERM);
	if (!proc_wait_exit(&c->p, TIMEOUT_MS))
		fail("compositor did not exit on SIGTERM");
	if (!WIFEXITED(c->p.status) || WEXITSTATUS(c->p.status) != 0)
		fail("compositor exit status 0x%x", c->p.status);
}

bool read_png(const char *path, png_image *img, uint8_t **rgb)
{
	memset(img, 0, sizeof(*img));
	img->version = PNG_IMAGE_VERSION;
	if (!png_image_begin_read_from_file(img, path))
		return false;
	img->format = PNG_FORMAT_RGB;
	*rgb = malloc(PNG_IMAGE_SIZE(*img));
	return png_image_finish_read(img, NULL, *rgb, 0, NULL);
}

uint32_t rgb_at(const uint8_t *rgb, int w, int x, int y)
{
	const uint8_t *p = rgb + ((size_t)y * w + x) * 3;

	return 0xff000000u | (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

/* The running test, for file names: "prog-test". */
static char run_name[128] = "test";

/* WLSEAL_TEST_SHOTS=DIR keeps every screenshot a test reads, as
 * DIR/PROG-TEST-N.png, for a person to look at. */
static void keep_screenshot(const char *path)
{
	static int n;
	const char *dir = getenv("WLSEAL_TEST_SHOTS");
	char dst[4096], buf[65536];
	int in, out;
	ssize_t r;

	if (!dir || !*dir)
		return;
	snprintf(dst, sizeof(dst), "%s/%s-%d.png", dir, run_name, ++n);
	in = open(path, O_RDONLY | O_CLOEXEC);
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	while (in >= 0 && out >= 0 && (r = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)r) != r)
			break;
	if (in < 0 || out < 0)
		fprintf(stderr, "# WLSEAL_TEST_SHOTS: cannot copy %s to %s: %s\n",
			path, dst, strerror(errno));
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
}

void comp_screenshot(struct comp *c, size_t *from, uint8_t **rgb,
		     unsigned int *w, unsigned int *h)
{
	png_image img;

	proc_kill(&c->p, SIGUSR1);
	if (!proc_wait(&c->p, from, "screenshot frame=", TIMEOUT_MS, NULL, 0))
		fail("no screenshot written");
	free(*rgb);
	*rgb = NULL;
	if (!read_png(c->shot, &img, rgb))
		fail("cannot read %s: %s", c->shot, img.message);
	*w = img.width;
	*h = img.height;
	keep_screenshot(c->shot);
}

char last_client_log[1024];

/* libwayland-client logs the protocol error text here; keep it. */
static void client_log(const char *fmt, va_list ap)
{
	vsnprintf(last_client_log, sizeof(last_client_log), fmt, ap);
}

struct wl_display *connect_display(void)
{
	struct wl_display *d;

	wl_log_set_handler_client(client_log);
	d = wl_display_connect(NULL);
	if (!d)
		fail("cannot connect: %s", strerror(errno));
	return d;
}

int make_memfd(size_t size, int seals)
{
	const char *failed = "memfd_create";
	int fd;

	if (seals < 0) {
		fd = memfd_create("wlseal-test", MFD_CLOEXEC);
		if (fd < 0 || ftruncate(fd, (off_t)size) < 0)
			fail("memfd: %s", strerror(errno));
		return fd;
	}
	fd = wlseal_memfd_new(WLSEAL_SEAL_API_UPSTREAM, "wlseal-test", size,
			      &failed);
	if (fd < 0)
		fail("memfd: %s: %s", failed, strerror(errno));
	if (seals > 0 &&
	    !wlseal_memfd_seal(WLSEAL_SEAL_API_UPSTREAM, fd, seals, &failed))
		fail("%s 0x%x: %s", failed, seals, strerror(errno));
	return fd;
}

bool has_signal_handler(pid_t pid, int sig)
{
	char path[64], line[256];
	unsigned long long mask = 0;
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (!f)
		fail("open %s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "SigCgt: %llx", &mask) == 1)
			found = true;
	fclose(f);
	if (!found)
		fail("no SigCgt line in %s", path);
	/* Signal n is bit n - 1 of the mask. */
	return mask & (1ull << (sig - 1));
}

int harness_main(const char *prog, const struct harness_test *tests, size_t n,
		 int argc, char **argv)
{
	/* A dead compositor must fail a test, not kill it. */
	signal(SIGPIPE, SIG_IGN);
	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (size_t i = 0; i < n; i++)
			printf("%s\n", tests[i].name);
		return 0;
	}
	for (size_t i = 0; argc == 2 && i < n; i++) {
		if (!strcmp(argv[1], tests[i].name)) {
			snprintf(run_name, sizeof(run_name), "%s-%s", prog,
				 tests[i].name);
			tests[i].run();
			return 0;
		}
	}
	fprintf(stderr, "usage: %s --list | TEST\n", prog);
	return 2;
}

struct bind_state {
	const struct global_want *want;
	int n;
};

static void bind_global(void *data, struct wl_registry *r, uint32_t name,
			const char *iface, uint32_t version)
{
	const struct bind_state *b = data;

	for (int i = 0; i < b->n; i++)
		if (!*b->want[i].out && !strcmp(iface, b->want[i].name))
			*b->want[i].out = wl_registry_bind(r, name,
							   b->want[i].iface,
							   b->want[i].version);
}

static void bind_global_remove(void *data, struct wl_registry *r,
			       uint32_t name)
{
}

static const struct wl_registry_listener bind_listener = {
	.global = bind_global,
	.global_remove = bind_global_remove,
};

void bind_globals(struct wl_display *d, const struct global_want *want,
		  int n)
{
	struct bind_state b = { want, n };
	struct wl_registry *r = wl_display_get_registry(d);
	char missing[256] = "";

	wl_registry_add_listener(r, &bind_listener, &b);
	if (wl_display_roundtrip(d) < 0)
		fail("roundtrip for the globals: %s", strerror(errno));
	wl_registry_destroy(r);
	for (int i = 0; i < n; i++)
		if (!*want[i].out)
			snprintf(missing + strlen(missing),
				 sizeof(missing) - strlen(missing), " %s",
				 want[i].name);
	if (missing[0])
		fail("not advertised:%s", missing);
}
