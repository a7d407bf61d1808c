// MESHVK_EMULATED_TOPOLOGY=separate: the emulated devices as N groups of one,
// independent VkDevices that share memory through external memory (opaque fd),
// the switch MESHVK_EMULATED_EXTERNAL_MEMORY that hides external memory or
// refuses imports / exportable allocations, and the real-pair modes:
// MESHVK_EMULATED_UUIDS=distinct and MESHVK_EMULATED_DRIVERS=mixed (opaque
// fds refused between the devices, as drivers refuse them) and
// MESHVK_EMULATED_MEMORY=discrete (no device-local type the host can map).
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <set>
#include <string>

#include "layer_fixture.h"

namespace meshvk_layer_test {
namespace {

std::string env(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}
std::string externalMemoryMode() { return env("MESHVK_EMULATED_EXTERNAL_MEMORY", "on"); }
bool mixedDrivers() { return env("MESHVK_EMULATED_DRIVERS", "same") == "mixed"; }
// The devices show distinct deviceUUIDs (mixed drivers imply it).
bool distinctUuids() { return env("MESHVK_EMULATED_UUIDS", "shared") == "distinct" || mixedDrivers(); }
bool discreteMemory() { return env("MESHVK_EMULATED_MEMORY", "rebar") == "discrete"; }

struct DeviceIds {
  std::string device_uuid, driver_uuid;
  VkDriverId driver_id;
};
DeviceIds idsOf(VkPhysicalDevice pd) {
  VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
  VkPhysicalDeviceIDProperties id{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES, &driver};
  VkPhysicalDeviceProperties2 p{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &id};
  vkGetPhysicalDeviceProperties2(pd, &p);
  return {std::string(reinterpret_cast<const char*>(id.deviceUUID), VK_UUID_SIZE),
          std::string(reinterpret_cast<const char*>(id.driverUUID), VK_UUID_SIZE), driver.driverID};
}

class Separate : public LayerTest {
 protected:
  void SetUp() override {
    if (!separateTopology()) GTEST_SKIP() << "needs MESHVK_EMULATED_TOPOLOGY=separate";
    LayerTest::SetUp();
  }

  bool hasExtension(VkPhysicalDevice pd, const char* name) {
    uint32_t count = 0;
    vkEnumerateDeviceExtensionProperties(pd, nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> all(count);
    vkEnumerateDeviceExtensionProperties(pd, nullptr, &count, all.data());
    for (uint32_t i = 0; i < count; ++i)
      if (!std::strcmp(all[i].extensionName, name)) return true;
    return false;
  }

  // A VkDevice on `pd` alone with VK_KHR_external_memory_fd enabled.
  VkDevice sharingDevice(VkPhysicalDevice pd, VolkDeviceTable* table) {
    float priority = 1.0f;
    VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = family_;
    qci.queueCount = 1;
    qci.pQueuePriorities = &priority;
    const char* extensions[] = {VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME};
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    dci.enabledExtensionCount = 1;
    dci.ppEnabledExtensionNames = extensions;
    VkDevice device = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateDevice(pd, &dci, nullptr, &device), VK_SUCCESS);
    if (device) volkLoadDeviceTable(table, device);
    return device;
  }

