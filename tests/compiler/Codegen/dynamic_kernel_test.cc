// Dynamic shapes: ONE compiled kernel (dims `?`), run at several sizes on the
// first Vulkan device with validation on, each run passing its sizes as push
// constants, compared with plain C++ loops.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <sstream>

#include "kernel_test_support.h"

namespace meshvk_codegen_test {
namespace {

// ---- dynamic shapes: ONE compiled kernel, run at several sizes -------------

// A kernel on `?` dims, compiled once; each run passes its sizes as push
// constants laid out as CompiledKernel::pushConstants says.
struct DynamicCase {
  std::string name;
  std::string mlir;
  // Builds inputs and reference outputs for sizes (m, n, k).
  std::function<void(int64_t, int64_t, int64_t, std::vector<Tensor>*, std::vector<Tensor>*)> make;
  double tolerance = 1e-5;
};

DynamicCase DynamicElementwise() {
  DynamicCase c;
  c.name = "eltwise_broadcast";
  // out = tanh(a * row[j] + col[i])
  c.mlir =
      "func.func @k(%a: tensor<?x?xf32>, %row: tensor<?xf32>, %col: tensor<?xf32>) -> "
      "tensor<?x?xf32> attributes {meshvk.kernel} {\n"
      "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
      "  %m = tensor.dim %a, %c0 : tensor<?x?xf32>\n  %n = tensor.dim %a, %c1 : tensor<?x?xf32>\n"
      "  %e = tensor.empty(%m, %n) : tensor<?x?xf32>\n"
      "  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> "
      "(j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = "
      "[\"parallel\", \"parallel\"]} ins(%a, %row, %col : tensor<?x?xf32>, tensor<?xf32>, "
      "tensor<?xf32>) outs(%e : tensor<?x?xf32>) {\n"
      "  ^bb0(%x: f32, %y: f32, %z: f32, %o: f32):\n"
      "    %p = arith.mulf %x, %y : f32\n    %q = arith.addf %p, %z : f32\n"
      "    %t = math.tanh %q : f32\n    linalg.yield %t : f32\n"
      "  } -> tensor<?x?xf32>\n  return %r : tensor<?x?xf32>\n}\n";
  c.make = [](int64_t M, int64_t N, int64_t, std::vector<Tensor>* in, std::vector<Tensor>* out) {
    Tensor a = Random(DType::F32, {M, N}, 21), row = Random(DType::F32, {N}, 22), col = Random(DType::F32, {M}, 23),
           r = Zeros(DType::F32, {M, N});
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j)
        r.values[i * N + j] = std::tanh(a.values[i * N + j] * row.values[j] + col.values[i]);
    *in = {a, row, col};
    *out = {r};
  };
  return c;
}

DynamicCase DynamicMatmul() {
  DynamicCase c;
  c.name = "matmul";
  c.mlir =
      "func.func @k(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> "
      "attributes {meshvk.kernel} {\n"
      "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
      "  %m = tensor.dim %a, %c0 : tensor<?x?xf32>\n  %n = tensor.dim %b, %c1 : tensor<?x?xf32>\n"
      "  %z = arith.constant 0.0 : f32\n"
      "  %e = tensor.empty(%m, %n) : tensor<?x?xf32>\n"
      "  %f = linalg.fill ins(%z : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>\n"
      "  %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%f : "
      "tensor<?x?xf32>) -> tensor<?x?xf32>\n  return %r : tensor<?x?xf32>\n}\n";
  c.make = [](int64_t M, int64_t N, int64_t K, std::vector<Tensor>* in, std::vector<Tensor>* out) {
    Tensor a = Random(DType::F32, {M, K}, 24), b = Random(DType::F32, {K, N}, 25), r = Zeros(DType::F32, {M, N});
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        double s = 0;
        for (int64_t k = 0; k < K; ++k) s += a.values[i * K + k] * b.values[k * N + j];
        r.values[i * N + j] = s;
      }
    *in = {a, b};
    *out = {r};
  };
  c.tolerance = 1e-4;
  return c;
}

DynamicCase DynamicRowSum() {
  DynamicCase c;
  c.name = "row_sum";
  c.mlir =
      "func.func @k(%a: tensor<?x?xf32>) -> tensor<?xf32> attributes {meshvk.kernel} {\n"
      "  %c0 = arith.constant 0 : index\n"
      "  %m = tensor.dim %a, %c0 : tensor<?x?xf32>\n  %z = arith.constant 0.0 : f32\n"
      "  %e = tensor.empty(%m) : tensor<?xf32>\n"
      "  %f = linalg.fill ins(%z : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>\n"
      "  %r = linalg.reduce ins(%a : tensor<?x?xf32>) outs(%f : tensor<?xf32>) dimensions = [1]\n"
      "    (%x: f32, %acc: f32) {\n      %s = arith.addf %x, %acc : f32\n"
      "      linalg.yield %s : f32\n    }\n  return %r : tensor<?xf32>\n}\n";
  c.make = [](int64_t M, int64_t N, int64_t, std::vector<Tensor>* in, std::vector<Tensor>* out) {
    Tensor a = Random(DType::F32, {M, N}, 26), r = Zeros(DType::F32, {M});
    for (int64_t i = 0; i < M; ++i) {
      double s = 0;
      for (int64_t j = 0; j < N; ++j) s += a.values[i * N + j];
      r.values[i] = s;
    }
    *in = {a};
    *out = {r};
  };
  c.tolerance = 1e-4;
  return c;
}

