// The C++ API of the kernel compiler (meshvk/Codegen/KernelCompiler.h):
// deduplication, binding layout, workgroup sizes from the target, dumps, and
// one clear error for each kind of bad input. No device needed.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include "kernel_harness.h"
#include "llvm/Support/FileSystem.h"
#include "meshvk/Codegen/Passes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

namespace meshvk_codegen_test {
namespace {

using meshvk::codegen::CompiledKernels;

const char* kTwoNegates = R"mlir(
func.func private @negate_a(%a: tensor<64xf32>) -> tensor<64xf32> attributes {meshvk.kernel} {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%a : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.negf %x : f32
    linalg.yield %y : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}
func.func private @negate_b(%b: tensor<64xf32>) -> tensor<64xf32> attributes {meshvk.kernel} {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%b : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.negf %x : f32
    linalg.yield %y : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}
func.func private @double(%b: tensor<64xf32>) -> tensor<64xf32> attributes {meshvk.kernel} {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%b : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}
func.func @host(%x: tensor<64xf32>) -> tensor<64xf32> {
  return %x : tensor<64xf32>
}
)mlir";

TEST(CompilerApi, IdenticalKernelsAreEmittedOnce) {
  CompiledKernels k;
  ASSERT_EQ(CompileMlir(kTwoNegates, meshvk::codegen::lavapipeTarget(), &k), "");
  ASSERT_EQ(k.kernels.size(), 2u);  // negate (twice) and double
  ASSERT_EQ(k.byFunction.size(), 3u);
  EXPECT_EQ(k.byFunction.at("negate_a"), k.byFunction.at("negate_b"));
  EXPECT_NE(k.byFunction.at("negate_a"), k.byFunction.at("double"));
  const auto& negate = k.kernels[k.byFunction.at("negate_a")];
  EXPECT_EQ(negate.functions, (std::vector<std::string>{"negate_a", "negate_b"}));
  EXPECT_EQ(k.byFunction.count("host"), 0u);
  for (const auto& kernel : k.kernels) {
    EXPECT_EQ(meshvk::codegen::validateSPIRV(kernel.spirv), "");
    EXPECT_EQ(kernel.entryPoint, "main");
    EXPECT_EQ(kernel.pushConstantSize, 0u);
  }
}

TEST(CompilerApi, BindingsAreInputsThenOutputs) {
  const char* mlir = R"mlir(
func.func @two_out(%a: tensor<8x4xi32>, %b: tensor<4xi32>) -> (tensor<8x4xi32>, tensor<4x8xi32>) attributes {meshvk.kernel} {
  %e = tensor.empty() : tensor<8x4xi32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<8x4xi32>, tensor<4xi32>) outs(%e : tensor<8x4xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %v = arith.addi %x, %y : i32
    linalg.yield %v : i32
  } -> tensor<8x4xi32>
  %e2 = tensor.empty() : tensor<4x8xi32>
  %t = linalg.transpose ins(%a : tensor<8x4xi32>) outs(%e2 : tensor<4x8xi32>) permutation = [1, 0]
  return %s, %t : tensor<8x4xi32>, tensor<4x8xi32>
}
)mlir";
  CompiledKernels k;
  ASSERT_EQ(CompileMlir(mlir, meshvk::codegen::lavapipeTarget(), &k), "");
  ASSERT_EQ(k.kernels.size(), 1u);
  const auto& b = k.kernels[0].bindings;
  ASSERT_EQ(b.size(), 4u);
  EXPECT_EQ(b[0].binding, 0u);
  EXPECT_FALSE(b[0].writes);
  EXPECT_EQ(b[0].shape, (std::vector<int64_t>{8, 4}));
  EXPECT_EQ(b[0].elementType, "i32");
  EXPECT_EQ(b[0].sizeBytes, 128u);
  EXPECT_EQ(b[1].binding, 1u);
  EXPECT_FALSE(b[1].writes);
  EXPECT_EQ(b[1].sizeBytes, 16u);
  EXPECT_EQ(b[2].binding, 2u);
  EXPECT_TRUE(b[2].writes);
  EXPECT_EQ(b[3].binding, 3u);
  EXPECT_TRUE(b[3].writes);
  EXPECT_EQ(b[3].shape, (std::vector<int64_t>{4, 8}));
  EXPECT_EQ(meshvk::codegen::validateSPIRV(k.kernels[0].spirv), "");
}

