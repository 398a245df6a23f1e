/* SPDX-License-Identifier: MIT */
/*
 * test-input - wl_seat, wl_keyboard and wl_pointer against a headless
 * compositor whose input device is a FIFO (--input, evdev-fifo.h): the
 * sealed read-only keymap, keys and modifiers to the focused toplevel,
 * pointer enter, motion, leave and buttons at surface-local positions,
 * click-to-focus, and a device that goes away.
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
#include <sys/wait.h>
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

/*
 * Surface-local positions, enter and leave between two windows, an
 * input region, buttons, click-to-focus, the wheel, frames, a
 * subsurface.
 */
static void test_pointer(void)
{
	static struct sc sc;
	struct win a, b;
	struct wl_subsurface *ss;
	struct wl_surface *sub;
	struct wl_region *r;
	int ax, ay, bx, by;

	sc_start(&sc, 8);
	sc_keyboard(&sc);
	sc_pointer(&sc);
	sc_window(&sc, &a, 0, 40, RED, &ax, &ay);
	/* B takes input only on its left half. */
	win_create(&sc.t, &b);
	sc.named[1] = b.s;
	r = wl_compositor_create_region(sc.t.compositor);
	wl_region_add(r, 0, 0, 20, 40);
	wl_surface_set_input_region(b.s, r);
	wl_region_destroy(r);
	win_initial_commit(&b);
	win_draw(&b, 40, 40, GREEN);
	wait_mapped(&sc.t, &bx, &by, "B");
	check(bx >= ax + 40 || by >= ay + 40, "A at %d,%d and B at %d,%d apart",
	      ax, ay, bx, by);
	expect(&sc, "kb-enter", "kb-enter A keys");
	expect(&sc, "kb-", "kb-leave A");
	expect(&sc, "kb-", "kb-enter B keys");

	fifo_move(&sc.f, ax + 10, ay + 20);
	expect(&sc, "ptr-", "ptr-enter A 10.00 20.00");
	expect(&sc, "ptr-", "ptr-frame");
	fifo_move(&sc.f, ax + 18, ay + 29);
	expect(&sc, "ptr-", "ptr-motion 18.00 29.00");
	expect(&sc, "ptr-", "ptr-frame");
	/* B's right half: outside its input region, nobody's. */
	fifo_move(&sc.f, bx + 30, by + 10);
	expect(&sc, "ptr-", "ptr-leave A");
	expect(&sc, "ptr-", "ptr-frame");
	fifo_move(&sc.f, bx + 5, by + 10);
	expect(&sc, "ptr-", "ptr-enter B 5.00 10.00");
	expect(&sc, "ptr-", "ptr-frame");

	fifo_key(&sc.f, BTN_LEFT, 1);
	fifo_key(&sc.f, BTN_LEFT, 0);
	expect(&sc, "ptr-", "ptr-button 272 pressed");
	expect(&sc, "ptr-", "ptr-frame");
	expect(&sc, "ptr-", "ptr-button 272 released");
	expect(&sc, "ptr-", "ptr-frame");

	/* Click on A: it gets the keyboard before the button. */
	fifo_move(&sc.f, ax + 1, ay + 2);
	expect(&sc, "ptr-", "ptr-leave B");
	expect(&sc, "ptr-", "ptr-enter A 1.00 2.00");
	expect(&sc, "ptr-", "ptr-frame");
	fifo_key(&sc.f, BTN_RIGHT, 1);
	expect(&sc, "kb-", "kb-leave B");
	expect(&sc, "kb-", "kb-enter A keys");
	expect(&sc, "ptr-", "ptr-button 273 pressed");
	check(strstr(sc.log, "kb-enter A keys\nmods 0 0 0 0\nptr-button 273") != NULL,
	      "the keyboard enter came before the button");
	expect_activated(&sc, &a, true, "A, clicked");
	fifo_key(&sc.f, BTN_RIGHT, 0);
	expect(&sc, "ptr-", "ptr-frame");
	expect(&sc, "ptr-", "ptr-button 273 released");

	/* One wheel click away from the user: scroll up. */
	fifo_event(&sc.f, EV_REL, REL_WHEEL, 1);
	fifo_syn(&sc.f);
	expect(&sc, "ptr-", "ptr-frame");
	expect(&sc, "ptr-", "ptr-axis-source 0");
	expect(&sc, "ptr-", "ptr-axis-value120 0 -120");
	expect(&sc, "ptr-", "ptr-axis 0 -10.00");
	expect(&sc, "ptr-", "ptr-frame");

	/* A subsurface C of A, reaching out of A: the pointer finds it
	 * over A and outside A; a click on it focuses A, its root. */
	sub = surface(&sc.t);
	sc.named[2] = sub;
	if (!sc.t.subcompositor)
		fail("no wl_subcompositor");
	ss = wl_subcompositor_get_subsurface(sc.t.subcompositor, sub, a.s);
	wl_subsurface_set_position(ss, 30, 30);
	show(&sc.t, sub, 20, 20, BLUE);
	wl_surface_commit(a.s);
	if (wl_display_roundtrip(sc.t.display) < 0)
		fail("subsurface: %s", last_client_log);
	fifo_move(&sc.f, bx + 5, by + 5);
	fifo_key(&sc.f, BTN_LEFT, 1);
	fifo_key(&sc.f, BTN_LEFT, 0);
	expect(&sc, "kb-", "kb-leave A");
	expect(&sc, "kb-", "kb-enter B keys");
	fifo_move(&sc.f, ax + 35, ay + 36);
	expect(&sc, "ptr-enter", "ptr-enter C 5.00 6.00");
	fifo_move(&sc.f, ax + 45, ay + 47);
	expect(&sc, "ptr-motion", "ptr-motion 15.00 17.00");
	fifo_key(&sc.f, BTN_LEFT, 1);
	fifo_key(&sc.f, BTN_LEFT, 0);
	expect(&sc, "kb-", "kb-leave B");
	expect(&sc, "kb-", "kb-enter A keys");
	fifo_move(&sc.f, ax + 1, ay + 2);
	expect(&sc, "ptr-leave", "ptr-leave C");
	expect(&sc, "ptr-enter", "ptr-enter A 1.00 2.00");
	wl_subsurface_destroy(ss);
	wl_surface_destroy(sub);

	/* A goes from under the cursor. Its xdg_toplevel goes first, which
	 * unmaps it: leave comes then, for a wl_surface that this client
	 * has destroyed too by the time it reads them. B, the topmost
	 * left, gets the keyboard. */
	xdg_toplevel_destroy(a.tl);
	xdg_surface_destroy(a.xs);
	wl_surface_destroy(a.s);
	expect(&sc, "kb-", "kb-leave (destroyed)");
	expect(&sc, "kb-", "kb-enter B keys");
	expect(&sc, "ptr-", "ptr-leave (destroyed)");
	expect(&sc, "ptr-", "ptr-frame");
	fifo_move(&sc.f, bx + 2, by + 3);
	expect(&sc, "ptr-", "ptr-enter B 2.00 3.00");
	sc_stop(&sc);
}

