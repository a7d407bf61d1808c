// Measured roofs of a device for mesh-vk-run --benchmark's roofline lines:
// copy bandwidth (the runtime's own copy command, the path program copies
// take) and FMA peak (shaders/probes/fma_peak.comp). Both are timed on the
// host around a submit + wait, best of three, with workloads large enough
// (tens of ms on lavapipe) that the submission overhead does not matter.
#ifndef MESHVK_SAMPLES_MESH_VK_RUN_PROBES_H_
#define MESHVK_SAMPLES_MESH_VK_RUN_PROBES_H_

#include <cstdint>

#include "meshvk/meshvk.h"

namespace meshvk_run {

struct DeviceRoofs {
  double copy_bytes_per_second = 0;  // bytes read + written counted once (bytes copied / s)
  double fma_flops_per_second = 0;   // 2 FLOP per FMA lane
  uint64_t copy_bytes = 0;           // the probe's sizes, for the report
  uint64_t fma_flops = 0;
};

// Measures the device of `process` in `set`.
meshvk_status_t MeasureRoofs(meshvk_device_set_t* set, uint32_t process, DeviceRoofs* out);

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_PROBES_H_
