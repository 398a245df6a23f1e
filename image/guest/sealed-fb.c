/* SPDX-License-Identifier: MIT */
/*
 * A framebuffer that is a write-sealed memfd's own pages (sealed-fb.h):
 * the pattern drawn into a memfd, the memfd sealed against writing, a
 * read-only udmabuf made of it (kernel-patches/zero-copy), and that
 * imported by virtio-gpu. Nothing copies the pixels in the guest: the
 * host reads the memfd's pages on each transfer.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/udmabuf.h>

#include "pattern.h"
#include "sealed-fb.h"

/* The read-only mode of kernel-patches/zero-copy (linux/udmabuf.h). */
#ifndef UDMABUF_FLAGS_READONLY
#define UDMABUF_FLAGS_READONLY 0x02
#endif

#define SEALS (F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL)

static int fail(struct sealed_fb *s, const char *what, int err)
{
	snprintf(s->error, sizeof(s->error), "%s: %s", what, strerror(err));
	return -1;
}

/* A udmabuf of the whole of @memfd with @flags; the fd, or -errno. */
static int udmabuf(int dev, int memfd, unsigned int flags, size_t size)
{
	struct udmabuf_create c = {
		.memfd = (unsigned int)memfd, .flags = flags, .size = size,
	};
	int fd = ioctl(dev, UDMABUF_CREATE, &c);

	return fd < 0 ? -errno : fd;
}

int sealed_fb_create(struct kms *k, struct sealed_fb *s)
{
	uint32_t w = k->mode.hdisplay, h = k->mode.vdisplay;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	int dev, err, wrong;
	void *map;

	memset(s, 0, sizeof(*s));
	s->memfd = s->dmabuf = -1;
	s->stride = w * 4;
	s->size = ((size_t)s->stride * h + page - 1) / page * page;

	s->memfd = memfd_create("wlseal-kmstest", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (s->memfd < 0)
		return fail(s, "memfd_create", errno);
	if (ftruncate(s->memfd, (off_t)s->size) < 0)
		return fail(s, "ftruncate", errno);
	map = mmap(NULL, s->size, PROT_READ | PROT_WRITE, MAP_SHARED, s->memfd, 0);
	if (map == MAP_FAILED)
		return fail(s, "mmap the memfd", errno);
	wlseal_pattern_fill(map, w, h, s->stride);
	/* F_SEAL_WRITE needs every writable mapping gone. */
	munmap(map, s->size);
	if (fcntl(s->memfd, F_ADD_SEALS, SEALS) < 0)
		return fail(s, "F_ADD_SEALS", errno);

	dev = open("/dev/udmabuf", O_RDWR | O_CLOEXEC);
	if (dev < 0)
		return fail(s, "/dev/udmabuf", errno);
	/* The default mode must still refuse a write-sealed file. */
	wrong = udmabuf(dev, s->memfd, UDMABUF_FLAGS_CLOEXEC, s->size);
	if (wrong >= 0) {
		close(wrong);
		close(dev);
		return fail(s, "a write-sealed memfd taken by udmabuf's default mode", EEXIST);
	}
	s->dmabuf = udmabuf(dev, s->memfd,
			    UDMABUF_FLAGS_CLOEXEC | UDMABUF_FLAGS_READONLY,
			    s->size);
	close(dev);
	if (s->dmabuf < 0)
		return fail(s, "UDMABUF_CREATE, read-only", -s->dmabuf);

	/* virtio-gpu: a pitch other than width * 4 is refused. */
	err = kms_fb_import(k, &s->fb, s->dmabuf, s->stride + 64);
	if (err != EINVAL)
		return fail(s, "a framebuffer with pitch width * 4 + 64 (want EINVAL)",
			    err ? err : EEXIST);
	err = kms_fb_import(k, &s->fb, s->dmabuf, s->stride);
	if (err)
		return fail(s, "PRIME import and drmModeAddFB2", err);

	/* Read-only: what the checksum of the screenshot is computed from. */
	s->fb.size = s->size;
	s->fb.map = mmap(NULL, s->size, PROT_READ, MAP_SHARED, s->memfd, 0);
	if (s->fb.map == MAP_FAILED) {
		s->fb.map = NULL;
		return fail(s, "mmap the sealed memfd", errno);
	}
	return 0;
}
