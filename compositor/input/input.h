/* SPDX-License-Identifier: MIT */
/*
 * input.h - where key presses and pointer motion come from (input/).
 *
 * wlseal reads raw Linux evdev streams: a sequence of struct input_event
 * records, whatever the file is. On the DRM backend those are the
 * /dev/input/event* nodes of the VM's virtio keyboard and tablet
 * (input.c); on either backend --input=PATH adds any file that yields
 * such records, a FIFO in the host tests (device.c). No libinput: it
 * needs udev's device database (udevd) to tell a keyboard from a
 * tablet, and the busybox guest runs no udevd; the kernel's own
 * EVIOCGBIT and EVIOCGABS answer the two questions wlseal has.
 *
 * This layer knows no Wayland object. It decodes records into calls of
 * a wlseal_input_handler that the seat (seat/seat.c) implements, keeps
 * the cursor position in output coordinates, and tells the seat which
 * kinds of device exist whenever that changes.
 */
#ifndef WLSEAL_INPUT_H
#define WLSEAL_INPUT_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/input.h>
#include <wayland-server-core.h>

/* What a device can do (wlseal_input_device.caps, wlseal_input.caps). */
#define WLSEAL_INPUT_KEYBOARD	(1u << 0)
#define WLSEAL_INPUT_POINTER	(1u << 1)
#define WLSEAL_INPUT_TOUCH	(1u << 2)

/* The seat's side: called from the event loop, in the device's order.
 * Times are CLOCK_MONOTONIC milliseconds taken when the record was read
 * (a FIFO's writer may put anything in input_event.time). */
struct wlseal_input_handler {
	/* @key: an evdev code (KEY_*, below BTN_MISC or from KEY_OK on). */
	void (*key)(void *data, uint32_t time, uint32_t key, bool pressed);
	/* Before the cursor moves from (@from_x, @from_y) to (*@x, *@y),
	 * both inside the output: the seat may hold it where it is or
	 * keep it in a region (a client's pointer lock or confinement,
	 * seat/pointer-constraints.c) by changing *@x, *@y. What it returns
	 * is kept inside the output all the same. NULL: it goes there. */
	void (*constrain)(void *data, double from_x, double from_y, double *x,
			  double *y);
	/* The cursor moved to @x, @y (output coordinates, inside it). */
	void (*motion)(void *data, uint32_t time, double x, double y);
	/* After motion: a mouse (EV_REL) moved by @dx, @dy device units,
	 * as reported, before the cursor was kept inside the output or
	 * constrained (there is no acceleration). A tablet (EV_ABS) sends
	 * none. */
	void (*relative)(void *data, uint32_t time, double dx, double dy);
	/* @button: BTN_LEFT .. BTN_TASK. */
	void (*button)(void *data, uint32_t time, uint32_t button, bool pressed);
	/* Wheel clicks: @vertical true for REL_WHEEL (positive: away from
	 * the user), false for REL_HWHEEL (positive: right). */
	void (*axis)(void *data, uint32_t time, bool vertical, int32_t clicks);
	/* Touch point @id went down at, or moved to, @x, @y (output
	 * coordinates); it went up. No stream of this layer yields them
	 * yet (no multitouch decoding): an embedder's device does (the
	 * WLCS module, tests/wlcs/). */
	void (*touch_down)(void *data, uint32_t time, int32_t id, double x,
			   double y);
	void (*touch_motion)(void *data, uint32_t time, int32_t id, double x,
			     double y);
	void (*touch_up)(void *data, uint32_t time, int32_t id);
	/* SYN_REPORT: the events since the last one belong together. */
	void (*frame)(void *data);
	/* The union of the devices' caps changed (also once at start). */
	void (*caps)(void *data, uint32_t caps);
};

struct wlseal_input;

/* One open stream (device.c). */
struct wlseal_input_device {
	struct wlseal_input *input;
	struct wl_list link;		/* wlseal_input.devices */
	char *path;
	int fd;
	struct wl_event_source *source;
	bool evdev;			/* an evdev node (EVIOCGBIT answered) */
	uint32_t caps;
	/* EV_ABS ranges (EVIOCGABS); has_range false: values are output
	 * pixels (a stream that is no evdev node has no range to ask). */
	bool has_range;
	struct input_absinfo abs_x, abs_y;
	/* Records arrive in pieces from a FIFO: the start of one waits
	 * here for its end. */
	unsigned char partial[sizeof(struct input_event)];
	size_t n_partial;
	/* Motion since the last SYN_REPORT. */
	bool moved;
	double dx, dy;			/* EV_REL */
	bool abs_moved;
	int32_t ax, ay;			/* EV_ABS, last values */
	/* Keys and buttons this device reported down and the seat was told
	 * of: what a SYN_DROPPED must release (device.c). */
	unsigned char down[(KEY_CNT + 7) / 8];
	/* A SYN_DROPPED came: what follows up to the next SYN_REPORT is
	 * a fragment, ignored. */
	bool dropping;
};

struct wlseal_input {
	struct wl_event_loop *loop;
	const struct wlseal_input_handler *handler;
	void *data;
	struct wl_list devices;		/* wlseal_input_device.link */
	uint32_t caps;			/* what was last told to the handler */
	int width, height;		/* the output, for the cursor */
	double x, y;			/* the cursor */
	/* How device.c reports back to input.c, which owns the set and
	 * sets these: device.c never calls input.c by name. A SYN_REPORT
	 * ended @dev's motion; a device went. */
	void (*device_moved)(struct wlseal_input_device *dev, uint32_t time);
	void (*devices_changed)(struct wlseal_input *input);
};

/* input.c: the set of devices and the cursor */
void wlseal_input_init(struct wlseal_input *input, struct wl_event_loop *loop,
		       int width, int height,
		       const struct wlseal_input_handler *handler, void *data);
/* Opens @path (any stream of input_event records); false: it cannot be
 * opened (logged). */
bool wlseal_input_add_path(struct wlseal_input *input, const char *path);
/* input.c: every event* node in @dir (/dev/input) that is a keyboard,
 * a tablet or a mouse (the DRM backend's devices). Returns how many
 * were added. */
int wlseal_input_scan(struct wlseal_input *input, const char *dir);
/* evdev.c: what the evdev node @fd is (EVIOCGBIT: dev->caps), and its
 * absolute ranges (EVIOCGABS); false: @fd is no evdev node. */
bool wlseal_input_classify(int fd, struct wlseal_input_device *dev);
/* Tells the handler the caps now (after the devices were added). */
void wlseal_input_start(struct wlseal_input *input);
void wlseal_input_finish(struct wlseal_input *input);

/* device.c: one stream, read from the event loop; takes @fd (closed on
 * failure). An evdev node gets its caps from wlseal_input_classify(),
 * any other stream may carry both kinds. Not yet in input->devices. */
struct wlseal_input_device *wlseal_input_device_open(struct wlseal_input *input,
						     const char *path, int fd);
void wlseal_input_device_close(struct wlseal_input_device *dev);
#endif
