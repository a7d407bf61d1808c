// meshvk_semaphore_t: a timeline VkSemaphore on one VkDevice of the set.
#include "semaphore.h"

#include <unistd.h>  // close

#include "device_wait.h"
#include "vulkan/vk_status.h"

namespace meshvk {
namespace {

void DestroySemaphore(meshvk_semaphore_t* semaphore) {
  meshvk_device_set_t* set = semaphore->set;
  if (semaphore->semaphore && !semaphore->imported) {
    LogicalDevice& device = set->DeviceOf(semaphore->process);
    // A device that stopped answering may still signal it (device_wait.h).
    if (!LeakIfUnresponsive(device, 1)) device.vk.vkDestroySemaphore(device.device, semaphore->semaphore, nullptr);
  }
  meshvk_semaphore_release(semaphore->source);  // after the view that shares its payload
  delete semaphore;
  meshvk_device_set_release(set);
}

Status CheckSemaphore(const meshvk_semaphore_t* semaphore, const char* what) {
  if (!semaphore) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: semaphore is NULL", what);
  return Status();
}

// Host waits and queries on a view go to its source: the view's own payload
// is the same, but only its device's submissions need the view.
meshvk_semaphore_t* HostSide(meshvk_semaphore_t* semaphore) {
  return semaphore->source ? semaphore->source : semaphore;
}

Status Share(meshvk_semaphore_t* semaphore, uint32_t process, meshvk_semaphore_t** out) {
  const char* what = "meshvk_semaphore_share";
  if (!out) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: out_view is NULL", what);
  *out = nullptr;  // NULL after any failure, a NULL semaphore's included
  MESHVK_RETURN_IF_ERROR(CheckSemaphore(semaphore, what));
  semaphore = HostSide(semaphore);
  meshvk_device_set_t* set = semaphore->set;
  MESHVK_RETURN_IF_ERROR(set->CheckProcess(process, what));
  const std::string pair = set->Where(semaphore->process) + " -> " + set->Where(process);
  if (set->processes[process].logical_device == set->processes[semaphore->process].logical_device) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: %s: the same VkDevice (wait on the semaphore itself)", what,
                      pair.c_str());
  }
  const meshvk_copy_path_info_t path = set->CopyPath(semaphore->process, process);
  LogicalDevice& from = set->DeviceOf(semaphore->process);
  LogicalDevice& to = set->DeviceOf(process);
  if (!path.external_semaphores || !from.external_semaphore_fd || !to.external_semaphore_fd || semaphore->imported) {
    return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "%s: %s: the devices do not share timeline semaphores", what,
                      pair.c_str());
  }
  VkSemaphoreGetFdInfoKHR get{VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR};
  get.semaphore = semaphore->semaphore;
  get.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
  int fd = -1;
  MESHVK_VK_RETURN_IF_ERROR(from.vk.vkGetSemaphoreFdKHR(from.device, &get, &fd), pair + ": vkGetSemaphoreFdKHR");
  VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
  type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  VkSemaphoreCreateInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  info.pNext = &type;
  VkSemaphore handle = VK_NULL_HANDLE;
  if (VkResult r = to.vk.vkCreateSemaphore(to.device, &info, nullptr, &handle); r != VK_SUCCESS) {
    close(fd);
    return VkResultToStatus(r, pair + ": vkCreateSemaphore(timeline, for the import)");
  }
  VkImportSemaphoreFdInfoKHR import{VK_STRUCTURE_TYPE_IMPORT_SEMAPHORE_FD_INFO_KHR};
  import.semaphore = handle;
  import.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
  import.fd = fd;  // a successful import owns it
  if (VkResult r = to.vk.vkImportSemaphoreFdKHR(to.device, &import); r != VK_SUCCESS) {
    close(fd);
    to.vk.vkDestroySemaphore(to.device, handle, nullptr);
    return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "%s: %s: vkImportSemaphoreFdKHR: %s", what, pair.c_str(),
                      VkResultName(r));
  }
  auto* view = new meshvk_semaphore_t();
  meshvk_device_set_retain(set);
  meshvk_semaphore_retain(semaphore);
  view->set = set;
  view->process = process;
  view->semaphore = handle;
  view->source = semaphore;
  *out = view;
  return Status();
}

}  // namespace
}  // namespace meshvk

using meshvk::MakeStatus;
using meshvk::Status;

