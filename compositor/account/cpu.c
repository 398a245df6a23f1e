/* SPDX-License-Identifier: MIT */
/*
 * cpu.c - what each loop turn cost, and for whom.
 *
 * The claim that no client stalls the others is a claim about time the
 * one thread of the compositor spends on one thing before it serves the
 * next. So every stretch of that thread's time is measured and charged:
 *
 * - a client's dispatch: from the read of its socket (libwayland's
 *   recvmsg(), which fd-guard.c sees) up to the next switch; libwayland
 *   reads once and then handles every complete request of that read, so
 *   this is one dispatch of one client's requests;
 * - a client's teardown: from its destroy signal (the first thing
 *   wl_client_destroy() does) up to the next switch: its resources go
 *   in that stretch;
 * - a repaint (repaint.c brackets it);
 * - everything else the loop does (timers, signals, input, the backend's
 *   page flip events, idle work), charged to the loop.
 *
 * The switch points are those calls and the loop's wait for events
 * (wlseal_cpu_wait_begin/end). In the executable the wait is
 * libwayland's epoll_wait(), which compositor/interpose.c defines the
 * way it defines recvmsg(): the executable's definition wins over the
 * C library's for libwayland-server's call. Sleeping there is charged
 * to nobody.
 *
 * Embedded in another process (the WLCS module, tests/wlcs/, which does
 * not link interpose.c) there is no interposer, for two reasons. A module
 * loaded with dlopen() cannot interpose: libwayland-server's reference
 * to epoll_wait() is looked up in the global scope first (the program
 * and what it was linked with: WLCS links libwayland-server and the C
 * library itself), so the C library's definition is found and this one
 * never runs. And were it found (a preload, RTLD_GLOBAL), it would run
 * for every epoll_wait() of the process: WLCS's own event loops on
 * other threads would switch this one thread's accounting under it.
 * There the compositor's loop (compositor/server.c, run_polling) waits by itself,
 * with poll() on the loop's epoll fd between the two calls, and then
 * dispatches without waiting: the same switch points.
 *
 * The clock is the thread's CPU time (CLOCK_THREAD_CPUTIME_ID), not the
 * wall clock: how long a turn took on the wall depends on what else the
 * machine runs, its CPU time does not (within the noise of caches), so a
 * test can assert it on a loaded machine. A turn over one frame (16 ms)
 * is logged when it sets a new worst; the worst of each kind, and whose
 * it was (client pid=0: the compositor's own), is logged at exit
 * (wlseal_cpu_report) for the attack battery.
 *
 * Read pacing. libwayland handles every complete request of a read in
 * one go, and a read brings up to its buffer's 4096 bytes: 512 commits
 * of 8 bytes. Each request's work is bounded by its client's own state
 * (a toplevel's commit applies its subsurfaces: O(its subsurface
 * budget), tens of microseconds), but 512 of them in one turn were
 * 10-17 ms on a 2-core host (wlseal-fuzz --stall), and every other
 * client and the next repaint waited. So a client's reads are paced by
 * what its requests cost: every dispatch stretch measures the CPU its
 * requests took per KiB read, the client's estimate is the dearest of
 * late (a new measure above it replaces it; below, it decays by an
 * eighth a stretch, so a client cannot make itself look cheap with a
 * few cheap reads between dear ones), and its next read may bring what
 * the dispatch slice buys at that price, between READ_CAP_MIN (a few
 * requests) and READ_CAP_MAX (libwayland's whole buffer). A new client
 * starts at READ_CAP_START, before anything is known of it. The rest of
 * its bytes wait in its socket, which stays readable: the loop comes
 * back to them after the sources that are ready, other clients' among
 * them, and the repaint. A client that asks for cheap things reads as
 * before; fd-guard.c trims the read, and a message longer than the cap
 * comes in several reads, as one cut by the socket would.
 *
 * The slice is DISPATCH_SLICE_NS, or an eighth of the last repaint's
 * CPU if that is more (slice_ns()). Where a repaint fits in a frame
 * (under 16 ms: the host's bound, asserted by the attack battery and
 * the stall fuzzer) the eighth is under 2 ms and the slice is the fixed
 * one. Where it does not (a machine eight times slower, TCG, a debug
 * kernel, a loaded host, thousands of views), every frame is late by
 * the repaint already, and a fixed slice would turn pacing against the
 * clients: each ready client would get one 2 ms read between repaints
 * of 100 ms or more, under 2% of the loop, so a client's requests, and
 * the configures and frames it waits for, would crawl behind the
 * repaint (the reads' share shrinks as the machine slows while every
 * repaint grows, so a setup's time goes with the square of the
 * slowdown). Scaled, a read is priced in the same slow CPU as the
 * repaint: each ready client gets a read worth an eighth of a repaint
 * between two of them, and no read costs the others more than an
 * eighth of what the last frame cost everyone. A client that makes the repaint dear (many views, inside
 * the budgets) buys every client bigger reads, not itself alone, and no
 * read costs others more than an eighth of a frame that client made.
 *
 * A repaint's page faults are counted too (getrusage(RUSAGE_THREAD),
 * twice a repaint): a fault on a hole of a client's pool is the one
 * piece of a repaint's work a client decides by its memory rather than
 * by what it asks to show (shm/resident.c keeps them out). The last
 * repaint's count goes with repaint.c's frame line, the worst with the
 * report at exit.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "account-private.h"
#include "cpu.h"

/* One frame at 60 Hz: a turn longer than this delays every client's
 * next frame. */
