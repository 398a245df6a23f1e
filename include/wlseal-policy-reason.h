/* SPDX-License-Identifier: MIT */
/*
 * wlseal-policy-reason.h - names of wlseal_shm_pool_request_v1.reason
 * values, for log lines on both sides. Include it after the generated
 * wlseal-shm-policy-v1 client or server protocol header (either defines
 * the enum).
 */
#ifndef WLSEAL_POLICY_REASON_H
#define WLSEAL_POLICY_REASON_H

#include <stdint.h>

/* 0 is not a reason on the wire: it names an accepted file. */
static inline const char *wlseal_policy_reason_name(uint32_t reason)
{
	switch (reason) {
	case 0: return "accepted";
	case WLSEAL_SHM_POOL_REQUEST_V1_REASON_MISSING_SEAL: return "missing_seal";
	case WLSEAL_SHM_POOL_REQUEST_V1_REASON_FILE_TOO_SMALL: return "file_too_small";
	case WLSEAL_SHM_POOL_REQUEST_V1_REASON_NOT_SEALABLE: return "not_sealable";
	case WLSEAL_SHM_POOL_REQUEST_V1_REASON_TOO_LARGE: return "too_large";
	case WLSEAL_SHM_POOL_REQUEST_V1_REASON_UNEXPECTED_SEAL: return "unexpected_seal";
	case WLSEAL_SHM_POOL_REQUEST_V1_REASON_MAP_FAILED: return "map_failed";
	case WLSEAL_SHM_POOL_REQUEST_V1_REASON_OUT_OF_RESOURCES: return "out_of_resources";
	}
	return "unknown";
}

#endif
