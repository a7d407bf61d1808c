// Opaque-fd external memory between the separate devices of separate mode,
// backed by host allocations.
//
// lavapipe backs an exportable allocation with a memfd, and copies from it
// are up to ~1.7x slower than from its ordinary memory at 256 MiB (measured:
// shmem pages, whatever their size; an anonymous host allocation imported
// through VK_EXT_external_memory_host copies as fast as ordinary memory). On
// the discrete GPUs separate mode stands for, exported memory is the device's
// ordinary memory, so where the application enabled
// VK_EXT_external_memory_host the layer gives it that: an exportable
// allocation becomes an anonymous host allocation imported into the real
// device, vkGetMemoryFdKHR returns a real fd (a memfd whose inode names the
// allocation), and importing that fd on another device imports the same host
// allocation there (all emulated devices live in this process). The host
// allocation is freed with its last importer. Anything else (dma-buf, fds
// the layer did not make, a real type that does not take host pointers) goes
// to the driver unchanged.
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <map>

#include "layer.h"

namespace meshvk_layer {
namespace {

// A multiple of every minImportedHostPointerAlignment we know of (4 KiB on
// lavapipe and the desktop drivers).
constexpr VkDeviceSize kAlignment = 64 * 1024;

struct HostBlock {
  void* pointer = nullptr;
  VkDeviceSize bytes = 0;
  int refs = 0;  // real allocations importing it
};

// Who exported an fd not yet imported, by its file (the driver's fds too).
struct Exporter {
  const EmulatedPhysicalDevice* device = nullptr;
  int pending = 0;  // fds of that file exported and not yet imported
};

struct Registry {
  std::mutex mutex;
  std::map<VkDeviceMemory, HostBlock*> byMemory;  // real allocation -> its block
  std::map<ino_t, HostBlock*> byInode;            // exported fd's inode -> block
  std::map<std::pair<dev_t, ino_t>, Exporter> exporters;
};
Registry& registry() {
  static auto* r = new Registry;  // never destroyed (static destruction order)
  return *r;
}

// Imports `block` as a real allocation of `info`'s type on `d`, replacing the
// export or fd-import structure `drop` in the chain. False when the real type
// does not take the pointer (the caller lets the driver do it).
bool importBlock(DeviceData* d, VkDevice device, const VkMemoryAllocateInfo& info, VkStructureType drop,
                 HostBlock* block, const VkAllocationCallbacks* alloc, VkDeviceMemory* out, VkResult* result) {
  auto properties = reinterpret_cast<PFN_vkGetMemoryHostPointerPropertiesEXT>(
      d->next.GetDeviceProcAddr(device, "vkGetMemoryHostPointerPropertiesEXT"));
  if (!properties) return false;
  VkMemoryHostPointerPropertiesEXT props{VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT};
  if (properties(device, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT, block->pointer, &props) !=
          VK_SUCCESS ||
      !(props.memoryTypeBits & (1u << info.memoryTypeIndex)))
    return false;
  VkMemoryAllocateInfo real = info;
  ChainUnlink unlink(&real, drop);
  VkImportMemoryHostPointerInfoEXT import{VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT};
  import.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
  import.pHostPointer = block->pointer;
  import.pNext = real.pNext;
  real.pNext = &import;
  real.allocationSize = block->bytes;
  *result = d->next.AllocateMemory(device, &real, alloc, out);
  return true;
}

}  // namespace

void useHostBackedExports(DeviceData* d, const VkDeviceCreateInfo& info) {
  if (config().topology != Topology::kSeparate) return;
  for (uint32_t i = 0; i < info.enabledExtensionCount; ++i)
    if (!std::strcmp(info.ppEnabledExtensionNames[i], VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME))
      d->hostBackedExports = true;
}

bool allocateHostBacked(DeviceData* d, VkDevice device, const VkMemoryAllocateInfo& info,
                        const VkAllocationCallbacks* alloc, VkDeviceMemory* out, VkResult* result) {
  if (!d->hostBackedExports) return false;
  Registry& r = registry();
  const auto* exports =
      findInChain<VkExportMemoryAllocateInfo>(info.pNext, VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO);
  const auto* imports = findInChain<VkImportMemoryFdInfoKHR>(info.pNext, VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR);
  if (imports && imports->handleType == VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT) {
    struct stat st{};
    if (fstat(imports->fd, &st) != 0) return false;
    HostBlock* block = nullptr;
    {
      std::lock_guard<std::mutex> lock(r.mutex);
      auto it = r.byInode.find(st.st_ino);
      if (it == r.byInode.end()) return false;  // not ours: the driver's fd
      block = it->second;
      ++block->refs;  // kept while this import is made
    }
    bool handled = importBlock(d, device, info, VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR, block, alloc, out, result);
    std::lock_guard<std::mutex> lock(r.mutex);
    if (!handled || *result != VK_SUCCESS) {
      --block->refs;                                             // its exporter still holds it
      if (!handled) *result = VK_ERROR_INVALID_EXTERNAL_HANDLE;  // the layer's fd means nothing to the driver
      return true;
    }
    r.byMemory[*out] = block;
    close(imports->fd);  // a successful import owns the fd
    return true;
  }
  if (!exports || exports->handleTypes != VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT) return false;
  const VkDeviceSize bytes = (info.allocationSize + kAlignment - 1) / kAlignment * kAlignment;
  void* pointer = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (pointer == MAP_FAILED) return false;
  auto* block = new HostBlock{pointer, bytes, 1};
  if (!importBlock(d, device, info, VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO, block, alloc, out, result) ||
      *result != VK_SUCCESS) {
    munmap(pointer, bytes);
    delete block;
    return false;  // the driver's own export
  }
  std::lock_guard<std::mutex> lock(r.mutex);
  r.byMemory[*out] = block;
  return true;
}

bool hostBackedFd(VkDeviceMemory real, int* fd, VkResult* result) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.byMemory.find(real);
  if (it == r.byMemory.end()) return false;
  int out = memfd_create("meshvk-emulated-memory", MFD_CLOEXEC);
  if (out < 0) {
    *result = VK_ERROR_TOO_MANY_OBJECTS;
    return true;
  }
  struct stat st{};
  fstat(out, &st);
  r.byInode[st.st_ino] = it->second;
  *fd = out;
  *result = VK_SUCCESS;
  return true;
}