TEST(CompilerApi, WorkgroupSizeFollowsTheTarget) {
  meshvk::codegen::TargetDescription t = meshvk::codegen::lavapipeTarget();
  EXPECT_EQ(t.elementwiseElementsPerInvocation, 8u);
  {
    // 64 elements, 8 per invocation (lavapipe preset): 8 invocations.
    CompiledKernels k;
    ASSERT_EQ(CompileMlir(kTwoNegates, t, &k), "");
    EXPECT_EQ(k.kernels[0].workgroupSize[0], 8u);
  }
  t.elementwiseElementsPerInvocation = 4;
  for (uint32_t inv : {32u, 64u, 128u}) {
    t.preferredWorkgroupInvocations = inv;
    CompiledKernels k;
    ASSERT_EQ(CompileMlir(kTwoNegates, t, &k), "");
    // 64 elements, 4 per invocation: at most 16 invocations are useful.
    EXPECT_EQ(k.kernels[0].workgroupSize[0], std::min(inv, 16u));
    EXPECT_EQ(k.kernels[0].workgroupSize[1], 1u);
  }
  t.maxWorkgroupInvocations = 8;
  t.maxWorkgroupSize[0] = 8;
  CompiledKernels k;
  ASSERT_EQ(CompileMlir(kTwoNegates, t, &k), "");
  EXPECT_EQ(k.kernels[0].workgroupSize[0], 8u);
  EXPECT_EQ(k.kernels[0].workgroupCount[0], 2u);
}

// A probed device (mesh-vk-compile --target-device=auto, mesh-vk-run, these
// tests) gets its limits from the device and the tuning knobs of the preset
// measured for it (16x16 register tiles and 8 elements per invocation on
// lavapipe), else it would be tiled worse than --target-device=lavapipe.
TEST(CompilerApi, ProbedTargetGetsItsPresetTuning) {
  meshvk::codegen::DeviceProperties probed;
  probed.name = "llvmpipe (LLVM 15.0.6, 256 bits)";
  probed.maxWorkgroupInvocations = 512;
  probed.subgroupSize = 8;
  meshvk::codegen::TargetDescription tuned = meshvk::codegen::targetForDevice(probed);
  meshvk::codegen::TargetDescription preset = meshvk::codegen::lavapipeTarget();
  EXPECT_EQ(tuned.registerTileRows, preset.registerTileRows);
  EXPECT_EQ(tuned.registerTileCols, preset.registerTileCols);
  EXPECT_EQ(tuned.elementwiseElementsPerInvocation, preset.elementwiseElementsPerInvocation);
  EXPECT_EQ(tuned.preferredWorkgroupInvocations, preset.preferredWorkgroupInvocations);
  EXPECT_EQ(tuned.maxWorkgroupInvocations, 512u);                      // limits are the device's
  EXPECT_EQ(tuned.maxSharedMemoryBytes, preset.maxSharedMemoryBytes);  // not reported: the preset's
  EXPECT_EQ(tuned.name, probed.name);

  // Another GPU gets generic's knobs (0 = derive from its limits), and a
  // subgroup size it does not report is generic's, not lavapipe's.
  probed.name = "Some Discrete GPU";
  probed.subgroupSize = 0;
  tuned = meshvk::codegen::targetForDevice(probed);
  EXPECT_EQ(tuned.registerTileRows, 0u);
  EXPECT_EQ(tuned.elementwiseElementsPerInvocation, 0u);
  EXPECT_EQ(tuned.subgroupSize, meshvk::codegen::TargetDescription().subgroupSize);
}

