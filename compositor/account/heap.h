/* SPDX-License-Identifier: MIT */
/*
 * heap.h - returning freed heap memory after clients leave (heap.c).
 */
#ifndef WLSEAL_HEAP_H
#define WLSEAL_HEAP_H

#include <stdbool.h>

struct wl_event_loop;

/* @busy(@data): memory is still being freed, trim later. */
bool wlseal_heap_init(struct wl_event_loop *loop,
		      bool (*busy)(void *data), void *data);
/* A client is gone: trim the heap a second from now (once per second). */
void wlseal_heap_client_gone(void);
void wlseal_heap_finish(void);

#endif
