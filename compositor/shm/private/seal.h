/* SPDX-License-Identifier: MIT */
/*
 * seal.h - inside shm/: sealing a client's file on receipt (seal.c), for
 * pool.c, under --unsealed=seal|copy.
 */
#ifndef WLSEAL_SHM_SEAL_H
#define WLSEAL_SHM_SEAL_H

#include <stddef.h>
#include <stdint.h>

#include "shm.h"

enum wlseal_receipt {
	WLSEAL_RECEIPT_NONE,	   /* nothing added: the check decides as ever */
	WLSEAL_RECEIPT_SEALED,	   /* the missing seals were added by us */
	WLSEAL_RECEIPT_UNSEALABLE, /* the file can never carry them */
	WLSEAL_RECEIPT_FAILED,	   /* F_ADD_SEALS failed: refuse (@why) */
};

/*
 * Adds the seals of @policy->required_seals that the file behind @fd
 * lacks, when the file is sealable and each of them is one wlseal may add
 * (F_SEAL_SHRINK, F_SEAL_GROW); @added says which. UNSEALABLE: F_GET_SEALS
 * failed, or F_SEAL_SEAL is set while a required seal is missing.
 */
enum wlseal_receipt wlseal_shm_seal_on_receipt(const struct wlseal_shm_policy *policy,
					       int fd, uint32_t *added,
					       char *why, size_t why_len);

#endif