void exportedMemoryFd(const DeviceData* d, int fd) {
  struct stat st{};
  if (fstat(fd, &st) != 0) return;
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  Exporter& e = r.exporters[{st.st_dev, st.st_ino}];
  e.device = d->members[0];
  ++e.pending;
}

bool opaqueFdImportAllowed(DeviceData* d, int fd) {
  struct stat st{};
  if (fstat(fd, &st) != 0) return true;  // the driver reports a bad fd
  const EmulatedPhysicalDevice* exporter = nullptr;
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.exporters.find({st.st_dev, st.st_ino});
    if (it == r.exporters.end()) return true;  // not exported through the layer
    exporter = it->second.device;
    if (--it->second.pending == 0) r.exporters.erase(it);
  }
  if (sameDeviceAndDriver(exporter, d->members[0])) return true;
  report(d->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, "MESHVK-opaque-fd-across-devices",
         "vkAllocateMemory: imports an opaque fd exported by a device whose deviceUUID or driverUUID differs from "
         "the importer's (opaque fds are shared only between devices whose UUIDs match; use a dma-buf or host "
         "memory)");
  return false;
}

void freedHostBacked(VkDeviceMemory real) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.byMemory.find(real);
  if (it == r.byMemory.end()) return;
  HostBlock* block = it->second;
  r.byMemory.erase(it);
  if (--block->refs > 0) return;
  for (auto i = r.byInode.begin(); i != r.byInode.end();) i = i->second == block ? r.byInode.erase(i) : std::next(i);
  munmap(block->pointer, block->bytes);
  delete block;
}

}  // namespace meshvk_layer
