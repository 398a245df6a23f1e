/* SPDX-License-Identifier: MIT */
/*
 * cpu.h - the CPU time of every loop turn, charged to the client it
 * served (cpu.c).
 */
#ifndef WLSEAL_CPU_H
#define WLSEAL_CPU_H

#include <stddef.h>

struct wl_client;
struct wlseal_account;

/* From now on every stretch of the loop thread is measured. */
void wlseal_cpu_start(void);
/* fd-guard.c: @client's socket is read; its requests follow. */
void wlseal_cpu_dispatch(struct wl_client *client);
/* Around the loop's wait for events: sleeping is charged to nobody.
 * The executable's epoll_wait() (compositor/interpose.c) calls them; a
 * server without it (compositor/server.c, run_polling) calls them around
 * its own wait (cpu.c says why). */
void wlseal_cpu_wait_begin(void);
void wlseal_cpu_wait_end(void);
/* fd-guard.c: how many bytes the next read of @client's socket may
 * bring (cpu.c: read pacing). */
size_t wlseal_cpu_read_cap(struct wl_client *client);
/* fd-guard.c: that read brought @bytes. */
void wlseal_cpu_read_done(struct wl_client *client, size_t bytes);
/* repaint.c: around one repaint. */
void wlseal_cpu_repaint_begin(void);
void wlseal_cpu_repaint_end(void);
/* The page faults the loop thread took in the last repaint (minor and
 * major, getrusage(RUSAGE_THREAD)): repaint.c logs them with the frame. */
unsigned long long wlseal_cpu_repaint_faults(void);
/* At exit: the worst turn of each kind, and whose, in the log. */
void wlseal_cpu_report(void);

#endif
