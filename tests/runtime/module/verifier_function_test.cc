// The .mvk verifier's rules for functions: shards consistent with the
// tensor's shape and sharding, shard buffers that hold them, names.
#include <gtest/gtest.h>

#include "verifier_test_util.h"

namespace meshvk_test {
namespace {

// --- functions: sizes consistent with shapes and sharding --------------------

TEST(ArtifactVerifier, ShardMustMatchTheSharding) {
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.arguments[0].shards[1].shape = {4, 8}; }),
                 "functions[0].arguments[0].shards[1]: dimension 0 is offset 2 size 4, past the extent 4");
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.results[0].shards[0].global_offset = {2, 0}; }),
                 "functions[0].results[0].shards: dimension 0 part 0 is offset 2 size 2; the parts must tile 0..4 in "
                 "order (expected offset 0)");
  // Uneven shards are fine, but they must still tile the dimension.
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.arguments[0].shards[0].shape = {1, 8}; }),
                 "functions[0].arguments[0].shards: dimension 0 part 1 is offset 2 size 2; the parts must tile 0..4 "
                 "in order (expected offset 1)");
  // An empty part is allowed (3 rows over 4 processes), a gap after it is not.
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.arguments[0].shards[0].shape = {0, 8}; }),
                 "functions[0].arguments[0].shards: dimension 0 part 1 is offset 2 size 2; the parts must tile 0..4 "
                 "in order (expected offset 0)");
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.arguments[1].shards[0].shape = {2}; }),
                 "functions[0].arguments[1].shards[0]: shape/global_offset have 1/2 entries, tensor rank is 2");
}

TEST(ArtifactVerifier, ShardsMustCoverTheTensor) {
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.results[0].shards.pop_back(); }),
                 "functions[0].results[0].shards: cover 1 of the 2 shards the sharding defines");
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.results[0].shards.clear(); }),
                 "functions[0].results[0].shards: empty");
}

TEST(ArtifactVerifier, SplitRules) {
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.arguments[0].shape = {5, 8}; }),
                 "functions[0].arguments[0].shards: dimension 0 parts end at 4, the extent is 5");
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.arguments[0].split_axes = {{0}, {0}}; }),
                 "functions[0].arguments[0].split_axes[1].axes[0]: grid axis 0 used twice");
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.arguments[0].split_axes = {{1}, {}}; }),
                 "functions[0].arguments[0].split_axes[0].axes[0]: grid axis 1 out of range (grid rank 1)");
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.arguments[0].split_axes = {{0}}; }),
                 "functions[0].arguments[0].split_axes: 1 entries for a rank-2 tensor");
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.arguments[0].shape = {4, 0}; }),
                 "functions[0].arguments[0].shape[1]: extent 0");
}

TEST(ArtifactVerifier, ShardBuffersHoldTheShard) {
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.arguments[0].shards[0].buffer = 2; }),
                 "functions[0].arguments[0].shards[0].buffer: buffer 2 of process 0 is not a argument shard buffer");
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.arguments[0].shards[0].buffer = 8; }),
                 "functions[0].arguments[0].shards[0].buffer: 8 out of range (process 0 has 3 buffers)");
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.arguments[0].shards[1].offset = 4; }),
                 "functions[0].arguments[0].shards[1]: 64 bytes at offset 4 leave buffer 0 of process 1 (64 bytes)");
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.arguments[0].shards[1].offset = 2; }),
                 "functions[0].arguments[0].shards[1].offset: 2 not aligned to the element size 4");
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.arguments[1].shards[0].process = 9; }),
                 "functions[0].arguments[1].shards[0].process: 9 out of range");
}

TEST(ArtifactVerifier, OverlappingArgumentShards) {
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.arguments[1].shards[0].buffer = 0; }),
                 "functions[0].arguments[1].shards[0]: overlaps another argument shard in buffer 0 of process 0");
}

TEST(ArtifactVerifier, FunctionNames) {
  ArtifactBuilder b = Base();
  FunctionDesc extra;
  b = Base(&extra);
  b.AddFunction(extra);
  b.AddFunction(extra);
  EXPECT_REFUSED(b.Finish(), "functions[1].name: 'main' defined twice");
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.name.clear(); }), "functions[0].name: missing");
}