  uint32_t typeWith(VkMemoryPropertyFlags flags) {
    for (uint32_t t = 0; t < memory_.memoryTypeCount; ++t)
      if ((memory_.memoryTypes[t].propertyFlags & flags) == flags) return t;
    return UINT32_MAX;
  }
};

TEST_F(Separate, EveryDeviceIsItsOwnGroupWithTheModesIds) {
  uint32_t groupCount = 0;
  ASSERT_EQ(vkEnumeratePhysicalDeviceGroups(instance_, &groupCount, nullptr), VK_SUCCESS);
  std::vector<VkPhysicalDeviceGroupProperties> groups(groupCount, {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GROUP_PROPERTIES});
  ASSERT_EQ(vkEnumeratePhysicalDeviceGroups(instance_, &groupCount, groups.data()), VK_SUCCESS);
  ASSERT_GE(groupCount, n_);
  for (auto& g : groups) {
    EXPECT_EQ(g.physicalDeviceCount, 1u);
    EXPECT_EQ(g.subsetAllocation, VK_FALSE);
  }
  // By default one real device behind them: the same deviceUUID and
  // driverUUID, so an opaque fd may pass between them. Distinct: one driver,
  // every device its own deviceUUID. Mixed: every device its own driver too.
  std::set<std::string> devices, drivers;
  std::set<VkDriverId> driverIds;
  for (uint32_t i = 0; i < n_; ++i) {
    const DeviceIds ids = idsOf(members_[i]);
    devices.insert(ids.device_uuid);
    drivers.insert(ids.driver_uuid);
    driverIds.insert(ids.driver_id);
  }
  EXPECT_EQ(devices.size(), distinctUuids() ? n_ : 1u);
  EXPECT_EQ(drivers.size(), mixedDrivers() ? n_ : 1u);
  EXPECT_EQ(driverIds.size(), mixedDrivers() ? n_ : 1u);
  // No multi-instance heap: a device of its own, like a discrete GPU with
  // device-local memory the host cannot map. Discrete: no device-local type
  // the host can map at all, and host-visible types in a heap of their own.
  bool deviceOnly = false, deviceMappable = false, hostHeap = false;
  for (uint32_t h = 0; h < memory_.memoryHeapCount; ++h)
    EXPECT_FALSE(memory_.memoryHeaps[h].flags & VK_MEMORY_HEAP_MULTI_INSTANCE_BIT);
  for (uint32_t t = 0; t < memory_.memoryTypeCount; ++t) {
    const VkMemoryType& type = memory_.memoryTypes[t];
    deviceOnly |= type.propertyFlags == VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    deviceMappable |= (type.propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) &&
                      (type.propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
    hostHeap |= (type.propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) &&
                !(memory_.memoryHeaps[type.heapIndex].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT);
  }
  EXPECT_TRUE(deviceOnly);
  if (discreteMemory()) {
    EXPECT_FALSE(deviceMappable);
    EXPECT_TRUE(hostHeap);
  }
}

TEST_F(Separate, ExternalMemoryIsAdvertisedOnlyWhenNotHidden) {
  const bool hidden = externalMemoryMode() == "hidden";
  for (uint32_t i = 0; i < n_; ++i) {
    EXPECT_EQ(hasExtension(members_[i], VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME), !hidden) << "device " << i;
    VkPhysicalDeviceExternalBufferInfo info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO};
    info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    info.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkExternalBufferProperties props{VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES};
    vkGetPhysicalDeviceExternalBufferProperties(members_[i], &info, &props);
    const auto both = VK_EXTERNAL_MEMORY_FEATURE_EXPORTABLE_BIT | VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT;
    EXPECT_EQ(props.externalMemoryProperties.externalMemoryFeatures & both, hidden ? 0u : both);
  }
}

// Device A fills device-local memory; device B (another VkDevice) imports it
// as an opaque fd and copies it into host memory it reads back.
TEST_F(Separate, ExportedMemoryIsReadOnAnotherDevice) {
  const std::string mode = externalMemoryMode();
  if (mode == "hidden") GTEST_SKIP() << "external memory hidden";
  ASSERT_GE(n_, 2u);
  VolkDeviceTable a{}, b{};
  VkDevice devA = sharingDevice(members_[0], &a), devB = sharingDevice(members_[1], &b);
  ASSERT_TRUE(devA && devB);
  const VkDeviceSize size = 4096;
  const uint32_t deviceType = typeWith(VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  const uint32_t hostType = typeWith(VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);

  VkExternalMemoryBufferCreateInfo ext{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
  ext.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, &ext};
  bci.size = size;
  bci.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  VkBuffer srcA = VK_NULL_HANDLE, viewB = VK_NULL_HANDLE, hostB = VK_NULL_HANDLE;
  ASSERT_EQ(a.vkCreateBuffer(devA, &bci, nullptr, &srcA), VK_SUCCESS);
  VkMemoryRequirements req;
  a.vkGetBufferMemoryRequirements(devA, srcA, &req);
  VkExportMemoryAllocateInfo exportInfo{VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO};
  exportInfo.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &exportInfo, req.size, deviceType};
  VkDeviceMemory memA = VK_NULL_HANDLE;
  VkResult exported = a.vkAllocateMemory(devA, &mai, nullptr, &memA);
  if (mode == "refuse-export") {
    EXPECT_EQ(exported, VK_ERROR_OUT_OF_DEVICE_MEMORY);
    a.vkDestroyBuffer(devA, srcA, nullptr);
    a.vkDestroyDevice(devA, nullptr);
    b.vkDestroyDevice(devB, nullptr);
    return;
  }
  ASSERT_EQ(exported, VK_SUCCESS);
  ASSERT_EQ(a.vkBindBufferMemory(devA, srcA, memA, 0), VK_SUCCESS);

  // A fills its buffer with a tag and waits.
  VkQueue queueA, queueB;
  a.vkGetDeviceQueue(devA, family_, 0, &queueA);
  b.vkGetDeviceQueue(devB, family_, 0, &queueB);
  auto runOnce = [&](VolkDeviceTable& t, VkDevice dev, VkQueue queue, auto record) {
    VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.queueFamilyIndex = family_;
    VkCommandPool pool;
    ASSERT_EQ(t.vkCreateCommandPool(dev, &pci, nullptr, &pool), VK_SUCCESS);
    VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool,
                                    VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    VkCommandBuffer cb;
    ASSERT_EQ(t.vkAllocateCommandBuffers(dev, &cai, &cb), VK_SUCCESS);
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    ASSERT_EQ(t.vkBeginCommandBuffer(cb, &begin), VK_SUCCESS);
    record(cb);
    ASSERT_EQ(t.vkEndCommandBuffer(cb), VK_SUCCESS);
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cb;
    ASSERT_EQ(t.vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE), VK_SUCCESS);
    ASSERT_EQ(t.vkQueueWaitIdle(queue), VK_SUCCESS);
    t.vkDestroyCommandPool(dev, pool, nullptr);
  };
  runOnce(a, devA, queueA, [&](VkCommandBuffer cb) { a.vkCmdFillBuffer(cb, srcA, 0, size, 0x5eedf00du); });

