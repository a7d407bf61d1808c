// Internal view of meshvk_semaphore_t (see meshvk/semaphore.h).
#ifndef MESHVK_RUNTIME_SRC_SEMAPHORE_H_
#define MESHVK_RUNTIME_SRC_SEMAPHORE_H_

#include <volk.h>

#include <atomic>

#include "device_set.h"
#include "meshvk/semaphore.h"

struct meshvk_semaphore_s {
  std::atomic<uint32_t> refs{1};
  meshvk_device_set_t* set = nullptr;  // retained
  uint32_t process = 0;                // whose VkDevice holds it
  VkSemaphore semaphore = VK_NULL_HANDLE;
  bool imported = false;  // an application's semaphore: not destroyed
  // A view (meshvk_semaphore_share): its own VkSemaphore on the process's
  // device sharing the payload of `source` (retained), which waits, queries
  // and signals use.
  meshvk_semaphore_t* source = nullptr;
};

#endif  // MESHVK_RUNTIME_SRC_SEMAPHORE_H_
