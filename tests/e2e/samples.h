// The nine sample programs of samples/programs/ as the tests see them: their
// inputs, the grids each one can be compiled for, and an independent host
// reference (plain C++ loops written from the program's comment, never from
// meshvk's output). Shared by tests/e2e and tests/conformance.
#ifndef MESHVK_TESTS_E2E_SAMPLES_H_
#define MESHVK_TESTS_E2E_SAMPLES_H_

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "meshvk/module.h"

namespace meshvk_e2e {

// A dense row-major host tensor; f32 data in `f`, i32 data in `i`.
struct HostTensor {
  std::vector<int64_t> shape;
  meshvk_element_type_t type = MESHVK_ELEMENT_F32;
  std::vector<float> f;
  std::vector<int32_t> i;

  int64_t elements() const;
  void* data() { return type == MESHVK_ELEMENT_I32 ? static_cast<void*>(i.data()) : f.data(); }
  const void* data() const { return type == MESHVK_ELEMENT_I32 ? static_cast<const void*>(i.data()) : f.data(); }
  uint64_t bytes() const { return static_cast<uint64_t>(elements()) * 4; }
  static HostTensor Zeros(std::vector<int64_t> shape, meshvk_element_type_t type);
};

// Random test data: f32 uniform in [-1, 1), i32 uniform in [-1000, 1000].
HostTensor RandomF32(std::vector<int64_t> shape, std::mt19937* rng);
HostTensor RandomI32(std::vector<int64_t> shape, std::mt19937* rng);

struct Sample {
  std::string name;  // file stem in samples/programs
  std::vector<HostTensor> (*make_inputs)(uint32_t seed);
  std::vector<HostTensor> (*reference)(const std::vector<HostTensor>& inputs);
  std::vector<std::string> grids;  // grid shapes the program allows ("1", "2x2", ...)
};

const std::vector<Sample>& Samples();
const Sample& SampleNamed(const std::string& name);
// Absolute path of samples/programs/<name>.mlir.
std::string SamplePath(const std::string& name);

// numpy.isclose: |a - b| <= atol + rtol * |b|, elementwise, for f32; exact for
// i32. Returns "" when all match, else the first mismatch.
std::string Compare(const HostTensor& actual, const HostTensor& expected, double atol, double rtol);

// Host references (exposed for tests that build their own cases).
HostTensor MatMul(const HostTensor& a, const HostTensor& b);
// a: batch x m x k, b: batch x k x n.
HostTensor BatchMatMul(const HostTensor& a, const HostTensor& b);
// The same product, each element handed to `epilogue` (its flat index in the
// batch x m x n result, the sum in double) for the value to store.
HostTensor BatchMatMul(const HostTensor& a, const HostTensor& b, const std::function<float(int64_t, double)>& epilogue);

}  // namespace meshvk_e2e

#endif  // MESHVK_TESTS_E2E_SAMPLES_H_