class DynamicKernelTest : public ::testing::TestWithParam<DynamicCase> {};

TEST_P(DynamicKernelTest, OneKernelMatchesHostReferenceAtEverySize) {
  Device& device = *Environment::device;
  ASSERT_EQ(device.error(), "");
  const DynamicCase& c = GetParam();
  meshvk::codegen::CompiledKernels compiled;
  ASSERT_EQ(CompileMlir(c.mlir, device.target(), &compiled), "") << c.mlir;
  ASSERT_EQ(compiled.kernels.size(), 1u);
  const meshvk::codegen::CompiledKernel& k = compiled.kernels[0];
  EXPECT_EQ(meshvk::codegen::validateSPIRV(k.spirv), "");
  ASSERT_GT(k.pushConstantSize, 0u);
  ASSERT_EQ(k.pushConstantSize, 4 * k.pushConstants.size());
  Kernel kernel(device, k);
  ASSERT_EQ(kernel.error(), "");
  // (m, n, k): tiny, odd, large-ish; with the recorded (default) workgroup
  // count and with fewer workgroups than tiles (grid-stride loops).
  struct Size {
    int64_t m, n, k;
    uint32_t workgroups;
  };
  for (Size sz :
       {Size{1, 1, 1, 0}, Size{37, 53, 29, 0}, Size{3, 130, 7, 0}, Size{300, 517, 65, 0}, Size{37, 53, 29, 2}}) {
    SCOPED_TRACE(std::to_string(sz.m) + "x" + std::to_string(sz.n) + "x" + std::to_string(sz.k) + " workgroups " +
                 std::to_string(sz.workgroups));
    std::vector<Tensor> inputs, outputs;
    c.make(sz.m, sz.n, sz.k, &inputs, &outputs);
    ASSERT_EQ(k.bindings.size(), inputs.size() + outputs.size());
    std::vector<const Tensor*> byBinding;
    for (const Tensor& t : inputs) byBinding.push_back(&t);
    for (const Tensor& t : outputs) byBinding.push_back(&t);
    std::vector<uint32_t> push(k.pushConstantSize / 4);
    for (const meshvk::codegen::PushConstantWord& w : k.pushConstants) {
      ASSERT_LT(w.binding, byBinding.size());
      ASSERT_LT(w.dim, byBinding[w.binding]->shape.size());
      ASSERT_EQ(k.bindings[w.binding].shape[w.dim], -1);
      push[w.offset / 4] = static_cast<uint32_t>(byBinding[w.binding]->shape[w.dim]);
    }
    std::vector<std::unique_ptr<Buffer>> buffers;
    std::vector<Buffer*> raw;
    std::vector<bool> writes;
    for (const Tensor* t : byBinding) {
      bool out = raw.size() >= inputs.size();
      std::vector<uint8_t> bytes = out ? std::vector<uint8_t>(t->count() * Bytes(t->type), 0x7f) : t->bytes();
      buffers.push_back(std::make_unique<Buffer>(device, bytes.size()));
      ASSERT_EQ(buffers.back()->Write(bytes.data(), bytes.size()), "");
      raw.push_back(buffers.back().get());
      writes.push_back(out);
    }
    std::array<uint32_t, 3> count = k.workgroupCount;
    if (sz.workgroups) count = {sz.workgroups, 1, 1};
    ASSERT_EQ(kernel.Run(raw, writes, count, push.data(), k.pushConstantSize), "");
    for (size_t o = 0; o < outputs.size(); ++o) {
      Tensor got = outputs[o];
      std::vector<uint8_t> bytes(got.count() * Bytes(got.type));
      ASSERT_EQ(raw[inputs.size() + o]->Read(bytes.data(), bytes.size()), "");
      got.FromBytes(bytes);
      int bad = 0;
      for (int64_t i = 0; i < got.count() && bad < 5; ++i) {
        double want = outputs[o].values[i];
        if (!(std::fabs(got.values[i] - want) <= c.tolerance * std::max(1.0, std::fabs(want)))) {
          ADD_FAILURE() << c.name << " output " << o << " element " << i << ": got " << got.values[i] << ", want "
                        << want;
          ++bad;
        }
      }
    }
    for (const std::string& m : device.TakeMessages()) ADD_FAILURE() << "validation: " << m;
  }
}

INSTANTIATE_TEST_SUITE_P(Dynamic, DynamicKernelTest,
                         ::testing::Values(DynamicElementwise(), DynamicMatmul(), DynamicRowSum()),
                         [](const ::testing::TestParamInfo<DynamicCase>& info) { return info.param.name; });

}  // namespace
}  // namespace meshvk_codegen_test
