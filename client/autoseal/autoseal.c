/* SPDX-License-Identifier: MIT */
/*
 * autoseal.c - LD_PRELOAD library of wlseal-autoseal: lets an
 * unmodified client that never seals its wl_shm pools run under the
 * compositor's secure policy, which refuses every pool whose file lacks
 * F_SEAL_SHRINK.
 *
 * What it interposes (the real functions through dlsym(RTLD_NEXT)):
 *
 * - memfd_create(name, flags): always adds MFD_ALLOW_SEALING. Harmless: a
 *   memfd without it starts with F_SEAL_SEAL and can never be sealed; with
 *   it, it starts with no seals and behaves exactly the same until someone
 *   adds one. hugetlb memfds (MFD_HUGETLB) are sealable too on 6.1.
 * - syscall(SYS_memfd_create, name, flags): the same, for programs that
 *   call memfd_create through libc's syscall() wrapper (GTK 3 does, to
 *   build with old libcs). Every other system call number is passed on
 *   with its six argument registers as they are, which is what glibc's
 *   syscall() itself does with them.
 * - sendmsg(): for every fd in an SCM_RIGHTS message, if F_GET_SEALS
 *   succeeds (a sealable file) and F_SEAL_SHRINK is not set yet, adds
 *   F_SEAL_SHRINK with F_ADD_SEALS, before the real sendmsg. Never
 *   F_SEAL_SEAL (the client can still grow its pool and add seals of its
 *   own), never F_SEAL_GROW or F_SEAL_WRITE. libwayland-client sends its
 *   fds with sendmsg(MSG_NOSIGNAL | MSG_DONTWAIT) (connection.c).
 *   It applies to all SCM_RIGHTS messages, not only those to the Wayland
 *   socket: SCM_RIGHTS exists only on AF_UNIX sockets anyway, and telling
 *   the Wayland socket apart (by peer path) fails for a socket handed in
 *   through WAYLAND_SOCKET. The price: a sealable file sent to another
 *   peer (PipeWire, D-Bus) gets F_SEAL_SHRINK as well.
 *
 * What it cannot fix; the compositor then refuses the pool with the same
 * reason as without the helper ("not a sealable file" / not_sealable, or
 * "missing SEAL_SHRINK" / missing_seal):
 * - files that are not sealable at all: shm_open() and other /dev/shm
 *   files, disk files, O_TMPFILE files (tmpfs files other than memfds
 *   carry no seals);
 * - memfds created by a system call that does not go through libc's
 *   memfd_create() or syscall() (inline assembly, a statically linked
 *   libc, Go): they keep F_SEAL_SEAL from birth;
 * - memfds created without MFD_ALLOW_SEALING before the library was loaded
 *   or inherited from another process;
 * - fds sent with sendmmsg() or by a raw sendmsg system call (libwayland
 *   uses neither), and fds sealed F_SEAL_SEAL by the client itself.
 * And what it may break: a sealed file can no longer shrink, so a client
 * that later ftruncate()s its pool file smaller gets EPERM, which some
 * clients treat as fatal (growing keeps working).
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef MFD_ALLOW_SEALING
#define MFD_ALLOW_SEALING 0x0002U
#endif
#ifndef F_SEAL_SHRINK
#define F_SEAL_SHRINK 0x0002
#endif

#define EXPORT __attribute__((visibility("default")))

static void *real(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

EXPORT int memfd_create(const char *name, unsigned int flags)
{
	static int (*next)(const char *, unsigned int);

	if (!next)
		next = (int (*)(const char *, unsigned int))real("memfd_create");
	if (!next) {
		errno = ENOSYS;
		return -1;
	}
	return next(name, flags | MFD_ALLOW_SEALING);
}

EXPORT long syscall(long number, ...)
{
	static long (*next)(long, ...);
	long a[6];
	va_list ap;
	int i;

	if (!next)
		next = (long (*)(long, ...))real("syscall");
	if (!next) {
		errno = ENOSYS;
		return -1;
	}
	/* Like glibc's syscall(): six argument registers, whether the call
	 * takes them or not. */
	va_start(ap, number);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
#ifdef SYS_memfd_create
	if (number == SYS_memfd_create)
		a[1] = (long)((unsigned int)a[1] | MFD_ALLOW_SEALING);
#endif
	return next(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}

static void seal_shrink(int fd)
{
	int seals = fcntl(fd, F_GET_SEALS);

	/* Not sealable (EINVAL), or sealed already: leave it to the
	 * compositor's check. F_SEAL_SEAL set: F_ADD_SEALS would fail. */
	if (seals < 0 || (seals & F_SEAL_SHRINK) || (seals & F_SEAL_SEAL))
		return;
	(void)fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK);
}

EXPORT ssize_t sendmsg(int sock, const struct msghdr *msg, int flags)
{
	static ssize_t (*next)(int, const struct msghdr *, int);
	struct cmsghdr *c;
	int saved = errno;

	if (!next)
		next = (ssize_t (*)(int, const struct msghdr *, int))real("sendmsg");
	if (!next) {
		errno = ENOSYS;
		return -1;
	}
	if (msg && msg->msg_control) {
		for (c = CMSG_FIRSTHDR(msg); c; c = CMSG_NXTHDR((struct msghdr *)msg, c)) {
			size_t n, i;
			int fd;

			if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS ||
			    c->cmsg_len < CMSG_LEN(0))
				continue;
			n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
			for (i = 0; i < n; i++) {
				memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(fd));
				seal_shrink(fd);
			}
		}
	}
	errno = saved;
	return next(sock, msg, flags);
}