/* The FIFO's writer closes: the device is gone, and so are the seat's
 * capabilities; the compositor carries on. */
static void test_vanish(void)
{
	static struct sc sc;

	sc_start(&sc, 8);
	sc_keyboard(&sc);
	sc_pointer(&sc);
	fifo_close(&sc.f);
	expect(&sc, "caps", "caps 0");
	check(proc_wait(&sc.t.c.p, &sc.t.log_from, "device removed", TIMEOUT_MS,
			NULL, 0), "the compositor logged the device's end");
	check(wl_display_roundtrip(sc.t.display) >= 0, "the compositor answers");
	sc_stop(&sc);
}

/* An --input that cannot be opened stops the start, with its reason;
 * --help names the option. */
static void test_bad_path(void)
{
	char *argv[] = { (char *)bin_compositor(), "--backend=headless",
			 "--socket=wlseal-bad-input",
			 "--input=/nonexistent/wlseal-input", NULL };
	char *help[] = { (char *)bin_compositor(), "--help", NULL };
	struct proc p;

	proc_spawn(&p, help);
	check(proc_wait_exit(&p, TIMEOUT_MS) && proc_contains(&p, "--input=PATH"),
	      "--help names --input=PATH");
	proc_spawn(&p, argv);
	if (!proc_wait_exit(&p, TIMEOUT_MS))
		fail("the compositor did not exit");
	check(WIFEXITED(p.status) && WEXITSTATUS(p.status) != 0,
	      "it exits with a failure status (0x%x)", p.status);
	check(proc_contains(&p, "input /nonexistent/wlseal-input: No such file"),
	      "and says why");
	check(!proc_contains(&p, "ready"), "it never became ready");
}

