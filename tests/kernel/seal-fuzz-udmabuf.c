/* SPDX-License-Identifier: MIT */
/*
 * seal-fuzz-udmabuf.c - seal-fuzz's udmabuf operation: dma-bufs of the
 * model's memfds (the zero-copy series, kernel-patches/zero-copy/), in
 * both modes, and every way a process has to write through them.
 *
 * A udmabuf holds references to the file's pages, so the model counts it
 * as a pin (struct pin, dmabuf >= 0): while it lives, F_SEAL_WRITE cannot
 * be added (default mode) nor removed (read-only mode) and the existing
 * predictions say EBUSY. Two invariants are checked here, both fatal:
 *
 * - a write-sealed file's bytes never change: for a read-only buffer,
 *   each write path is tried (a writable mmap of the dma-buf, mprotect()
 *   of a read-only one, DMA_BUF_IOCTL_SYNC for writing, and the buffer
 *   imported into the DRM device, its dumb-buffer offset mapped writable
 *   from the card), any that succeeds is a finding, and a hash of the
 *   file (pread) is the same before and after;
 * - seals never loosen while pages are pinned: removing F_SEAL_WRITE
 *   behind a read-only buffer (whose pages no truncation or hole can
 *   take away: the file refuses both) must fail; seal-fuzz-ops.c's
 *   op_set_seals asks ro_pinned().
 *
 * Creation is predicted from the model: default mode wants F_SEAL_SHRINK
 * and neither F_SEAL_WRITE nor F_SEAL_FUTURE_WRITE, read-only mode
 * F_SEAL_SHRINK and F_SEAL_WRITE; the size a whole number of pages, not
 * 0. A buffer made against the prediction is fatal, one refused against
 * it a fail-closed note.
 */
#include <linux/dma-buf.h>
#include <linux/udmabuf.h>
#include <sys/ioctl.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "ktest.h"
#include "seal-fuzz.h"

#ifndef UDMABUF_FLAGS_READONLY
#define UDMABUF_FLAGS_READONLY 0x02
#endif

static int udmabuf_dev = -2;	/* -2: not opened yet, -1: none */
static int drm_card = -2;

static uint64_t file_hash(int fd)
{
	uint64_t h = 0xcbf29ce484222325ull;
	unsigned char buf[4096];
	off_t off = 0;
	ssize_t n;

	while ((n = pread(fd, buf, sizeof(buf), off)) > 0) {
		for (ssize_t i = 0; i < n; i++)
			h = (h ^ buf[i]) * 0x100000001b3ull;
		off += n;
	}
	return h;
}

bool ro_pinned(int f)
{
	for (int i = 0; i < npins; i++)
		if (pins[i].file == f && pins[i].dmabuf >= 0 && pins[i].readonly)
			return true;
	return false;
}

/* Every write path of read-only buffer @p; the names of those that
 * worked, into @broke. */
static void try_writes(const struct pin *p, size_t len, char *broke,
		       size_t broke_len)
{
	struct dma_buf_sync sync = { DMA_BUF_SYNC_START | DMA_BUF_SYNC_WRITE };
	char *m;

	broke[0] = '\0';
	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, p->dmabuf, 0);
	if (m != MAP_FAILED) {
		m[0] ^= 1;
		munmap(m, len);
		strncat(broke, " mmap(PROT_WRITE)", broke_len - strlen(broke) - 1);
	}
	m = mmap(NULL, len, PROT_READ, MAP_SHARED, p->dmabuf, 0);
	if (m != MAP_FAILED) {
		if (mprotect(m, len, PROT_READ | PROT_WRITE) == 0) {
			m[len - 1] ^= 1;
			strncat(broke, " mprotect", broke_len - strlen(broke) - 1);
		}
		munmap(m, len);
	}
	if (ioctl(p->dmabuf, DMA_BUF_IOCTL_SYNC, &sync) == 0)
		strncat(broke, " SYNC_WRITE", broke_len - strlen(broke) - 1);
	if (drm_card == -2)
		drm_card = open("/dev/dri/card0", O_RDWR | O_CLOEXEC);
	if (drm_card >= 0) {
		uint32_t handle;
		uint64_t offset;

		if (drmPrimeFDToHandle(drm_card, p->dmabuf, &handle) == 0) {
			if (drmModeMapDumbBuffer(drm_card, handle, &offset) == 0) {
				m = mmap(NULL, len, PROT_READ | PROT_WRITE,
					 MAP_SHARED, drm_card, (off_t)offset);
				if (m != MAP_FAILED) {
					m[0] ^= 2;
					munmap(m, len);
					strncat(broke, " DRM dumb mmap(PROT_WRITE)",
						broke_len - strlen(broke) - 1);
				}
			}
			drmCloseBufferHandle(drm_card, handle);
		}
	}
}

