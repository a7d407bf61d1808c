/* meshvk_environment.h — the environment variables meshvk's tools read as the
 * defaults of what the runtime takes in its create infos. The runtime itself
 * reads no environment: mesh-vk-run, mesh-vk-conformance, the Python package
 * and the tests call these (header-only C, so C and C++ callers share them).
 *
 *   MESHVK_VALIDATION=1     Khronos validation (MESHVK_INSTANCE_VALIDATION_BIT)
 *   MESHVK_VALIDATION=sync  validation + synchronization validation
 *   MESHVK_VALIDATION=0/""  none (unset: none)
 *   MESHVK_DEVICE_TIMEOUT_MS=N  the device timeout (meshvk_device_timeout_t),
 *                           1 ms to one day; anything else keeps 60 s
 */
#ifndef MESHVK_SAMPLES_COMMON_MESHVK_ENVIRONMENT_H_
#define MESHVK_SAMPLES_COMMON_MESHVK_ENVIRONMENT_H_

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "meshvk/meshvk.h"

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
 * holds a valid value (chain `timeout` to the set's create info then), else
 * returns 0 and leaves it as it is. */
static inline int meshvk_environment_device_timeout(meshvk_device_timeout_t* timeout) {
  const char* text = getenv("MESHVK_DEVICE_TIMEOUT_MS");
  char* end = NULL;
  unsigned long long ms;
  if (!text || !*text) return 0;
  ms = strtoull(text, &end, 10);
  if (*end != '\0' || ms == 0 || ms > 86400000ull) return 0;
  timeout->timeout = (meshvk_timeout_t)ms * 1000000ull;
  return 1;
}

#endif /* MESHVK_SAMPLES_COMMON_MESHVK_ENVIRONMENT_H_ */
