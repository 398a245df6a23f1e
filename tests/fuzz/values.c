/* SPDX-License-Identifier: MIT */
/*
 * values.c - wlseal-fuzz's argument values: gentle and hostile integers,
 * and fds of every kind a client can pass (pipes, sockets, O_PATH,
 * directories, devices, eventfds, memfds sealed, unsealed and unsealable).
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fuzz.h"
#include "wlseal-seals.h"

/* ---- values ---- */

int32_t hostile_int(struct rng *r)
{
	static const int32_t special[] = {
		0, 1, -1, 2, 3, 4, 7, 8, 15, 16, 64, 255, 256, 4095, 4096, 4097,
		65535, 65536, 16384, 16385, 32767, 32768, INT32_MAX, INT32_MIN,
		INT32_MAX - 1, INT32_MIN + 1, 0x40000000, 0x3fffffff, -4096,
		0x10000000, 46341 /* sqrt(2^31) */, -46341, 0x7fff, -0x8000,
	};

	switch (below(r, 4)) {
	case 0:
		return special[below(r, sizeof(special) / sizeof(special[0]))];
	case 1:
		return (int32_t)below(r, 1024) - 512;
	case 2:
		return (int32_t)(1u << below(r, 31)) + (int32_t)below(r, 3) - 1;
	default:
		return (int32_t)rnd(r);
	}
}

int32_t gentle_int(struct rng *r)
{
	return (int32_t)below(r, 128);
}

/* ---- fds ---- */

int memfd_of_size(struct rng *r, off_t size, unsigned seals)
{
	int fd = wlseal_memfd_create_upstream("wlseal-fuzz", (uint64_t)size);

	if (fd < 0)
		return -1;
	/* Some content, so that reads see more than holes. */
	if (size >= 4096 && chance(r, 500)) {
		char page[4096];

		memset(page, (int)below(r, 256), sizeof(page));
		if (pwrite(fd, page, sizeof(page), 0) < 0) {
			close(fd);
			return -1;
		}
	}
	if (seals)
		fcntl(fd, F_ADD_SEALS, seals);
	return fd;
}

static off_t odd_size(struct rng *r)
{
	static const off_t sizes[] = { 0, 1, 3, 4095, 4096, 4097, 8192,
				       65535, 65536, 1 << 20, (1 << 20) + 1,
				       4 << 20, 16 << 20 };

	return sizes[below(r, sizeof(sizes) / sizeof(sizes[0]))];
}

/* A hostile fd (or FD_NONE: send the message without one). */
int hostile_fd(struct rng *r, off_t want_size)
{
	int p[2], fd, mfd;
	char path[64];

	switch (below(r, 14)) {
	case 0:
		return FD_NONE;
	case 1: /* a pipe whose writer is gone */
		if (pipe2(p, O_CLOEXEC) < 0)
			return -1;
		close(p[1]);
		return p[0];
	case 2:
		if (pipe2(p, O_CLOEXEC) < 0)
			return -1;
		close(p[0]);
		return p[1];
	case 3: /* a socket whose peer is gone */
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, p) < 0)
			return -1;
		close(p[1]);
		return p[0];
	case 4:
		return open("/tmp", O_PATH | O_CLOEXEC);
	case 5:
		return open("/tmp", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	case 6:
		return open("/dev/null", O_RDWR | O_CLOEXEC);
	case 7:
		return open("/dev/zero", O_RDWR | O_CLOEXEC);
	case 8:
		return eventfd(0, EFD_CLOEXEC);
	case 9: /* unsealed memfd */
		return memfd_of_size(r, below(r, 2) ? want_size : odd_size(r), 0);
	case 10: /* sealed, but of an odd size */
		return memfd_of_size(r, odd_size(r), F_SEAL_SHRINK |
				     (below(r, 2) ? F_SEAL_GROW : 0) |
				     (below(r, 4) ? 0 : F_SEAL_WRITE));
	case 11: /* O_PATH or write-only reopening of a sealed memfd */
	case 12:
		mfd = memfd_of_size(r, want_size, F_SEAL_SHRINK);
		if (mfd < 0)
			return -1;
		snprintf(path, sizeof(path), "/proc/self/fd/%d", mfd);
		fd = open(path, (below(r, 2) ? O_PATH : O_WRONLY) | O_CLOEXEC);
		close(mfd);
		return fd;
	default: /* memfd without sealing at all */
		fd = memfd_create("wlseal-fuzz-nosealing", MFD_CLOEXEC);
		if (fd >= 0 && want_size > 0 && ftruncate(fd, want_size) < 0) {
			close(fd);
			return -1;
		}
		return fd;
	}
}
