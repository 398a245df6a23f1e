/* SPDX-License-Identifier: MIT */
/*
 * evdev-fifo.h - a FIFO the compositor reads as an input device
 * (--input=PATH), and writing struct input_event records into it.
 *
 * Nothing is created in the host kernel (no uinput): the compositor
 * reads the FIFO like any stream of records. Such a stream is no evdev
 * node, so the compositor takes it as keyboard and pointer and its
 * ABS_X, ABS_Y values as output pixels.
 */
#ifndef WLSEAL_TEST_EVDEV_FIFO_H
#define WLSEAL_TEST_EVDEV_FIFO_H

#include <stdint.h>

struct fifo {
	char dir[64];
	char path[96];
	char arg[112];		/* "--input=PATH" */
	int fd;			/* the write end, -1 until fifo_open() */
};

/* Makes the FIFO (in its own directory, removed at exit). */
void fifo_create(struct fifo *f);
/* Opens the write end: after the compositor opened the read end. */
void fifo_open(struct fifo *f);
void fifo_close(struct fifo *f);
/* Writes raw bytes (a part of a record, to test short reads). */
void fifo_write(struct fifo *f, const void *p, size_t len);
/* One record; fifo_syn() ends a group (SYN_REPORT). */
void fifo_event(struct fifo *f, uint16_t type, uint16_t code, int32_t value);
void fifo_syn(struct fifo *f);
/* A key (or button) press or release, then SYN_REPORT. */
void fifo_key(struct fifo *f, uint16_t code, int pressed);
/* The cursor to (@x, @y) output pixels (ABS_X, ABS_Y, SYN_REPORT). */
void fifo_move(struct fifo *f, int x, int y);
/* Types @text on a us keyboard: letters, digits, space, newline and
 * the punctuation of paths and shell lines (shift where needed). */
void fifo_type(struct fifo *f, const char *text);

#endif