  int fd = -1;
  VkMemoryGetFdInfoKHR get{VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR, nullptr, memA,
                           VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
  ASSERT_EQ(a.vkGetMemoryFdKHR(devA, &get, &fd), VK_SUCCESS);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(b.vkCreateBuffer(devB, &bci, nullptr, &viewB), VK_SUCCESS);
  VkImportMemoryFdInfoKHR import{VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR, nullptr,
                                 VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT, fd};
  VkMemoryAllocateInfo imai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &import, req.size, deviceType};
  VkDeviceMemory memB = VK_NULL_HANDLE;
  // Devices whose UUIDs differ refuse each other's opaque fds, as drivers do
  // (the layer also reports it: the spec forbids the import).
  const bool refused = mode == "refuse-import" || distinctUuids();
  VkResult imported = b.vkAllocateMemory(devB, &imai, nullptr, &memB);
  if (refused) {
    EXPECT_EQ(imported, VK_ERROR_INVALID_EXTERNAL_HANDLE);
    if (mode != "refuse-import") EXPECT_EQ(takeLayerMessages("MESHVK-opaque-fd-across-devices").size(), 1u);
    close(fd);
  } else {
    ASSERT_EQ(imported, VK_SUCCESS);
    ASSERT_EQ(b.vkBindBufferMemory(devB, viewB, memB, 0), VK_SUCCESS);
    VkBufferCreateInfo hci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    hci.size = size;
    hci.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    ASSERT_EQ(b.vkCreateBuffer(devB, &hci, nullptr, &hostB), VK_SUCCESS);
    VkMemoryRequirements hreq;
    b.vkGetBufferMemoryRequirements(devB, hostB, &hreq);
    VkMemoryAllocateInfo hmai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, hreq.size, hostType};
    VkDeviceMemory hostMem;
    ASSERT_EQ(b.vkAllocateMemory(devB, &hmai, nullptr, &hostMem), VK_SUCCESS);
    ASSERT_EQ(b.vkBindBufferMemory(devB, hostB, hostMem, 0), VK_SUCCESS);
    runOnce(b, devB, queueB, [&](VkCommandBuffer cb) {
      VkBufferCopy region{0, 0, size};
      b.vkCmdCopyBuffer(cb, viewB, hostB, 1, &region);
      VkMemoryBarrier toHost{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT,
                             VK_ACCESS_HOST_READ_BIT};
      b.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &toHost, 0, nullptr,
                             0, nullptr);
    });
    void* mapped = nullptr;
    ASSERT_EQ(b.vkMapMemory(devB, hostMem, 0, size, 0, &mapped), VK_SUCCESS);
    const auto* words = static_cast<const uint32_t*>(mapped);
    for (VkDeviceSize i = 0; i < size / 4; ++i) ASSERT_EQ(words[i], 0x5eedf00du) << "word " << i;
    b.vkUnmapMemory(devB, hostMem);
    b.vkDestroyBuffer(devB, hostB, nullptr);
    b.vkFreeMemory(devB, hostMem, nullptr);
    b.vkFreeMemory(devB, memB, nullptr);
  }
  b.vkDestroyBuffer(devB, viewB, nullptr);
  a.vkDestroyBuffer(devA, srcA, nullptr);
  a.vkFreeMemory(devA, memA, nullptr);
  a.vkDestroyDevice(devA, nullptr);
  b.vkDestroyDevice(devB, nullptr);
}

}  // namespace
}  // namespace meshvk_layer_test