// The tuning family comes from the device type the device reports, never its
// name: a GPU named like lavapipe gets the GPU family, a CPU device of any
// name the CPU family (lavapipe's knobs); limits stay the device's.
TEST(CompilerApi, TuningFamilyFromTheReportedDeviceType) {
  using meshvk::codegen::KernelFamily;
  meshvk::codegen::DeviceProperties d;
  d.name = "llvmpipe-lookalike GPU";
  d.maxWorkgroupInvocations = 1024;
  d.maxSharedMemoryBytes = 49152;
  d.subgroupSize = 64;
  meshvk::codegen::TargetDescription gpu = meshvk::codegen::gpuTarget();
  for (uint32_t type : {1u, 2u, 3u}) {  // integrated, discrete, virtual
    d.deviceType = type;
    meshvk::codegen::TargetDescription t = meshvk::codegen::targetForDevice(d);
    EXPECT_EQ(t.family, KernelFamily::Gpu) << type;
    EXPECT_EQ(t.registerTileRows, gpu.registerTileRows);
    EXPECT_EQ(t.preferredWorkgroupInvocations, gpu.preferredWorkgroupInvocations);
    EXPECT_EQ(t.elementwiseElementsPerInvocation, gpu.elementwiseElementsPerInvocation);
    EXPECT_EQ(t.maxSharedMemoryBytes, 49152u);
    EXPECT_EQ(t.subgroupSize, 64u);
    EXPECT_EQ(t.workgroupInvocations(), 128u);
    EXPECT_EQ(t.convRegisterTileRows, 4u);
    EXPECT_EQ(t.convRegisterTileCols, 4u);
  }
  d.deviceType = 4;  // CPU
  d.name = "Some CPU Vulkan driver";
  meshvk::codegen::TargetDescription cpu = meshvk::codegen::targetForDevice(d);
  EXPECT_EQ(cpu.family, KernelFamily::Cpu);
  EXPECT_EQ(cpu.registerTileRows, meshvk::codegen::lavapipeTarget().registerTileRows);
  d.deviceType = 0;  // other: generic's derived knobs
  EXPECT_EQ(meshvk::codegen::targetForDevice(d).registerTileRows, 0u);
  // --target-device=gpu / target="gpu" name the preset; it fits lavapipe.
  meshvk::codegen::TargetDescription named;
  ASSERT_TRUE(meshvk::codegen::lookupTarget("gpu", &named));
  EXPECT_EQ(named.family, KernelFamily::Gpu);
  EXPECT_LE(named.maxWorkgroupInvocations, meshvk::codegen::lavapipeTarget().maxWorkgroupInvocations);
  EXPECT_LE(named.maxSharedMemoryBytes, meshvk::codegen::lavapipeTarget().maxSharedMemoryBytes);
  // Mixed families: the knobs are derived.
  EXPECT_EQ(meshvk::codegen::commonTarget({gpu, meshvk::codegen::lavapipeTarget()}).registerTileRows, 0u);
}

// A run over different GPUs gets one set of kernels that every one of them
// runs (mesh-vk-run tiles for the devices it uses): the smallest limits, f16
// only where all have it, and tuning knobs only where all agree.
TEST(CompilerApi, CommonTargetRunsOnEveryDevice) {
  meshvk::codegen::TargetDescription lavapipe = meshvk::codegen::lavapipeTarget();
  EXPECT_EQ(meshvk::codegen::commonTarget({lavapipe, lavapipe}).registerTileRows, lavapipe.registerTileRows);
  EXPECT_EQ(meshvk::codegen::commonTarget({lavapipe, lavapipe}).name, "lavapipe");
  EXPECT_EQ(meshvk::codegen::commonTarget({}).name, meshvk::codegen::TargetDescription().name);

  meshvk::codegen::TargetDescription gpu;
  gpu.name = "Some Discrete GPU";
  gpu.maxWorkgroupSize[0] = 256;
  gpu.maxWorkgroupInvocations = 256;
  gpu.maxSharedMemoryBytes = 65536;
  gpu.subgroupSize = 32;
  gpu.maxWorkgroupCount = 1u << 30;
  gpu.shaderFloat16 = false;
  gpu.storageBuffer16BitAccess = true;
  gpu.registerTileRows = 4;
  gpu.registerTileCols = 8;
  gpu.preferredWorkgroupInvocations = 64;
  meshvk::codegen::TargetDescription both = meshvk::codegen::commonTarget({lavapipe, gpu, lavapipe});
  EXPECT_EQ(both.name, "lavapipe + Some Discrete GPU");
  EXPECT_EQ(both.maxWorkgroupSize[0], 256u);
  EXPECT_EQ(both.maxWorkgroupSize[1], gpu.maxWorkgroupSize[1]);
  EXPECT_EQ(both.maxWorkgroupInvocations, 256u);
  EXPECT_EQ(both.maxSharedMemoryBytes, lavapipe.maxSharedMemoryBytes);
  EXPECT_EQ(both.maxWorkgroupCount, lavapipe.maxWorkgroupCount);
  EXPECT_EQ(both.subgroupSize, 8u);
  EXPECT_FALSE(both.supportsF16());
  // Rows agree on neither (16 vs 4): the whole register tile is derived.
  EXPECT_EQ(both.registerTileRows, 0u);
  EXPECT_EQ(both.registerTileCols, 0u);
  EXPECT_EQ(both.preferredWorkgroupInvocations, 64u);  // both ask for 64
  EXPECT_EQ(both.elementwiseElementsPerInvocation, 0u);
  EXPECT_LE(both.workgroupInvocations(), 256u);
}

