/* SPDX-License-Identifier: MIT */
/*
 * wlseal-input-probe: a fullscreen window that reports what the seat and
 * the pointer-related globals tell it, for VM scenarios that drive the
 * VM's own pointer from the host (tests/vm/scenarios/input-globals).
 *
 * It maps one fullscreen xdg toplevel with a SEAL_SHRINK-sealed memfd
 * buffer (the compositor refuses unsealed pools), binds wl_seat (pointer
 * and keyboard), zxdg_output_manager_v1 (v3),
 * zwp_relative_pointer_manager_v1, zwp_pointer_constraints_v1 and
 * zwp_text_input_manager_v3, and prints one line per event on stdout,
 * flushed at once, each line led by the current tag (see "tag" below) so
 * that a scenario can wait for a line of one step with wlseal-wait-line.
 * Positions are whole pixels (wl_fixed_t's integer part), deltas as
 * sent. Commands come one per line on stdin; the end of stdin is quit.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <wayland-client.h>

#include "xdg-shell-client-protocol.h"
#include "xdg-output-unstable-v1-client-protocol.h"
#include "relative-pointer-unstable-v1-client-protocol.h"
#include "pointer-constraints-unstable-v1-client-protocol.h"
#include "text-input-unstable-v3-client-protocol.h"

#define USAGE "usage: wlseal-input-probe [--help]\n"

static const char help[] =
	USAGE
	"A fullscreen window (sealed memfd buffer) on $WAYLAND_DISPLAY that prints\n"
	"one line per event on stdout, each led by the current tag (\"init\" at first):\n"
	"  TAG xdg_output logical_position X Y | logical_size W H | name NAME\n"
	"  TAG configure W H        TAG mapped W H (first buffer on screen)\n"
	"  TAG pointer enter X Y | leave | motion X Y | button CODE pressed|released\n"
	"  TAG relative_motion DX DY unaccel DX DY\n"
	"  TAG locked | unlocked | confined | unconfined\n"
	"  TAG keyboard enter | leave      TAG text_input enter | leave\n"
	"Commands on stdin, one a line:\n"
	"  tag NAME           later lines are led by NAME (prints \"NAME tag\")\n"
	"  lock               lock the pointer on the window (persistent)\n"
	"  unlock             destroy the lock\n"
	"  confine X Y W H    confine the pointer to that rectangle (persistent)\n"
	"  unconfine          destroy the confinement\n"
	"  sync               a wl_display.sync round trip (prints \"TAG synced\")\n"
	"  quit               exit (so does the end of stdin)\n"
	"Exit status 0, or 1 when the compositor lacks a global or the connection fails.\n";

struct probe {
	struct wl_display *display;
	struct wl_compositor *compositor;
	struct wl_shm *shm;
	struct xdg_wm_base *wm_base;
	struct wl_seat *seat;
	struct wl_output *output;
	struct zxdg_output_manager_v1 *xdg_output_manager;
	struct zwp_relative_pointer_manager_v1 *relative_manager;
	struct zwp_pointer_constraints_v1 *constraints;
	struct zwp_text_input_manager_v3 *text_input_manager;

	struct wl_pointer *pointer;
	struct wl_keyboard *keyboard;
	struct zwp_relative_pointer_v1 *relative;
	struct zwp_text_input_v3 *text_input;
	struct zxdg_output_v1 *xdg_output;
	struct zwp_locked_pointer_v1 *lock;
	struct zwp_confined_pointer_v1 *confine;

	struct wl_surface *surface;
	struct xdg_surface *xdg_surface;
	struct xdg_toplevel *toplevel;
	struct wl_buffer *buffer;
	int width, height;		/* the buffer's */
	int conf_width, conf_height;	/* the last toplevel configure */
	bool mapped;
	bool running;

	char tag[64];
	char in[4096];
	size_t n_in;
};

