/* SPDX-License-Identifier: MIT */
/*
 * resident.h - inside shm/: the residency check's start (resident.c),
 * for wl-shm.c; what the other layers call is in shm.h.
 */
#ifndef WLSEAL_SHM_RESIDENT_H
#define WLSEAL_SHM_RESIDENT_H

#include <stdbool.h>

struct wlseal_shm;

/* Starts the populate thread (which also reads copied buffers,
 * copy-read.c) and the residency check, unless shm->residency_check is
 * off or the kernel cannot populate (then every view of a mapped pool is
 * drawn as before, and the log says why). false: out of memory. */
bool wlseal_resident_init(struct wlseal_shm *shm);

#endif
