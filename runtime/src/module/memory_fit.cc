// The memory check of program creation (memory_fit.h). Every buffer of a
// program is allocated when it is created and kept until it is released, so
// what a device must hold is known from the plan alone: the check refuses a
// program that cannot fit before the first allocation, with the numbers a
// user needs to choose more devices or a smaller model, instead of a driver
// error half-way through loading the weights.
#include "memory_fit.h"

#include <cinttypes>
#include <cstdio>
#include <map>
#include <vector>

#include "meshvk/device_set.h"
#include "program.h"

namespace meshvk::module {

namespace {

// What the processes this rank runs on one physical device hold.
struct DeviceNeed {
  std::vector<uint32_t> processes;
  meshvk_process_summary_t bytes = MESHVK_PROCESS_SUMMARY_INIT;  // summed byte fields, peak_bytes included
};

// The local processes by physical device, with their plan's bytes.
Status NeedsByDevice(const meshvk_program_s* prog, std::map<uint32_t, DeviceNeed>* out) {
  const Schedule& schedule = prog->module->schedule;
  for (uint32_t p = 0; p < schedule.allocations.size(); ++p) {
    if (!prog->remote->Local(p)) continue;
    meshvk_process_memory_t memory = MESHVK_PROCESS_MEMORY_INIT;
    MESHVK_RETURN_IF_ERROR(
        FromC(meshvk_device_set_process_memory(prog->set, p, &memory), "process " + std::to_string(p)));
    DeviceNeed& need = (*out)[memory.physical_device];
    const meshvk_process_summary_t& s = schedule.allocations[p];
    need.processes.push_back(p);
    need.bytes.argument_bytes += s.argument_bytes;
    need.bytes.result_bytes += s.result_bytes;
    need.bytes.transient_bytes += s.transient_bytes;
    need.bytes.constant_bytes += s.constant_bytes;
    need.bytes.peak_bytes += s.peak_bytes;
  }
  return Status();
}

// "process 0 (physical device 0 'llvmpipe') needs" or "processes 0, 1
// (physical device 0 'llvmpipe') need".
std::string Who(const std::vector<uint32_t>& processes, const meshvk_process_memory_t& memory) {
  std::string who = processes.size() == 1 ? "process " : "processes ";
  for (size_t i = 0; i < processes.size(); ++i) who += (i ? ", " : "") + std::to_string(processes[i]);
  return who + " (" + memory.device + (processes.size() == 1 ? ") needs " : ") need ");
}

// "16.1 MiB of device-local memory (16.0 MiB parameters, ...)".
std::string NeedText(const meshvk_process_summary_t& bytes) {
  return BytesText(bytes.peak_bytes) + " of device-local memory (" + BytesText(bytes.constant_bytes) + " parameters, " +
         BytesText(bytes.transient_bytes) + " activations, " + BytesText(bytes.argument_bytes + bytes.result_bytes) +
         " arguments and results)";
}

}  // namespace

std::string BytesText(uint64_t bytes) {
  constexpr uint64_t kKiB = 1024, kMiB = kKiB * 1024, kGiB = kMiB * 1024;
  char text[64];
  if (bytes < kKiB) {
    std::snprintf(text, sizeof(text), "%" PRIu64 " bytes", bytes);
  } else {
    const uint64_t unit = bytes >= kGiB ? kGiB : bytes >= kMiB ? kMiB : kKiB;
    const char* name = unit == kGiB ? "GiB" : unit == kMiB ? "MiB" : "KiB";
    if (bytes % unit == 0)
      std::snprintf(text, sizeof(text), "%" PRIu64 " %s", bytes / unit, name);
    else
      std::snprintf(text, sizeof(text), "%.1f %s", static_cast<double>(bytes) / static_cast<double>(unit), name);
  }
  return text;
}

Status CheckMemoryFits(const meshvk_program_s* prog) {
  std::map<uint32_t, DeviceNeed> needs;
  MESHVK_RETURN_IF_ERROR(NeedsByDevice(prog, &needs));
  for (const auto& [physical, need] : needs) {
    meshvk_process_memory_t memory = MESHVK_PROCESS_MEMORY_INIT;
    MESHVK_RETURN_IF_ERROR(FromC(meshvk_device_set_process_memory(prog->set, need.processes[0], &memory), ""));
    const uint64_t available =
        memory.heap_bytes > memory.allocated_bytes ? memory.heap_bytes - memory.allocated_bytes : 0;
    if (need.bytes.peak_bytes <= available) continue;
    std::string in_use;
    if (memory.allocated_bytes)
      in_use = ", " + BytesText(memory.allocated_bytes) + " of it held by other buffers of the device set";
    return MakeStatus(MESHVK_STATUS_RESOURCE_EXHAUSTED, "%s%s; its heap has %s%s", Who(need.processes, memory).c_str(),
                      NeedText(need.bytes).c_str(), BytesText(memory.heap_bytes).c_str(), in_use.c_str());
  }
  return Status();
}

Status OutOfDeviceMemory(const meshvk_program_s* prog, uint32_t process, uint32_t buffer, uint64_t bytes,
                         Status cause) {
  if (cause.code() != MESHVK_STATUS_RESOURCE_EXHAUSTED ||
      cause.message().find("VK_ERROR_OUT_OF_DEVICE_MEMORY") == std::string::npos)
    return cause;
  std::map<uint32_t, DeviceNeed> needs;
  meshvk_process_memory_t memory = MESHVK_PROCESS_MEMORY_INIT;
  if (!NeedsByDevice(prog, &needs).ok()) return cause;
  if (meshvk_status_t status = meshvk_device_set_process_memory(prog->set, process, &memory)) {
    meshvk_status_free(status);
    return cause;
  }
  const DeviceNeed& need = needs[memory.physical_device];
  return MakeStatus(MESHVK_STATUS_RESOURCE_EXHAUSTED,
                    "%s%s; its device refused buffer %u of process %u (%s: VK_ERROR_OUT_OF_DEVICE_MEMORY) with %s of "
                    "its %s heap held by this device set's buffers",
                    Who(need.processes, memory).c_str(), NeedText(need.bytes).c_str(), buffer, process,
                    BytesText(bytes).c_str(), BytesText(memory.allocated_bytes).c_str(),
                    BytesText(memory.heap_bytes).c_str());
}

}  // namespace meshvk::module
