/* SPDX-License-Identifier: MIT */
/*
 * test-input - wl_seat and wl_keyboard against a headless compositor
 * whose input device is a FIFO (--input, evdev-fifo.h): the sealed
 * read-only keymap, keys and modifiers to the focused toplevel, the
 * keyboard focus as windows map, unmap and go, and a dialog mapped
 * before its parent keeping it. test-input-pointer, test-input-device
 * and test-input-selection test the rest of the seat.
 *
 * Usage: test-input TEST (TAP output).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input-client.h"

#define SEALS_ALL (F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL)

/* @cond (a call that must fail) holds; says with which errno. */
#define FAILS(cond, what) do {						\
		errno = 0;						\
		bool ok_ = (cond);					\
		int e_ = errno;						\
		check(ok_, "%s fails (%s)", what, e_ ? strerror(e_) : "no error"); \
	} while (0)

/*
 * The keymap fd a client gets: sealed against every change, open
 * read-only, its own open file (its own offset), mappable MAP_SHARED
 * (wl_keyboard version 5 here: before 7 a client may map it shared),
 * XKB text. And a writable reopen through /proc gains nothing.
 */
static void test_keymap(void)
{
	static struct sc sc;
	int fd, fd2, rw, seals, fl;
	struct stat st, st2;
	char path[64], *text;
	void *p;

	sc_start(&sc, 5);
	sc_keyboard(&sc);
	fd = sc.keymap_fd;
	check(sc.keymap_format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1,
	      "keymap format XKB_V1 (%u)", sc.keymap_format);
	check(sc.repeat_rate > 0 && sc.repeat_delay > 0,
	      "repeat_info %d/s after %d ms", sc.repeat_rate, sc.repeat_delay);
	seals = fcntl(fd, F_GET_SEALS);
	check(seals == SEALS_ALL, "seals are SHRINK|GROW|WRITE|SEAL (0x%x)", seals);
	fl = fcntl(fd, F_GETFL);
	check(fl >= 0 && (fl & O_ACCMODE) == O_RDONLY, "F_GETFL is O_RDONLY (0%o)",
	      fl & O_ACCMODE);
	check(fstat(fd, &st) == 0 && st.st_size == sc.keymap_size,
	      "the file is the announced %u bytes", sc.keymap_size);
	FAILS(ftruncate(fd, 0) < 0, "ftruncate");
	FAILS(write(fd, "x", 1) < 0, "write");
	FAILS(pwrite(fd, "x", 1, 0) < 0, "pwrite");
	FAILS(fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0,
			4096) < 0, "punching a hole");
	FAILS(fcntl(fd, F_ADD_SEALS, F_SEAL_FUTURE_WRITE) < 0, "F_ADD_SEALS");
	FAILS(mmap(NULL, sc.keymap_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		   fd, 0) == MAP_FAILED, "a writable shared mapping");
	p = mmap(NULL, sc.keymap_size, PROT_READ, MAP_SHARED, fd, 0);
	check(p != MAP_FAILED, "MAP_SHARED, PROT_READ works (%s)",
	      p == MAP_FAILED ? strerror(errno) : "mapped");
	if (p == MAP_FAILED)
		fail("cannot read the keymap");
	text = p;
	check(!strncmp(text, "xkb_keymap", 10), "the text starts with xkb_keymap");
	check(text[sc.keymap_size - 1] == 0 && strlen(text) == sc.keymap_size - 1,
	      "the text is NUL-terminated at the announced size");
	munmap(p, sc.keymap_size);

	/* Another client's view of it: the reopen through /proc makes it
	 * writable in name only; the seals hold. */
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	rw = open(path, O_RDWR);
	check(rw >= 0, "the fd reopens O_RDWR through /proc (%s)",
	      rw < 0 ? strerror(errno) : "yes");
	if (rw >= 0) {
		FAILS(write(rw, "x", 1) < 0 && errno == EPERM,
		      "even so, write with EPERM");
		FAILS(ftruncate(rw, 0) < 0 && errno == EPERM,
		      "ftruncate with EPERM");
		FAILS(fcntl(rw, F_ADD_SEALS, F_SEAL_FUTURE_WRITE) < 0 &&
		      errno == EPERM, "F_ADD_SEALS with EPERM (F_SEAL_SEAL)");
		close(rw);
	}

	/* A second keyboard: the same file, its own open file. */
	sc.keymap_fd = -1;
	sc_keyboard(&sc);
	fd2 = sc.keymap_fd;
	check(fstat(fd2, &st2) == 0 && st2.st_ino == st.st_ino &&
	      st2.st_dev == st.st_dev, "a second keyboard gets the same file");
	check(lseek(fd, 100, SEEK_SET) == 100 && lseek(fd2, 0, SEEK_CUR) == 0,
	      "with its own offset (another open file description)");
	close(fd);
	sc_stop(&sc);
}

