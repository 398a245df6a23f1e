/* SPDX-License-Identifier: MIT */
/* CRC-32 (IEEE 802.3, as zlib's crc32()), for frame checksums. */
#ifndef WLSEAL_CRC32_H
#define WLSEAL_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* Continue a CRC over len bytes; start with crc = 0. */
uint32_t wlseal_crc32(uint32_t crc, const void *data, size_t len);

#endif
