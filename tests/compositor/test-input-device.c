/* SPDX-License-Identifier: MIT */
/*
 * test-input-device - the compositor's input device, a FIFO (--input,
 * evdev-fifo.h) it reads input_event records from: SYN_DROPPED and
 * the keys it releases, the writer gone (and the seat's capabilities
 * with it), a path that cannot be opened.
 *
 * Usage: test-input-device TEST (TAP output).
 */
#include <linux/input.h>
#include <sys/wait.h>

#include "input-client.h"

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

static const struct harness_test tests[] = {
	{ "input-dropped", test_dropped },
	{ "input-vanish", test_vanish },
	{ "input-bad-path", test_bad_path },
};

int main(int argc, char **argv)
{
	return harness_main("test-input-device", tests,
			    sizeof(tests) / sizeof(tests[0]), argc, argv);
}