TEST(CompilerApi, DumpWritesBinaryAndDisassembly) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("meshvk-dump", dir));
  mlir::DialectRegistry registry;
  meshvk::registerCodegenDialects(registry);
  mlir::MLIRContext context(registry);
  auto module = mlir::parseSourceString<mlir::ModuleOp>(kTwoNegates, &context);
  ASSERT_TRUE(module);
  meshvk::codegen::CompileOptions options;
  options.dumpDirectory = dir.str().str();
  auto compiled = meshvk::codegen::compileKernels(*module, meshvk::codegen::lavapipeTarget(), options);
  ASSERT_TRUE(mlir::succeeded(compiled));
  std::ifstream spv(options.dumpDirectory + "/negate_a.spv", std::ios::binary);
  ASSERT_TRUE(spv.good());
  std::string bytes((std::istreambuf_iterator<char>(spv)), std::istreambuf_iterator<char>());
  EXPECT_EQ(bytes.size(), compiled->kernels[0].spirv.size() * 4);
  std::ifstream asmFile(options.dumpDirectory + "/double.spvasm");
  std::string text((std::istreambuf_iterator<char>(asmFile)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("OpEntryPoint GLCompute %main \"main\""), std::string::npos) << text;
  // Deduplicated kernels are dumped once, under the first function's name.
  EXPECT_FALSE(llvm::sys::fs::exists(options.dumpDirectory + "/negate_b.spv"));
  llvm::sys::fs::remove_directories(dir);
}

struct BadInput {
  const char* name;
  const char* mlir;
  const char* expected;  // substring of the diagnostic
};

class CompilerApiBadInput : public ::testing::TestWithParam<BadInput> {};

TEST_P(CompilerApiBadInput, OneClearError) {
  CompiledKernels k;
  std::string error = CompileMlir(GetParam().mlir, meshvk::codegen::lavapipeTarget(), &k);
  EXPECT_NE(error.find(GetParam().expected), std::string::npos) << error;
  EXPECT_TRUE(k.kernels.empty());
}

INSTANTIATE_TEST_SUITE_P(
    Errors, CompilerApiBadInput,
    ::testing::Values(BadInput{"syntax", "func.func @k(%a: tensor<4xf32>) -> tensor<4xf32> {", "parse error"},
                      BadInput{"unranked",
                               "func.func @k(%a: tensor<*xf32>) -> tensor<4xf32> attributes {meshvk.kernel} {\n"
                               "  %e = tensor.empty() : tensor<4xf32>\n  return %e : tensor<4xf32>\n}\n",
                               "expected a ranked tensor"},
                      BadInput{"scalar_result",
                               "func.func @k(%a: f32) -> f32 attributes {meshvk.kernel} {\n"
                               "  return %a : f32\n}\n",
                               "argument 0 has type 'f32'"},
                      BadInput{"declaration",
                               "func.func private @k(tensor<4xf32>) -> tensor<4xf32> attributes {meshvk.kernel}\n",
                               "meshvk.kernel function has no body"},
                      BadInput{"dense_constant",
                               "func.func @k() -> tensor<2xi32> attributes {meshvk.kernel} {\n"
                               "  %c = arith.constant dense<[1, 2]> : tensor<2xi32>\n  return %c : tensor<2xi32>\n}\n",
                               "non-splat tensor constant"}),
    [](const ::testing::TestParamInfo<BadInput>& info) { return std::string(info.param.name); });

