/* SPDX-License-Identifier: MIT */
/*
 * seal-list.h - the one table of seal names and the one seal-list grammar,
 * shared by the compositor (--require-seals, --accept-seals, the policy
 * file, refusal messages) and the client (--seals).
 *
 * A list is names separated by commas, spaces or tabs: seal, shrink, grow,
 * write, future-write, or none (nothing) and all (every seal above).
 * Bits are the upstream F_SEAL_* values.
 */
#ifndef WLSEAL_SEAL_LIST_H
#define WLSEAL_SEAL_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wlseal-seals.h"

#define WLSEAL_ALL_SEALS (F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | \
			  F_SEAL_WRITE | F_SEAL_FUTURE_WRITE)

/* False on an unknown name (or a list longer than 127 characters). */
bool wlseal_seal_list_parse(const char *list, uint32_t *seals);
/* "F_SEAL_SHRINK|F_SEAL_GROW" into @buf, for messages. */
void wlseal_seal_list_format(uint32_t seals, char *buf, size_t len);

#endif
