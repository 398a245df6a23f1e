/* SPDX-License-Identifier: MIT */
/*
 * test-compositor - host tests of wlseal-compositor's headless backend.
 *
 * Usage: test-compositor TEST. Each TEST starts its own compositor in a
 * private XDG_RUNTIME_DIR, prints TAP lines, and exits non-zero on the
 * first failed check.
 *
 * This file holds the table of cases; the cases are in shm-cases.c (the
 * wl_shm policy, with a raw client), scene-cases.c (real clients,
 * screenshots) and connection-cases.c (the socket, admission control),
 * what they share in fixtures.c.
 */
#include <stdio.h>
#include <sys/wait.h>

#include "test-compositor.h"

static void test_help(void)
{
	struct proc p;
	char *argv[] = { (char *)bin_compositor(), "--help", NULL };
	char *cargv[] = { (char *)bin_client(), "--help", NULL };

	proc_spawn(&p, argv);
	if (!proc_wait_exit(&p, TIMEOUT_MS))
		fail("--help hangs");
	check(WIFEXITED(p.status) && WEXITSTATUS(p.status) == 0 &&
	      proc_contains(&p, "--backend=drm|headless") &&
	      proc_contains(&p, "--shm=wlseal|libwayland") &&
	      proc_contains(&p, "--policy=secure|permissive"),
	      "wlseal-compositor --help");
	proc_spawn(&p, cargv);
	if (!proc_wait_exit(&p, TIMEOUT_MS))
		fail("--help hangs");
	check(WIFEXITED(p.status) && WEXITSTATUS(p.status) == 0 &&
	      proc_contains(&p, "--seal-api=auto|upstream|v1"),
	      "wlseal-client --help");
}

static const struct harness_test tests[] = {
	{ "help", test_help },
	{ "sealed-pool-accepted", test_sealed_pool },
	{ "pool-budget", test_pool_budget },
	{ "fd-reserve", test_fd_reserve },
	{ "unsealed-refused", test_unsealed },
	{ "grow-only-refused", test_grow_only },
	{ "write-only-refused", test_write_only },
	{ "not-sealable-refused", test_not_sealable },
	{ "pool-larger-than-file-refused", test_pool_larger },
	{ "resize-past-file-refused", test_resize_past_file },
	{ "buffer-overflow-refused", test_buffer_overflow },
	{ "permissive-policy", test_permissive },
	{ "departed-pools-reaped", test_reaper },
	{ "large-pool-sliced", test_large_pool_sliced },
	{ "no-sigbus-handler", test_no_sigbus_handler },
	{ "libwayland-sigbus-handler", test_libwayland_sigbus_handler },
	{ "screenshot-frame", test_screenshot_frame },
	{ "client-pixels", test_pixels },
	{ "write-sealed-shown", test_write_sealed },
	{ "frame-callbacks-presentation", test_frames_presentation },
	{ "damage-tracking", test_damage },
	{ "client-resize", test_resize },
	{ "client-seal-api", test_seal_api },
	{ "weston-simple-shm", test_weston_simple_shm },
	{ "weston-presentation-shm", test_weston_presentation_shm },
	{ "socket-lock", test_socket_lock },
	{ "socket-stale", test_socket_stale },
	{ "evict-unmapped", test_evict_unmapped },
	{ "refuse-all-mapped", test_refuse_all_mapped },
	{ "evict-parked-first", test_evict_parked_first },
	{ "accept-full-table", test_accept_full_table },
	{ "exit-after", test_exit_after },
};

int main(int argc, char **argv)
{
	return harness_main("test-compositor", tests, sizeof(tests) / sizeof(tests[0]),
			    argc, argv);
}
