/* SPDX-License-Identifier: MIT */
/*
 * input.c - the set of input devices and the cursor they move.
 *
 * One cursor for all pointers, in output coordinates and never outside
 * the output: a mouse (EV_REL) moves it by its deltas, a tablet
 * (EV_ABS, with EVIOCGABS's range) puts it where the range maps onto
 * the output. A stream that is no evdev node (a FIFO of --input) has no
 * range to ask for, so its ABS_X and ABS_Y are output pixels: a test
 * writes the very coordinates it means. Before the cursor moves, the
 * seat may hold or bound it (its constrain hook: a client's pointer
 * lock or confinement); the cursor stays where the seat's answer puts
 * it, so a mouse's next delta starts from there.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "input.h"
#include "log.h"

static void update_caps(struct wlseal_input *input);
static void device_moved(struct wlseal_input_device *dev, uint32_t time);

void wlseal_input_init(struct wlseal_input *input, struct wl_event_loop *loop,
		       int width, int height,
		       const struct wlseal_input_handler *handler, void *data)
{
	memset(input, 0, sizeof(*input));
	input->loop = loop;
	input->device_moved = device_moved;
	input->devices_changed = update_caps;
	input->handler = handler;
	input->data = data;
	input->width = width > 0 ? width : 1;
	input->height = height > 0 ? height : 1;
	/* The cursor starts in the middle, like QEMU's. */
	input->x = input->width / 2;
	input->y = input->height / 2;
	wl_list_init(&input->devices);
}

static const char *caps_name(uint32_t caps)
{
	static const char *const names[] = { "none", "keyboard", "pointer",
					     "keyboard+pointer" };

	return names[caps & 3];
}

bool wlseal_input_add_path(struct wlseal_input *input, const char *path)
{
	struct wlseal_input_device *dev;
	int fd;

	/* O_NONBLOCK: a FIFO without a writer yet opens at once, and
	 * reads never stall the compositor. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		wlseal_log("input %s: %s", path, strerror(errno));
		return false;
	}
	dev = wlseal_input_device_open(input, path, fd);
	if (!dev) {
		wlseal_log("input %s: cannot watch it", path);
		return false;
	}
	if (!dev->caps) {
		wlseal_debug("input %s: neither keyboard nor pointer, ignored", path);
		wlseal_input_device_close(dev);
		return false;
	}
	/* A tablet's axes start where it says; another stream's where the
	 * cursor is, until it reports both. */
	dev->ax = dev->has_range ? dev->abs_x.value : (int32_t)input->x;
	dev->ay = dev->has_range ? dev->abs_y.value : (int32_t)input->y;
	wl_list_insert(input->devices.prev, &dev->link);
	if (dev->has_range)
		wlseal_log("input %s: %s, absolute %d..%d x %d..%d", path,
			   caps_name(dev->caps), dev->abs_x.minimum,
			   dev->abs_x.maximum, dev->abs_y.minimum,
			   dev->abs_y.maximum);
	else
		wlseal_log("input %s: %s%s", path, caps_name(dev->caps),
			   dev->evdev ? ", relative" :
			   " (not an evdev node: absolute values are pixels)");
	return true;
}

static void update_caps(struct wlseal_input *input)
{
	struct wlseal_input_device *dev;
	uint32_t caps = 0;

	wl_list_for_each(dev, &input->devices, link)
		caps |= dev->caps;
	if (caps == input->caps)
		return;
	input->caps = caps;
	wlseal_log("input: seat has %s", caps_name(caps));
	input->handler->caps(input->data, caps);
}

void wlseal_input_start(struct wlseal_input *input)
{
	/* Told even when it is none: the seat starts from it. */
	input->caps = ~0u;
	update_caps(input);
}

static double clamp(double v, double max)
{
	if (v < 0)
		return 0;
	return v > max ? max : v;
}

/* A tablet value onto 0 .. size - 1. */
static double scale(int32_t v, const struct input_absinfo *a, int size)
{
	return (double)(v - a->minimum) * (size - 1) /
	       (double)(a->maximum - a->minimum);
}

static void device_moved(struct wlseal_input_device *dev, uint32_t time)
{
	struct wlseal_input *input = dev->input;
	double dx = dev->dx, dy = dev->dy;
	double x = input->x, y = input->y;

	if (dev->abs_moved) {
		x = dev->has_range ? scale(dev->ax, &dev->abs_x, input->width)
				   : dev->ax;
		y = dev->has_range ? scale(dev->ay, &dev->abs_y, input->height)
				   : dev->ay;
	}
	x = clamp(x + dev->dx, input->width - 1);
	y = clamp(y + dev->dy, input->height - 1);
	/* A pointer lock holds the cursor, a confinement keeps it in its
	 * region (the seat's answer); the output bounds it either way. */
	if (input->handler->constrain) {
		input->handler->constrain(input->data, input->x, input->y,
					  &x, &y);
		x = clamp(x, input->width - 1);
		y = clamp(y, input->height - 1);
	}
	input->x = x;
	input->y = y;
	dev->dx = dev->dy = 0;
	dev->moved = dev->abs_moved = false;
	input->handler->motion(input->data, time, input->x, input->y);
	if ((dx != 0 || dy != 0) && input->handler->relative)
		input->handler->relative(input->data, time, dx, dy);
}

void wlseal_input_finish(struct wlseal_input *input)
{
	struct wlseal_input_device *dev, *tmp;

	wl_list_for_each_safe(dev, tmp, &input->devices, link)
		wlseal_input_device_close(dev);
}

int wlseal_input_scan(struct wlseal_input *input, const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int n = 0;

	if (!d) {
		wlseal_log("input: %s: %s, no input devices", dir, strerror(errno));
		return 0;
	}
	while ((de = readdir(d))) {
		char path[PATH_MAX];

		if (strncmp(de->d_name, "event", 5) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (wlseal_input_add_path(input, path))
			n++;
	}
	closedir(d);
	return n;
}
