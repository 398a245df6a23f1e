/* SPDX-License-Identifier: MIT */
/*
 * account.c - a client's account: its lifetime, the fairness rule every
 * total follows, and the rate-limited log lines a client can cause.
 *
 * An account is made with the client's connection and found from the
 * wl_client through its destroy listener, so no table of clients is
 * walked to find one. It holds a reference for the connection and one
 * for every pool and counted object: libwayland destroys a client's
 * resources after the client's destroy signal, and a pool lives on
 * through its buffers, so what outlives the connection is still charged
 * to the account until it goes.
 *
 * The other files of the layer learn of an account's opening and of its
 * client's departure through the ledger's account_opened and
 * account_gone signals (ledger.c connects them): this file calls none of
 * them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <wayland-server-core.h>

#include "account-private.h"

/* Lines about one client a second, and about all clients together. */
#define LOG_BURST 10
#define LOG_BURST_ALL 50

void wlseal_account_ref(struct wlseal_account *a)
{
	a->refs++;
}

void wlseal_account_unref(struct wlseal_account *a)
{
	if (--a->refs > 0)
		return;
	free(a);
}

static void client_gone(struct wl_listener *listener, void *data)
{
	struct wlseal_account *a = wl_container_of(listener, a, client_destroy);

	(void)data;
	/* What follows, the client's resources going, is its teardown
	 * (cpu.c); no resource of it is counted any more (objects.c). */
	wl_signal_emit(&a->ledger->account_gone, a);
	if (a->log.dropped)
		wlseal_log("client pid=%d: %d more refusal lines were not logged",
			   (int)a->pid, a->log.dropped);
	wl_list_remove(&a->client_destroy.link);
	a->client = NULL;
	a->gone = true;
	wlseal_account_unref(a);
}

struct wlseal_account *wlseal_account_of(struct wl_client *client)
{
	struct wl_listener *l;
	struct wlseal_account *a;

	l = wl_client_get_destroy_listener(client, client_gone);
	return l ? wl_container_of(l, a, client_destroy) : NULL;
}

bool wlseal_account_open(struct wlseal_ledger *ledger, struct wl_client *client)
{
	struct wlseal_account *a = wlseal_account_of(client);

	if (a)
		return true;
	a = calloc(1, sizeof(*a));
	if (!a)
		return false;
	a->ledger = ledger;
	a->pid = wlseal_client_pid(client);
	a->refs = 1;
	a->client = client;
	a->client_destroy.notify = client_gone;
	wl_client_add_destroy_listener(client, &a->client_destroy);
	/* objects.c starts counting the client's resources. */
	wl_signal_emit(&ledger->account_opened, a);
	return true;
}

bool wlseal_account_gone(const struct wlseal_account *a)
{
	return a->gone;
}

bool wlseal_fair(uint64_t mine, uint64_t total, uint64_t limit,
		 uint64_t reserve, uint64_t light)
{
	if (total <= limit - reserve)
		return true;
	return mine <= light && total <= limit;
}

void wlseal_account_log(struct wl_client *client, const char *fmt, ...)
{
	/* All clients together too: one attacker may open many
	 * connections. One per process, like the log itself. */
	static struct wlseal_log_limit all;
	struct wlseal_account *a = wlseal_account_of(client);
	char line[400];
	va_list ap;

	/* A client without an account (its allocation failed) shares
	 * only the limit of all clients. */
	if (a && !wlseal_log_limit_take(&a->log, LOG_BURST))
		return;
	if (!wlseal_log_limit_take(&all, LOG_BURST_ALL))
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if ((a && a->log.dropped) || all.dropped) {
		wlseal_log("%s (%d lines of this client and %d of all clients not logged)",
			   line, a ? a->log.dropped : 0, all.dropped);
		if (a)
			a->log.dropped = 0;
		all.dropped = 0;
	} else {
		wlseal_log("%s", line);
	}
}

bool wlseal_account_once(struct wl_client *client, enum wlseal_once what)
{
	struct wlseal_account *a = wlseal_account_of(client);

	if (!a || (a->once & what))
		return false;
	a->once |= what;
	return true;
}
