// mesh-vk-run --list-devices (see list_devices.h).
#include "list_devices.h"

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace meshvk_run {
namespace {

std::string QueueFlagsText(uint32_t flags) {
  std::string text;
  auto add = [&](uint32_t bit, const char* name) {
    if (flags & bit) text += text.empty() ? name : std::string("|") + name;
  };
  add(0x1, "graphics");
  add(0x2, "compute");
  add(0x4, "transfer");
  add(0x8, "sparse");
  return text.empty() ? "none" : text;
}

// Where this device's copies between VkDevices (host staging, host I/O) run:
// the first family with transfer and neither compute nor graphics, the rule
// the runtime applies to a VkDevice of one physical device
// (FindTransferOnlyQueueFamily, runtime/src/instance.cc).
std::string CopyFamilyText(const meshvk_physical_device_info_t& info) {
  for (uint32_t q = 0; q < info.queue_family_count; ++q) {
    const uint32_t flags = info.queue_families[q].queue_flags;
    if ((flags & 0x4) && !(flags & 0x3) && info.queue_families[q].queue_count > 0) {
      return "queue family " + std::to_string(q) +
             " (transfer only: the copy engine, timeline semaphores to and from the compute queue; "
             "the compute family's queue in a device group)";
    }
  }
  return "the compute family's queue (no transfer-only family)";
}

// VkPeerMemoryFeatureFlags as four letters: copy-src, copy-dst, generic-src,
// generic-dst ("CDcd"; '-' where missing).
std::string PeerText(uint32_t flags) {
  std::string text = "----";
  if (flags & 0x1) text[0] = 'C';
  if (flags & 0x2) text[1] = 'D';
  if (flags & 0x4) text[2] = 'c';
  if (flags & 0x8) text[3] = 'd';
  return text;
}

const char* HandleName(uint32_t handle_type) {
  switch (handle_type) {
    case 0x1:
      return "opaque fd";  // VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT
    case 0x200:
      return "dma-buf";  // VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT
    case 0x80:
      return "host allocation";  // VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT
    default:
      return "";
  }
}

// 8-4-4-4-12 hex, as vulkaninfo prints UUIDs.
std::string UuidText(const uint8_t (&uuid)[16]) {
  std::string text;
  char hex[3];
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) text += '-';
    std::snprintf(hex, sizeof hex, "%02x", uuid[i]);
    text += hex;
  }
  return text;
}

// For every ordered pair of physical devices, the path a copy between them
// takes and why: group peer memory inside a device group of 2+, otherwise
// what meshvk_instance_copy_path decides for separate VkDevices.
meshvk_status_t ListCopyPaths(meshvk_instance_t* instance, uint32_t count, uint32_t groups, FILE* out) {
  if (count < 2) return MESHVK_OK;
  std::vector<int> group_of(count, -1);
  meshvk_device_group_info_t group = MESHVK_DEVICE_GROUP_INFO_INIT;
  for (uint32_t g = 0; g < groups; ++g) {
    if (meshvk_status_t status = meshvk_instance_device_group_info(instance, g, &group)) {
      return status;
    }
    if (group.device_count < 2) continue;
    for (uint32_t d = 0; d < group.device_count; ++d) {
      if (group.physical_devices[d] < count) group_of[group.physical_devices[d]] = static_cast<int>(g);
    }
  }
  std::fprintf(out, "copy paths [src -> dst] between physical devices (a copy is recorded on dst and reads src):\n");
  for (uint32_t src = 0; src < count; ++src) {
    for (uint32_t dst = 0; dst < count; ++dst) {
      if (src == dst) continue;
      if (group_of[src] >= 0 && group_of[src] == group_of[dst]) {
        std::fprintf(out, "  %u -> %u: group peer memory (device group %d; see its peer features)\n", src, dst,
                     group_of[src]);
      }
      meshvk_copy_path_info_t path = MESHVK_COPY_PATH_INFO_INIT;
      if (meshvk_status_t status = meshvk_instance_copy_path(instance, src, dst, &path)) return status;
      const char* prefix =
          group_of[src] >= 0 && group_of[src] == group_of[dst] ? "           as independent devices: " : "";
      std::fprintf(out, "  %s%u -> %u: %s%s%s%s: %s\n", prefix, src, dst, meshvk_copy_path_name(path.path),
                   path.handle_type ? " (" : "", HandleName(path.handle_type), path.handle_type ? ")" : "",
                   path.reason);
      std::fprintf(out, "  %s        sync: %s\n", prefix,
                   path.external_semaphores
                       ? "shared timeline semaphores (opaque fd): the consumer's submission waits on the device"
                       : "no shared timeline semaphores: the host waits for the producer, then submits");
    }
  }
  return MESHVK_OK;
}

}  // namespace

