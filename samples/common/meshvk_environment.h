/* meshvk_environment.h — the environment variables meshvk's tools read as the
 * defaults of what the runtime takes in its create infos. The runtime itself
 * reads no environment: mesh-vk-run, mesh-vk-conformance, the Python package
 * and the tests call these (header-only C, so C and C++ callers share them).
 *
 *   MESHVK_VALIDATION=1     Khronos validation (MESHVK_INSTANCE_VALIDATION_BIT)
 *   MESHVK_VALIDATION=sync  validation + synchronization validation
 *   MESHVK_VALIDATION=0/""  none (unset: none)
 *   MESHVK_DEVICE_TIMEOUT_MS=N  the device timeout (meshvk_device_timeout_t),
 *                           1 ms to one day (mesh-vk-run refuses another
 *                           value; the library's callers keep 60 s)
 *   MESHVK_PIPELINE_CACHE=DIR   where pipeline caches are kept
 *                           (meshvk_pipeline_cache_t); `off`: none; unset:
 *                           the library's default (the user's cache directory)
 *   MESHVK_RANK_COLLECTIVES=transport|ring|copies|staged  how a program on
 *                           ranks runs its collectives between ranks
 *                           (meshvk_program_ranks_t::collectives)
 */
#ifndef MESHVK_SAMPLES_COMMON_MESHVK_ENVIRONMENT_H_
#define MESHVK_SAMPLES_COMMON_MESHVK_ENVIRONMENT_H_

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "meshvk/meshvk.h"
#include "meshvk/transport.h"

/* ORs MESHVK_VALIDATION's bits into info->flags. A value other than those
 * above is INVALID_ARGUMENT (a typo must not silently run without
 * validation); the caller returns that status. */
static inline meshvk_status_t meshvk_environment_instance_flags(meshvk_instance_create_info_t* info) {
  const char* value = getenv("MESHVK_VALIDATION");
  char message[160];
  if (!value || !*value || strcmp(value, "0") == 0) return MESHVK_OK;
  if (strcmp(value, "1") == 0) {
    info->flags |= MESHVK_INSTANCE_VALIDATION_BIT;
  } else if (strcmp(value, "sync") == 0) {
    info->flags |= MESHVK_INSTANCE_VALIDATION_BIT | MESHVK_INSTANCE_SYNC_VALIDATION_BIT;
  } else {
    snprintf(message, sizeof(message), "MESHVK_VALIDATION='%.64s' is invalid; expected 0, 1 or sync", value);
    return meshvk_status_create(MESHVK_STATUS_INVALID_ARGUMENT, message);
  }
  return MESHVK_OK;
}

/* meshvk_instance_create with the defaults and MESHVK_VALIDATION's flags. */
static inline meshvk_status_t meshvk_environment_create_instance(meshvk_instance_t** out_instance) {
  meshvk_instance_create_info_t info = MESHVK_INSTANCE_CREATE_INFO_INIT;
  meshvk_status_t status = meshvk_environment_instance_flags(&info);
  if (status) {
    if (out_instance) *out_instance = NULL;
    return status;
  }
  return meshvk_instance_create(&info, out_instance);
}

/* Sets timeout->timeout from MESHVK_DEVICE_TIMEOUT_MS and returns 1 when it
 * holds a valid value (chain `timeout` to the set's create info then);
 * returns 0 when it is unset or empty and -1 when it holds anything else
 * (a tool refuses that; others keep the default), leaving `timeout` as it
 * is. */
static inline int meshvk_environment_device_timeout(meshvk_device_timeout_t* timeout) {
  const char* text = getenv("MESHVK_DEVICE_TIMEOUT_MS");
  char* end = NULL;
  unsigned long long ms;
  if (!text || !*text) return 0;
  if (*text < '0' || *text > '9') return -1;
  ms = strtoull(text, &end, 10);
  if (*end != '\0' || ms == 0 || ms > 86400000ull) return -1;
  timeout->timeout = (meshvk_timeout_t)ms * 1000000ull;
  return 1;
}

/* The structs a device set's create (or import) info chains for the
 * environment: filled by meshvk_environment_set_chain, they must live as long
 * as the info they are chained to. */
typedef struct meshvk_environment_set_chain_s {
  meshvk_device_timeout_t timeout;
  meshvk_pipeline_cache_t pipeline_cache;
} meshvk_environment_set_chain_t;

/* Fills `chain` from MESHVK_DEVICE_TIMEOUT_MS and MESHVK_PIPELINE_CACHE and
 * returns the head of a chain of those the environment sets, ending in
 * `next` (`next` itself when it sets neither): info.next =
 * meshvk_environment_set_chain(&chain, info.next). */
static inline const void* meshvk_environment_set_chain(meshvk_environment_set_chain_t* chain, const void* next) {
  const char* cache = getenv("MESHVK_PIPELINE_CACHE");
  meshvk_device_timeout_t timeout = MESHVK_DEVICE_TIMEOUT_INIT;
  meshvk_pipeline_cache_t pipeline_cache = MESHVK_PIPELINE_CACHE_INIT;
  chain->timeout = timeout;
  chain->pipeline_cache = pipeline_cache;
  if (cache && *cache) {
    chain->pipeline_cache.directory = strcmp(cache, "off") == 0 ? NULL : cache;
    chain->pipeline_cache.next = next;
    next = &chain->pipeline_cache;
  }
  if (meshvk_environment_device_timeout(&chain->timeout) > 0) {
    chain->timeout.next = next;
    next = &chain->timeout;
  }
  return next;
}

/* The mode meshvk_rank_collective_mode_name calls `name` ("" or NULL:
 * TRANSPORT) into *mode: 1, or 0 for another name (*mode is then TRANSPORT). */
static inline int meshvk_environment_rank_collective_mode_named(const char* name, meshvk_rank_collective_mode_t* mode) {
  int m;
  *mode = MESHVK_RANK_COLLECTIVES_TRANSPORT;
  if (!name || !*name) return 1;
  for (m = MESHVK_RANK_COLLECTIVES_TRANSPORT; m <= MESHVK_RANK_COLLECTIVES_STAGED; ++m) {
    if (strcmp(name, meshvk_rank_collective_mode_name((meshvk_rank_collective_mode_t)m)) == 0) {
      *mode = (meshvk_rank_collective_mode_t)m;
      return 1;
    }
  }
  return 0;
}

/* Sets *mode from MESHVK_RANK_COLLECTIVES (unset or "": TRANSPORT). Another
 * value is INVALID_ARGUMENT naming it (every rank must run the same mode, so
 * a typo must not fall back to the default on some). */
static inline meshvk_status_t meshvk_environment_rank_collectives(meshvk_rank_collective_mode_t* mode) {
  const char* value = getenv("MESHVK_RANK_COLLECTIVES");
  char message[160];
  if (meshvk_environment_rank_collective_mode_named(value, mode)) return MESHVK_OK;
  snprintf(message, sizeof(message), "MESHVK_RANK_COLLECTIVES=%.64s: expected transport, staged, ring or copies",
           value);
  return meshvk_status_create(MESHVK_STATUS_INVALID_ARGUMENT, message);
}

#endif /* MESHVK_SAMPLES_COMMON_MESHVK_ENVIRONMENT_H_ */
