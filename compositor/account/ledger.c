/* SPDX-License-Identifier: MIT */
/*
 * ledger.c - the compositor's ledger made ready: the limits the options
 * left at 0, and the files of the layer that follow every account
 * (objects.c counts a client's resources from its opening, cpu.c charges
 * a departing client's teardown) connected to account.c's signals.
 */
#include <stdio.h>

#include "account-private.h"
#include "cpu.h"

/* The mappings the compositor keeps for itself: libraries, malloc, DRM. */
#define OWN_MAPPINGS 4096

void wlseal_ledger_init(struct wlseal_ledger *ledger)
{
	struct wlseal_pool_ledger *p = &ledger->pools;
	int max_map_count = 65530;	/* the kernel's default */
	FILE *f = fopen("/proc/sys/vm/max_map_count", "re");

	if (f) {
		if (fscanf(f, "%d", &max_map_count) != 1)
			max_map_count = 65530;
		fclose(f);
	}
	/* Every pool is one mapping: the count is bounded by the
	 * process's mappings, less what the compositor maps itself. */
	p->max_pools = max_map_count - OWN_MAPPINGS;
	if (p->max_pools < 1024)
		p->max_pools = 1024;
	wlseal_pool_memory_budget(p);

	wl_signal_init(&ledger->account_opened);
	wl_signal_init(&ledger->account_gone);
	wlseal_objects_follow(ledger);
	wlseal_cpu_follow(ledger);
}
