// Shared by the kernel tests (kernel_test.cc: every op x dtype x shape class;
// dynamic_kernel_test.cc: one kernel on `?` dims run at several sizes): host
// tensors of each element type with their bytes, the MLIR spelling of the
// element ops, a test case, and the one Vulkan device (validation on) the
// tests run on.
#ifndef MESHVK_TESTS_COMPILER_CODEGEN_KERNEL_TEST_SUPPORT_H_
#define MESHVK_TESTS_COMPILER_CODEGEN_KERNEL_TEST_SUPPORT_H_

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "kernel_harness.h"

namespace meshvk_codegen_test {

enum class DType { F32, F16, I32 };

inline const char* Name(DType t) { return t == DType::F32 ? "f32" : t == DType::F16 ? "f16" : "i32"; }
inline size_t Bytes(DType t) { return t == DType::F16 ? 2 : 4; }

struct Tensor {
  DType type = DType::F32;
  std::vector<int64_t> shape;
  std::vector<double> values;  // exactly representable in `type`
  int64_t count() const {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
  }
  std::string mlir() const {
    std::string s = "tensor<";
    for (int64_t d : shape) s += std::to_string(d) + "x";
    return s + Name(type) + ">";
  }
  std::vector<uint8_t> bytes() const {
    std::vector<uint8_t> out(values.size() * Bytes(type));
    for (size_t i = 0; i < values.size(); ++i) {
      if (type == DType::F32) {
        float f = static_cast<float>(values[i]);
        std::memcpy(&out[i * 4], &f, 4);
      } else if (type == DType::I32) {
        int32_t v = static_cast<int32_t>(values[i]);
        std::memcpy(&out[i * 4], &v, 4);
      } else {
        uint16_t h = FloatToHalf(static_cast<float>(values[i]));
        std::memcpy(&out[i * 2], &h, 2);
      }
    }
    return out;
  }
  void FromBytes(const std::vector<uint8_t>& b) {
    values.resize(count());
    for (size_t i = 0; i < values.size(); ++i) {
      if (type == DType::F32) {
        float f;
        std::memcpy(&f, &b[i * 4], 4);
        values[i] = f;
      } else if (type == DType::I32) {
        int32_t v;
        std::memcpy(&v, &b[i * 4], 4);
        values[i] = v;
      } else {
        uint16_t h;
        std::memcpy(&h, &b[i * 2], 2);
        values[i] = HalfToFloat(h);
      }
    }
  }
};

inline Tensor Random(DType type, std::vector<int64_t> shape, uint32_t seed, double lo = -2, double hi = 2) {
  Tensor t;
  t.type = type;
  t.shape = std::move(shape);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> ints(static_cast<int>(lo) * 4, static_cast<int>(hi) * 4);
  std::uniform_real_distribution<double> reals(lo, hi);
  t.values.resize(t.count());
  for (double& v : t.values) {
    if (type == DType::I32) {
      v = ints(rng);
    } else if (type == DType::F16) {
      v = HalfToFloat(FloatToHalf(static_cast<float>(reals(rng))));
    } else {
      v = static_cast<float>(reals(rng));
    }
  }
  return t;
}

inline Tensor Zeros(DType type, std::vector<int64_t> shape) {
  Tensor t;
  t.type = type;
  t.shape = std::move(shape);
  t.values.assign(t.count(), 0.0);
  return t;
}

inline std::string Zero(DType t) {
  return t == DType::I32 ? "arith.constant 0 : i32" : std::string("arith.constant 0.0 : ") + Name(t);
}
inline std::string Add(DType t) { return t == DType::I32 ? "arith.addi" : "arith.addf"; }
inline std::string Mul(DType t) { return t == DType::I32 ? "arith.muli" : "arith.mulf"; }
inline std::string Max(DType t) { return t == DType::I32 ? "arith.maxsi" : "arith.maxnumf"; }

struct Case {
  std::string name;
  std::string mlir;  // one kernel function @k
  std::vector<Tensor> inputs;
  std::vector<Tensor> outputs;  // shapes and types; values = reference
  double tolerance = 1e-4;      // relative to max(1, |expected|)
  // When set: launch with this many workgroups instead of the recorded count.
  uint32_t workgroups = 0;
};

// The device every test runs on, created once (test environment).
class Environment : public ::testing::Environment {
 public:
  void SetUp() override { device = std::make_unique<Device>(/*validation=*/true); }
  void TearDown() override { device.reset(); }
  static inline std::unique_ptr<Device> device;
};

}  // namespace meshvk_codegen_test

#endif  // MESHVK_TESTS_COMPILER_CODEGEN_KERNEL_TEST_SUPPORT_H_