// A tensor's name (an ONNX input/output name) is optional; a present one is
// one printable line of 1..256 bytes, unique among the arguments (results).
TEST(ArtifactVerifier, TensorNames) {
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.arguments[0].name = f.arguments[1].name = "a"; }),
                 "functions[0].arguments[1].name: 'a' given twice");
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.results[0].name = "y\nz"; }),
                 "functions[0].results[0].name: contains a control character");
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.arguments[0].name = std::string(257, 'x'); }),
                 "functions[0].arguments[0].name: 257 bytes (expected 1..256)");
  // An argument and a result may share a name (an ONNX input that is also an output).
  const std::vector<uint8_t> named =
      WithFunction([](FunctionDesc& f) { f.arguments[1].name = f.results[0].name = "b"; });
  meshvk_module_t* module = nullptr;
  ASSERT_EQ(meshvk_module_load(named.data(), named.size(), &module), nullptr);
  meshvk_tensor_info_t info = MESHVK_TENSOR_INFO_INIT;
  ASSERT_EQ(meshvk_module_argument_info(module, 0, 1, &info), nullptr);
  EXPECT_STREQ(info.name, "b");
  ASSERT_EQ(meshvk_module_argument_info(module, 0, 0, &info), nullptr);
  EXPECT_STREQ(info.name, "");  // unnamed
  ASSERT_EQ(meshvk_module_result_info(module, 0, 0, &info), nullptr);
  EXPECT_STREQ(info.name, "b");
  meshvk_module_release(module);
}

// A declared type (an ONNX int64/bool tensor held as i32, a double as f32)
// names what its element type stands for; absent, it reads as SAME.
TEST(ArtifactVerifier, DeclaredTypes) {
  using meshvk::artifact::DeclaredType;
  using meshvk::artifact::ElementType;
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.arguments[0].declared_type = DeclaredType::kI64; }),
                 "functions[0].arguments[0].declared_type: I64 for an f32 tensor (expected I64 or Bool for i32, F64 "
                 "for f32, F32 for f16)");
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.arguments[0].declared_type = DeclaredType::kF32; }),
                 "functions[0].arguments[0].declared_type: F32 for an f32 tensor (expected I64 or Bool for i32, F64 "
                 "for f32, F32 for f16)");
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.results[0].declared_type = static_cast<DeclaredType>(9); }),
                 "functions[0].results[0].declared_type: unknown type 9");
  const std::vector<uint8_t> declared = WithFunction([](FunctionDesc& f) {
    f.arguments[0].declared_type = DeclaredType::kF64;
    f.results[0].element_type = ElementType::kI32;
    f.results[0].declared_type = DeclaredType::kBool;
  });
  meshvk_module_t* module = nullptr;
  ASSERT_EQ(meshvk_module_load(declared.data(), declared.size(), &module), nullptr);
  meshvk_declared_type_t type = MESHVK_DECLARED_BOOL;
  ASSERT_EQ(meshvk_module_argument_declared_type(module, 0, 0, &type), nullptr);
  EXPECT_EQ(type, MESHVK_DECLARED_F64);
  ASSERT_EQ(meshvk_module_argument_declared_type(module, 0, 1, &type), nullptr);
  EXPECT_EQ(type, MESHVK_DECLARED_SAME);  // not written: the default
  ASSERT_EQ(meshvk_module_result_declared_type(module, 0, 0, &type), nullptr);
  EXPECT_EQ(type, MESHVK_DECLARED_BOOL);
  meshvk_status_t status = meshvk_module_result_declared_type(module, 0, 5, &type);
  EXPECT_EQ(meshvk_status_code(status), MESHVK_STATUS_OUT_OF_RANGE);
  EXPECT_EQ(type, MESHVK_DECLARED_SAME);
  meshvk_status_free(status);
  meshvk_module_release(module);
}

}  // namespace
}  // namespace meshvk_test
