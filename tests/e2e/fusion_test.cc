// Fused kernels (issue #31, meshvk-fuse-kernels): the programs of
// tests/e2e/fusion_programs/ put elementwise work around a matmul, a batch
// matmul and a convolution (bias, scale, activation, residual add, a
// transpose) and chain elementwise ops, at sizes that are multiples of no
// tile, with 1-element dimensions and uneven shards on 2, 3 and 4 processes.
// Each runs on logical devices and on the emulated device group of 4
// (MESHVK_E2E_TOPOLOGY=group), with validation on, and is compared with
// plain C++ loops written from the program's comment (never from meshvk's
// output).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "program_case_test.h"
#include "samples.h"
#include "vulkan_fixture.h"

namespace meshvk_e2e {
namespace {

using Shape = std::vector<int64_t>;
using Tensors = std::vector<HostTensor>;

float Relu(float v) { return v > 0.0f ? v : 0.0f; }

// a (m x k) . b (k x n) + bias[n], in double.
HostTensor Linear(const HostTensor& a, const HostTensor& b, const HostTensor* bias) {
  const int64_t m = a.shape[0], k = a.shape[1], n = b.shape[1];
  HostTensor c = HostTensor::Zeros({m, n}, MESHVK_ELEMENT_F32);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = bias ? bias->f[j] : 0.0;
      for (int64_t l = 0; l < k; ++l) sum += double(a.f[i * k + l]) * double(b.f[l * n + j]);
      c.f[i * n + j] = static_cast<float>(sum);
    }
  return c;
}

Tensors MatmulBiasRelu(const Tensors& in) {
  HostTensor y = Linear(in[0], in[1], &in[2]);
  for (float& v : y.f) v = Relu(v);
  return {y};
}

Tensors BatchMatmulEpilogue(const Tensors& in) {
  const HostTensor& r = in[2];
  return {BatchMatMul(in[0], in[1], [&r](int64_t o, double sum) {
    const double s = 0.5 * sum + r.f[o];
    return static_cast<float>(1.0 / (1.0 + std::exp(-s)));
  })};
}

// NHWC x (1 x H x W x C), FHWC w (F x 3 x 3 x C), padding 1:
// y = relu(relu(conv(x) + bias) + x).
Tensors ConvBlock(const Tensors& in) {
  const HostTensor &x = in[0], &w = in[1], &bias = in[2];
  const int64_t H = x.shape[1], W = x.shape[2], C = x.shape[3], F = w.shape[0];
  HostTensor y = HostTensor::Zeros({1, H, W, F}, MESHVK_ELEMENT_F32);
  for (int64_t h = 0; h < H; ++h)
    for (int64_t v = 0; v < W; ++v)
      for (int64_t f = 0; f < F; ++f) {
        double sum = 0;
        for (int64_t kh = 0; kh < 3; ++kh)
          for (int64_t kw = 0; kw < 3; ++kw)
            for (int64_t c = 0; c < C; ++c) {
              const int64_t ih = h + kh - 1, iw = v + kw - 1;
              if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
              sum += double(x.f[(ih * W + iw) * C + c]) * double(w.f[((f * 3 + kh) * 3 + kw) * C + c]);
            }
        const int64_t o = (h * W + v) * F + f;
        const double r = std::max(0.0, sum + bias.f[f]) + x.f[o];
        y.f[o] = static_cast<float>(std::max(0.0, r));
      }
  return {y};
}

Tensors ElementwiseChain(const Tensors& in) {
  const int64_t n = in[0].shape[0];
  HostTensor t = HostTensor::Zeros({1, n}, MESHVK_ELEMENT_F32);
  for (int64_t i = 0; i < n; ++i) t.f[i] = Relu(in[0].f[i] * in[1].f[i] + 1.0f);
  return {t};
}

Tensors MegatronMlp(const Tensors& in) {
  HostTensor h = Linear(in[0], in[1], &in[2]);
  for (float& v : h.f) v = Relu(v);
  HostTensor y = Linear(h, in[3], &in[4]);
  for (size_t e = 0; e < y.f.size(); ++e) y.f[e] += in[0].f[e];
  return {y};
}

Tensors OneElement(const Tensors& in) {
  HostTensor y = Linear(in[0], in[1], &in[2]);
  for (float& v : y.f) v = std::exp(Relu(v));
  return {y};
}

struct FusionProgram {
  std::string name;                // tests/e2e/fusion_programs/<name>.mlir
  std::vector<std::string> grids;  // "" = as written
  Tensors (*inputs)(std::mt19937*);
  Tensors (*reference)(const Tensors&);
};

const std::vector<FusionProgram>& Programs() {
  static const std::vector<FusionProgram> programs = {
      {"matmul_bias_relu",
       {"1", "2", "3", "4"},
       [](std::mt19937* r) { return Tensors{RandomF32({37, 53}, r), RandomF32({53, 29}, r), RandomF32({29}, r)}; },
       MatmulBiasRelu},
      {"batch_matmul_epilogue",
       {"1", "2", "3"},
       [](std::mt19937* r) {
         return Tensors{RandomF32({3, 5, 7}, r), RandomF32({3, 7, 9}, r), RandomF32({3, 5, 9}, r)};
       },
       BatchMatmulEpilogue},
      {"conv_block",
       {"1", "2", "4"},
       [](std::mt19937* r) {
         return Tensors{RandomF32({1, 9, 7, 3}, r), RandomF32({3, 3, 3, 3}, r), RandomF32({3}, r)};
       },
       ConvBlock},
      {"elementwise_chain",
       {"1", "2", "4"},
       [](std::mt19937* r) { return Tensors{RandomF32({13, 1}, r), RandomF32({13, 1}, r)}; },
       ElementwiseChain},
      {"megatron_mlp",
       {"2", "3", "4"},
       [](std::mt19937* r) {
         return Tensors{RandomF32({7, 5}, r), RandomF32({5, 12}, r), RandomF32({12}, r), RandomF32({12, 5}, r),
                        RandomF32({5}, r)};
       },
       MegatronMlp},
      {"one_element",
       {""},
       [](std::mt19937* r) { return Tensors{RandomF32({1, 5}, r), RandomF32({5, 1}, r), RandomF32({1}, r)}; },
       OneElement},
  };
  return programs;
}

class FusionTest : public ProgramCaseTest {};

TEST_P(FusionTest, MatchesHostLoops) {
  RunTableCase(Programs(), MESHVK_FUSION_PROGRAMS_DIR, "meshvk fusion test", 1, 20261203, 1e-4, 1e-4);
}

MESHVK_INSTANTIATE_PROGRAM_CASES(Programs, FusionTest, Programs());

}  // namespace
}  // namespace meshvk_e2e
