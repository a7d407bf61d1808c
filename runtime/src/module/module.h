// Internal view of meshvk_module_t: the verified artifact bytes and its schedule.
#ifndef MESHVK_RUNTIME_MODULE_MODULE_H_
#define MESHVK_RUNTIME_MODULE_MODULE_H_

#include <atomic>
#include <cstdint>
#include <vector>

#include "meshvk/module.h"
#include "schedule.h"

struct meshvk_module_s {
  std::atomic<uint32_t> references{1};
  std::vector<uint8_t> bytes;  // owned copy; artifact points into it
  const meshvk::mvk::Artifact* artifact = nullptr;
  meshvk::module::Schedule schedule;
};

#endif  // MESHVK_RUNTIME_MODULE_MODULE_H_
