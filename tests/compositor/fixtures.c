/* SPDX-License-Identifier: MIT */
/*
 * fixtures.c - what test-compositor's cases share: a raw client that sends
 * exactly the requests a test needs, the checks on what became of it and
 * the real client (wlseal-client).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test-compositor.h"

/* ---- a raw client, to send exactly the requests a test needs ---- */

static void reg_global(void *data, struct wl_registry *r, uint32_t name,
		       const char *iface, uint32_t version)
{
	struct raw *raw = data;

	(void)version;
	if (!strcmp(iface, "wl_shm"))
		raw->shm = wl_registry_bind(r, name, &wl_shm_interface, 1);
	else if (!strcmp(iface, "wl_compositor"))
		raw->compositor = wl_registry_bind(r, name,
						   &wl_compositor_interface, 4);
}

static void reg_remove(void *data, struct wl_registry *r, uint32_t name)
{
	(void)data; (void)r; (void)name;
}

static const struct wl_registry_listener reg_listener = {
	.global = reg_global,
	.global_remove = reg_remove,
};

void raw_connect(struct raw *raw)
{
	memset(raw, 0, sizeof(*raw));
	raw->display = connect_display();
	raw->registry = wl_display_get_registry(raw->display);
	wl_registry_add_listener(raw->registry, &reg_listener, raw);
	if (wl_display_roundtrip(raw->display) < 0 || !raw->shm || !raw->compositor)
		fail("no wl_shm/wl_compositor");
}

void raw_disconnect(struct raw *raw)
{
	wl_display_disconnect(raw->display);
}

/* The connection must be alive: a roundtrip succeeds. */
void expect_accepted(struct raw *raw, const char *what)
{
	int r = wl_display_roundtrip(raw->display);

	check(r >= 0, "%s accepted (roundtrip %d, log '%s')", what, r,
	      last_client_log);
}

/* The connection must die with exactly this protocol error. */
void expect_error(struct raw *raw, const char *what, const char *iface,
		  uint32_t code, const char *msg)
{
	const struct wl_interface *got_iface = NULL;
	uint32_t got_code, id;
	int err;

	last_client_log[0] = 0;
	if (wl_display_roundtrip(raw->display) >= 0)
		fail("%s: accepted, expected %s error %u", what, iface, code);
	err = wl_display_get_error(raw->display);
	if (err != EPROTO)
		fail("%s: connection error %d (%s), expected a protocol error",
		     what, err, strerror(err));
	got_code = wl_display_get_protocol_error(raw->display, &got_iface, &id);
	check(got_iface && !strcmp(got_iface->name, iface) && got_code == code &&
	      strstr(last_client_log, msg),
	      "%s refused: %s error %u, message '%s' (want %s %u '%s')", what,
	      got_iface ? got_iface->name : "?", got_code,
	      strtok(last_client_log, "\n"), iface, code, msg);
}

/* The compositor logged the refusal with our pid and the reason. */
void expect_refusal_logged(struct comp *c, const char *request,
			   const char *reason)
{
	char needle[256];

	snprintf(needle, sizeof(needle), "refused client pid=%d %s: %s",
		 (int)getpid(), request, reason);
	check(proc_wait(&c->p, NULL, needle, TIMEOUT_MS, NULL, 0),
	      "compositor logged '%s'", needle);
}

void expect_alive(struct comp *c)
{
	struct raw raw;

	check(proc_alive(&c->p), "compositor still running");
	raw_connect(&raw);
	expect_accepted(&raw, "a new connection after the refusal");
	raw_disconnect(&raw);
}

/* ---- the real client ---- */

void client_exits_ok(struct proc *p, const char *what)
{
	if (!proc_wait_exit(p, TIMEOUT_MS))
		fail("%s: client did not exit", what);
	check(WIFEXITED(p->status) && WEXITSTATUS(p->status) == 0,
	      "%s: client exit status 0x%x", what, p->status);
}
