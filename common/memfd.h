/* SPDX-License-Identifier: MIT */
/*
 * memfd.h - sealable files through either sealing ABI: upstream
 * (memfd_create + ftruncate, F_ADD_SEALS) or the seed ABI of the 2014
 * series (memfd_create_sized, SHMEM_SET_SEALS; patched kernel only).
 * Seals are always given as upstream F_SEAL_* bits.
 */
#ifndef WLSEAL_MEMFD_H
#define WLSEAL_MEMFD_H

#include <stdbool.h>
#include <stdint.h>

enum wlseal_seal_api {
	WLSEAL_SEAL_API_UPSTREAM,
	WLSEAL_SEAL_API_SEED,
};

/*
 * A new close-on-exec, sealable memfd of @size bytes, or -1 with errno set
 * and *@failed naming the call that failed.
 */
int wlseal_memfd_new(enum wlseal_seal_api api, const char *name,
		     uint64_t size, const char **failed);

/*
 * Seal @fd with @seals. Upstream, F_ADD_SEALS adds them to the set; the
 * seed's SHMEM_SET_SEALS replaces the whole set (shrink, grow and write
 * only). False with errno set and *@failed naming the call.
 */
bool wlseal_memfd_seal(enum wlseal_seal_api api, int fd, int seals,
		       const char **failed);

#endif