static void out(struct probe *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void out(struct probe *p, const char *fmt, ...)
{
	va_list ap;

	printf("%s ", p->tag);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* --- the buffer ---------------------------------------------------------- */

static struct wl_buffer *sealed_buffer(struct probe *p, int w, int h)
{
	size_t stride = (size_t)w * 4, size = stride * (size_t)h;
	struct wl_shm_pool *pool;
	struct wl_buffer *b;
	uint32_t *px;
	int fd;

	fd = memfd_create("wlseal-input-probe", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0 || ftruncate(fd, (off_t)size) < 0 ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK) < 0) {
		fprintf(stderr, "wlseal-input-probe: sealed memfd: %s\n", strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	px = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (px == MAP_FAILED) {
		fprintf(stderr, "wlseal-input-probe: mmap: %s\n", strerror(errno));
		close(fd);
		return NULL;
	}
	for (size_t i = 0; i < size / 4; i++)
		px[i] = 0xff204060;
	munmap(px, size);
	pool = wl_shm_create_pool(p->shm, fd, (int32_t)size);
	b = wl_shm_pool_create_buffer(pool, 0, w, h, (int32_t)stride,
				      WL_SHM_FORMAT_XRGB8888);
	wl_shm_pool_destroy(pool);
	close(fd);
	return b;
}

/* --- the window ---------------------------------------------------------- */

static void frame_done(void *data, struct wl_callback *cb, uint32_t time)
{
	struct probe *p = data;

	wl_callback_destroy(cb);
	out(p, "mapped %d %d", p->width, p->height);
}

static const struct wl_callback_listener frame_listener = { .done = frame_done };

static void xdg_surface_configure(void *data, struct xdg_surface *xs,
				  uint32_t serial)
{
	struct probe *p = data;
	int w = p->conf_width > 0 ? p->conf_width : 640;
	int h = p->conf_height > 0 ? p->conf_height : 480;

	xdg_surface_ack_configure(xs, serial);
	if (!p->buffer || w != p->width || h != p->height) {
		if (p->buffer)
			wl_buffer_destroy(p->buffer);
		p->buffer = sealed_buffer(p, w, h);
		if (!p->buffer) {
			p->running = false;
			return;
		}
		p->width = w;
		p->height = h;
		wl_surface_attach(p->surface, p->buffer, 0, 0);
		wl_surface_damage(p->surface, 0, 0, w, h);
	}
	if (!p->mapped) {
		wl_callback_add_listener(wl_surface_frame(p->surface),
					 &frame_listener, p);
		p->mapped = true;
	}
	wl_surface_commit(p->surface);
}

static const struct xdg_surface_listener xdg_surface_listener = {
	.configure = xdg_surface_configure,
};

static void toplevel_configure(void *data, struct xdg_toplevel *t,
			       int32_t w, int32_t h, struct wl_array *states)
{
	struct probe *p = data;

	p->conf_width = w;
	p->conf_height = h;
	out(p, "configure %d %d", w, h);
}

static void toplevel_close(void *data, struct xdg_toplevel *t)
{
	((struct probe *)data)->running = false;
}

static const struct xdg_toplevel_listener toplevel_listener = {
	.configure = toplevel_configure,
	.close = toplevel_close,
};

static void wm_ping(void *data, struct xdg_wm_base *wm, uint32_t serial)
{
	xdg_wm_base_pong(wm, serial);
}

static const struct xdg_wm_base_listener wm_listener = { .ping = wm_ping };

/* --- the pointer --------------------------------------------------------- */

static void pointer_enter(void *data, struct wl_pointer *ptr, uint32_t serial,
			  struct wl_surface *s, wl_fixed_t x, wl_fixed_t y)
{
	out(data, "pointer enter %d %d", wl_fixed_to_int(x), wl_fixed_to_int(y));
}

static void pointer_leave(void *data, struct wl_pointer *ptr, uint32_t serial,
			  struct wl_surface *s)
{
	out(data, "pointer leave");
}

static void pointer_motion(void *data, struct wl_pointer *ptr, uint32_t time,
			   wl_fixed_t x, wl_fixed_t y)
{
	out(data, "pointer motion %d %d", wl_fixed_to_int(x), wl_fixed_to_int(y));
}

static void pointer_button(void *data, struct wl_pointer *ptr, uint32_t serial,
			   uint32_t time, uint32_t button, uint32_t state)
{
	out(data, "pointer button %u %s", button,
	    state == WL_POINTER_BUTTON_STATE_PRESSED ? "pressed" : "released");
}

static void pointer_axis(void *data, struct wl_pointer *ptr, uint32_t time,
			 uint32_t axis, wl_fixed_t value)
{
}

static void pointer_frame(void *data, struct wl_pointer *ptr)
{
}

static void pointer_axis_source(void *data, struct wl_pointer *ptr, uint32_t source)
{
}

static void pointer_axis_stop(void *data, struct wl_pointer *ptr, uint32_t time,
			      uint32_t axis)
{
}

static void pointer_axis_discrete(void *data, struct wl_pointer *ptr,
				  uint32_t axis, int32_t discrete)
{
}

static const struct wl_pointer_listener pointer_listener = {
	.enter = pointer_enter,
	.leave = pointer_leave,
	.motion = pointer_motion,
	.button = pointer_button,
	.axis = pointer_axis,
	.frame = pointer_frame,
	.axis_source = pointer_axis_source,
	.axis_stop = pointer_axis_stop,
	.axis_discrete = pointer_axis_discrete,
};

static void relative_motion(void *data, struct zwp_relative_pointer_v1 *r,
			    uint32_t hi, uint32_t lo, wl_fixed_t dx, wl_fixed_t dy,
			    wl_fixed_t udx, wl_fixed_t udy)
{
	out(data, "relative_motion %g %g unaccel %g %g", wl_fixed_to_double(dx),
	    wl_fixed_to_double(dy), wl_fixed_to_double(udx),
	    wl_fixed_to_double(udy));
}

static const struct zwp_relative_pointer_v1_listener relative_listener = {
	.relative_motion = relative_motion,
};

static void locked(void *data, struct zwp_locked_pointer_v1 *l)
{
	out(data, "locked");
}

static void unlocked(void *data, struct zwp_locked_pointer_v1 *l)
{
	out(data, "unlocked");
}

static const struct zwp_locked_pointer_v1_listener lock_listener = {
	.locked = locked,
	.unlocked = unlocked,
};

static void confined(void *data, struct zwp_confined_pointer_v1 *c)
{
	out(data, "confined");
}

static void unconfined(void *data, struct zwp_confined_pointer_v1 *c)
{
	out(data, "unconfined");
}

static const struct zwp_confined_pointer_v1_listener confine_listener = {
	.confined = confined,
	.unconfined = unconfined,
};

/* --- the keyboard and the text input ----------------------------------- */

static void kb_keymap(void *data, struct wl_keyboard *k, uint32_t format,
		      int32_t fd, uint32_t size)
{
	close(fd);
}

static void kb_enter(void *data, struct wl_keyboard *k, uint32_t serial,
		     struct wl_surface *s, struct wl_array *keys)
{
	out(data, "keyboard enter");
}

static void kb_leave(void *data, struct wl_keyboard *k, uint32_t serial,
		     struct wl_surface *s)
{
	out(data, "keyboard leave");
}

static void kb_key(void *data, struct wl_keyboard *k, uint32_t serial,
		   uint32_t time, uint32_t key, uint32_t state)
{
}

static void kb_modifiers(void *data, struct wl_keyboard *k, uint32_t serial,
			 uint32_t dep, uint32_t lat, uint32_t lock, uint32_t group)
{
}

static void kb_repeat(void *data, struct wl_keyboard *k, int32_t rate, int32_t delay)
{
}

static const struct wl_keyboard_listener keyboard_listener = {
	.keymap = kb_keymap,
	.enter = kb_enter,
	.leave = kb_leave,
	.key = kb_key,
	.modifiers = kb_modifiers,
	.repeat_info = kb_repeat,
};

static void ti_enter(void *data, struct zwp_text_input_v3 *t, struct wl_surface *s)
{
	struct probe *p = data;

	out(p, "text_input enter%s", s == p->surface ? "" : " (another surface)");
}

static void ti_leave(void *data, struct zwp_text_input_v3 *t, struct wl_surface *s)
{
	out(data, "text_input leave");
}

static void ti_preedit(void *data, struct zwp_text_input_v3 *t, const char *text,
		       int32_t begin, int32_t end)
{
}

static void ti_commit(void *data, struct zwp_text_input_v3 *t, const char *text)
{
}

static void ti_delete(void *data, struct zwp_text_input_v3 *t, uint32_t before,
		      uint32_t after)
{
}

static void ti_done(void *data, struct zwp_text_input_v3 *t, uint32_t serial)
{
}

static const struct zwp_text_input_v3_listener text_input_listener = {
	.enter = ti_enter,
	.leave = ti_leave,
	.preedit_string = ti_preedit,
	.commit_string = ti_commit,
	.delete_surrounding_text = ti_delete,
	.done = ti_done,
};

static void seat_capabilities(void *data, struct wl_seat *seat, uint32_t caps)
{
	struct probe *p = data;

	if ((caps & WL_SEAT_CAPABILITY_POINTER) && !p->pointer) {
		p->pointer = wl_seat_get_pointer(seat);
		wl_pointer_add_listener(p->pointer, &pointer_listener, p);
		p->relative = zwp_relative_pointer_manager_v1_get_relative_pointer(
			p->relative_manager, p->pointer);
		zwp_relative_pointer_v1_add_listener(p->relative, &relative_listener, p);
	}
	if ((caps & WL_SEAT_CAPABILITY_KEYBOARD) && !p->keyboard) {
		p->keyboard = wl_seat_get_keyboard(seat);
		wl_keyboard_add_listener(p->keyboard, &keyboard_listener, p);
	}
	out(p, "seat%s%s", caps & WL_SEAT_CAPABILITY_POINTER ? " pointer" : "",
	    caps & WL_SEAT_CAPABILITY_KEYBOARD ? " keyboard" : "");
}

static void seat_name(void *data, struct wl_seat *seat, const char *name)
{
}

static const struct wl_seat_listener seat_listener = {
	.capabilities = seat_capabilities,
	.name = seat_name,
};

/* --- the output ---------------------------------------------------------- */

static void xo_position(void *data, struct zxdg_output_v1 *o, int32_t x, int32_t y)
{
	out(data, "xdg_output logical_position %d %d", x, y);
}

static void xo_size(void *data, struct zxdg_output_v1 *o, int32_t w, int32_t h)
{
	out(data, "xdg_output logical_size %d %d", w, h);
}

static void xo_done(void *data, struct zxdg_output_v1 *o)
{
	/* Version 3 ends with wl_output.done instead. */
	out(data, "xdg_output done (zxdg_output_v1.done, not wl_output.done)");
}

static void xo_name(void *data, struct zxdg_output_v1 *o, const char *name)
{
	out(data, "xdg_output name %s", name);
}

static void xo_description(void *data, struct zxdg_output_v1 *o, const char *d)
{
}

static const struct zxdg_output_v1_listener xdg_output_listener = {
	.logical_position = xo_position,
	.logical_size = xo_size,
	.done = xo_done,
	.name = xo_name,
	.description = xo_description,
};

static void output_geometry(void *data, struct wl_output *o, int32_t x, int32_t y,
			    int32_t pw, int32_t ph, int32_t subpixel,
			    const char *make, const char *model, int32_t transform)
{
}

static void output_mode(void *data, struct wl_output *o, uint32_t flags,
			int32_t w, int32_t h, int32_t refresh)
{
	if (flags & WL_OUTPUT_MODE_CURRENT)
		out(data, "wl_output mode %d %d", w, h);
}

static void output_done(void *data, struct wl_output *o)
{
	out(data, "wl_output done");
}

static void output_scale(void *data, struct wl_output *o, int32_t factor)
{
}

static const struct wl_output_listener output_listener = {
	.geometry = output_geometry,
	.mode = output_mode,
	.done = output_done,
	.scale = output_scale,
};

/* --- globals ------------------------------------------------------------- */

static uint32_t min_u(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

static void global(void *data, struct wl_registry *reg, uint32_t name,
		   const char *iface, uint32_t version)
{
	struct probe *p = data;

#define BIND(field, interface, max)                                         \
	if (!strcmp(iface, (interface).name) && !p->field) {                \
		p->field = wl_registry_bind(reg, name, &(interface),        \
					    min_u(version, (max)));          \
		return;                                                     \
	}
	BIND(compositor, wl_compositor_interface, 4)
	BIND(shm, wl_shm_interface, 1)
	BIND(wm_base, xdg_wm_base_interface, 1)
	BIND(seat, wl_seat_interface, 5)
	BIND(output, wl_output_interface, 3)
	BIND(xdg_output_manager, zxdg_output_manager_v1_interface, 3)
	BIND(relative_manager, zwp_relative_pointer_manager_v1_interface, 1)
	BIND(constraints, zwp_pointer_constraints_v1_interface, 1)
	BIND(text_input_manager, zwp_text_input_manager_v3_interface, 1)
#undef BIND
}

static void global_remove(void *data, struct wl_registry *reg, uint32_t name)
{
}

static const struct wl_registry_listener registry_listener = {
	.global = global,
	.global_remove = global_remove,
};

/* --- commands ------------------------------------------------------------ */

static void synced(void *data, struct wl_callback *cb, uint32_t serial)
{
	wl_callback_destroy(cb);
	out(data, "synced");
}

static const struct wl_callback_listener sync_listener = { .done = synced };

static void command(struct probe *p, char *line)
{
	int x, y, w, h;
	char name[sizeof(p->tag)];

	if (sscanf(line, "tag %63s", name) == 1) {
		strcpy(p->tag, name);
		out(p, "tag");
	} else if (!p->pointer && (!strcmp(line, "lock") ||
				   !strncmp(line, "confine ", 8))) {
		out(p, "no-pointer %s", line);
	} else if (!strcmp(line, "lock")) {
		if (p->lock)
			zwp_locked_pointer_v1_destroy(p->lock);
		p->lock = zwp_pointer_constraints_v1_lock_pointer(p->constraints,
			p->surface, p->pointer, NULL,
			ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT);
		zwp_locked_pointer_v1_add_listener(p->lock, &lock_listener, p);
	} else if (!strcmp(line, "unlock")) {
		if (p->lock)
			zwp_locked_pointer_v1_destroy(p->lock);
		p->lock = NULL;
	} else if (sscanf(line, "confine %d %d %d %d", &x, &y, &w, &h) == 4) {
		struct wl_region *r = wl_compositor_create_region(p->compositor);

		wl_region_add(r, x, y, w, h);
		if (p->confine)
			zwp_confined_pointer_v1_destroy(p->confine);
		p->confine = zwp_pointer_constraints_v1_confine_pointer(p->constraints,
			p->surface, p->pointer, r,
			ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT);
		zwp_confined_pointer_v1_add_listener(p->confine, &confine_listener, p);
		wl_region_destroy(r);
	} else if (!strcmp(line, "unconfine")) {
		if (p->confine)
			zwp_confined_pointer_v1_destroy(p->confine);
		p->confine = NULL;
	} else if (!strcmp(line, "sync")) {
		wl_callback_add_listener(wl_display_sync(p->display), &sync_listener, p);
	} else if (!strcmp(line, "quit")) {
		p->running = false;
	} else if (line[0]) {
		out(p, "unknown-command %s", line);
	}
}

/* Whole lines from stdin; false at its end. */
static bool read_commands(struct probe *p)
{
	ssize_t n;
	char *nl;

	n = read(STDIN_FILENO, p->in + p->n_in, sizeof(p->in) - 1 - p->n_in);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (n <= 0)
		return false;
	p->n_in += (size_t)n;
	p->in[p->n_in] = '\0';
	while ((nl = strchr(p->in, '\n'))) {
		*nl = '\0';
		command(p, p->in);
		p->n_in -= (size_t)(nl + 1 - p->in);
		memmove(p->in, nl + 1, p->n_in + 1);
	}
	if (p->n_in == sizeof(p->in) - 1) {
		fprintf(stderr, "wlseal-input-probe: command line too long\n");
		return false;
	}
	return true;
}

static bool missing(const void *global, const char *name)
{
	if (!global)
		fprintf(stderr, "wlseal-input-probe: the compositor has no %s\n", name);
	return !global;
}

int main(int argc, char **argv)
{
	struct probe p = { .running = true, .tag = "init" };
	struct wl_registry *registry;

	if (argc == 2 && !strcmp(argv[1], "--help")) {
		fputs(help, stdout);
		return 0;
	}
	if (argc != 1) {
		fputs(USAGE, stderr);
		return 2;
	}
	p.display = wl_display_connect(NULL);
	if (!p.display) {
		fprintf(stderr, "wlseal-input-probe: cannot connect to the compositor\n");
		return 1;
	}
	registry = wl_display_get_registry(p.display);
	wl_registry_add_listener(registry, &registry_listener, &p);
	wl_display_roundtrip(p.display);
	if (missing(p.compositor, "wl_compositor") | missing(p.shm, "wl_shm") |
	    missing(p.wm_base, "xdg_wm_base") | missing(p.seat, "wl_seat") |
	    missing(p.output, "wl_output") |
	    missing(p.xdg_output_manager, "zxdg_output_manager_v1") |
	    missing(p.relative_manager, "zwp_relative_pointer_manager_v1") |
	    missing(p.constraints, "zwp_pointer_constraints_v1") |
	    missing(p.text_input_manager, "zwp_text_input_manager_v3"))
		return 1;

	wl_output_add_listener(p.output, &output_listener, &p);
	p.xdg_output = zxdg_output_manager_v1_get_xdg_output(p.xdg_output_manager,
							     p.output);
	zxdg_output_v1_add_listener(p.xdg_output, &xdg_output_listener, &p);
	xdg_wm_base_add_listener(p.wm_base, &wm_listener, &p);
	wl_seat_add_listener(p.seat, &seat_listener, &p);
	p.text_input = zwp_text_input_manager_v3_get_text_input(p.text_input_manager,
								p.seat);
	zwp_text_input_v3_add_listener(p.text_input, &text_input_listener, &p);

	p.surface = wl_compositor_create_surface(p.compositor);
	p.xdg_surface = xdg_wm_base_get_xdg_surface(p.wm_base, p.surface);
	xdg_surface_add_listener(p.xdg_surface, &xdg_surface_listener, &p);
	p.toplevel = xdg_surface_get_toplevel(p.xdg_surface);
	xdg_toplevel_add_listener(p.toplevel, &toplevel_listener, &p);
	xdg_toplevel_set_title(p.toplevel, "wlseal-input-probe");
	xdg_toplevel_set_fullscreen(p.toplevel, NULL);
	wl_surface_commit(p.surface);

	while (p.running) {
		struct pollfd fds[2] = {
			{ .fd = wl_display_get_fd(p.display), .events = POLLIN },
			{ .fd = STDIN_FILENO, .events = POLLIN },
		};

		while (wl_display_prepare_read(p.display) != 0)
			wl_display_dispatch_pending(p.display);
		if (wl_display_flush(p.display) < 0 && errno != EAGAIN) {
			wl_display_cancel_read(p.display);
			break;
		}
		if (poll(fds, 2, -1) < 0) {
			wl_display_cancel_read(p.display);
			if (errno == EINTR)
				continue;
			break;
		}
		if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
			if (wl_display_read_events(p.display) < 0)
				break;
		} else {
			wl_display_cancel_read(p.display);
		}
		if (wl_display_dispatch_pending(p.display) < 0)
			break;
		if (fds[1].revents & (POLLIN | POLLHUP | POLLERR) &&
		    !read_commands(&p))
			p.running = false;
	}
	if (p.running) {
		fprintf(stderr, "wlseal-input-probe: connection lost: %s\n",
			strerror(wl_display_get_error(p.display)));
		return 1;
	}
	wl_display_roundtrip(p.display);
	wl_display_disconnect(p.display);
	return 0;
}
