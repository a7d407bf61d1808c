// One lifetime rule for every handle (meshvk/meshvk.h): each has retain and
// release, children keep their parents alive, so any release order is safe.
// Every order of releasing an instance, its device set, a buffer, a
// semaphore, a command buffer, a module and a program made on them (5040
// orders would be slow on a CPU device: every order of the five that own
// Vulkan objects, with the module and program released at each position of
// a fixed order) is run, the objects still usable until their own release;
// the sanitizer suite runs this under ASan and LSan, which see a use after
// free or a leak.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <functional>
#include <string>
#include <vector>

#include "handles.h"
#include "meshvk/meshvk.h"
#include "programs.h"
#include "vulkan_fixture.h"

namespace {

using meshvk_test::Handles;
using meshvk_test::StatusText;

// Creates one of each; "" or what failed.
std::string Create(const std::vector<uint8_t>& artifact, Handles* h) {
  meshvk_instance_create_info_t instance_info = MESHVK_INSTANCE_CREATE_INFO_INIT;
  std::string error = StatusText(meshvk_instance_create(&instance_info, &h->instance));
  meshvk_device_set_create_info_t set_info = MESHVK_DEVICE_SET_CREATE_INFO_INIT;
  set_info.topology = MESHVK_TOPOLOGY_LOGICAL;
  set_info.process_count = 2;
  if (error.empty()) error = StatusText(meshvk_device_set_create(h->instance, &set_info, &h->set));
  if (error.empty()) error = StatusText(meshvk_buffer_create(h->set, 1, 256, &h->buffer));
  if (error.empty()) error = StatusText(meshvk_semaphore_create(h->set, 0, 0, &h->semaphore));
  if (error.empty()) error = StatusText(meshvk_command_buffer_create(h->set, 1, &h->command_buffer));
  if (error.empty()) error = StatusText(meshvk_module_load(artifact.data(), artifact.size(), &h->module));
  if (error.empty()) error = StatusText(meshvk_program_create(h->module, h->set, &h->program));
  return error;
}

// A use of what `step` has not released yet, so a parent freed under a live
// child shows (ASan: use after free; otherwise wrong values).
void UseWhatIsLeft(const Handles& h, const std::array<bool, 7>& released) {
  if (!released[2]) {
    std::vector<uint32_t> words(64, 7u), back(64, 0u);
    ASSERT_EQ(StatusText(meshvk_buffer_write(h.buffer, 0, words.data(), 256)), "");
    ASSERT_EQ(StatusText(meshvk_buffer_read(h.buffer, 0, back.data(), 256)), "");
    ASSERT_EQ(back, words);
  }
  if (!released[3]) {
    uint64_t value = 1;
    ASSERT_EQ(StatusText(meshvk_semaphore_query(h.semaphore, &value)), "");
  }
  if (!released[6]) {
    meshvk_program_stats_t stats = MESHVK_PROGRAM_STATS_INIT;
    ASSERT_EQ(StatusText(meshvk_program_stats(h.program, &stats)), "");
    ASSERT_GT(stats.command_buffer_count, 0u);
  }
}

void Release(const Handles& h, int which) {
  switch (which) {
    case 0:
      meshvk_instance_release(h.instance);
      break;
    case 1:
      meshvk_device_set_release(h.set);
      break;
    case 2:
      meshvk_buffer_release(h.buffer);
      break;
    case 3:
      meshvk_semaphore_release(h.semaphore);
      break;
    case 4:
      meshvk_command_buffer_release(h.command_buffer);
      break;
    case 5:
      meshvk_module_release(h.module);
      break;
    case 6:
      meshvk_program_release(h.program);
      break;
  }
}

TEST(LifetimeTest, AnyReleaseOrderIsSafe) {
  const std::vector<uint8_t> artifact = meshvk_test::Elementwise({2}, {{0}, {}}, 4, 8, 2.0f);
  std::array<int, 5> order = {0, 1, 2, 3, 4};  // the objects of the device set, in every order
  int orders = 0;
  do {
    for (int program_at = 0; program_at <= 5; ++program_at) {
      Handles h;
      ASSERT_EQ(Create(artifact, &h), "");
      std::vector<int> sequence(order.begin(), order.end());
      sequence.insert(sequence.begin() + program_at, {5, 6});  // module before its program: the program keeps it
      std::array<bool, 7> released{};
      for (int which : sequence) {
        Release(h, which);
        released[which] = true;
        UseWhatIsLeft(h, released);
      }
      ++orders;
    }
  } while (std::next_permutation(order.begin(), order.end()));
  EXPECT_EQ(orders, 120 * 6);
}

// retain adds a reference to every kind of handle: two releases after one
// retain free it, the object usable in between; NULL is ignored.
TEST(LifetimeTest, RetainAddsOneReferenceToEveryHandle) {
  const std::vector<uint8_t> artifact = meshvk_test::Elementwise({2}, {{0}, {}}, 4, 8, 2.0f);
  Handles h;
  ASSERT_EQ(Create(artifact, &h), "");
  meshvk_instance_retain(h.instance);
  meshvk_device_set_retain(h.set);
  meshvk_buffer_retain(h.buffer);
  meshvk_semaphore_retain(h.semaphore);
  meshvk_command_buffer_retain(h.command_buffer);
  meshvk_module_retain(h.module);
  meshvk_program_retain(h.program);
  for (int which = 6; which >= 0; --which) Release(h, which);  // the creators' references
  std::array<bool, 7> released{};
  UseWhatIsLeft(h, released);  // the retained references keep every one alive
  EXPECT_EQ(meshvk_device_set_process_count(h.set), 2u);
  EXPECT_EQ(meshvk_instance_physical_device_count(h.instance) > 0, true);
  for (int which = 0; which < 7; ++which) Release(h, which);
  meshvk_instance_retain(nullptr);
  meshvk_program_retain(nullptr);
  meshvk_command_buffer_retain(nullptr);
  meshvk_program_release(nullptr);
  meshvk_command_buffer_release(nullptr);
}

}  // namespace