/* Would UDMABUF_CREATE of @len bytes of @f in this mode succeed? */
static bool predict_create(int f, bool readonly, size_t len)
{
	unsigned int s = files[f].seals;

	if (!len || len % 4096)
		return false;
	if (readonly)
		return (s & (F_SEAL_SHRINK | F_SEAL_WRITE)) ==
		       (F_SEAL_SHRINK | F_SEAL_WRITE);
	return (s & F_SEAL_SHRINK) &&
	       !(s & (F_SEAL_WRITE | F_SEAL_FUTURE_WRITE));
}

void op_udmabuf(void)
{
	struct udmabuf_create c = { 0 };
	struct pin *p;
	int fd, f, buf;
	bool readonly = pick(2), want;
	char broke[160];
	uint64_t before;
	size_t len;

	if (udmabuf_dev == -2)
		udmabuf_dev = open("/dev/udmabuf", O_RDWR | O_CLOEXEC);
	if (udmabuf_dev < 0)
		return;
	/* Now and then a buffer goes (and its pages with it). */
	if (npins && pick(3) == 0) {
		int i = pick(npins);

		close(pins[i].pipe[0]);
		if (pins[i].pipe[1] >= 0)
			close(pins[i].pipe[1]);
		pins[i] = pins[--npins];
		return;
	}
	fd = some_fd(-1);
	if (fd < 0 || npins == MAXPIN)
		return;
	f = fds[fd].file;
	len = (size_t)files[f].size / 4096 * 4096;
	if (pick(8) == 0)
		len += 1 + pick(4095);	/* not whole pages: refused */
	want = predict_create(f, readonly, len);
	c.memfd = (uint32_t)fd;
	c.flags = UDMABUF_FLAGS_CLOEXEC | (readonly ? UDMABUF_FLAGS_READONLY : 0);
	c.size = len;
	buf = ioctl(udmabuf_dev, UDMABUF_CREATE, &c);
	if (buf >= 0 && !want)
		finding(true, "UDMABUF_CREATE (%s, %zu bytes) succeeded on seals 0x%x",
			readonly ? "read-only" : "default", len, files[f].seals);
	else if (buf < 0 && want)
		finding(false, "UDMABUF_CREATE (%s, %zu bytes): %s on seals 0x%x",
			readonly ? "read-only" : "default", len, strerror(errno),
			files[f].seals);
	if (buf < 0)
		return;
	p = &pins[npins++];
	*p = (struct pin){ .pipe = { buf, -1 }, .file = f, .dmabuf = buf,
			   .readonly = readonly };
	if (!readonly) {
		/* Allowed: the file is not write-sealed, and cannot become so
		 * while this buffer lives. */
		char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
			       buf, 0);

		if (m != MAP_FAILED) {
			m[pick((unsigned int)len)] ^= 4;
			munmap(m, len);
		}
		return;
	}
	before = file_hash(fd);
	try_writes(p, len, broke, sizeof(broke));
	if (broke[0])
		finding(true, "a read-only udmabuf of a write-sealed file was writable through:%s",
			broke);
	if (file_hash(fd) != before)
		finding(true, "a write-sealed file's bytes changed behind a read-only udmabuf");
}
