/* SPDX-License-Identifier: MIT */
/*
 * test-read-pacing - the read pacing of account/cpu.c: how many bytes a
 * client's next read may bring, from what its requests cost and what
 * the last repaint cost. Output is TAP.
 *
 * No compositor runs: the test plays the loop, switching the account
 * layer's stretches (a client's dispatch, a repaint, the wait) and
 * burning a known amount of this thread's CPU time in each, the clock
 * cpu.c reads. CPU time, not wall time: the figures hold on a loaded
 * machine (a stretch burns until the thread's own clock has moved).
 *
 * Checked against the fixed slice (slice_ns() returning
 * DISPATCH_SLICE_NS alone): tests 4 and 5 fail (caps of 512 bytes
 * after repaints of 40 and 400 ms).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <wayland-server-core.h>

#include "account.h"
#include "cpu.h"

static int failed, test_no;

static void check(bool ok, const char *what, size_t cap)
{
	printf("%s %d - %s (cap %zu bytes)\n", ok ? "ok" : "not ok",
	       ++test_no, what, cap);
	failed |= !ok;
}

static uint64_t thread_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Spend @us of this thread's CPU. */
static void burn(uint64_t us)
{
	uint64_t end = thread_ns() + us * 1000;
	volatile unsigned long spin = 0;

	while (thread_ns() < end)
		spin++;
}

/* One dispatch of @client: a read of @bytes whose requests cost @us. */
static void dispatch(struct wl_client *client, size_t bytes, uint64_t us)
{
	wlseal_cpu_wait_end();
	wlseal_cpu_dispatch(client);
	wlseal_cpu_read_done(client, bytes);
	burn(us);
	wlseal_cpu_wait_begin();
}

static void repaint(uint64_t us)
{
	wlseal_cpu_wait_end();
	wlseal_cpu_repaint_begin();
	burn(us);
	wlseal_cpu_repaint_end();
	wlseal_cpu_wait_begin();
}

static bool near(size_t cap, size_t want)
{
	/* The switches and the clock's own reads add a few microseconds
	 * to each stretch: a few percent off the exact figure. */
	return cap >= want - want / 8 && cap <= want + want / 32;
}

int main(void)
{
	struct wl_display *display = wl_display_create();
	struct wlseal_ledger ledger = { 0 };
	struct wl_client *client;
	int sv[2];
	size_t cap;

	if (!display || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
		printf("Bail out! no display or socket pair\n");
		return 1;
	}
	wlseal_ledger_init(&ledger);
	wlseal_cpu_start();
	client = wl_client_create(display, sv[0]);
	if (!client || !wlseal_account_open(&ledger, client)) {
		printf("Bail out! no client or account\n");
		return 1;
	}
	printf("1..6\n");

	cap = wlseal_cpu_read_cap(client);
	check(cap == 512, "a new client's first read: 512 bytes, nothing known of it yet", cap);

	/* 4 ms of CPU a KiB: a 2 ms slice buys 512 bytes. */
	dispatch(client, 1024, 4000);
	cap = wlseal_cpu_read_cap(client);
	check(near(cap, 512), "requests at 4 ms a KiB: 2 ms buys 512 bytes", cap);

	/* A repaint within a frame leaves the slice at 2 ms: an eighth
	 * of 12 ms is less. */
	repaint(12000);
	cap = wlseal_cpu_read_cap(client);
	check(near(cap, 512), "after a 12 ms repaint the slice stays 2 ms", cap);

	/* A repaint of 40 ms (a machine where it does not fit a frame):
	 * the slice is an eighth of it, 5 ms, and buys 1280 bytes. */
	repaint(40000);
	cap = wlseal_cpu_read_cap(client);
	check(near(cap, 1280), "after a 40 ms repaint the slice is 5 ms: 1280 bytes", cap);

	/* Never more than libwayland's buffer. */
	repaint(400000);
	cap = wlseal_cpu_read_cap(client);
	check(cap == 4096, "after a 400 ms repaint the read is libwayland's whole buffer", cap);

	/* The next repaint fits a frame again: back to 2 ms. */
	repaint(4000);
	cap = wlseal_cpu_read_cap(client);
	check(near(cap, 512), "a fast repaint again: back to the 2 ms slice", cap);

	wlseal_cpu_report();
	wl_client_destroy(client);
	close(sv[1]);
	wl_display_destroy(display);
	return failed;
}
