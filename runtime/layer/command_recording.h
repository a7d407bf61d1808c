// What the vkCmd* wrappers share (command_buffer.cc, command_buffer_sync.cc):
// the walk over the devices of the current device mask and the access record
// the race detector reads.
#pragma once

#include "layer.h"

namespace meshvk_layer {

// Calls f(device index, real command buffer) for each device in cb's mask.
template <typename F>
void forEachDevice(EmulatedCommandBuffer* cb, F&& f) {
  for (uint32_t d = 0; d < cb->device->deviceCount; ++d)
    if (cb->deviceMask & (1u << d)) f(d, cb->real[d]);
}

inline DeviceDispatch& next(EmulatedCommandBuffer* cb) { return cb->device->next; }

// Records one buffer access by device `dev`, checking that the device has a
// memory instance there and, for a peer instance, the peer-memory feature.
void recordAccess(EmulatedCommandBuffer* cb, uint32_t dev, EmulatedBuffer* buf, VkDeviceSize offset, VkDeviceSize size,
                  bool write, bool generic, const char* command);

}  // namespace meshvk_layer
