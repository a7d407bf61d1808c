// Inputs and host references of the sample programs (see samples.h). The
// references are written from each program's own comment (what it computes),
// with double accumulation; they share nothing with the compiler or runtime.
#include "samples.h"

#include <cmath>
#include <random>
#include <sstream>
#include <stdexcept>

namespace meshvk_e2e {
namespace {

HostTensor RandomInt(std::vector<int64_t> shape, std::mt19937* rng) {
  HostTensor t = HostTensor::Zeros(std::move(shape), MESHVK_ELEMENT_I32);
  std::uniform_int_distribution<int32_t> u(-1000000, 1000000);
  for (int32_t& v : t.i) v = u(*rng);
  return t;
}

template <typename... Shapes>
std::vector<HostTensor> RandomAll(uint32_t seed, Shapes... shapes) {
  std::mt19937 rng(seed);
  return {RandomF32(shapes, &rng)...};
}

using Shape = std::vector<int64_t>;

HostTensor Relu(HostTensor t) {
  for (float& v : t.f) v = v > 0.0f ? v : 0.0f;
  return t;
}

const std::vector<std::string> kOneD = {"1", "2", "4", "2x2"};

}  // namespace

HostTensor RandomF32(std::vector<int64_t> shape, std::mt19937* rng) {
  HostTensor t = HostTensor::Zeros(std::move(shape), MESHVK_ELEMENT_F32);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (float& v : t.f) v = u(*rng);
  return t;
}

HostTensor RandomI32(std::vector<int64_t> shape, std::mt19937* rng) {
  HostTensor t = HostTensor::Zeros(std::move(shape), MESHVK_ELEMENT_I32);
  for (int32_t& v : t.i) v = static_cast<int32_t>((*rng)() % 2001) - 1000;
  return t;
}

int64_t HostTensor::elements() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

HostTensor HostTensor::Zeros(std::vector<int64_t> shape, meshvk_element_type_t type) {
  HostTensor t;
  t.shape = std::move(shape);
  t.type = type;
  if (type == MESHVK_ELEMENT_I32)
    t.i.assign(t.elements(), 0);
  else
    t.f.assign(t.elements(), 0.0f);
  return t;
}

HostTensor MatMul(const HostTensor& a, const HostTensor& b) {
  const int64_t m = a.shape[0], k = a.shape[1], n = b.shape[1];
  HostTensor c = HostTensor::Zeros({m, n}, MESHVK_ELEMENT_F32);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (int64_t l = 0; l < k; ++l) sum += double(a.f[i * k + l]) * double(b.f[l * n + j]);
      c.f[i * n + j] = static_cast<float>(sum);
    }
  return c;
}

HostTensor BatchMatMul(const HostTensor& a, const HostTensor& b,
                       const std::function<float(int64_t, double)>& epilogue) {
  const int64_t batch = a.shape[0], m = a.shape[1], k = a.shape[2], n = b.shape[2];
  HostTensor c = HostTensor::Zeros({batch, m, n}, MESHVK_ELEMENT_F32);
  for (int64_t p = 0; p < batch; ++p)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double sum = 0;
        for (int64_t l = 0; l < k; ++l) sum += double(a.f[(p * m + i) * k + l]) * double(b.f[(p * k + l) * n + j]);
        const int64_t o = (p * m + i) * n + j;
        c.f[o] = epilogue(o, sum);
      }
  return c;
}

HostTensor BatchMatMul(const HostTensor& a, const HostTensor& b) {
  return BatchMatMul(a, b, [](int64_t, double sum) { return static_cast<float>(sum); });
}

