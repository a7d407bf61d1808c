// meshvk_executable_t: SPIR-V is validated before Vulkan sees it; built-ins
// are cached per set.
#include <vector>

#include "meshvk_builtin_shaders.h"
#include "vulkan_fixture.h"

namespace meshvk_test {
namespace {

using ExecutableTest = VulkanTest;

std::vector<uint32_t> FillSpirv() {
  return std::vector<uint32_t>(meshvk::builtin_spirv::fill,
                               meshvk::builtin_spirv::fill + meshvk::builtin_spirv::fill_word_count);
}

meshvk_executable_create_info_t FillInfo(const std::vector<uint32_t>& words) {
  meshvk_executable_create_info_t info = MESHVK_EXECUTABLE_CREATE_INFO_INIT;
  info.spirv = words.data();
  info.spirv_size = words.size() * 4;
  info.binding_count = 1;
  info.push_constant_size = 12;
  return info;
}

TEST_F(ExecutableTest, CreatesAPipelineFromValidSpirv) {
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 2);
  ASSERT_TRUE(set);
  std::vector<uint32_t> words = FillSpirv();
  meshvk_executable_create_info_t info = FillInfo(words);
  meshvk_executable_t* raw = nullptr;
  MESHVK_ASSERT_OK(meshvk_executable_create(set.get(), &info, &raw));
  Executable executable(raw);
  EXPECT_EQ(meshvk_executable_binding_count(executable.get()), 1u);
  EXPECT_EQ(meshvk_executable_push_constant_size(executable.get()), 12u);
}

TEST_F(ExecutableTest, BuiltinsAreCachedAndDescribeTheirLayout) {
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 1);
  ASSERT_TRUE(set);
  Executable fill = Builtin(set.get(), MESHVK_BUILTIN_FILL);
  Executable again = Builtin(set.get(), MESHVK_BUILTIN_FILL);
  Executable copy = Builtin(set.get(), MESHVK_BUILTIN_STRIDED_COPY);
  Executable sum = Builtin(set.get(), MESHVK_BUILTIN_SUM_F32);
  ASSERT_TRUE(fill && again && copy && sum);
  EXPECT_EQ(fill.get(), again.get());
  EXPECT_EQ(meshvk_executable_binding_count(fill.get()), 1u);
  EXPECT_EQ(meshvk_executable_push_constant_size(fill.get()), 12u);
  EXPECT_EQ(meshvk_executable_binding_count(copy.get()), 2u);
  EXPECT_EQ(meshvk_executable_push_constant_size(copy.get()), 44u);
  EXPECT_EQ(meshvk_executable_binding_count(sum.get()), 9u);
  EXPECT_EQ(meshvk_executable_push_constant_size(sum.get()), 8u);
  meshvk_executable_t* raw = nullptr;
  EXPECT_TRUE(HasCode(meshvk_executable_builtin(set.get(), MESHVK_BUILTIN_COUNT, &raw), MESHVK_STATUS_OUT_OF_RANGE));
  // A built-in reference keeps the set alive after the caller drops it.
  set.reset();
  fill.reset();
  again.reset();
  copy.reset();
  sum.reset();
}

TEST_F(ExecutableTest, RejectsSpirvThatDoesNotValidate) {
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 1);
  ASSERT_TRUE(set);
  meshvk_executable_t* raw = reinterpret_cast<meshvk_executable_t*>(0x1);

  std::vector<uint32_t> truncated = FillSpirv();
  truncated.resize(truncated.size() / 2);
  meshvk_executable_create_info_t info = FillInfo(truncated);
  EXPECT_TRUE(HasCode(meshvk_executable_create(set.get(), &info, &raw), MESHVK_STATUS_INVALID_ARGUMENT,
                      "SPIR-V validation failed"));
  EXPECT_EQ(raw, nullptr);

  std::vector<uint32_t> bad_magic = FillSpirv();
  bad_magic[0] = 0x12345678;
  info = FillInfo(bad_magic);
  EXPECT_TRUE(HasCode(meshvk_executable_create(set.get(), &info, &raw), MESHVK_STATUS_INVALID_ARGUMENT,
                      "not a SPIR-V module (bad magic number)"));

  // An id bound too small: every id in the module is then out of bounds.
  std::vector<uint32_t> bad_bound = FillSpirv();
  bad_bound[3] = 2;
  info = FillInfo(bad_bound);
  EXPECT_TRUE(HasCode(meshvk_executable_create(set.get(), &info, &raw), MESHVK_STATUS_INVALID_ARGUMENT,
                      "SPIR-V validation failed"));

  std::vector<uint32_t> words = FillSpirv();
  info = FillInfo(words);
  info.entry_point = "not_main";
  EXPECT_TRUE(HasCode(meshvk_executable_create(set.get(), &info, &raw), MESHVK_STATUS_INVALID_ARGUMENT,
                      "entry point named 'not_main'"));
}

