#include "host_references.h"

#include <cmath>
#include <cstring>
#include <random>

namespace meshvk_conformance {
namespace {

// IEEE binary16 <-> float, for f16 programs.
float HalfToFloat(uint16_t h) {
  uint32_t sign = (h >> 15) & 1, exp = (h >> 10) & 31, mant = h & 1023;
  float v = exp == 0    ? std::ldexp(float(mant), -24)
            : exp == 31 ? (mant ? NAN : INFINITY)
                        : std::ldexp(float(mant | 1024), int(exp) - 25);
  return sign ? -v : v;
}

uint16_t FloatToHalf(float f) {
  // Round to nearest even through the float's bits (inputs are in [-1, 1)).
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000;
  int32_t exp = int32_t((x >> 23) & 255) - 127 + 15;
  uint32_t mant = x & 0x7fffff;
  if (exp <= 0) return uint16_t(sign);  // flush tiny values (not produced by RandomInput)
  uint32_t h = sign | (uint32_t(exp) << 10) | (mant >> 13);
  uint32_t rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1))) ++h;
  return uint16_t(h);
}

uint32_t ElementSize(meshvk_element_type_t t) { return t == MESHVK_ELEMENT_F16 ? 2 : 4; }

HostTensor Zeros(std::vector<uint64_t> shape, meshvk_element_type_t type) {
  HostTensor t;
  t.shape = std::move(shape);
  t.type = type;
  t.values.assign(t.Count(), 0.0);
  return t;
}

// C[b] = A[b] x B[b] for every batch b (2-D tensors are one batch).
HostTensor BatchMatmul(const HostTensor& a, const HostTensor& b) {
  size_t r = a.shape.size();
  uint64_t batch = r == 3 ? a.shape[0] : 1, m = a.shape[r - 2], k = a.shape[r - 1], n = b.shape[r - 1];
  std::vector<uint64_t> shape = r == 3 ? std::vector<uint64_t>{batch, m, n} : std::vector<uint64_t>{m, n};
  HostTensor c = Zeros(shape, a.type);
  for (uint64_t p = 0; p < batch; ++p)
    for (uint64_t i = 0; i < m; ++i)
      for (uint64_t j = 0; j < n; ++j) {
        double s = 0;
        for (uint64_t q = 0; q < k; ++q) s += a.values[(p * m + i) * k + q] * b.values[(p * k + q) * n + j];
        c.values[(p * m + i) * n + j] = s;
      }
  return c;
}

HostTensor Relu(HostTensor t) {
  for (double& v : t.values) v = v > 0 ? v : 0;
  return t;
}

std::vector<HostTensor> Matmul(const std::vector<HostTensor>& in) { return {BatchMatmul(in[0], in[1])}; }

std::vector<HostTensor> Mlp(const std::vector<HostTensor>& in) {
  return {BatchMatmul(Relu(BatchMatmul(in[0], in[1])), in[2])};
}

std::vector<HostTensor> RowSums(const std::vector<HostTensor>& in) {
  const HostTensor& x = in[0];
  HostTensor s = Zeros({x.shape[0]}, x.type);
  for (uint64_t i = 0; i < x.shape[0]; ++i)
    for (uint64_t j = 0; j < x.shape[1]; ++j) s.values[i] += x.values[i * x.shape[1] + j];
  return {s};
}

std::vector<HostTensor> Transpose(const std::vector<HostTensor>& in) {
  const HostTensor& x = in[0];
  HostTensor y = Zeros({x.shape[1], x.shape[0]}, x.type);
  for (uint64_t i = 0; i < x.shape[0]; ++i)
    for (uint64_t j = 0; j < x.shape[1]; ++j) y.values[j * x.shape[0] + i] = x.values[i * x.shape[1] + j];
  return {y};
}

// y = relu(conv2d(x, w) + bias), NHWC input, OHWI weights (TOSA's layout),
// stride 1, no padding ("valid").
std::vector<HostTensor> ConvRelu(const std::vector<HostTensor>& in) {
  const HostTensor &x = in[0], &w = in[1], &bias = in[2];
  uint64_t n = x.shape[0], h = x.shape[1], wd = x.shape[2], c = x.shape[3];
  uint64_t o = w.shape[0], kh = w.shape[1], kw = w.shape[2];
  uint64_t oh = h - kh + 1, ow = wd - kw + 1;
  HostTensor y = Zeros({n, oh, ow, o}, x.type);
  for (uint64_t b = 0; b < n; ++b)
    for (uint64_t i = 0; i < oh; ++i)
      for (uint64_t j = 0; j < ow; ++j)
        for (uint64_t f = 0; f < o; ++f) {
          double s = bias.values[f];
          for (uint64_t di = 0; di < kh; ++di)
            for (uint64_t dj = 0; dj < kw; ++dj)
              for (uint64_t ch = 0; ch < c; ++ch)
                s += x.values[((b * h + i + di) * wd + j + dj) * c + ch] * w.values[((f * kh + di) * kw + dj) * c + ch];
          y.values[((b * oh + i) * ow + j) * o + f] = s > 0 ? s : 0;
        }
  return {y};
}

