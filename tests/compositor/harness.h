/* SPDX-License-Identifier: MIT */
/*
 * harness.h - run wlseal-compositor and clients from a host test, and make
 * the memfds they pass.
 *
 * Every test gets its own XDG_RUNTIME_DIR and socket, so tests run in
 * parallel. Waiting is always for a real condition (a line in a child's
 * output, a process exit), bounded by a timeout that fails the test.
 */
#ifndef WLSEAL_TEST_HARNESS_H
#define WLSEAL_TEST_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <png.h>
#include <sys/types.h>

#define TIMEOUT_MS 10000

struct proc {
	pid_t pid;
	int fd;			/* child's stdout+stderr */
	char *buf;
	size_t len, cap;
	bool eof;
	int status;		/* valid once exited */
	bool exited;
};

struct comp {
	struct proc p;
	char dir[64];
	char shot[128];
	char shot_arg[160];
};

/* Fails the test (exit 1) with a message; cleans up children. */
void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void check(bool cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tap_ok(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

const char *bin_compositor(void);
const char *bin_client(void);

/* Starts a child with argv; NULL-terminated. Output captured. */
void proc_spawn(struct proc *p, char *const argv[]);
/* Starts wlseal-client with @extra (NULL-terminated, may be NULL). */
void client_spawn(struct proc *p, const char *const extra[]);
/* Finds @needle at or after *from; returns the line holding it (copied to
 * @line) and moves *from past it. Waits up to @timeout_ms. */
bool proc_wait(struct proc *p, size_t *from, const char *needle,
	       int timeout_ms, char *line, size_t line_len);
bool proc_wait_exit(struct proc *p, int timeout_ms);
bool proc_alive(struct proc *p);
void proc_kill(struct proc *p, int sig);
bool proc_contains(struct proc *p, const char *needle);

/* Compositor with --backend=headless --socket=wlseal-test
 * --screenshot=DIR/shot.png plus @extra
 * (NULL-terminated); sets XDG_RUNTIME_DIR and WAYLAND_DISPLAY for us and
 * every later child. Returns once it printed "ready". */
void comp_start(struct comp *c, const char *const extra[]);
void comp_stop(struct comp *c);

/* The compositor's screenshot (--screenshot) decoded as RGB, 3 bytes a
 * pixel; false when it cannot be read (img->message says why). */
bool read_png(const char *path, png_image *img, uint8_t **rgb);
/* The pixel at (@x, @y) of an RGB image @w pixels wide, as 0xffRRGGBB. */
uint32_t rgb_at(const uint8_t *rgb, int w, int x, int y);
/* Asks for a screenshot (SIGUSR1), waits for the compositor's
 * "screenshot frame=" line after *from and reads it into *rgb (freed
 * first), *w x *h; fails the test when any of it fails. */
void comp_screenshot(struct comp *c, size_t *from, uint8_t **rgb,
		     unsigned int *w, unsigned int *h);

/* The last line libwayland-client logged: a protocol error's text. */
extern char last_client_log[1024];
/* wl_display_connect(NULL) with libwayland-client's log kept in
 * last_client_log; fails the test when it cannot connect. */
struct wl_display;
struct wl_interface;
struct wl_display *connect_display(void);

/* A global to bind: the first one named @name, at @version, into *@out. */
struct global_want {
	const char *name;
	const struct wl_interface *iface;
	uint32_t version;
	void **out;
};
/* Binds each of @n globals of @d (one roundtrip); fails naming every one
 * the compositor does not advertise. */
void bind_globals(struct wl_display *d, const struct global_want *want,
		  int n);

/* A memfd of @size bytes with @seals added (-1: without MFD_ALLOW_SEALING);
 * fails the test when it cannot make one. */
int make_memfd(size_t size, int seals);

/* Bit of @sig in the SigCgt mask of @pid. */
bool has_signal_handler(pid_t pid, int sig);

/* A test program's cases: "PROG --list" names them, "PROG NAME" runs one. */
struct harness_test {
	const char *name;
	void (*run)(void);
};
int harness_main(const char *prog, const struct harness_test *tests, size_t n,
		 int argc, char **argv);

#endif