/*
 * SYN_DROPPED (the kernel's buffer overflowed, a release may be lost):
 * the fragment up to the next SYN_REPORT is ignored, and every key the
 * client was told is down is released (a FIFO has no EVIOCGKEY state to
 * ask: all of them), so no key repeats forever. Keys work on after it.
 */
static void test_dropped(void)
{
	static struct sc sc;
	struct win a;
	int x, y;

	sc_start(&sc, 8);
	sc_keyboard(&sc);
	sc_window(&sc, &a, 0, 40, RED, &x, &y);
	expect(&sc, "kb-enter", "kb-enter A keys");
	fifo_key(&sc.f, KEY_A, 1);
	fifo_key(&sc.f, KEY_B, 1);
	expect(&sc, "key", "key 30 pressed");
	expect(&sc, "key", "key 48 pressed");
	fifo_event(&sc.f, EV_SYN, SYN_DROPPED, 0);
	fifo_event(&sc.f, EV_KEY, KEY_C, 1);	/* part of the fragment */
	fifo_syn(&sc.f);
	expect(&sc, "key", "key 30 released");
	expect(&sc, "key", "key 48 released");
	check(proc_wait(&sc.t.c.p, &sc.t.log_from, "events were dropped",
			TIMEOUT_MS, NULL, 0), "the compositor logged the drop");
	fifo_key(&sc.f, KEY_D, 1);
	fifo_key(&sc.f, KEY_D, 0);
	/* The next key line is D's: the fragment's C press never came. */
	expect(&sc, "key", "key 32 pressed");
	expect(&sc, "key", "key 32 released");
	/* A key released after the resync is not released twice. */
	fifo_key(&sc.f, KEY_A, 0);
	fifo_key(&sc.f, KEY_E, 1);
	expect(&sc, "key", "key 18 pressed");
	sc_stop(&sc);
}

/*
 * xdg_toplevel.move: granted with the serial of the press that is
 * held on the window; the window is left, follows the cursor, and at the
 * release takes the pointer where the cursor is. A move with another
 * serial, or with no button held, is ignored.
 */
static void test_move(void)
{
	static struct sc sc;
	struct win a;
	int ax, ay;

	sc_start(&sc, 8);
	sc_pointer(&sc);
	sc_window(&sc, &a, 0, 40, RED, &ax, &ay);
	fifo_move(&sc.f, ax + 10, ay + 10);
	expect(&sc, "ptr-", "ptr-enter A 10.00 10.00");
	expect(&sc, "ptr-", "ptr-frame");

	/* No button held: ignored. */
	xdg_toplevel_move(a.tl, sc.seat, sc.button_serial);
	wl_display_roundtrip(sc.t.display);
	if (!proc_wait(&sc.t.c.p, &sc.t.log_from, "move ignored", TIMEOUT_MS,
		       NULL, 0))
		fail("a move without a button held was not ignored");
	fifo_key(&sc.f, BTN_LEFT, 1);
	expect(&sc, "ptr-", "ptr-button 272 pressed");
	expect(&sc, "ptr-", "ptr-frame");
	/* Another serial: ignored. */
	xdg_toplevel_move(a.tl, sc.seat, sc.button_serial + 1);
	wl_display_roundtrip(sc.t.display);
	if (!proc_wait(&sc.t.c.p, &sc.t.log_from, "move ignored", TIMEOUT_MS,
		       NULL, 0))
		fail("a move with another serial was not ignored");

	xdg_toplevel_move(a.tl, sc.seat, sc.button_serial);
	wl_display_flush(sc.t.display);
	expect(&sc, "ptr-", "ptr-leave A");
	expect(&sc, "ptr-", "ptr-frame");
	fifo_move(&sc.f, ax + 10 + 30, ay + 10 + 20);
	expect_placed_at(&sc.t, ax + 30, ay + 20, "moved with the cursor");
	fifo_move(&sc.f, ax + 10 + 50, ay + 10 + 5);
	expect_placed_at(&sc.t, ax + 50, ay + 5, "and on");
	fifo_key(&sc.f, BTN_LEFT, 0);
	/* The release goes to no client; the window is under the cursor
	 * at the same spot on it. */
	expect(&sc, "ptr-", "ptr-enter A 10.00 10.00");
	check(!strstr(sc.log, "ptr-button 272 released"),
	      "no client saw the release that ended the move");
	screenshot(&sc.t);
	expect_rect(&sc.t, ax + 50, ay + 5, 40, 40, RED, "the window at its new place");
	sc_stop(&sc);
}