std::string Index(const std::vector<uint64_t>& shape, uint64_t flat) {
  std::vector<uint64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = shape[d] ? flat % shape[d] : 0;
    flat = shape[d] ? flat / shape[d] : 0;
  }
  std::string s = "[";
  for (size_t d = 0; d < idx.size(); ++d) s += (d ? ", " : "") + std::to_string(idx[d]);
  return s + "]";
}

}  // namespace

uint64_t HostTensor::Count() const {
  uint64_t n = 1;
  for (uint64_t d : shape) n *= d;
  return n;
}

std::vector<uint8_t> HostTensor::Bytes() const {
  std::vector<uint8_t> out(values.size() * ElementSize(type));
  for (size_t i = 0; i < values.size(); ++i) {
    if (type == MESHVK_ELEMENT_F32) {
      float f = float(values[i]);
      std::memcpy(&out[i * 4], &f, 4);
    } else if (type == MESHVK_ELEMENT_I32) {
      int32_t v = int32_t(values[i]);
      std::memcpy(&out[i * 4], &v, 4);
    } else {
      uint16_t h = FloatToHalf(float(values[i]));
      std::memcpy(&out[i * 2], &h, 2);
    }
  }
  return out;
}

HostTensor HostTensor::FromBytes(const meshvk_tensor_info_t& info, const std::vector<uint8_t>& bytes) {
  HostTensor t;
  t.shape.assign(info.shape, info.shape + info.rank);
  t.type = info.element_type;
  t.values.resize(t.Count());
  for (size_t i = 0; i < t.values.size(); ++i) {
    if (t.type == MESHVK_ELEMENT_F32) {
      float f;
      std::memcpy(&f, &bytes[i * 4], 4);
      t.values[i] = f;
    } else if (t.type == MESHVK_ELEMENT_I32) {
      int32_t v;
      std::memcpy(&v, &bytes[i * 4], 4);
      t.values[i] = v;
    } else {
      uint16_t h;
      std::memcpy(&h, &bytes[i * 2], 2);
      t.values[i] = HalfToFloat(h);
    }
  }
  return t;
}

HostTensor RandomInput(const meshvk_tensor_info_t& info, uint32_t seed) {
  HostTensor t;
  t.shape.assign(info.shape, info.shape + info.rank);
  t.type = info.element_type;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> real(-1.0f, 1.0f);
  std::uniform_int_distribution<int32_t> integer(-100, 99);
  t.values.resize(t.Count());
  for (double& v : t.values) {
    v = t.type == MESHVK_ELEMENT_I32 ? integer(rng) : real(rng);
    if (t.type == MESHVK_ELEMENT_F16) v = HalfToFloat(FloatToHalf(float(v)));  // what the device sees
  }
  return t;
}

const std::vector<ProgramReference>& ProgramReferences() {
  static const std::vector<ProgramReference> references = {
      {"matmul_rows", "all_gather of row shards (rows of A over 4)", Matmul, 1e-4, 1e-4},
      {"matmul_cols", "all_gather of column shards", Matmul, 1e-4, 1e-4},
      {"matmul_contraction", "all_reduce of partial sums (contraction split over 4)", Matmul, 1e-4, 1e-4},
      {"batch_matmul", "batch split, gathered", Matmul, 1e-4, 1e-4},
      {"reduce_rows", "all_reduce of row sums (columns split)", RowSums, 1e-4, 1e-4},
      {"transpose_reshard", "reshard rows -> columns (all_to_all), i32, gathered", Transpose, 0, 0},
      {"mlp_megatron", "Megatron MLP: column/row split weights, one all_reduce", Mlp, 1e-4, 1e-4},
      {"mlp_data_tensor_parallel", "2x2 grid: batch over axis 0, weights over axis 1", Mlp, 1e-4, 1e-4},
      {"uneven_matmul", "uneven shards: 10 rows over 4 processes, gathered", Matmul, 1e-4, 1e-4},
      {"conv_batch", "a convolution (tosa.conv2d + bias + relu) with the batch split, gathered", ConvRelu, 1e-4, 1e-4},
  };
  return references;
}

std::string FirstDifference(const std::vector<HostTensor>& got, const std::vector<HostTensor>& want, double atol,
                            double rtol) {
  if (got.size() != want.size())
    return std::to_string(got.size()) + " results, expected " + std::to_string(want.size());
  for (size_t r = 0; r < got.size(); ++r) {
    if (got[r].values.size() != want[r].values.size())
      return "result " + std::to_string(r) + ": " + std::to_string(got[r].values.size()) + " elements, expected " +
             std::to_string(want[r].values.size());
    for (size_t i = 0; i < got[r].values.size(); ++i) {
      double g = got[r].values[i], w = want[r].values[i];
      if (std::isnan(g) && std::isnan(w)) continue;
      if (std::fabs(g - w) <= atol + rtol * std::fabs(w)) continue;
      char buf[160];
      std::snprintf(buf, sizeof buf, ": got %.9g, expected %.9g", g, w);
      return "result " + std::to_string(r) + " " + Index(want[r].shape, i) + buf;
    }
  }
  return "";
}

}  // namespace meshvk_conformance