/*
 * Keys to the newest toplevel, with xkb modifiers; the keys held go
 * with enter; records split across writes and junk records are handled;
 * a destroyed toplevel passes the focus on.
 */
static void test_keys(void)
{
	static struct sc sc;
	struct win a, b;
	struct input_event ev[2];
	int x, y, n;

	sc_start(&sc, 8);
	sc_keyboard(&sc);
	sc_window(&sc, &a, 0, 40, RED, &x, &y);
	expect(&sc, "kb-enter", "kb-enter A keys");
	expect(&sc, "mods", "mods 0 0 0 0");
	expect_activated(&sc, &a, true, "A, the newest toplevel");

	fifo_key(&sc.f, KEY_LEFTSHIFT, 1);
	fifo_key(&sc.f, KEY_A, 1);
	fifo_key(&sc.f, KEY_A, 0);
	fifo_key(&sc.f, KEY_LEFTSHIFT, 0);
	expect(&sc, "key", "key 42 pressed");
	expect(&sc, "mods", "mods 1 0 0 0");
	expect(&sc, "key", "key 30 pressed");
	expect(&sc, "key", "key 30 released");
	expect(&sc, "key", "key 42 released");
	expect(&sc, "mods", "mods 0 0 0 0");

	/* Caps lock: a locked modifier (Lock, bit 1), unlocked when the
	 * second press is released. */
	fifo_key(&sc.f, KEY_CAPSLOCK, 1);
	fifo_key(&sc.f, KEY_CAPSLOCK, 0);
	expect(&sc, "mods", "mods 2 0 2 0");
	expect(&sc, "mods", "mods 0 0 2 0");
	fifo_key(&sc.f, KEY_CAPSLOCK, 1);
	fifo_key(&sc.f, KEY_CAPSLOCK, 0);
	expect(&sc, "mods", "mods 2 0 2 0");
	expect(&sc, "mods", "mods 0 0 0 0");

	/* Held while B maps: B's enter carries it. */
	fifo_key(&sc.f, KEY_B, 1);
	expect(&sc, "key", "key 48 pressed");
	sc_window(&sc, &b, 1, 40, GREEN, &x, &y);
	expect(&sc, "kb-", "kb-leave A");
	expect(&sc, "kb-", "kb-enter B keys 48");
	expect_activated(&sc, &b, true, "B, now the newest");
	expect_activated(&sc, &a, false, "A, no longer focused");
	fifo_key(&sc.f, KEY_B, 0);
	expect(&sc, "key", "key 48 released");

	/* Junk (an unknown type, a code past KEY_MAX, an autorepeat) and
	 * a record cut in two: one write with half of KEY_C's press,
	 * seen to be read when KEY_D's press arrives, then the rest. */
	fifo_event(&sc.f, 0x1f, 0xffff, 7);
	fifo_event(&sc.f, EV_KEY, 0xffff, 1);
	fifo_event(&sc.f, EV_KEY, KEY_E, 2);
	memset(ev, 0, sizeof(ev));
	ev[0].type = EV_KEY;
	ev[0].code = KEY_D;
	ev[0].value = 1;
	ev[1].type = EV_KEY;
	ev[1].code = KEY_C;
	ev[1].value = 1;
	fifo_write(&sc.f, ev, sizeof(ev[0]) + sizeof(ev[1]) / 2);
	expect(&sc, "key", "key 32 pressed");
	fifo_write(&sc.f, (char *)&ev[1] + sizeof(ev[1]) / 2,
		   sizeof(ev[1]) - sizeof(ev[1]) / 2);
	fifo_syn(&sc.f);
	expect(&sc, "key", "key 46 pressed");
	fifo_key(&sc.f, KEY_C, 0);
	fifo_key(&sc.f, KEY_D, 0);
	expect(&sc, "key", "key 46 released");
	expect(&sc, "key", "key 32 released");

	/* B unmaps (a NULL buffer): A gets the keyboard. B starts over
	 * with an initial commit; the configure it gets acks fine (none
	 * was sent for the lost focus), and mapped again B is the newest. */
	n = b.configures;
	wl_surface_attach(b.s, NULL, 0, 0);
	wl_surface_commit(b.s);
	expect(&sc, "kb-", "kb-leave B");
	expect(&sc, "kb-", "kb-enter A keys");
	if (wl_display_roundtrip(sc.t.display) < 0)
		fail("B unmapped: %s", last_client_log);
	if (b.configures > n) {
		/* Whatever the compositor sends, it must accept the ack. */
		xdg_surface_ack_configure(b.xs, b.serial);
		if (wl_display_roundtrip(sc.t.display) < 0)
			fail("acking the configure B got unmapped: %s",
			     last_client_log);
	}
	tap_ok("B unmapped got %d configures, acks accepted", b.configures - n);
	expect_activated(&sc, &a, true, "A, B unmapped");
	win_initial_commit(&b);
	check(!b.activated, "B's new initial configure: not activated");
	win_draw(&b, 40, 40, GREEN);
	expect(&sc, "kb-", "kb-leave A");
	expect(&sc, "kb-", "kb-enter B keys");
	expect_activated(&sc, &b, true, "B, mapped again");
	expect_activated(&sc, &a, false, "A, B mapped again");

	/* B goes: A, the topmost left, gets the focus back. */
	xdg_toplevel_destroy(b.tl);
	xdg_surface_destroy(b.xs);
	wl_surface_destroy(b.s);
	expect(&sc, "kb-", "kb-leave (destroyed)");
	expect(&sc, "kb-", "kb-enter A keys");
	expect_activated(&sc, &a, true, "A again, B destroyed");
	fifo_key(&sc.f, KEY_X, 1);
	expect(&sc, "key", "key 45 pressed");
	sc_stop(&sc);
}

