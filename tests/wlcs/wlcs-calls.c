/* SPDX-License-Identifier: MIT */
/*
 * wlcs-calls.c - the WLCS module's calls onto the server's thread
 * (wlseal-wlcs.c, "Threads"): queued under the lock, an eventfd wakes the
 * server's loop, which runs the queue; the caller waits for its own.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "wlcs-server.h"

void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "wlseal-wlcs: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

uint32_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint32_t)(ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

/* --- calls onto the server's thread ----------------------------------------- */

int run_calls(int fd, uint32_t mask, void *data)
{
	struct wlcs_server *s = data;
	struct call *c, *next;
	uint64_t n;

	if (read(s->efd, &n, sizeof(n)) < 0 && errno != EAGAIN)
		wlseal_log("wlcs: eventfd: %s", strerror(errno));
	pthread_mutex_lock(&s->lock);
	c = s->queue;
	s->queue = NULL;
	pthread_mutex_unlock(&s->lock);
	for (; c; c = next) {
		next = c->next;
		c->fn(s->server, c->arg);
		pthread_mutex_lock(&s->lock);
		c->done = true;
		pthread_cond_broadcast(&s->cond);
		pthread_mutex_unlock(&s->lock);
	}
	return 0;
}

/* Is the server up to take calls? */
bool running(struct wlcs_server *s)
{
	bool up;

	if (!s)
		return false;
	pthread_mutex_lock(&s->lock);
	up = s->ready;
	pthread_mutex_unlock(&s->lock);
	return up;
}

/* Runs @fn(server, @arg) on the server's thread and waits for it. */
void call(struct wlcs_server *s, void (*fn)(struct wlseal_server *, void *),
		 void *arg)
{
	struct call c = { .fn = fn, .arg = arg };
	struct call **tail;
	uint64_t one = 1;

	if (!s)
		die("a fake device used after its server was destroyed");
	pthread_mutex_lock(&s->lock);
	if (!s->ready) {
		pthread_mutex_unlock(&s->lock);
		die("a call to a server that is not running");
	}
	for (tail = &s->queue; *tail; tail = &(*tail)->next)
		;
	*tail = &c;
	if (write(s->efd, &one, sizeof(one)) != sizeof(one))
		die("cannot wake the server: %s", strerror(errno));
	while (!c.done)
		pthread_cond_wait(&s->cond, &s->lock);
	pthread_mutex_unlock(&s->lock);
}