TEST(CompilerApi, SplatConstantBecomesAFill) {
  const char* mlir =
      "func.func @k() -> tensor<5x3xi32> attributes {meshvk.kernel} {\n"
      "  %c = arith.constant dense<7> : tensor<5x3xi32>\n  return %c : tensor<5x3xi32>\n}\n";
  CompiledKernels k;
  ASSERT_EQ(CompileMlir(mlir, meshvk::codegen::lavapipeTarget(), &k), "");
  ASSERT_EQ(k.kernels.size(), 1u);
  EXPECT_EQ(k.kernels[0].bindings.size(), 1u);
  EXPECT_EQ(meshvk::codegen::validateSPIRV(k.kernels[0].spirv), "");
}

// Dynamic dims: one u32 push-constant word per `?`, binding order then dim
// order; static bindings keep their sizes, dynamic ones report 0 bytes.
TEST(CompilerApi, DynamicShapesDescribePushConstants) {
  const char* mlir =
      "func.func @k(%a: tensor<?x8xf32>, %b: tensor<8xf32>) -> tensor<?x8xf32> "
      "attributes {meshvk.kernel} {\n"
      "  %c0 = arith.constant 0 : index\n"
      "  %m = tensor.dim %a, %c0 : tensor<?x8xf32>\n"
      "  %e = tensor.empty(%m) : tensor<?x8xf32>\n"
      "  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, "
      "affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = "
      "[\"parallel\", \"parallel\"]} ins(%a, %b : tensor<?x8xf32>, tensor<8xf32>) "
      "outs(%e : tensor<?x8xf32>) {\n"
      "  ^bb0(%x: f32, %y: f32, %o: f32):\n"
      "    %s = arith.addf %x, %y : f32\n    linalg.yield %s : f32\n"
      "  } -> tensor<?x8xf32>\n"
      "  return %r : tensor<?x8xf32>\n}\n";
  CompiledKernels k;
  ASSERT_EQ(CompileMlir(mlir, meshvk::codegen::lavapipeTarget(), &k), "");
  ASSERT_EQ(k.kernels.size(), 1u);
  const meshvk::codegen::CompiledKernel& c = k.kernels[0];
  EXPECT_EQ(meshvk::codegen::validateSPIRV(c.spirv), "");
  ASSERT_EQ(c.bindings.size(), 3u);
  EXPECT_EQ(c.bindings[0].shape, (std::vector<int64_t>{-1, 8}));
  EXPECT_EQ(c.bindings[0].sizeBytes, 0u);
  EXPECT_EQ(c.bindings[1].shape, (std::vector<int64_t>{8}));
  EXPECT_EQ(c.bindings[1].sizeBytes, 32u);
  EXPECT_EQ(c.bindings[2].shape, (std::vector<int64_t>{-1, 8}));
  EXPECT_TRUE(c.bindings[2].writes);
  EXPECT_EQ(c.pushConstantSize, 8u);
  ASSERT_EQ(c.pushConstants.size(), 2u);
  EXPECT_EQ(c.pushConstants[0].offset, 0u);
  EXPECT_EQ(c.pushConstants[0].binding, 0u);
  EXPECT_EQ(c.pushConstants[0].dim, 0u);
  EXPECT_EQ(c.pushConstants[1].offset, 4u);
  EXPECT_EQ(c.pushConstants[1].binding, 2u);
  EXPECT_EQ(c.pushConstants[1].dim, 0u);
  // Unknown tile count: the default, not the device maximum.
  EXPECT_EQ(c.workgroupCount[0], 1024u);
}

TEST(CompilerApi, ValidatorRejectsGarbage) {
  std::vector<uint32_t> garbage = {0x07230203u, 0x00010300u, 0u, 5u, 0u, 0xdeadbeefu};
  EXPECT_NE(meshvk::codegen::validateSPIRV(garbage), "");
}

}  // namespace
}  // namespace meshvk_codegen_test
