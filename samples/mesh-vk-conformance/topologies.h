// The topologies a machine offers, found from what its Vulkan instance reports:
// logical devices on each physical device, every device group of 2 or more,
// and every pair (and, with 3 or more, the whole set) of physical devices as
// independent VkDevices. The kit runs every case on each.
#ifndef MESHVK_CONFORMANCE_TOPOLOGIES_H_
#define MESHVK_CONFORMANCE_TOPOLOGIES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "meshvk/device_set.h"
#include "meshvk/status.h"

namespace meshvk_conformance {

struct Topology {
  std::string name;         // "logical:0", "group:1", "independent:0,1"
  std::string description;  // the devices by name
  meshvk_topology_t kind = MESHVK_TOPOLOGY_LOGICAL;
  uint32_t group_index = 0;                // kind == DEVICE_GROUP
  std::vector<uint32_t> physical_devices;  // LOGICAL / INDEPENDENT: the devices used, in order
};

std::vector<Topology> DiscoverTopologies(meshvk_instance_t* instance);

// A device set of `process_count` processes on `topology`, its waits on a
// device bounded by `device_timeout_ns`; NULL with the runtime's status on
// failure (the caller owns both).
meshvk_device_set_t* CreateDeviceSet(meshvk_instance_t* instance, const Topology& topology, uint32_t process_count,
                                     uint64_t device_timeout_ns, meshvk_status_t* out_status);

// Owns a meshvk_status_t; Message() is "" for OK.
class Status {
 public:
  explicit Status(meshvk_status_t s = MESHVK_OK) : s_(s) {}
  Status(const Status&) = delete;
  Status& operator=(const Status&) = delete;
  ~Status() { meshvk_status_free(s_); }
  bool ok() const { return s_ == MESHVK_OK; }
  meshvk_status_code_t code() const { return meshvk_status_code(s_); }
  std::string Message() const { return meshvk_status_message(s_); }
  // UNAVAILABLE / UNIMPLEMENTED: the machine cannot do it (not a failure).
  bool NotSupported() const { return code() == MESHVK_STATUS_UNAVAILABLE || code() == MESHVK_STATUS_UNIMPLEMENTED; }

 private:
  meshvk_status_t s_;
};

}  // namespace meshvk_conformance

#endif  // MESHVK_CONFORMANCE_TOPOLOGIES_H_