meshvk_status_t ListDevices(meshvk_instance_t* instance, FILE* out) {
  uint32_t count = meshvk_instance_physical_device_count(instance);
  std::fprintf(out, "physical devices: %u\n", count);
  std::vector<std::string> names(count);  // for the groups' lines
  for (uint32_t i = 0; i < count; ++i) {
    meshvk_physical_device_info_t info = MESHVK_PHYSICAL_DEVICE_INFO_INIT;
    if (meshvk_status_t status = meshvk_instance_physical_device_info(instance, i, &info)) {
      return status;
    }
    names[i] = info.name;
    const meshvk_device_limits_t& l = info.limits;
    std::fprintf(out, "  [%u] %s (%s, vendor 0x%04x device 0x%04x, Vulkan %u.%u.%u)\n", i, info.name,
                 meshvk_physical_device_type_name(info.device_type), info.vendor_id, info.device_id,
                 info.api_version >> 22, (info.api_version >> 12) & 0x3ff, info.api_version & 0xfff);
    std::fprintf(out, "      workgroup size <= %ux%ux%u, invocations <= %u, count <= %ux%ux%u\n",
                 l.max_workgroup_size[0], l.max_workgroup_size[1], l.max_workgroup_size[2], l.max_workgroup_invocations,
                 l.max_workgroup_count[0], l.max_workgroup_count[1], l.max_workgroup_count[2]);
    std::fprintf(out,
                 "      shared memory %u B, subgroup %u, push constants %u B, storage range "
                 "%u B, allocation <= %llu B, storage offset alignment %llu\n",
                 l.max_shared_memory_bytes, l.subgroup_size, l.max_push_constants_bytes, l.max_storage_buffer_range,
                 static_cast<unsigned long long>(l.max_memory_allocation_size),
                 static_cast<unsigned long long>(l.min_storage_buffer_offset_alignment));
    std::fprintf(out, "      float16 %s, 16-bit storage %s, float64 %s\n", info.shader_float16 ? "yes" : "no",
                 info.storage_buffer_16bit ? "yes" : "no", info.shader_float64 ? "yes" : "no");
    std::fprintf(out, "      device UUID %s, driver UUID %s, driver %s (id %u)\n", UuidText(info.device_uuid).c_str(),
                 UuidText(info.driver_uuid).c_str(), info.driver_name[0] ? info.driver_name : "unnamed",
                 info.driver_id);
    for (uint32_t q = 0; q < info.queue_family_count; ++q) {
      std::fprintf(out, "      queue family %u: %u queue(s), %s\n", q, info.queue_families[q].queue_count,
                   QueueFlagsText(info.queue_families[q].queue_flags).c_str());
    }
    std::fprintf(out, "      copies between VkDevices: %s\n", CopyFamilyText(info).c_str());
    for (uint32_t h = 0; h < info.heap_count; ++h) {
      std::fprintf(out, "      heap %u: %llu MiB%s\n", h, static_cast<unsigned long long>(info.heap_sizes[h] >> 20),
                   (info.heap_flags[h] & 0x1) ? " device-local" : "");
    }
  }

  uint32_t groups = meshvk_instance_device_group_count(instance);
  std::fprintf(out, "device groups: %u (--devices=group:G)\n", groups);
  meshvk_device_group_info_t group = MESHVK_DEVICE_GROUP_INFO_INIT;
  for (uint32_t g = 0; g < groups; ++g) {
    if (meshvk_status_t status = meshvk_instance_device_group_info(instance, g, &group)) {
      return status;
    }
    std::fprintf(out, "  group %u: %u device(s), subset allocation %s\n", g, group.device_count,
                 group.subset_allocation ? "yes" : "no");
    // A group numbers its devices 0.. (device masks, the peer matrix below); each is
    // also a physical device with its own index above ([N], what --devices=I,J takes).
    for (uint32_t d = 0; d < group.device_count; ++d) {
      const uint32_t physical = group.physical_devices[d];
      std::fprintf(out, "    index %u in group: [%u] %s\n", d, physical,
                   physical < count ? names[physical].c_str() : "");
    }
    std::fprintf(out,
                 "    peer memory features [local -> remote] by index in group %u (C copy-src, D copy-dst, "
                 "c generic-src, d generic-dst):\n",
                 g);
    for (uint32_t h = 0; h < group.heap_count; ++h) {
      std::fprintf(out, "    heap %u:\n      local\\remote", h);
      for (uint32_t r = 0; r < group.device_count; ++r) std::fprintf(out, " %4u", r);
      std::fprintf(out, "\n");
      for (uint32_t l = 0; l < group.device_count; ++l) {
        std::fprintf(out, "      %12u", l);
        for (uint32_t r = 0; r < group.device_count; ++r) {
          uint32_t features = 0;
          if (meshvk_status_t status = meshvk_instance_device_group_peer_features(instance, g, h, l, r, &features))
            return status;
          std::fprintf(out, " %s", PeerText(features).c_str());
        }
        std::fprintf(out, "\n");
      }
    }
  }
  return ListCopyPaths(instance, count, groups, out);
}

}  // namespace meshvk_run