#define FRAME_NS 16000000ull
/* Read pacing (above). */
#define DISPATCH_SLICE_NS 2000000ull
#define SLICE_OF_REPAINT 8	/* a read's slice: 1/8 of a slow repaint */
#define READ_CAP_MIN 64u
#define READ_CAP_START 512u
#define READ_CAP_MAX 4096u

enum owner { NOBODY, LOOP, DISPATCH, TEARDOWN, REPAINT, KINDS };

static const char *const kind_name[KINDS] = {
	[LOOP] = "loop", [DISPATCH] = "dispatch", [TEARDOWN] = "teardown",
	[REPAINT] = "repaint",
};

struct worst {
	uint64_t ns;
	pid_t pid;
	uint64_t count;		/* stretches of this kind */
	uint64_t over;		/* of them over a frame */
};

static struct {
	bool on;
	enum owner owner;
	struct wlseal_account *account;	/* referenced while current */
	uint64_t start;
	unsigned long long stretch;	/* bumped by every switch_to() */
	struct worst worst[KINDS];
	struct wlseal_log_limit log;
	/* Page faults: at the repaint's start, the last one's, the worst. */
	unsigned long long faults_at, faults_last, faults_worst;
	uint64_t repaint_last_ns;	/* the last repaint's CPU */
} cpu;

static unsigned long long thread_faults(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru) < 0)
		return 0;
	return (unsigned long long)ru.ru_minflt + (unsigned long long)ru.ru_majflt;
}

static uint64_t thread_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* A dispatch stretch of @spent ns read b->bytes_read: the client's
 * price of a KiB of requests (read pacing, above). */
static void pace(struct wlseal_cpu_budget *b, uint64_t spent)
{
	uint64_t cost = spent * 1024 / b->bytes_read;

	b->ns_per_kib -= b->ns_per_kib / 8;
	if (cost > b->ns_per_kib)
		b->ns_per_kib = cost;
	b->priced = true;
}

/* What one read may cost (read pacing, above). */
static uint64_t slice_ns(void)
{
	uint64_t scaled = cpu.repaint_last_ns / SLICE_OF_REPAINT;

	return scaled > DISPATCH_SLICE_NS ? scaled : DISPATCH_SLICE_NS;
}