const std::vector<Sample>& Samples() {
  static const std::vector<Sample> samples = {
      {"seed_matmul",
       [](uint32_t s) { return RandomAll(s, Shape{2, 3}, Shape{3, 2}); },
       [](const std::vector<HostTensor>& in) { return std::vector<HostTensor>{MatMul(in[0], in[1])}; },
       // 2 rows: a grid of 4 would split them unevenly.
       {"1", "2", "2x2"}},
      {"batch_rows",
       [](uint32_t s) { return RandomAll(s, Shape{10, 8}, Shape{8, 6}); },
       [](const std::vector<HostTensor>& in) {
         HostTensor y = Relu(MatMul(in[0], in[1]));
         HostTensor sums = HostTensor::Zeros({6}, MESHVK_ELEMENT_F32);
         for (int64_t i = 0; i < 10; ++i)
           for (int64_t j = 0; j < 6; ++j) sums.f[j] += y.f[i * 6 + j];
         return std::vector<HostTensor>{y, sums, y};
       },
       // 10 rows: uneven on 3 and 4 processes.
       {"1", "2", "3", "4", "2x2"}},
      {"matmul_rows", [](uint32_t s) { return RandomAll(s, Shape{256, 128}, Shape{128, 64}); },
       [](const std::vector<HostTensor>& in) { return std::vector<HostTensor>{MatMul(in[0], in[1])}; }, kOneD},
      {"matmul_cols", [](uint32_t s) { return RandomAll(s, Shape{64, 96}, Shape{96, 128}); },
       [](const std::vector<HostTensor>& in) { return std::vector<HostTensor>{MatMul(in[0], in[1])}; }, kOneD},
      {"matmul_contraction", [](uint32_t s) { return RandomAll(s, Shape{64, 256}, Shape{256, 64}); },
       [](const std::vector<HostTensor>& in) { return std::vector<HostTensor>{MatMul(in[0], in[1])}; }, kOneD},
      {"mlp_megatron", [](uint32_t s) { return RandomAll(s, Shape{32, 64}, Shape{64, 256}, Shape{256, 64}); },
       [](const std::vector<HostTensor>& in) {
         return std::vector<HostTensor>{MatMul(Relu(MatMul(in[0], in[1])), in[2])};
       },
       kOneD},
      {"mlp_data_tensor_parallel",
       [](uint32_t s) { return RandomAll(s, Shape{32, 64}, Shape{64, 128}, Shape{128, 64}); },
       [](const std::vector<HostTensor>& in) {
         return std::vector<HostTensor>{MatMul(Relu(MatMul(in[0], in[1])), in[2])};
       },
       // A 2-D program: both grid axes must exist.
       {"1x1", "2x1", "1x2", "2x2", "4x1", "1x4"}},
      {"reduce_rows", [](uint32_t s) { return RandomAll(s, Shape{128, 256}); },
       [](const std::vector<HostTensor>& in) {
         const HostTensor& x = in[0];
         HostTensor r = HostTensor::Zeros({x.shape[0]}, MESHVK_ELEMENT_F32);
         for (int64_t i = 0; i < x.shape[0]; ++i) {
           double sum = 0;
           for (int64_t j = 0; j < x.shape[1]; ++j) sum += x.f[i * x.shape[1] + j];
           r.f[i] = static_cast<float>(sum);
         }
         return std::vector<HostTensor>{r};
       },
       kOneD},
      {"batch_matmul", [](uint32_t s) { return RandomAll(s, Shape{8, 32, 64}, Shape{8, 64, 48}); },
       [](const std::vector<HostTensor>& in) { return std::vector<HostTensor>{BatchMatMul(in[0], in[1])}; }, kOneD},
      {"transpose_reshard",
       [](uint32_t s) {
         std::mt19937 rng(s);
         return std::vector<HostTensor>{RandomInt({64, 32}, &rng)};
       },
       [](const std::vector<HostTensor>& in) {
         const HostTensor& x = in[0];
         HostTensor y = HostTensor::Zeros({x.shape[1], x.shape[0]}, MESHVK_ELEMENT_I32);
         for (int64_t i = 0; i < x.shape[0]; ++i)
           for (int64_t j = 0; j < x.shape[1]; ++j) y.i[j * x.shape[0] + i] = x.i[i * x.shape[1] + j];
         return std::vector<HostTensor>{y};
       },
       kOneD},
  };
  return samples;
}

const Sample& SampleNamed(const std::string& name) {
  for (const Sample& s : Samples())
    if (s.name == name) return s;
  throw std::invalid_argument("no sample named " + name);
}

std::string SamplePath(const std::string& name) { return std::string(MESHVK_SAMPLES_DIR) + "/" + name + ".mlir"; }

std::string Compare(const HostTensor& actual, const HostTensor& expected, double atol, double rtol) {
  if (actual.shape != expected.shape || actual.type != expected.type) return "shape or type differs";
  for (int64_t e = 0; e < expected.elements(); ++e) {
    bool ok;
    std::ostringstream what;
    if (expected.type == MESHVK_ELEMENT_I32) {
      ok = actual.i[e] == expected.i[e];
      what << actual.i[e] << " vs expected " << expected.i[e];
    } else {
      double a = actual.f[e], b = expected.f[e];
      ok = std::isfinite(a) && std::fabs(a - b) <= atol + rtol * std::fabs(b);
      what << a << " vs expected " << b;
    }
    if (!ok) return "element " + std::to_string(e) + ": " + what.str();
  }
  return "";
}

}  // namespace meshvk_e2e
