// Program creation against a small device heap: ctest runs this under the
// emulation layer with MESHVK_EMULATED_HEAP_BYTES=4M on one emulated device
// (validation above the layer). A program whose buffers cannot fit is refused
// before its first allocation with one line naming the process, the device,
// the bytes it needs and the heap; a device that runs out anyway (its memory
// taken by another VkDevice) gives the same kind of line, not a crash.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "program_fixture.h"
#include "programs.h"

namespace meshvk_test {
namespace {

class MemoryFitTest : public VulkanTest {
 protected:
  void SetUp() override {
    const char* cap = std::getenv("MESHVK_EMULATED_HEAP_BYTES");
    if (!cap || std::string(cap) != "4M") GTEST_SKIP() << "run through ctest with MESHVK_EMULATED_HEAP_BYTES=4M";
    VulkanTest::SetUp();
  }
  // c = a + 0.5 b on one process: three rows x 512 f32 buffers.
  Module Load(uint64_t rows) { return LoadModule(Elementwise({1}, {{}, {}}, rows, 512, 0.5f)); }
};

TEST_F(MemoryFitTest, HeapIsTheCap) {
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 1);
  ASSERT_TRUE(set);
  meshvk_process_memory_t memory = MESHVK_PROCESS_MEMORY_INIT;
  MESHVK_ASSERT_OK(meshvk_device_set_process_memory(set.get(), 0, &memory));
  EXPECT_EQ(memory.heap_bytes, 4u << 20);
  EXPECT_EQ(memory.allocated_bytes, 0u);
  EXPECT_EQ(std::string(memory.device).rfind("physical device 0 '", 0), 0u) << memory.device;
}

TEST_F(MemoryFitTest, AProgramThatCannotFitIsRefusedBeforeAllocating) {
  Module module = Load(1024);  // 3 x 2 MiB
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 1);
  ASSERT_TRUE(module && set);
  meshvk_program_t* program = nullptr;
  EXPECT_TRUE(HasCode(meshvk_program_create(module.get(), set.get(), &program), MESHVK_STATUS_RESOURCE_EXHAUSTED,
                      "process 0 (physical device 0 '"));
  EXPECT_EQ(program, nullptr);
  EXPECT_TRUE(HasCode(meshvk_program_create(module.get(), set.get(), &program), MESHVK_STATUS_RESOURCE_EXHAUSTED,
                      ") needs 6 MiB of device-local memory (0 bytes parameters, 0 bytes activations, 6 MiB "
                      "arguments and results); its heap has 4 MiB"));
  EXPECT_EQ(meshvk_device_set_allocated_bytes(set.get(), 0), 0u) << "nothing was allocated";
}

TEST_F(MemoryFitTest, BuffersTheSetHoldsAlreadyCount) {
  Module module = Load(256);  // 3 x 512 KiB
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 1);
  ASSERT_TRUE(module && set);
  Buffer held = MakeBuffer(set.get(), 0, 3u << 20);
  meshvk_program_t* program = nullptr;
  EXPECT_TRUE(HasCode(meshvk_program_create(module.get(), set.get(), &program), MESHVK_STATUS_RESOURCE_EXHAUSTED,
                      "needs 1.5 MiB of device-local memory (0 bytes parameters, 0 bytes activations, 1.5 MiB "
                      "arguments and results); its heap has 4 MiB, 3 MiB of it held by other buffers of the "
                      "device set"));
  held.reset();
  MESHVK_EXPECT_OK(meshvk_program_create(module.get(), set.get(), &program));
  meshvk_program_release(program);
}

// Another VkDevice on the same device holds most of its memory: the check
// cannot see it, the driver refuses an allocation, and the program says so in
// one line (the buffer, its size, the driver's code, the heap).
TEST_F(MemoryFitTest, ADeviceThatRunsOutAnywayIsOneLine) {
  Module module = Load(256);  // 3 x 512 KiB
  DeviceSet other = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 1);
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 1);
  ASSERT_TRUE(module && other && set);
  Buffer held = MakeBuffer(other.get(), 0, 3u << 20);
  meshvk_program_t* program = nullptr;
  meshvk_status_t status = meshvk_program_create(module.get(), set.get(), &program);
  const std::string message = meshvk_status_message(status);
  EXPECT_TRUE(HasCode(status, MESHVK_STATUS_RESOURCE_EXHAUSTED, "VK_ERROR_OUT_OF_DEVICE_MEMORY")) << message;
  EXPECT_EQ(program, nullptr);
  EXPECT_NE(message.find("process 0 (physical device 0 '"), std::string::npos) << message;
  EXPECT_NE(message.find(") needs 1.5 MiB of device-local memory"), std::string::npos) << message;
  EXPECT_NE(message.find("; its device refused buffer "), std::string::npos) << message;
  EXPECT_NE(message.find(" of process 0 (512 KiB: VK_ERROR_OUT_OF_DEVICE_MEMORY) with "), std::string::npos) << message;
  EXPECT_NE(message.find(" of its 4 MiB heap held by this device set's buffers"), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << "one line";
  EXPECT_EQ(meshvk_device_set_allocated_bytes(set.get(), 0), 0u) << "the buffers made before were released";
}

}  // namespace
}  // namespace meshvk_test
