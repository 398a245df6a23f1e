/* SPDX-License-Identifier: MIT */
/*
 * device.c - one stream of struct input_event records, read from the
 * event loop without ever blocking.
 *
 * The fd is O_NONBLOCK and read whenever the loop says it is readable,
 * until EAGAIN. What arrives is not always whole records: an evdev node
 * hands out whole ones, but a FIFO gives what its writer wrote, so the
 * start of a record waits in dev->partial for its end. The stream ends
 * cleanly on any of: read() returning 0 (the FIFO's writer closed, or a
 * file's end), ENODEV (the device was unplugged), another error, or the
 * loop reporting a hangup; the device then leaves the set and the seat
 * is told the caps that remain. Nothing here can crash on what a stream
 * contains: every type and code is checked before it is used.
 *
 * When the compositor reads too late, the kernel's per-reader buffer
 * (64 records for a keyboard) overflows: evdev throws the oldest records
 * away and says so with SYN_DROPPED. A release may be among the lost, and
 * a client told of a press but never of its release repeats that key
 * forever. So after a SYN_DROPPED the fragment up to the next SYN_REPORT
 * is ignored, and every key this device left down is released unless
 * EVIOCGKEY (an evdev node) says it is still held; a stream that is no
 * evdev node has no state to ask, so all of them are released. No press
 * is made up: a key held through the gap is a key the client missed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "input.h"
#include "log.h"

static uint32_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint32_t)((uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000);
}

/* BTN_LEFT .. BTN_TASK: what wl_pointer.button carries. */
static bool is_pointer_button(uint16_t code)
{
	return code >= BTN_MOUSE && code < BTN_JOYSTICK;
}

/* What wl_keyboard.key can carry: keys, not the other BTN_ ranges. */
static bool is_key(uint16_t code)
{
	return (code > KEY_RESERVED && code < BTN_MISC) ||
	       (code >= KEY_OK && code <= KEY_MAX);
}

static bool bit_get(const unsigned char *bits, unsigned int n)
{
	return bits[n / 8] & (1u << (n % 8));
}

static void bit_set(unsigned char *bits, unsigned int n, bool on)
{
	if (on)
		bits[n / 8] |= (unsigned char)(1u << (n % 8));
	else
		bits[n / 8] &= (unsigned char)~(1u << (n % 8));
}

/* Tells the seat; @code is checked (below KEY_CNT) by the caller. */
static void deliver_key(struct wlseal_input_device *dev, uint16_t code,
			bool pressed, uint32_t time)
{
	const struct wlseal_input_handler *h = dev->input->handler;
	void *data = dev->input->data;

	if (is_pointer_button(code) && (dev->caps & WLSEAL_INPUT_POINTER))
		h->button(data, time, code, pressed);
	else if (is_key(code) && (dev->caps & WLSEAL_INPUT_KEYBOARD))
		h->key(data, time, code, pressed);
	else
		return;
	bit_set(dev->down, code, pressed);
}

static void on_key(struct wlseal_input_device *dev, const struct input_event *ev,
		   uint32_t time)
{
	/* value 2 is the kernel's autorepeat: clients repeat by
	 * themselves (wl_keyboard.repeat_info). */
	if ((ev->value != 0 && ev->value != 1) || ev->code >= KEY_CNT)
		return;
	/* A release of a key the seat never heard pressed (released by a
	 * resync already, or held since before the device was opened) is
	 * not passed on. */
	if (!ev->value && !bit_get(dev->down, ev->code))
		return;
	deliver_key(dev, ev->code, ev->value, time);
}

/* The SYN_REPORT after a SYN_DROPPED: release what is no longer held
 * (the safety argument is at the top of this file). */
static void resync_keys(struct wlseal_input_device *dev, uint32_t time)
{
	unsigned char held[sizeof(dev->down)];
	unsigned int code, released = 0;

	memset(held, 0, sizeof(held));
	if (dev->evdev && ioctl(dev->fd, EVIOCGKEY(sizeof(held)), held) < 0)
		memset(held, 0, sizeof(held));
	for (code = 0; code < KEY_CNT; code++) {
		if (bit_get(dev->down, code) && !bit_get(held, code)) {
			deliver_key(dev, (uint16_t)code, false, time);
			released++;
		}
	}
	dev->moved = dev->abs_moved = false;
	dev->dx = dev->dy = 0;
	wlseal_log("input %s: events were dropped (read too late); %u key%s released",
		   dev->path, released, released == 1 ? "" : "s");
}