extern "C" {

meshvk_status_t meshvk_semaphore_create(meshvk_device_set_t* set, uint32_t process, uint64_t initial_value,
                                        meshvk_semaphore_t** out_semaphore) {
  Status status = meshvk::CheckProcessCreate(set, process, out_semaphore, "meshvk_semaphore_create", "out_semaphore");
  if (!status.ok()) return status.ToC();
  meshvk::LogicalDevice& device = set->DeviceOf(process);
  VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
  type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  type.initialValue = initial_value;
  // On a device that shares semaphores with another VkDevice, every semaphore
  // is exportable, so meshvk_semaphore_share can give it a view there.
  VkExportSemaphoreCreateInfo exportable{VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO};
  exportable.handleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
  if (device.external_semaphore_fd) type.pNext = &exportable;
  VkSemaphoreCreateInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  info.pNext = &type;
  VkSemaphore handle = VK_NULL_HANDLE;
  status = meshvk::VkResultToStatus(device.vk.vkCreateSemaphore(device.device, &info, nullptr, &handle),
                                    set->Where(process) + ": vkCreateSemaphore(timeline)");
  if (!status.ok()) return status.ToC();
  auto* semaphore = new meshvk_semaphore_t();
  meshvk_device_set_retain(set);
  semaphore->set = set;
  semaphore->process = process;
  semaphore->semaphore = handle;
  *out_semaphore = semaphore;
  return MESHVK_OK;
}

void meshvk_semaphore_retain(meshvk_semaphore_t* semaphore) {
  if (semaphore) semaphore->refs.fetch_add(1);
}

void meshvk_semaphore_release(meshvk_semaphore_t* semaphore) {
  if (semaphore && semaphore->refs.fetch_sub(1) == 1) meshvk::DestroySemaphore(semaphore);
}

meshvk_status_t meshvk_semaphore_query(meshvk_semaphore_t* semaphore, uint64_t* out_value) {
  Status status = meshvk::CheckSemaphore(semaphore, "meshvk_semaphore_query");
  if (!status.ok()) return status.ToC();
  semaphore = meshvk::HostSide(semaphore);
  if (!out_value) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_semaphore_query: out_value is NULL").ToC();
  }
  meshvk::LogicalDevice& device = semaphore->set->DeviceOf(semaphore->process);
  return meshvk::VkResultToStatus(device.vk.vkGetSemaphoreCounterValue(device.device, semaphore->semaphore, out_value),
                                  semaphore->set->Where(semaphore->process) + ": vkGetSemaphoreCounterValue")
      .ToC();
}

meshvk_status_t meshvk_semaphore_wait(meshvk_semaphore_t* semaphore, uint64_t value, meshvk_timeout_t timeout_ns) {
  Status status = meshvk::CheckSemaphore(semaphore, "meshvk_semaphore_wait");
  if (!status.ok()) return status.ToC();
  semaphore = meshvk::HostSide(semaphore);
  meshvk::LogicalDevice& device = semaphore->set->DeviceOf(semaphore->process);
  VkSemaphoreWaitInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
  info.semaphoreCount = 1;
  info.pSemaphores = &semaphore->semaphore;
  info.pValues = &value;
  // A semaphore meshvk's own submissions signal is bounded by the device
  // timeout too (device_wait.h); an application's only by `timeout_ns`.
  // VK_TIMEOUT becomes DEADLINE_EXCEEDED in VkResultToStatus.
  return meshvk::WaitSemaphores(
             device, info, timeout_ns,
             semaphore->set->Where(semaphore->process) + ": vkWaitSemaphores(value " + std::to_string(value) + ")",
             /*bounded_by_device=*/!semaphore->imported)
      .ToC();
}

meshvk_status_t meshvk_semaphore_signal(meshvk_semaphore_t* semaphore, uint64_t value) {
  Status status = meshvk::CheckSemaphore(semaphore, "meshvk_semaphore_signal");
  if (!status.ok()) return status.ToC();
  if (semaphore->source) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                      "meshvk_semaphore_signal: %s: a view of a semaphore of another VkDevice (signal the source)",
                      semaphore->set->Where(semaphore->process).c_str())
        .ToC();
  }
  meshvk::LogicalDevice& device = semaphore->set->DeviceOf(semaphore->process);
  // A timeline only moves forward; signalling a value <= the current one is
  // invalid Vulkan usage, so it is rejected here instead.
  uint64_t current = 0;
  device.vk.vkGetSemaphoreCounterValue(device.device, semaphore->semaphore, &current);
  if (value <= current) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                      "meshvk_semaphore_signal: %s: value %llu is not above the current %llu",
                      semaphore->set->Where(semaphore->process).c_str(), static_cast<unsigned long long>(value),
                      static_cast<unsigned long long>(current))
        .ToC();
  }
  VkSemaphoreSignalInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
  info.semaphore = semaphore->semaphore;
  info.value = value;
  return meshvk::VkResultToStatus(device.vk.vkSignalSemaphore(device.device, &info),
                                  semaphore->set->Where(semaphore->process) + ": vkSignalSemaphore")
      .ToC();
}

uint32_t meshvk_semaphore_process(const meshvk_semaphore_t* semaphore) {
  return semaphore ? semaphore->process : MESHVK_NO_PROCESS;
}

meshvk_status_t meshvk_semaphore_share(meshvk_semaphore_t* semaphore, uint32_t process, meshvk_semaphore_t** out_view) {
  return meshvk::Share(semaphore, process, out_view).ToC();
}

}  // extern "C"
