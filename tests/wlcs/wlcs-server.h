/* SPDX-License-Identifier: MIT */
/*
 * wlcs-server.h - what the WLCS module's files share (wlseal-wlcs.c says
 * how the module works): the server as WLCS sees it, the calls queued
 * onto the server's thread (wlcs-calls.c), the fake input devices
 * (wlcs-devices.c).
 */
#ifndef WLSEAL_WLCS_SERVER_H
#define WLSEAL_WLCS_SERVER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <wayland-server-core.h>

#include <wlcs/display_server.h>
#include <wlcs/pointer.h>
#include <wlcs/touch.h>

struct wlseal_server;

#define MAX_ARGS 64

/* A client WLCS connected through create_client_socket. */
struct wlcs_client {
	struct wl_list link;		/* wlcs_server.clients */
	int fd;				/* WLCS's end */
	struct wl_client *client;	/* NULL once gone */
	struct wl_listener destroy;
};

struct call {
	void (*fn)(struct wlseal_server *server, void *arg);
	void *arg;
	bool done;
	struct call *next;
};

struct wlcs_server {
	WlcsDisplayServer base;		/* first: WLCS's pointer is ours */
	char *args[MAX_ARGS];		/* the compositor's command line */
	int n_args;

	pthread_t thread;
	bool started;			/* thread running */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool ready, exited;		/* under lock */
	int status;			/* the server's exit status, once exited */
	struct call *queue;		/* under lock */

	/* The server's thread only. */
	struct wlseal_server *server;
	int efd;
	struct wl_event_source *efd_source;
	struct wl_list clients;		/* wlcs_client.link */
	int pointers, touches;		/* live fake devices */
	double px, py;			/* the fake pointer's position */
	int32_t next_touch_id;
	/* WLCS's thread: the fake devices, told when the server goes. */
	struct wl_list devices;		/* fake_device.link */
};

/* What both kinds of fake device keep of their server. */
struct fake_device {
	struct wlcs_server *s;		/* NULL once destroy_server ran */
	struct wl_list link;		/* wlcs_server.devices */
};

struct fake_pointer {
	WlcsPointer base;
	struct fake_device dev;
};

struct fake_touch {
	WlcsTouch base;
	struct fake_device dev;
	int32_t id;
	bool down;
};

/* wlcs-calls.c: a message and abort(); the monotonic clock in ms. */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
uint32_t now_ms(void);
/* Is the server up to take calls? */
bool running(struct wlcs_server *s);
/* The queued calls run on the server's thread (its eventfd's source). */
int run_calls(int fd, uint32_t mask, void *data);
/* Runs @fn(server, @arg) on the server's thread and waits for it. */
void call(struct wlcs_server *s, void (*fn)(struct wlseal_server *, void *),
	  void *arg);

/* wlcs-devices.c: WLCS's fake pointer and touchscreen; the seat's
 * capabilities (a keyboard, a mouse and a touchscreen from the start). */
void set_caps(struct wlcs_server *s);
WlcsPointer *server_create_pointer(WlcsDisplayServer *base);
WlcsTouch *server_create_touch(WlcsDisplayServer *base);

#endif
