// VK_KHR_external_semaphore_fd on the emulated devices of separate mode
// (MESHVK_EMULATED_TOPOLOGY=separate, external memory not hidden).
//
// lavapipe 22.3 has VK_KHR_external_semaphore but no fd handle type, so two
// VkDevices on it can only meet on the host. Every emulated device of separate
// mode is a VkDevice on the one real lavapipe device, which lets the layer
// provide what a driver with shared semaphores gives, honestly enough for the
// runtime's cross-device waits to be tested:
//  * vkGetSemaphoreFdKHR returns a real fd (a memfd naming the exported
//    semaphore: its inode is the key), vkImportSemaphoreFdKHR takes that fd,
//    closes it as the spec says, and makes the importing semaphore an alias of
//    the exported one (permanent imports of timeline semaphores only);
//  * a submission that waits on an alias for value v is held by that device's
//    scheduler (no known signal) while a forwarding thread of the layer waits
//    for the exported semaphore to reach v on its own device, then signals the
//    alias to v: the application's thread never blocks, as with a driver.
// Signalling an alias, or waiting on it on the host, is not emulated (the
// payload is the exporter's): the layer stops with a message.
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <thread>

#include "layer.h"
#include "scheduler.h"

namespace meshvk_layer {
namespace {

constexpr uint64_t kPollNs = 10'000'000;  // a forwarder re-checks its devices every 10 ms

struct Exported {
  DeviceData* device;
  VkSemaphore semaphore;
};

struct SharedSemaphores {
  std::mutex mutex;
  std::map<ino_t, Exported> exported;                               // by the exported fd's inode
  std::map<std::pair<DeviceData*, VkSemaphore>, Exported> aliases;  // importer -> exporter
  std::set<DeviceData*> emulating;                                  // devices with the extension enabled
  std::map<DeviceData*, int> busy;                                  // forwarders inside a call on the device right now
};
// Never destroyed: forwarding threads may outlive static destruction order.
SharedSemaphores& shared() {
  static auto* s = new SharedSemaphores;
  return *s;
}

bool provided() {
  return config().topology == Topology::kSeparate && config().externalMemory != ExternalMemory::kHidden;
}

bool emulating(DeviceData* d) {
  std::lock_guard<std::mutex> lock(shared().mutex);
  return shared().emulating.count(d) != 0;
}

// Waits until exporter semaphore `from` reaches `value`, then signals the
// alias `to` of `importer` to it and lets the importer's held work go.
void Forward(Exported from, DeviceData* importer, VkSemaphore to, uint64_t value) {
  SharedSemaphores& s = shared();
  for (;;) {
    {
      std::lock_guard<std::mutex> lock(s.mutex);
      auto it = s.aliases.find({importer, to});
      if (it == s.aliases.end() || !s.emulating.count(from.device) || !s.emulating.count(importer)) return;
      ++s.busy[from.device];
    }
    from.device->scheduler->flush();  // held-back work of the exporter (reverse/shuffle orders)
    VkSemaphoreWaitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
    wait.semaphoreCount = 1;
    wait.pSemaphores = &from.semaphore;
    wait.pValues = &value;
    VkResult r = from.device->next.WaitSemaphores(from.device->device, &wait, kPollNs);
    std::lock_guard<std::mutex> lock(s.mutex);
    --s.busy[from.device];
    if (r == VK_TIMEOUT) continue;
    if (r != VK_SUCCESS || !s.aliases.count({importer, to}) || !s.emulating.count(importer)) return;
    uint64_t current = 0;
    importer->next.GetSemaphoreCounterValue(importer->device, to, &current);
    if (current < value) {
      VkSemaphoreSignalInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
      signal.semaphore = to;
      signal.value = value;
      importer->next.SignalSemaphore(importer->device, &signal);
    }
    importer->scheduler->hostSignaledSemaphore(to, value);
    return;
  }
}

// Blocks until no forwarder is inside a call on `d` (the lock is held on
// return; callers then remove what the forwarders look up).
void WaitUntilIdle(std::unique_lock<std::mutex>& lock, DeviceData* d) {
  while (shared().busy[d] > 0) {
    lock.unlock();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    lock.lock();
  }
}

VKAPI_ATTR VkResult VKAPI_CALL GetSemaphoreFdKHR(VkDevice device, const VkSemaphoreGetFdInfoKHR* info, int* fd) {
  DeviceData* d = deviceFromHandle(device);
  if (!emulating(d)) fatal("vkGetSemaphoreFdKHR", "called without VK_KHR_external_semaphore_fd enabled");
  if (info->handleType != VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT)
    fatal("vkGetSemaphoreFdKHR", "only opaque fds of timeline semaphores are emulated");
  int out = memfd_create("meshvk-emulated-semaphore", MFD_CLOEXEC);
  if (out < 0) return VK_ERROR_TOO_MANY_OBJECTS;
  struct stat st{};
  fstat(out, &st);
  std::lock_guard<std::mutex> lock(shared().mutex);
  shared().exported[st.st_ino] = {d, info->semaphore};
  *fd = out;
  return VK_SUCCESS;
}
MESHVK_INTERCEPT(kDevice, GetSemaphoreFdKHR)

VKAPI_ATTR VkResult VKAPI_CALL ImportSemaphoreFdKHR(VkDevice device, const VkImportSemaphoreFdInfoKHR* info) {
  DeviceData* d = deviceFromHandle(device);
  if (!emulating(d)) fatal("vkImportSemaphoreFdKHR", "called without VK_KHR_external_semaphore_fd enabled");
  if (info->handleType != VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT ||
      (info->flags & VK_SEMAPHORE_IMPORT_TEMPORARY_BIT))
    fatal("vkImportSemaphoreFdKHR", "only permanent imports of opaque fds are emulated");
  struct stat st{};
  if (fstat(info->fd, &st) != 0) return VK_ERROR_INVALID_EXTERNAL_HANDLE;
  std::lock_guard<std::mutex> lock(shared().mutex);
  auto it = shared().exported.find(st.st_ino);
  if (it == shared().exported.end()) return VK_ERROR_INVALID_EXTERNAL_HANDLE;
  // An opaque fd is only valid between devices with the same deviceUUID and
  // driverUUID (distinct UUIDs or mixed drivers): a driver refuses it.
  if (!sameDeviceAndDriver(it->second.device->members[0], d->members[0])) {
    report(d->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, "MESHVK-opaque-fd-across-devices",
           "vkImportSemaphoreFdKHR: the opaque fd was exported by a device whose deviceUUID or driverUUID differs "
           "from the importer's (opaque fds are shared only between devices whose UUIDs match)");
    return VK_ERROR_INVALID_EXTERNAL_HANDLE;
  }
  shared().aliases[{d, info->semaphore}] = it->second;
  close(info->fd);  // a successful import owns the fd
  return VK_SUCCESS;
}
MESHVK_INTERCEPT(kDevice, ImportSemaphoreFdKHR)

// Timeline semaphores of separate mode export and import opaque fds; anything
// else is the driver's answer.
VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceExternalSemaphoreProperties(
    VkPhysicalDevice pd, const VkPhysicalDeviceExternalSemaphoreInfo* info, VkExternalSemaphoreProperties* props) {
  auto* e = emulatedPhysicalDevice(pd, "vkGetPhysicalDeviceExternalSemaphoreProperties");
  const auto* type = findInChain<VkSemaphoreTypeCreateInfo>(info->pNext, VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO);
  if (provided() && info->handleType == VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT && type &&
      type->semaphoreType == VK_SEMAPHORE_TYPE_TIMELINE) {
    props->exportFromImportedHandleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
    props->compatibleHandleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
    props->externalSemaphoreFeatures =
        VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT | VK_EXTERNAL_SEMAPHORE_FEATURE_IMPORTABLE_BIT;
    return;
  }
  auto next = reinterpret_cast<PFN_vkGetPhysicalDeviceExternalSemaphoreProperties>(
      e->instance->pdForward[kPd_vkGetPhysicalDeviceExternalSemaphoreProperties]);
  if (!next) fatal("vkGetPhysicalDeviceExternalSemaphoreProperties", "is not available below the layer");
  next(e->real, info, props);
}
MESHVK_INTERCEPT(kPhysicalDevice, GetPhysicalDeviceExternalSemaphoreProperties)
MESHVK_INTERCEPT_ALIAS(kPhysicalDevice, GetPhysicalDeviceExternalSemaphoreProperties,
                       GetPhysicalDeviceExternalSemaphorePropertiesKHR)

}  // namespace

void appendEmulatedDeviceExtensions(std::vector<VkExtensionProperties>* extensions) {
  if (!provided()) return;
  for (const VkExtensionProperties& x : *extensions)
    if (!std::strcmp(x.extensionName, VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME)) return;  // the driver's own
  VkExtensionProperties fd{};
  std::snprintf(fd.extensionName, sizeof fd.extensionName, "%s", VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME);
  fd.specVersion = VK_KHR_EXTERNAL_SEMAPHORE_FD_SPEC_VERSION;
  extensions->push_back(fd);
}

bool removeEmulatedDeviceExtensions(VkPhysicalDevice real, InstanceData* instance, const VkDeviceCreateInfo& info,
                                    std::vector<const char*>* kept) {
  bool removed = false;
  uint32_t count = 0;
  instance->EnumerateDeviceExtensionProperties(real, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> own(count);
  instance->EnumerateDeviceExtensionProperties(real, nullptr, &count, own.data());
  own.resize(count);
  for (uint32_t i = 0; i < info.enabledExtensionCount; ++i) {
    const char* name = info.ppEnabledExtensionNames[i];
    bool driver_has = false;
    for (const VkExtensionProperties& x : own) driver_has |= !std::strcmp(x.extensionName, name);
    if (!driver_has && provided() && !std::strcmp(name, VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME)) {
      removed = true;
      continue;
    }
    kept->push_back(name);
  }
  return removed;
}

void emulateSemaphoreFd(DeviceData* d) {
  std::lock_guard<std::mutex> lock(shared().mutex);
  shared().emulating.insert(d);
}

bool isEmulatedDeviceFunction(DeviceData* d, const char* name) {
  return (!std::strcmp(name, "vkGetSemaphoreFdKHR") || !std::strcmp(name, "vkImportSemaphoreFdKHR")) && emulating(d);
}

void forwardImportedWaits(DeviceData* d, const std::vector<Batch>& batches) {
  std::vector<std::pair<Exported, SemaphoreOp>> forwards;
  {
    std::lock_guard<std::mutex> lock(shared().mutex);
    if (shared().aliases.empty()) return;
    for (const Batch& b : batches)
      for (const SemaphoreOp& w : b.waits) {
        auto it = shared().aliases.find({d, w.semaphore});
        if (it != shared().aliases.end()) forwards.push_back({it->second, w});
      }
  }
  for (const auto& [from, wait] : forwards) std::thread(Forward, from, d, wait.semaphore, wait.value).detach();
}

void forgetSharedSemaphore(DeviceData* d, VkSemaphore semaphore) {
  std::unique_lock<std::mutex> lock(shared().mutex);
  if (shared().emulating.count(d) == 0) return;
  WaitUntilIdle(lock, d);  // a forwarder may be waiting on it
  shared().aliases.erase({d, semaphore});
  for (auto it = shared().exported.begin(); it != shared().exported.end();)
    it = it->second.device == d && it->second.semaphore == semaphore ? shared().exported.erase(it) : std::next(it);
}

void forgetSharedSemaphoreDevice(DeviceData* d) {
  std::unique_lock<std::mutex> lock(shared().mutex);
  if (shared().emulating.erase(d) == 0) return;
  WaitUntilIdle(lock, d);
  for (auto it = shared().aliases.begin(); it != shared().aliases.end();)
    it = it->first.first == d || it->second.device == d ? shared().aliases.erase(it) : std::next(it);
  for (auto it = shared().exported.begin(); it != shared().exported.end();)
    it = it->second.device == d ? shared().exported.erase(it) : std::next(it);
  shared().busy.erase(d);
}

}  // namespace meshvk_layer