/* A configure of @w after the @n-th: @width x @height, resizing or not
 * (the last one, once it came). */
static void expect_resize_configure(struct win *w, int n, int32_t width,
				    int32_t height, bool resizing,
				    const char *what)
{
	wait_configure(w, n, what);
	check(w->w == width && w->h == height && w->resizing == resizing,
	      "%s: configure %dx%d%s (want %dx%d%s)", what, w->w, w->h,
	      w->resizing ? " resizing" : "", width, height,
	      resizing ? " resizing" : "");
}

/*
 * xdg_toplevel.resize: granted like a move; the window is left, the
 * cursor drags the edges: configures with the resizing state and the
 * dragged size, the top left corner moved at once so that the bottom
 * right one stays where it was. The release takes the pointer where
 * the cursor is and ends the resizing state; the size stays. An edge
 * that is no edge (top and bottom) is an error.
 */
static void test_resize(void)
{
	static struct sc sc;
	struct win a;
	int ax, ay, n;

	sc_start(&sc, 8);
	sc_pointer(&sc);
	sc_window(&sc, &a, 0, 40, RED, &ax, &ay);
	fifo_move(&sc.f, ax + 10, ay + 10);
	expect(&sc, "ptr-", "ptr-enter A 10.00 10.00");
	expect(&sc, "ptr-", "ptr-frame");
	fifo_key(&sc.f, BTN_LEFT, 1);
	expect(&sc, "ptr-", "ptr-button 272 pressed");
	expect(&sc, "ptr-", "ptr-frame");

	n = a.configures;
	xdg_toplevel_resize(a.tl, sc.seat, sc.button_serial,
			    XDG_TOPLEVEL_RESIZE_EDGE_TOP_LEFT);
	wl_display_flush(sc.t.display);
	expect(&sc, "ptr-", "ptr-leave A");
	expect(&sc, "ptr-", "ptr-frame");
	expect_resize_configure(&a, n, 40, 40, true, "the resize began");
	n = a.configures;
	fifo_move(&sc.f, ax + 10 - 10, ay + 10 - 20);
	expect_placed_at(&sc.t, ax - 10, ay - 20, "the top left corner dragged");
	expect_resize_configure(&a, n, 50, 60, true, "dragged by -10,-20");
	win_draw(&a, 50, 60, GREEN);
	n = a.configures;
	fifo_key(&sc.f, BTN_LEFT, 0);
	expect(&sc, "ptr-", "ptr-enter A 10.00 10.00");
	expect_resize_configure(&a, n, 50, 60, false, "the resize ended");
	check(!strstr(sc.log, "ptr-button 272 released"),
	      "no client saw the release that ended the resize");
	win_draw(&a, 50, 60, GREEN);
	screenshot(&sc.t);
	expect_rect(&sc.t, ax - 10, ay - 20, 50, 60, GREEN,
		    "the window resized, its bottom right corner in place");

	xdg_toplevel_resize(a.tl, sc.seat, sc.button_serial, 3);
	expect_error(&sc.t, "resize edge top and bottom", "xdg_toplevel",
		     XDG_TOPLEVEL_ERROR_INVALID_RESIZE_EDGE);
	sc_stop(&sc);
}

/* The selection as one client sees it on its wl_data_device. */
struct clip {
	struct wl_data_offer *offer;	/* the last data_offer */
	char mimes[256];		/* its types, each followed by ' ' */
	struct wl_data_offer *selection;
	int selections;			/* selection events */
};

static void clip_offer_mime(void *data, struct wl_data_offer *o,
			    const char *mime)
{
	struct clip *c = data;
	size_t n = strlen(c->mimes);

	snprintf(c->mimes + n, sizeof(c->mimes) - n, "%s ", mime);
}

static void clip_offer_actions(void *data, struct wl_data_offer *o,
			       uint32_t actions)
{
}

static const struct wl_data_offer_listener clip_offer_listener = {
	.offer = clip_offer_mime,
	.source_actions = clip_offer_actions,
	.action = clip_offer_actions,
};

static void clip_data_offer(void *data, struct wl_data_device *d,
			    struct wl_data_offer *o)
{
	struct clip *c = data;

	c->offer = o;
	c->mimes[0] = 0;
	wl_data_offer_add_listener(o, &clip_offer_listener, c);
}

