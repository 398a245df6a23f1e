/* SPDX-License-Identifier: MIT */
/*
 * keymap.c - the keymap wl_keyboard.keymap hands out: one sealed memfd
 * that wlseal itself makes, and a read-only fd of it for every client.
 *
 * The memfd is created with MFD_ALLOW_SEALING, filled with the XKB text
 * (with its NUL: clients hand the mapping to xkbcommon as a string),
 * and sealed F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL.
 * wlseal maps it PROT_READ, MAP_PRIVATE (readable on every kernel, see
 * below; never written, so never copied) and reads its own xkb_keymap
 * from that mapping: the compositor uses the bytes the clients get.
 *
 * Safety: every client maps the same file, so no client may change or
 * shrink it under the others (a shrunk file is SIGBUS in every client
 * that maps it, and in us). The seals are what holds:
 *  - F_SEAL_WRITE: no write(), pwrite(), writable mapping or fallocate
 *    that changes data, through any fd of the file;
 *  - F_SEAL_SHRINK, F_SEAL_GROW: no ftruncate() or fallocate() changes
 *    the size, so every page of a mapping stays backed;
 *  - F_SEAL_SEAL: nobody removes or adds a seal; the patched kernel's
 *    seed ABI (SHMEM_SET_SEALS) refuses under F_SEAL_SEAL as well, so
 *    even an exclusive holder cannot lift F_SEAL_WRITE.
 * A client reopening its fd O_RDWR through /proc (the memfd's inode is
 * mode 0777, so it can) gains nothing: the seals bind every fd alike.
 *
 * Each client gets its own open("/proc/self/fd/N", O_RDONLY) of the
 * memfd, for two reasons:
 *  - Its own open file description: a client that read()s or lseek()s
 *    the fd moves only its own offset, never another client's.
 *  - MAP_SHARED, PROT_READ works on it on every kernel. wl_keyboard
 *    before version 7 lets clients map the keymap MAP_SHARED. Linux
 *    before 6.7 asked mapping_map_writable() in mmap_region() of every
 *    VM_SHARED mapping, which F_SEAL_WRITE denies (EPERM) even for
 *    PROT_READ; do_mmap() drops VM_SHARED (and VM_MAYWRITE) when the
 *    file is not open for writing, so the O_RDONLY fd always maps.
 *    6.7 allowed read-only shared mappings of write-sealed files
 *    (is_readonly_sealed()), and the fix was backported: the host
 *    (6.18) maps even the O_RDWR memfd MAP_SHARED, PROT_READ (checked
 *    with a small program), and so would the VM's Debian 6.1.192,
 *    whose mm/mmap.c has is_readonly_sealed(). Older 6.1 kernels and
 *    other distributions' do not. tests/compositor/test-input.c maps
 *    a client's fd MAP_SHARED and checks it is O_RDONLY.
 * Without /proc (a guest that did not mount it) the memfd itself is
 * sent: still safe by its seals, only MAP_SHARED clients on an unfixed
 * kernel fail.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "devices.h"
#include "log.h"

#define KEYMAP_SEALS (F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL)

static bool write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		p += n;
		len -= (size_t)n;
	}
	return true;
}

bool wlseal_keymap_init(struct wlseal_keymap *km, const char *text)
{
	size_t size = strlen(text) + 1;
	int fd;

	km->fd = -1;
	fd = memfd_create("wlseal-keymap", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0) {
		wlseal_log("keymap: memfd_create: %m");
		return false;
	}
	if (!write_all(fd, text, size) ||
	    fcntl(fd, F_ADD_SEALS, KEYMAP_SEALS) < 0 ||
	    fcntl(fd, F_GET_SEALS) != KEYMAP_SEALS) {
		wlseal_log("keymap: cannot fill and seal the memfd: %m");
		close(fd);
		return false;
	}
	/* Sealed before mapping: nothing can shrink it under us. */
	km->map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (km->map == MAP_FAILED) {
		wlseal_log("keymap: mmap: %m");
		close(fd);
		return false;
	}
	km->fd = fd;
	km->size = size;
	return true;
}

void wlseal_keymap_finish(struct wlseal_keymap *km)
{
	if (km->fd < 0)
		return;
	munmap((void *)km->map, km->size);
	close(km->fd);
	km->fd = -1;
}

int wlseal_keymap_client_fd(struct wlseal_keymap *km)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", km->fd);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		return fd;
	if (!km->warned) {
		wlseal_log("keymap: %s: %s; clients get the sealed memfd itself",
			   path, strerror(errno));
		km->warned = true;
	}
	return fcntl(km->fd, F_DUPFD_CLOEXEC, 0);
}
