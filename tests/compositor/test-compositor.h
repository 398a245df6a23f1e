/* SPDX-License-Identifier: MIT */
/*
 * test-compositor.h - shared by the files of test-compositor: the fixtures
 * (fixtures.c) and the cases (shm-cases.c, scene-cases.c) that the table
 * in test-compositor.c names.
 */
#ifndef WLSEAL_TEST_COMPOSITOR_H
#define WLSEAL_TEST_COMPOSITOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wayland-client.h>

#include "harness.h"

/* fixtures.c: a raw client, to send exactly the requests a test needs. */
struct raw {
	struct wl_display *display;
	struct wl_registry *registry;
	struct wl_shm *shm;
	struct wl_compositor *compositor;
};

void raw_connect(struct raw *raw);
void raw_disconnect(struct raw *raw);
/* The connection must be alive: a roundtrip succeeds. */
void expect_accepted(struct raw *raw, const char *what);
/* The connection must die with exactly this protocol error. */
void expect_error(struct raw *raw, const char *what, const char *iface,
		  uint32_t code, const char *msg);
/* The compositor logged the refusal with our pid and the reason. */
void expect_refusal_logged(struct comp *c, const char *request,
			   const char *reason);
/* The compositor runs and answers a new connection. */
void expect_alive(struct comp *c);

/* fixtures.c: the real client. */
void client_exits_ok(struct proc *p, const char *what);

/* shm-cases.c */
void test_pool_budget(void);
void test_fd_reserve(void);
void test_sealed_pool(void);
void test_unsealed(void);
void test_grow_only(void);
void test_write_only(void);
void test_not_sealable(void);
void test_pool_larger(void);
void test_resize_past_file(void);
void test_buffer_overflow(void);
void test_permissive(void);
void test_reaper(void);
void test_large_pool_sliced(void);

/* scene-cases.c */
void test_screenshot_frame(void);
void test_pixels(void);
void test_write_sealed(void);
void test_frames_presentation(void);
void test_damage(void);
void test_resize(void);
void test_seal_api(void);
void test_no_sigbus_handler(void);
void test_libwayland_sigbus_handler(void);
void test_weston_simple_shm(void);
void test_weston_presentation_shm(void);

/* connection-cases.c */
void test_socket_lock(void);
void test_socket_stale(void);
void test_evict_unmapped(void);
void test_refuse_all_mapped(void);
void test_evict_parked_first(void);
void test_accept_full_table(void);
void test_exit_after(void);

#endif