/*
 * A window that maps under a dialog of its own (the dialog's parent set
 * before either mapped, the dialog mapped first, as GTK may) leaves the
 * keyboard with the dialog, which the user sees in front: the parent
 * is never entered nor activated. A window of another family takes the
 * keyboard as usual; when the dialog goes, the topmost left has it.
 */
static void test_dialog_focus(void)
{
	static struct sc sc;
	static struct win parent, dialog, other;
	int x, y, configures;

	sc_start(&sc, 8);
	sc_keyboard(&sc);
	win_create(&sc.t, &parent);
	win_create(&sc.t, &dialog);
	sc.named[0] = parent.s;
	sc.named[1] = dialog.s;
	xdg_toplevel_set_parent(dialog.tl, parent.tl);
	win_initial_commit(&parent);
	win_initial_commit(&dialog);
	win_draw(&dialog, 40, 40, GREEN);
	wait_mapped(&sc.t, &x, &y, "the dialog");
	expect(&sc, "kb-", "kb-enter B keys");
	expect_activated(&sc, &dialog, true, "the dialog, mapped first");
	configures = parent.configures;
	win_draw(&parent, 60, 60, RED);
	wait_mapped(&sc.t, &x, &y, "its parent");
	/* The map's events came before the answer to this roundtrip. */
	if (wl_display_roundtrip(sc.t.display) < 0)
		fail("after the parent mapped: %s", last_client_log);
	check(!strstr(sc.log + sc.from, "kb-"),
	      "the parent mapped under its dialog: no keyboard enter or leave (%s)",
	      sc.log + sc.from);
	/* Keys go to the focus the client was last entered on: the dialog. */
	fifo_key(&sc.f, KEY_P, 1);
	fifo_key(&sc.f, KEY_P, 0);
	expect(&sc, "key", "key 25 pressed");
	expect(&sc, "key", "key 25 released");
	check(dialog.activated && !parent.activated && parent.configures == configures,
	      "the dialog still activated, the parent never (%d configures)",
	      parent.configures - configures);

	/* Another family's window takes the keyboard; as it goes, the
	 * topmost left (the dialog) gets it, and as the dialog goes, its
	 * parent. */
	sc_window(&sc, &other, 2, 30, BLUE, &x, &y);
	expect(&sc, "kb-", "kb-leave B");
	expect(&sc, "kb-", "kb-enter C keys");
	xdg_toplevel_destroy(other.tl);
	xdg_surface_destroy(other.xs);
	wl_surface_destroy(other.s);
	expect(&sc, "kb-", "kb-leave (destroyed)");
	expect(&sc, "kb-", "kb-enter B keys");
	xdg_toplevel_destroy(dialog.tl);
	expect(&sc, "kb-", "kb-leave B");
	expect(&sc, "kb-", "kb-enter A keys");
	expect_activated(&sc, &parent, true, "the parent, its dialog gone");
	sc_stop(&sc);
}

static const struct harness_test tests[] = {
	{ "input-keymap", test_keymap },
	{ "input-keys", test_keys },
	{ "input-dialog-focus", test_dialog_focus },
};

int main(int argc, char **argv)
{
	return harness_main("test-input", tests,
			    sizeof(tests) / sizeof(tests[0]), argc, argv);
}
