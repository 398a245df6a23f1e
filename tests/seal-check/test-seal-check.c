/* SPDX-License-Identifier: MIT */
/*
 * test-seal-check - wlseal_shm_check() against real files of every kind
 * its argument (compositor/shm/check.c) speaks of, with the secure
 * policy: what is accepted, what is refused, and for which reason.
 * No compositor, no client: the check is a function of a policy and an
 * fd. TAP output.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "check.h"
#include "shm.h"
#include "wlseal-shm-policy-v1-server-protocol.h"

#define SIZE (64 * 1024)

static int n_test, n_failed;

static void ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	n_test++;
	if (!cond)
		n_failed++;
	printf("%s %d - ", cond ? "ok" : "not ok", n_test);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static int memfd(unsigned int flags, unsigned int seals, off_t size)
{
	int fd = memfd_create("test-seal-check", flags);

	if (fd < 0)
		return -1;
	if (ftruncate(fd, size) < 0 ||
	    (seals && fcntl(fd, F_ADD_SEALS, seals) < 0)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* A file of SIZE bytes made from @tmpl and unlinked at once, or -1. */
static int unlinked_file(const char *tmpl)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "%s", tmpl);
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	unlink(path);
	if (ftruncate(fd, SIZE) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Checks @fd against @policy for @size bytes: @want the reason (0:
 * accepted); closes @fd. */
static void expect(const struct wlseal_shm_policy *policy, int fd,
		   int64_t size, uint32_t want, const char *what)
{
	struct wlseal_shm_verdict v;
	uint32_t got;

	if (fd < 0) {
		ok(false, "%s: setup failed: %s", what, strerror(errno));
		return;
	}
	got = wlseal_shm_check(policy, fd, size, &v);
	ok(got == want, "%s: reason %u (want %u)%s%s", what, got, want,
	   got ? ": " : "", got ? v.message : "");
	close(fd);
}

int main(void)
{
	struct wlseal_shm_policy secure;
	char err[200];
	int p[2], s[2];
	enum {
		OK = 0,
		NOT_SEALABLE = WLSEAL_SHM_POOL_REQUEST_V1_REASON_NOT_SEALABLE,
		MISSING = WLSEAL_SHM_POOL_REQUEST_V1_REASON_MISSING_SEAL,
		SMALL = WLSEAL_SHM_POOL_REQUEST_V1_REASON_FILE_TOO_SMALL,
		LARGE = WLSEAL_SHM_POOL_REQUEST_V1_REASON_TOO_LARGE,
	};

	if (!wlseal_policy_build(WLSEAL_POLICY_SECURE, NULL, 0, NULL, &secure,
				 err, sizeof(err))) {
		printf("Bail out! policy: %s\n", err);
		return 1;
	}

	/* shmem: F_SEAL_SHRINK and a file at least as large as the pool. */
	expect(&secure, memfd(MFD_ALLOW_SEALING, F_SEAL_SHRINK, SIZE), SIZE, OK,
	       "memfd sealed SHRINK, file = pool");
	expect(&secure, memfd(MFD_ALLOW_SEALING, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL,
			      2 * SIZE), SIZE, OK,
	       "memfd sealed SHRINK|GROW|SEAL, file > pool");
	expect(&secure, memfd(MFD_ALLOW_SEALING, 0, SIZE), SIZE, MISSING,
	       "memfd sealable, no seal (Mesa's software WSI)");
	expect(&secure, memfd(0, 0, SIZE), SIZE, MISSING,
	       "memfd without MFD_ALLOW_SEALING (F_SEAL_SEAL only: GTK 3)");
	expect(&secure, memfd(MFD_ALLOW_SEALING, F_SEAL_SHRINK, SIZE / 2), SIZE, SMALL,
	       "memfd sealed, smaller than the pool");
	expect(&secure, memfd(MFD_ALLOW_SEALING, F_SEAL_SHRINK, SIZE),
	       (int64_t)secure.max_pool_size + 1, LARGE,
	       "a pool over the policy's size limit");
	/* A reopen through /proc is the same inode with the same seals. */
	{
		int fd = memfd(MFD_ALLOW_SEALING, F_SEAL_SHRINK, SIZE);
		char path[64];
		int again = -1;

		if (fd >= 0) {
			snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
			again = open(path, O_RDONLY | O_CLOEXEC);
			close(fd);
		}
		expect(&secure, again, SIZE, OK, "sealed memfd reopened O_RDONLY");
	}

	/* hugetlbfs: SHRINK is not enough, a punched hole may find no huge
	 * page; F_SEAL_WRITE makes it keep its pages. Needs huge pages to
	 * size the file: without any, said and skipped. */
	{
		int fd = memfd_create("test-seal-check-huge",
				      MFD_ALLOW_SEALING | MFD_HUGETLB);
		long huge = 2 << 20;

		if (fd >= 0 && ftruncate(fd, huge) == 0 &&
		    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK) == 0) {
			int w = dup(fd);

			expect(&secure, fd, huge, MISSING,
			       "hugetlbfs memfd sealed SHRINK only");
			if (w >= 0 && fcntl(w, F_ADD_SEALS, F_SEAL_WRITE) == 0)
				expect(&secure, w, huge,
				       (secure.accepted_seals & F_SEAL_WRITE) ? OK :
				       WLSEAL_SHM_POOL_REQUEST_V1_REASON_UNEXPECTED_SEAL,
				       "hugetlbfs memfd sealed SHRINK|WRITE");
			else if (w >= 0)
				close(w);
		} else {
			printf("ok %d - # SKIP hugetlbfs memfd: %s (no huge pages here)\n",
			       ++n_test, strerror(errno));
			if (fd >= 0)
				close(fd);
		}
	}

	/* Files that cannot carry the seals the argument needs. */
	/* tmpfs answers F_GET_SEALS with F_SEAL_SEAL: never SHRINK. */
	expect(&secure, unlinked_file("/dev/shm/test-seal-check-XXXXXX"), SIZE,
	       MISSING, "a /dev/shm (tmpfs) file");
	expect(&secure, unlinked_file("test-seal-check-disk-XXXXXX"), SIZE,
	       NOT_SEALABLE, "a file on the build's disk");
	if (pipe(p) == 0) {
		close(p[1]);
		expect(&secure, p[0], SIZE, NOT_SEALABLE, "a pipe");
	}
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, s) == 0) {
		close(s[1]);
		expect(&secure, s[0], SIZE, NOT_SEALABLE, "a socket");
	}
	expect(&secure, eventfd(0, EFD_CLOEXEC), SIZE, NOT_SEALABLE, "an eventfd");
	expect(&secure, open("/dev/zero", O_RDONLY | O_CLOEXEC), SIZE,
	       NOT_SEALABLE, "/dev/zero");

	printf("1..%d\n", n_test);
	return n_failed ? 1 : 0;
}