static void clip_enter(void *data, struct wl_data_device *d, uint32_t serial,
		       struct wl_surface *s, wl_fixed_t x, wl_fixed_t y,
		       struct wl_data_offer *o)
{
}

static void clip_none(void *data, struct wl_data_device *d)
{
}

static void clip_motion(void *data, struct wl_data_device *d, uint32_t time,
			wl_fixed_t x, wl_fixed_t y)
{
}

static void clip_selection(void *data, struct wl_data_device *d,
			   struct wl_data_offer *o)
{
	struct clip *c = data;

	c->selection = o;
	c->selections++;
}

static const struct wl_data_device_listener clip_listener = {
	.data_offer = clip_data_offer,
	.enter = clip_enter,
	.leave = clip_none,
	.motion = clip_motion,
	.drop = clip_none,
	.selection = clip_selection,
};

/* A source: send writes "hello <type>"; cancelled is counted. */
static int cancelled;

static void src_target(void *data, struct wl_data_source *s, const char *mime)
{
}

static void src_send(void *data, struct wl_data_source *s, const char *mime,
		     int32_t fd)
{
	char text[128];
	int n = snprintf(text, sizeof(text), "hello %s", mime);

	if (write(fd, text, (size_t)n) != n)
		fail("writing the selection: %s", strerror(errno));
	close(fd);
}

static void src_cancelled(void *data, struct wl_data_source *s)
{
	cancelled++;
}

static void src_none(void *data, struct wl_data_source *s)
{
}

static void src_action(void *data, struct wl_data_source *s, uint32_t a)
{
}

static const struct wl_data_source_listener src_listener = {
	.target = src_target,
	.send = src_send,
	.cancelled = src_cancelled,
	.dnd_drop_performed = src_none,
	.dnd_finished = src_none,
	.action = src_action,
};

static struct wl_data_source *source(struct wl_data_device_manager *m,
				     const char *mime)
{
	struct wl_data_source *s = wl_data_device_manager_create_data_source(m);

	wl_data_source_add_listener(s, &src_listener, NULL);
	wl_data_source_offer(s, mime);
	return s;
}

/* @offer's @mime read through a pipe while @src_display dispatches
 * the source's send; what came, up to EOF. */
static void receive(struct wl_display *d, struct wl_data_offer *offer,
		    struct wl_display *src_display, const char *mime,
		    char *out, size_t len)
{
	int p[2];
	size_t got = 0;
	ssize_t n;

	if (pipe(p) < 0)
		fail("pipe: %s", strerror(errno));
	wl_data_offer_receive(offer, mime, p[1]);
	close(p[1]);
	if (wl_display_roundtrip(d) < 0 || wl_display_roundtrip(src_display) < 0)
		fail("receive: %s", last_client_log);
	while (got + 1 < len && (n = read(p[0], out + got, len - 1 - got)) > 0)
		got += (size_t)n;
	out[got] = 0;
	close(p[0]);
}

/*
 * The selection: client A (keyboard focus) sets one; client B, which
 * has no focus, is offered nothing until its window takes the focus;
 * then an offer with A's type, whose receive A's source answers. A new
 * selection cancels the old source and is offered to B at once, and
 * the old offer reads nothing; a set_selection whose serial is not
 * newer is ignored; a source used twice is an error. The serial is not
 * checked against the events sent (data-device.c says why).
 */
