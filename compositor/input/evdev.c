/* SPDX-License-Identifier: MIT */
/*
 * evdev.c - what an evdev node is (input.c finds the nodes).
 *
 * The kernel answers both questions wlseal asks of a device, so no
 * udev database is needed (the busybox guest has none):
 *  - EVIOCGBIT(0) lists the event types, EVIOCGBIT(EV_KEY) the keys and
 *    buttons. A keyboard has letter keys (KEY_A .. KEY_Z here: a power
 *    button node has EV_KEY too, and no letters). A pointer has
 *    BTN_LEFT, with EV_ABS ABS_X and ABS_Y (a tablet: QEMU's
 *    virtio-tablet-pci) or EV_REL REL_X and REL_Y (a mouse).
 *  - EVIOCGABS(ABS_X), (ABS_Y) give a tablet's range, which input.c
 *    maps onto the output (QEMU's tablet reports 0 .. 32767 over its
 *    window, which shows the output).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "input.h"
#include "log.h"

#define BITS_PER_LONG (sizeof(unsigned long) * CHAR_BIT)
#define NLONGS(n) (((n) + BITS_PER_LONG - 1) / BITS_PER_LONG)

static bool bit(const unsigned long *bits, unsigned int n)
{
	return bits[n / BITS_PER_LONG] & (1ul << (n % BITS_PER_LONG));
}

bool wlseal_input_classify(int fd, struct wlseal_input_device *dev)
{
	unsigned long ev[NLONGS(EV_CNT)] = {0}, key[NLONGS(KEY_CNT)] = {0};
	unsigned long rel[NLONGS(REL_CNT)] = {0}, abs[NLONGS(ABS_CNT)] = {0};
	bool letters = true;

	/* A FIFO or a file answers ENOTTY (or EINVAL): not a device. */
	if (ioctl(fd, EVIOCGBIT(0, sizeof(ev)), ev) < 0)
		return false;
	if (bit(ev, EV_KEY))
		ioctl(fd, EVIOCGBIT(EV_KEY, sizeof(key)), key);
	if (bit(ev, EV_REL))
		ioctl(fd, EVIOCGBIT(EV_REL, sizeof(rel)), rel);
	if (bit(ev, EV_ABS))
		ioctl(fd, EVIOCGBIT(EV_ABS, sizeof(abs)), abs);

	dev->caps = 0;
	for (unsigned int k = KEY_Q; k <= KEY_P; k++)
		letters = letters && bit(key, k);
	if (letters && bit(key, KEY_A) && bit(key, KEY_Z))
		dev->caps |= WLSEAL_INPUT_KEYBOARD;
	if (bit(key, BTN_LEFT) && bit(abs, ABS_X) && bit(abs, ABS_Y) &&
	    ioctl(fd, EVIOCGABS(ABS_X), &dev->abs_x) == 0 &&
	    ioctl(fd, EVIOCGABS(ABS_Y), &dev->abs_y) == 0 &&
	    dev->abs_x.maximum > dev->abs_x.minimum &&
	    dev->abs_y.maximum > dev->abs_y.minimum) {
		dev->caps |= WLSEAL_INPUT_POINTER;
		dev->has_range = true;
	} else if (bit(key, BTN_LEFT) && bit(rel, REL_X) && bit(rel, REL_Y)) {
		dev->caps |= WLSEAL_INPUT_POINTER;
	}
	return true;
}
