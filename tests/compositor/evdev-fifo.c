/* SPDX-License-Identifier: MIT */
/*
 * evdev-fifo.c - writing input_event records into a FIFO that the
 * compositor reads (evdev-fifo.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evdev-fifo.h"
#include "harness.h"

static struct fifo *to_remove;

static void remove_fifo(void)
{
	if (!to_remove)
		return;
	unlink(to_remove->path);
	rmdir(to_remove->dir);
}

void fifo_create(struct fifo *f)
{
	memset(f, 0, sizeof(*f));
	f->fd = -1;
	strcpy(f->dir, "/tmp/wlseal-input-XXXXXX");
	if (!mkdtemp(f->dir))
		fail("mkdtemp: %s", strerror(errno));
	snprintf(f->path, sizeof(f->path), "%s/events", f->dir);
	if (mkfifo(f->path, 0600) != 0)
		fail("mkfifo %s: %s", f->path, strerror(errno));
	snprintf(f->arg, sizeof(f->arg), "--input=%s", f->path);
	to_remove = f;
	atexit(remove_fifo);
}

void fifo_open(struct fifo *f)
{
	/* O_NONBLOCK: fails (ENXIO) instead of hanging if nobody reads. */
	f->fd = open(f->path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (f->fd < 0)
		fail("open %s for writing: %s (is the compositor reading it?)",
		     f->path, strerror(errno));
	/* Writes block again: a full FIFO waits for the compositor. */
	fcntl(f->fd, F_SETFL, 0);
}

void fifo_close(struct fifo *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
}

void fifo_write(struct fifo *f, const void *p, size_t len)
{
	if (write(f->fd, p, len) != (ssize_t)len)
		fail("write to %s: %s", f->path, strerror(errno));
}

void fifo_event(struct fifo *f, uint16_t type, uint16_t code, int32_t value)
{
	struct input_event ev = { .type = type, .code = code, .value = value };

	fifo_write(f, &ev, sizeof(ev));
}

void fifo_syn(struct fifo *f)
{
	fifo_event(f, EV_SYN, SYN_REPORT, 0);
}

void fifo_key(struct fifo *f, uint16_t code, int pressed)
{
	fifo_event(f, EV_KEY, code, pressed);
	fifo_syn(f);
}

void fifo_move(struct fifo *f, int x, int y)
{
	fifo_event(f, EV_ABS, ABS_X, x);
	fifo_event(f, EV_ABS, ABS_Y, y);
	fifo_syn(f);
}

/* The us layout: the key of @c, and whether it needs shift. */
static int keycode(char c, int *shift)
{
	static const char lower[] = "qwertyuiopasdfghjklzxcvbnm";
	static const uint16_t lower_keys[] = {
		KEY_Q, KEY_W, KEY_E, KEY_R, KEY_T, KEY_Y, KEY_U, KEY_I, KEY_O,
		KEY_P, KEY_A, KEY_S, KEY_D, KEY_F, KEY_G, KEY_H, KEY_J, KEY_K,
		KEY_L, KEY_Z, KEY_X, KEY_C, KEY_V, KEY_B, KEY_N, KEY_M,
	};
	static const struct { char c; uint16_t key; int shift; } other[] = {
		{ ' ', KEY_SPACE, 0 }, { '\n', KEY_ENTER, 0 },
		{ '/', KEY_SLASH, 0 }, { '.', KEY_DOT, 0 },
		{ '>', KEY_DOT, 1 }, { '-', KEY_MINUS, 0 },
		{ '_', KEY_MINUS, 1 }, { '0', KEY_0, 0 },
	};
	const char *p;

	*shift = c >= 'A' && c <= 'Z';
	if (*shift)
		c = (char)(c - 'A' + 'a');
	if (c && (p = strchr(lower, c)))
		return lower_keys[p - lower];
	if (c >= '1' && c <= '9')
		return KEY_1 + (c - '1');
	for (size_t i = 0; i < sizeof(other) / sizeof(other[0]); i++)
		if (other[i].c == c) {
			*shift = other[i].shift;
			return other[i].key;
		}
	return -1;
}

void fifo_type(struct fifo *f, const char *text)
{
	for (; *text; text++) {
		int shift, key = keycode(*text, &shift);

		if (key < 0)
			fail("fifo_type: no key for '%c'", *text);
		if (shift)
			fifo_key(f, KEY_LEFTSHIFT, 1);
		fifo_key(f, (uint16_t)key, 1);
		fifo_key(f, (uint16_t)key, 0);
		if (shift)
			fifo_key(f, KEY_LEFTSHIFT, 0);
	}
}