static void test_selection(void)
{
	static struct sc sc;
	static struct t tb;
	static struct win a, b;
	struct wl_data_device_manager *ma = NULL, *mb = NULL;
	struct wl_seat *seat_b = NULL;
	struct wl_data_device *da, *db;
	struct wl_data_source *s1, *s2, *s3;
	struct wl_data_offer *old;
	static struct clip ca, cb;
	char text[128];
	int x, y;

	sc_start(&sc, 8);
	sc_keyboard(&sc);
	sc_window(&sc, &a, 0, 40, RED, &x, &y);
	expect(&sc, "kb-", "kb-enter A keys");
	{
		const struct global_want want[] = {
			{ "wl_data_device_manager", &wl_data_device_manager_interface,
			  3, (void **)&ma },
		};

		bind_globals(sc.t.display, want, 1);
	}
	da = wl_data_device_manager_get_data_device(ma, sc.seat);
	wl_data_device_add_listener(da, &clip_listener, &ca);
	if (wl_display_roundtrip(sc.t.display) < 0)
		fail("get_data_device: %s", last_client_log);
	check(ca.selections == 1 && !ca.selection,
	      "the focused client's new device: no selection yet (%d)",
	      ca.selections);
	s1 = source(ma, "text/plain");
	wl_data_device_set_selection(da, s1, 5);
	if (wl_display_roundtrip(sc.t.display) < 0)
		fail("set_selection: %s", last_client_log);
	check(ca.selections == 2 && ca.selection &&
	      !strcmp(ca.mimes, "text/plain "),
	      "the setter, focused, is offered its own selection (%s)", ca.mimes);

	t_connect(&tb);
	{
		const struct global_want want[] = {
			{ "wl_seat", &wl_seat_interface, 1, (void **)&seat_b },
			{ "wl_data_device_manager", &wl_data_device_manager_interface,
			  3, (void **)&mb },
		};

		bind_globals(tb.display, want, 2);
	}
	db = wl_data_device_manager_get_data_device(mb, seat_b);
	wl_data_device_add_listener(db, &clip_listener, &cb);
	if (wl_display_roundtrip(tb.display) < 0)
		fail("client B: %s", last_client_log);
	check(cb.selections == 0, "a client without the focus is offered nothing");

	win_create(&tb, &b);
	win_initial_commit(&b);
	win_draw(&b, 40, 40, GREEN);
	check(cb.selections == 1 && cb.selection && cb.selection == cb.offer &&
	      !strcmp(cb.mimes, "text/plain "),
	      "B's window took the focus: offered the selection (%d, %s)",
	      cb.selections, cb.mimes);
	receive(tb.display, cb.selection, sc.t.display, "text/plain", text,
		sizeof(text));
	check(!strcmp(text, "hello text/plain"),
	      "received through the source's send: '%s'", text);

	old = cb.selection;
	s2 = source(ma, "text/html");
	wl_data_device_set_selection(da, s2, 6);
	if (wl_display_roundtrip(sc.t.display) < 0 ||
	    wl_display_roundtrip(tb.display) < 0)
		fail("second selection: %s", last_client_log);
	check(cancelled == 1, "the replaced source cancelled (%d)", cancelled);
	check(cb.selections == 2 && cb.selection != old &&
	      !strcmp(cb.mimes, "text/html "),
	      "the focused client offered the new selection at once (%s)",
	      cb.mimes);
	receive(tb.display, old, sc.t.display, "text/plain", text, sizeof(text));
	check(!text[0], "the old offer reads nothing ('%s')", text);

	s3 = source(ma, "text/uri-list");
	wl_data_device_set_selection(da, s3, 6);
	if (wl_display_roundtrip(sc.t.display) < 0 ||
	    wl_display_roundtrip(tb.display) < 0)
		fail("stale selection: %s", last_client_log);
	check(cb.selections == 2 && cancelled == 1,
	      "a serial not newer than the selection's: ignored");

	/* Drag-and-drop's requests on selection offers: accept is
	 * feedback and does nothing, destroy lets go of the old offer,
	 * set_actions is an error (a selection has no actions). */
	wl_data_offer_accept(old, 0, "text/plain");
	wl_data_offer_destroy(old);
	if (wl_display_roundtrip(tb.display) < 0)
		fail("accept and destroy of an old offer: %s", last_client_log);
	wl_data_offer_set_actions(cb.selection, WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY,
				  WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY);
	expect_error(&tb, "set_actions on a selection offer", "wl_data_offer",
		     WL_DATA_OFFER_ERROR_INVALID_OFFER);

	wl_data_device_set_selection(da, s1, 7);
	expect_error(&sc.t, "a source used twice", "wl_data_device", 1);
	(void)s3;
	wl_display_disconnect(tb.display);
	sc_stop(&sc);
}

static const struct harness_test tests[] = {
	{ "input-keymap", test_keymap },
	{ "input-keys", test_keys },
	{ "input-dialog-focus", test_dialog_focus },
	{ "input-pointer", test_pointer },
	{ "input-move", test_move },
	{ "input-resize", test_resize },
	{ "input-selection", test_selection },
	{ "input-dropped", test_dropped },
	{ "input-vanish", test_vanish },
	{ "input-bad-path", test_bad_path },
};

int main(int argc, char **argv)
{
	return harness_main("test-input", tests, sizeof(tests) / sizeof(tests[0]),
			    argc, argv);
}
