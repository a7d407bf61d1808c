// Programs as people write them (issues #12 and #13): the programs of
// tests/e2e/frontend_programs/ compiled for every grid they fit, run on
// logical devices with validation on, and compared with plain C++ loops
// written from each program's comment (never from meshvk's output).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "program_case_test.h"
#include "samples.h"
#include "vulkan_fixture.h"

namespace meshvk_e2e {
namespace {

using Shape = std::vector<int64_t>;
using Tensors = std::vector<HostTensor>;

HostTensor Map(HostTensor t, float (*f)(float)) {
  for (float& v : t.f) v = f(v);
  return t;
}

HostTensor Zip(const HostTensor& a, const HostTensor& b, float (*f)(float, float)) {
  HostTensor c = a;
  for (size_t e = 0; e < c.f.size(); ++e) c.f[e] = f(a.f[e], b.f[e]);
  return c;
}

float Relu(float v) { return v > 0.0f ? v : 0.0f; }

struct FrontendProgram {
  std::string name;                // tests/e2e/frontend_programs/<name>.mlir
  std::vector<std::string> grids;  // "" = as written
  Tensors (*inputs)(std::mt19937*);
  Tensors (*reference)(const Tensors&);
};

const std::vector<FrontendProgram>& Programs() {
  static const std::vector<FrontendProgram> programs = {
      {"mlp_result_rows",
       {"1", "2", "4"},
       [](std::mt19937* r) {
         return Tensors{RandomF32({32, 64}, r), RandomF32({64, 256}, r), RandomF32({256, 64}, r)};
       },
       [](const Tensors& in) { return Tensors{MatMul(Map(MatMul(in[0], in[1]), Relu), in[2])}; }},
      {"batch_matmul_last_dim",
       {"1", "2", "4"},
       [](std::mt19937* r) { return Tensors{RandomF32({8, 32, 64}, r), RandomF32({8, 64, 48}, r)}; },
       [](const Tensors& in) { return Tensors{BatchMatMul(in[0], in[1])}; }},
      {"two_axes_replicated",
       {"2x2", "1x2", "2x1"},
       [](std::mt19937* r) {
         HostTensor a = HostTensor::Zeros({8, 6}, MESHVK_ELEMENT_I32);
         for (int32_t& v : a.i) v = static_cast<int32_t>((*r)() % 200001) - 100000;
         return Tensors{a};
       },
       [](const Tensors& in) {
         HostTensor d = in[0];
         for (int32_t& v : d.i) v *= 3;
         return Tensors{d};
       }},
      {"unannotated",
       {""},
       [](std::mt19937* r) { return Tensors{RandomF32({16, 32}, r), RandomF32({32, 8}, r)}; },
       [](const Tensors& in) { return Tensors{Map(MatMul(in[0], in[1]), Relu)}; }},
      {"elementwise_tensors",
       {"1", "2", "4"},
       [](std::mt19937* r) { return Tensors{RandomF32({16, 8}, r), RandomF32({16, 8}, r)}; },
       [](const Tensors& in) {
         return Tensors{Zip(in[0], in[1], [](float a, float b) { return std::exp(a * b) - a; })};
       }},
      {"tosa_elementwise",
       {"1", "2", "4"},
       [](std::mt19937* r) { return Tensors{RandomF32({16, 8}, r), RandomF32({16, 8}, r)}; },
       [](const Tensors& in) {
         HostTensor y = Zip(in[0], in[1], [](float a, float b) { return a / (1.0f + std::exp(-(a + b))); });
         HostTensor z = Zip(y, in[1], [](float a, float b) { return a > b ? a : b; });
         return Tensors{y, z};
       }},
      {"accumulate_into_argument",
       {"1", "2", "4"},
       [](std::mt19937* r) { return Tensors{RandomF32({16, 32}, r), RandomF32({32, 8}, r), RandomF32({16, 8}, r)}; },
       [](const Tensors& in) {
         return Tensors{Zip(MatMul(in[0], in[1]), in[2], [](float a, float c) { return a + c; })};
       }},
      {"results_and_scalars",
       {"1", "2"},
       [](std::mt19937* r) {
         HostTensor s = HostTensor::Zeros({1}, MESHVK_ELEMENT_F32);
         s.f[0] = 1.5f;
         return Tensors{RandomF32({8, 4}, r), s};
       },
       [](const Tensors& in) {
         HostTensor y = in[0];
         for (float& v : y.f) v *= in[1].f[0];
         HostTensor rows = HostTensor::Zeros({8}, MESHVK_ELEMENT_F32);
         for (int64_t i = 0; i < 8; ++i) {
           double sum = 0;
           for (int64_t j = 0; j < 4; ++j) sum += y.f[i * 4 + j];
           rows.f[i] = static_cast<float>(sum);
         }
         return Tensors{y, rows};
       }},
      {"no_arguments",
       {"1", "2"},
       [](std::mt19937*) { return Tensors{}; },
       [](const Tensors&) {
         HostTensor y = HostTensor::Zeros({16, 8}, MESHVK_ELEMENT_F32);
         for (float& v : y.f) v = std::exp(0.5f);
         return Tensors{y};
       }},
      {"broadcast_map",
       {"1", "2", "4"},
       [](std::mt19937* r) { return Tensors{RandomF32({16, 8}, r), RandomF32({1, 8}, r)}; },
       [](const Tensors& in) {
         HostTensor y = in[0];
         for (size_t e = 0; e < y.f.size(); ++e) y.f[e] += in[1].f[e % 8];
         return Tensors{y};
       }},
      {"activation_returned",
       {"1", "2", "4"},
       [](std::mt19937* r) { return Tensors{RandomF32({8, 6}, r), RandomF32({6, 4}, r)}; },
       [](const Tensors& in) {
         HostTensor e = Map(in[0], [](float v) { return std::exp(v); });
         return Tensors{MatMul(e, in[1]), e};
       }},
  };
  return programs;
}

class FrontendTest : public ProgramCaseTest {};

TEST_P(FrontendTest, MatchesHostLoops) {
  RunTableCase(Programs(), MESHVK_FRONTEND_PROGRAMS_DIR, "meshvk frontend test", 1, 20261130, 1e-3, 1e-4,
               MESHVK_TOPOLOGY_LOGICAL);
}

MESHVK_INSTANTIATE_PROGRAM_CASES(Programs, FrontendTest, Programs());

}  // namespace
}  // namespace meshvk_e2e