TEST_F(ExecutableTest, RejectsBindingsTheLayoutDoesNotDeclare) {
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 1);
  ASSERT_TRUE(set);
  // sum_f32 uses bindings 0..8; declaring only 3 would mismatch the layout.
  std::vector<uint32_t> words(meshvk::builtin_spirv::sum_f32,
                              meshvk::builtin_spirv::sum_f32 + meshvk::builtin_spirv::sum_f32_word_count);
  meshvk_executable_create_info_t info = MESHVK_EXECUTABLE_CREATE_INFO_INIT;
  info.spirv = words.data();
  info.spirv_size = words.size() * 4;
  info.binding_count = 3;
  info.push_constant_size = 8;
  meshvk_executable_t* raw = nullptr;
  EXPECT_TRUE(
      HasCode(meshvk_executable_create(set.get(), &info, &raw), MESHVK_STATUS_INVALID_ARGUMENT, "bindings 0..2"));
  info.binding_count = 9;
  MESHVK_ASSERT_OK(meshvk_executable_create(set.get(), &info, &raw));
  meshvk_executable_release(raw);
}

TEST_F(ExecutableTest, RejectsBadCreateInfo) {
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 1);
  ASSERT_TRUE(set);
  meshvk_executable_t* raw = nullptr;
  std::vector<uint32_t> words = FillSpirv();
  meshvk_executable_create_info_t info = FillInfo(words);
  info.spirv_size = 6;
  EXPECT_TRUE(
      HasCode(meshvk_executable_create(set.get(), &info, &raw), MESHVK_STATUS_INVALID_ARGUMENT, "multiple of 4"));
  info = FillInfo(words);
  info.spirv = nullptr;
  EXPECT_TRUE(HasCode(meshvk_executable_create(set.get(), &info, &raw), MESHVK_STATUS_INVALID_ARGUMENT));
  info = FillInfo(words);
  info.push_constant_size = 6;
  EXPECT_TRUE(
      HasCode(meshvk_executable_create(set.get(), &info, &raw), MESHVK_STATUS_INVALID_ARGUMENT, "push_constant_size"));
  info.push_constant_size = 1u << 20;
  EXPECT_TRUE(
      HasCode(meshvk_executable_create(set.get(), &info, &raw), MESHVK_STATUS_OUT_OF_RANGE, "push constant bytes"));
  EXPECT_TRUE(HasCode(meshvk_executable_create(set.get(), nullptr, &raw), MESHVK_STATUS_INVALID_ARGUMENT));
  EXPECT_TRUE(HasCode(meshvk_executable_create(nullptr, &info, &raw), MESHVK_STATUS_INVALID_ARGUMENT));
  EXPECT_TRUE(HasCode(meshvk_executable_create(set.get(), &info, nullptr), MESHVK_STATUS_INVALID_ARGUMENT));
}

}  // namespace
}  // namespace meshvk_test

namespace meshvk_test {
namespace {

// The loader's SPIR-V check needs no device and applies the same rules as
// meshvk_executable_create.
TEST(ExecutableCheckSpirv, SameRulesWithoutADevice) {
  std::vector<uint32_t> words = FillSpirv();
  meshvk_executable_create_info_t info = FillInfo(words);
  info.workgroup_size[0] = 64;
  info.workgroup_size[1] = info.workgroup_size[2] = 1;
  MESHVK_EXPECT_OK(meshvk_executable_check_spirv(&info, 0));
  info.workgroup_size[0] = 32;
  EXPECT_TRUE(HasCode(meshvk_executable_check_spirv(&info, 0), MESHVK_STATUS_INVALID_ARGUMENT,
                      "has LocalSize 64x1x1 but workgroup_size says 32x1x1"));
  info.workgroup_size[0] = 64;
  info.binding_count = 0;  // the fill kernel binds one buffer
  EXPECT_TRUE(HasCode(meshvk_executable_check_spirv(&info, 0), MESHVK_STATUS_INVALID_ARGUMENT, "uses set 0 binding 0"));
  info.binding_count = 1;
  info.entry_point = "other";
  EXPECT_TRUE(HasCode(meshvk_executable_check_spirv(&info, 0), MESHVK_STATUS_INVALID_ARGUMENT,
                      "no GLCompute entry point named 'other'"));
  EXPECT_TRUE(HasCode(meshvk_executable_check_spirv(nullptr, 0), MESHVK_STATUS_INVALID_ARGUMENT));
}

}  // namespace
}  // namespace meshvk_test