/* The stretch so far goes to its owner; @owner (and @a) from now on. */
static void switch_to(enum owner owner, struct wlseal_account *a)
{
	uint64_t now, spent;
	struct worst *w;
	pid_t pid;

	if (!cpu.on)
		return;
	now = thread_ns();
	spent = now - cpu.start;
	if (cpu.owner != NOBODY) {
		w = &cpu.worst[cpu.owner];
		pid = cpu.account ? cpu.account->pid : 0;
		w->count++;
		if (cpu.account) {
			struct wlseal_cpu_budget *b = &cpu.account->cpu;

			b->ns += spent;
			if (spent > b->worst_ns)
				b->worst_ns = spent;
			if (cpu.owner == DISPATCH && b->bytes_read)
				pace(b, spent);
			b->bytes_read = 0;
		}
		if (cpu.owner == REPAINT)
			cpu.repaint_last_ns = spent;
		if (spent > FRAME_NS)
			w->over++;
		if (spent > w->ns) {
			w->ns = spent;
			w->pid = pid;
			if (spent > FRAME_NS &&
			    wlseal_log_limit_take(&cpu.log, 5))
				wlseal_log("turn cpu: %s of client pid=%d took %llu us of CPU, over a frame",
					   kind_name[cpu.owner], (int)pid,
					   (unsigned long long)(spent / 1000));
		}
	}
	if (cpu.account)
		wlseal_account_unref(cpu.account);
	if (a)
		wlseal_account_ref(a);
	cpu.account = a;
	cpu.owner = owner;
	cpu.start = now;
	cpu.stretch++;
}

void wlseal_cpu_loop(void)
{
	if (cpu.owner != LOOP)
		switch_to(LOOP, NULL);
}

size_t wlseal_cpu_read_cap(struct wl_client *client)
{
	struct wlseal_account *a = wlseal_account_of(client);
	uint64_t cap;

	if (!a)
		return READ_CAP_MAX;
	if (!a->cpu.priced)
		return READ_CAP_START;
	cap = a->cpu.ns_per_kib ? slice_ns() * 1024 / a->cpu.ns_per_kib
				: READ_CAP_MAX;
	if (cap < READ_CAP_MIN)
		cap = READ_CAP_MIN;
	if (cap > READ_CAP_MAX)
		cap = READ_CAP_MAX;
	return (size_t)cap;
}

void wlseal_cpu_read_done(struct wl_client *client, size_t bytes)
{
	struct wlseal_account *a = wlseal_account_of(client);

	if (a)
		a->cpu.bytes_read += bytes;
}

unsigned long long wlseal_cpu_stretch(void)
{
	return cpu.stretch;
}

void wlseal_cpu_start(void)
{
	/* Worsts of a server run before in this process are not this
	 * one's (tests/wlcs/ starts one per test); the last one's report
	 * let go of its account. */
	memset(&cpu, 0, sizeof(cpu));
	cpu.on = true;
	cpu.owner = LOOP;
	cpu.start = thread_ns();
}

void wlseal_cpu_dispatch(struct wl_client *client)
{
	struct wlseal_account *a = wlseal_account_of(client);

	if (cpu.owner != DISPATCH || cpu.account != a || !a)
		switch_to(DISPATCH, a);
}

static void account_gone(struct wl_listener *listener, void *data)
{
	(void)listener;
	switch_to(TEARDOWN, data);
}

void wlseal_cpu_follow(struct wlseal_ledger *ledger)
{
	ledger->follow.cpu_gone.notify = account_gone;
	wl_signal_add(&ledger->account_gone, &ledger->follow.cpu_gone);
}

void wlseal_cpu_repaint_begin(void)
{
	switch_to(REPAINT, NULL);
	cpu.faults_at = thread_faults();
}

void wlseal_cpu_repaint_end(void)
{
	unsigned long long now = thread_faults();

	cpu.faults_last = now >= cpu.faults_at ? now - cpu.faults_at : 0;
	if (cpu.faults_last > cpu.faults_worst)
		cpu.faults_worst = cpu.faults_last;
	switch_to(LOOP, NULL);
}

unsigned long long wlseal_cpu_repaint_faults(void)
{
	return cpu.faults_last;
}

void wlseal_cpu_wait_begin(void)
{
	switch_to(NOBODY, NULL);
}

void wlseal_cpu_wait_end(void)
{
	switch_to(LOOP, NULL);
}

void wlseal_cpu_report(void)
{
	switch_to(NOBODY, NULL);
	for (int k = LOOP; k < KINDS; k++) {
		const struct worst *w = &cpu.worst[k];

		wlseal_log("turn cpu: worst %s %llu us client pid=%d, %llu of %llu over a frame",
			   kind_name[k], (unsigned long long)(w->ns / 1000),
			   (int)w->pid,
			   (unsigned long long)w->over,
			   (unsigned long long)w->count);
	}
	wlseal_log("repaint faults: worst %llu page faults in one repaint",
		   cpu.faults_worst);
	cpu.on = false;
}
