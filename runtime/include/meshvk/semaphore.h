// meshvk/semaphore.h — timeline semaphores that order work across processes.
//
// A semaphore lives on one VkDevice of the set (the device of `process`) and can
// be waited on / signalled by every process on that VkDevice (in a device group:
// every process). A semaphore of another VkDevice is waited on through a view
// (meshvk_semaphore_share) where both drivers share semaphores. Threading:
// waits, queries and signals may run concurrently; two host signals of one
// semaphore must be ordered by the caller (each checks the current value
// before vkSignalSemaphore).
#ifndef MESHVK_SEMAPHORE_H_
#define MESHVK_SEMAPHORE_H_

#include "meshvk/device_set.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct meshvk_semaphore_s meshvk_semaphore_t;

// A semaphore and a timeline value: what a submission waits for or signals.
typedef struct meshvk_semaphore_value_s {
  meshvk_semaphore_t* semaphore;
  uint64_t value;
} meshvk_semaphore_value_t;

// A timeline semaphore at `initial_value` on the VkDevice of `process`
// (exportable as an opaque fd where that device shares semaphores with
// another VkDevice of the set). INVALID_ARGUMENT for NULL set/out_semaphore,
// OUT_OF_RANGE for a bad process. Retains the set.
meshvk_status_t meshvk_semaphore_create(meshvk_device_set_t* set, uint32_t process, uint64_t initial_value,
                                        meshvk_semaphore_t** out_semaphore);
void meshvk_semaphore_retain(meshvk_semaphore_t* semaphore);
void meshvk_semaphore_release(meshvk_semaphore_t* semaphore);

// The process whose VkDevice holds the semaphore (MESHVK_NO_PROCESS for NULL).
uint32_t meshvk_semaphore_process(const meshvk_semaphore_t* semaphore);

// vkGetSemaphoreCounterValue (of the source, for a view). INVALID_ARGUMENT
// for NULL.
meshvk_status_t meshvk_semaphore_query(meshvk_semaphore_t* semaphore, uint64_t* out_value);
// vkWaitSemaphores; DEADLINE_EXCEEDED when `value` is not reached within
// `timeout` (0: checks once), DEVICE_LOST names the device. A semaphore meshvk
// created is signalled by its device: a wait on it is also bounded by the
// set's device timeout (meshvk_device_timeout_t), and running past that marks
// the device unresponsive for good (later waits on its semaphores: DEVICE_LOST
// at once). An imported semaphore (the application's, meshvk/vulkan.h) is
// waited on for `timeout` alone. A view waits on its source.
// INVALID_ARGUMENT for NULL.
meshvk_status_t meshvk_semaphore_wait(meshvk_semaphore_t* semaphore, uint64_t value, meshvk_timeout_t timeout);
// Host signal (vkSignalSemaphore). INVALID_ARGUMENT for NULL, a view (signal
// the source) or a value not above the current one.
meshvk_status_t meshvk_semaphore_signal(meshvk_semaphore_t* semaphore, uint64_t value);

// A view of `semaphore` on the VkDevice of `process` (another VkDevice of an
// INDEPENDENT set): both share one timeline payload through an opaque fd
// (VK_KHR_external_semaphore_fd: vkGetSemaphoreFdKHR on the source,
// vkImportSemaphoreFdKHR into a new timeline on the destination), so a
// submission of `process` waits for a value the source's device signals
// without the host blocking. Only pairs whose meshvk_copy_path_info_t says
// external_semaphores share them (the set then created its semaphores
// exportable). The view retains the source; meshvk_semaphore_process(view)
// is `process`; waits and queries on the view go to the source; signalling
// a view is INVALID_ARGUMENT (signal the source). UNAVAILABLE when the pair
// cannot share semaphores or the driver refuses the import (the caller then
// waits on the host: meshvk_semaphore_wait on the source, then submits), and
// for an imported semaphore; INVALID_ARGUMENT for NULL arguments or when
// `process` shares the semaphore's VkDevice, OUT_OF_RANGE for a bad process.
// Sharing a view shares its source.
meshvk_status_t meshvk_semaphore_share(meshvk_semaphore_t* semaphore, uint32_t process, meshvk_semaphore_t** out_view);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // MESHVK_SEMAPHORE_H_