static void on_event(struct wlseal_input_device *dev,
		     const struct input_event *ev, uint32_t time)
{
	const struct wlseal_input_handler *h = dev->input->handler;

	if (ev->type == EV_SYN && ev->code == SYN_DROPPED) {
		dev->dropping = true;
		return;
	}
	if (dev->dropping) {
		if (ev->type != EV_SYN || ev->code != SYN_REPORT)
			return;
		dev->dropping = false;
		resync_keys(dev, time);
		h->frame(dev->input->data);
		return;
	}
	switch (ev->type) {
	case EV_KEY:
		on_key(dev, ev, time);
		break;
	case EV_REL:
		if (!(dev->caps & WLSEAL_INPUT_POINTER))
			break;
		if (ev->code == REL_X || ev->code == REL_Y) {
			*(ev->code == REL_X ? &dev->dx : &dev->dy) += ev->value;
			dev->moved = true;
		} else if (ev->code == REL_WHEEL || ev->code == REL_HWHEEL) {
			h->axis(dev->input->data, time, ev->code == REL_WHEEL,
				ev->value);
		}
		break;
	case EV_ABS:
		if (!(dev->caps & WLSEAL_INPUT_POINTER))
			break;
		if (ev->code == ABS_X || ev->code == ABS_Y) {
			*(ev->code == ABS_X ? &dev->ax : &dev->ay) = ev->value;
			dev->abs_moved = true;
		}
		break;
	case EV_SYN:
		if (ev->code != SYN_REPORT)
			break;
		if (dev->moved || dev->abs_moved)
			dev->input->device_moved(dev, time);
		h->frame(dev->input->data);
		break;
	default:
		break;
	}
}

static void device_gone(struct wlseal_input_device *dev, const char *why)
{
	struct wlseal_input *input = dev->input;

	wlseal_log("input %s: %s, device removed", dev->path, why);
	wlseal_input_device_close(dev);
	input->devices_changed(input);
}

static int on_readable(int fd, uint32_t mask, void *data)
{
	struct wlseal_input_device *dev = data;
	unsigned char buf[64 * sizeof(struct input_event)];
	const size_t rec = sizeof(struct input_event);

	for (;;) {
		ssize_t n;
		size_t have, off = 0;
		uint32_t time;

		memcpy(buf, dev->partial, dev->n_partial);
		n = read(fd, buf + dev->n_partial, sizeof(buf) - dev->n_partial);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		if (n < 0) {
			/* ENODEV: unplugged; anything else ends it too. */
			device_gone(dev, strerror(errno));
			return 0;
		}
		if (n == 0) {
			device_gone(dev, "end of stream");
			return 0;
		}
		have = dev->n_partial + (size_t)n;
		time = now_ms();
		/* Each handler call may change the scene and focus, never
		 * this device: only device_gone() closes it. */
		for (; have - off >= rec; off += rec) {
			struct input_event ev;

			memcpy(&ev, buf + off, rec);
			on_event(dev, &ev, time);
		}
		dev->n_partial = have - off;
		memcpy(dev->partial, buf + off, dev->n_partial);
	}
	/* A hangup with nothing left to read: the stream is over. */
	if (mask & (WL_EVENT_HANGUP | WL_EVENT_ERROR))
		device_gone(dev, "hangup");
	return 0;
}

struct wlseal_input_device *wlseal_input_device_open(struct wlseal_input *input,
						     const char *path, int fd)
{
	struct wlseal_input_device *dev = calloc(1, sizeof(*dev));

	if (!dev || !(dev->path = strdup(path))) {
		free(dev);
		close(fd);
		return NULL;
	}
	dev->input = input;
	dev->fd = fd;
	wl_list_init(&dev->link);
	dev->evdev = wlseal_input_classify(fd, dev);
	if (!dev->evdev)
		dev->caps = WLSEAL_INPUT_KEYBOARD | WLSEAL_INPUT_POINTER;
	/* An evdev node we use is ours alone: without the grab the
	 * kernel's own keyboard handler would type every key into the
	 * active virtual terminal too (and act on Ctrl+Alt+Del, SysRq). */
	if (dev->evdev && dev->caps && ioctl(fd, EVIOCGRAB, 1) < 0)
		wlseal_log("input %s: EVIOCGRAB: %s (keys also reach the console)",
			   path, strerror(errno));
	dev->source = wl_event_loop_add_fd(input->loop, fd, WL_EVENT_READABLE,
					   on_readable, dev);
	if (!dev->source) {
		wlseal_input_device_close(dev);
		return NULL;
	}
	return dev;
}

/* Safe from the device's own callback: libwayland frees a source
 * removed during dispatch only after the dispatch. */
void wlseal_input_device_close(struct wlseal_input_device *dev)
{
	if (dev->source)
		wl_event_source_remove(dev->source);
	wl_list_remove(&dev->link);
	close(dev->fd);
	free(dev->path);
	free(dev);
}
