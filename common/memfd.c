/* SPDX-License-Identifier: MIT */
/*
 * memfd.c - sealable files through either ABI (memfd.h).
 */
#include "memfd.h"
#include "wlseal-seals.h"

int wlseal_memfd_new(enum wlseal_seal_api api, const char *name,
		     uint64_t size, const char **failed)
{
	int fd;

	if (api == WLSEAL_SEAL_API_SEED) {
		/* The seed's memfd_create(): sized at birth, always
		 * sealable. */
		fd = wlseal_memfd_create_sized(name, size, MFD_CLOEXEC);
		if (fd < 0)
			*failed = "memfd_create_sized";
		return fd;
	}
	fd = wlseal_memfd_create_upstream(name, size);
	if (fd < 0)
		*failed = "memfd_create/ftruncate";
	return fd;
}

bool wlseal_memfd_seal(enum wlseal_seal_api api, int fd, int seals,
		       const char **failed)
{
	if (api == WLSEAL_SEAL_API_SEED) {
		/* SHMEM_SET_SEALS replaces the whole set, in seed bits. */
		if (fcntl(fd, SHMEM_SET_SEALS, wlseal_upstream_to_seed(seals)) < 0) {
			*failed = "SHMEM_SET_SEALS";
			return false;
		}
		return true;
	}
	if (fcntl(fd, F_ADD_SEALS, seals) < 0) {
		*failed = "F_ADD_SEALS";
		return false;
	}
	return true;
}
