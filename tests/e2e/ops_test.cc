// Issue #12's constructs beyond annotations: 0-d tensors and full reductions
// to a scalar, tensor constants baked into the program (weights, tables), tensor.pad / concat / extract_slice /
// insert_slice (and their tosa forms) on split and unsplit dimensions, and SPMD functions (per-process code with
// collectives and halo exchanges written by the user). The programs of tests/e2e/ops_programs/ are compiled for every
// grid they fit, run with validation on, and compared with plain C++ loops written from each program's comment (never
// from meshvk's output); i32 results exactly. MESHVK_E2E_TOPOLOGY=group runs them on device group 0 (ctest: the
// emulated group of 4), default: logical devices.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <random>

#include "program_case_test.h"
#include "samples.h"
#include "vulkan_fixture.h"

namespace meshvk_e2e {
namespace {

using Shape = std::vector<int64_t>;
using Tensors = std::vector<HostTensor>;

int64_t Processes(const Shape& grid) {
  int64_t n = 1;
  for (int64_t s : grid) n *= s;
  return n;
}

// The group of process p over grid axis 0 (what `grid_axes = [0]` means):
// the processes that differ from p only in their axis-0 coordinate, in order.
std::vector<int64_t> GroupOverAxis0(const Shape& grid, int64_t p) {
  int64_t inner = Processes(grid) / grid[0];
  std::vector<int64_t> members;
  for (int64_t k = 0; k < grid[0]; ++k) members.push_back(k * inner + p % inner);
  return members;
}

// Rows [4p, 4p + 4) of a 4-column i32 tensor: process p's block.
std::vector<int32_t> Block(const HostTensor& x, int64_t p, int64_t rows) {
  const int64_t cols = x.shape[1];
  return std::vector<int32_t>(x.i.begin() + p * rows * cols, x.i.begin() + (p + 1) * rows * cols);
}

// Per-process results stacked along dimension 0 (the SPMD ABI).
HostTensor Stack(const std::vector<std::vector<int32_t>>& blocks, int64_t rows, int64_t cols) {
  HostTensor t = HostTensor::Zeros({rows * static_cast<int64_t>(blocks.size()), cols}, MESHVK_ELEMENT_I32);
  for (size_t p = 0; p < blocks.size(); ++p)
    std::copy(blocks[p].begin(), blocks[p].end(), t.i.begin() + p * rows * cols);
  return t;
}

struct OpsProgram {
  std::string name;                // tests/e2e/ops_programs/<name>.mlir
  std::vector<std::string> grids;  // grid overrides; "" = as written
  Shape written_grid;              // the grid in the file (for "")
  Tensors (*inputs)(const Shape& grid, std::mt19937*);
  Tensors (*reference)(const Tensors&, const Shape& grid);
};

Tensors StencilReference(const Tensors& in, const Shape&) {
  const HostTensor& x = in[0];
  const int64_t rows = x.shape[0], cols = x.shape[1];
  HostTensor y = HostTensor::Zeros(x.shape, MESHVK_ELEMENT_I32);
  auto at = [&](int64_t i, int64_t j) { return i < 0 || i >= rows ? 0 : x.i[i * cols + j]; };
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) y.i[i * cols + j] = at(i - 1, j) + at(i, j) + at(i + 1, j);
  return {y};
}

Tensors ReshapeCollectivesReference(const Tensors& in, const Shape& grid) {
  // grid_axes cover the whole grid: one group of n, in linear order.
  const int64_t n = Processes(grid);
  const HostTensor& x = in[0];
  std::vector<int32_t> sum(16, 0);
  for (int64_t q = 0; q < n; ++q) {
    std::vector<int32_t> b = Block(x, q, 4);
    for (int e = 0; e < 16; ++e) sum[e] += b[e];
  }
  std::vector<std::vector<int32_t>> all, mine, exchange;
  const int64_t chunk = 4 / n;  // rows of the split dimension per member
  for (int64_t p = 0; p < n; ++p) {
    all.push_back(std::vector<int32_t>(x.i.begin(), x.i.end()));
    mine.push_back(std::vector<int32_t>(sum.begin() + p * chunk * 4, sum.begin() + (p + 1) * chunk * 4));
    // Member q's rows [p * chunk, (p + 1) * chunk) placed at columns [4q, 4q + 4).
    std::vector<int32_t> out(chunk * 4 * n);
    for (int64_t q = 0; q < n; ++q) {
      std::vector<int32_t> b = Block(x, q, 4);
      for (int64_t r = 0; r < chunk; ++r)
        for (int64_t c = 0; c < 4; ++c) out[r * 4 * n + q * 4 + c] = b[(p * chunk + r) * 4 + c];
    }
    exchange.push_back(out);
  }
  return {Stack(all, 4 * n, 4), Stack(mine, chunk, 4), Stack(exchange, chunk, 4 * n)};
}

// Element (r, c) of a 2-D (or 1-D: c = 0) tensor, as a double (exact for i32).
double At(const HostTensor& x, int64_t r, int64_t c) {
  const int64_t cols = x.shape.size() > 1 ? x.shape[1] : 1;
  return x.type == MESHVK_ELEMENT_I32 ? x.i[r * cols + c] : x.f[r * cols + c];
}

// A tensor whose element (r, c) is at(r, c): the pad/concat/slice references
// describe each result element by element, from the program's comment.
template <typename F>
HostTensor Build(Shape shape, meshvk_element_type_t type, F at) {
  HostTensor t = HostTensor::Zeros(shape, type);
  const int64_t rows = shape[0], cols = shape.size() > 1 ? shape[1] : 1;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      if (type == MESHVK_ELEMENT_I32)
        t.i[r * cols + c] = static_cast<int32_t>(at(r, c));
      else
        t.f[r * cols + c] = static_cast<float>(at(r, c));
    }
  return t;
}

// Reductions to 0-d and rows, and 0-d scalar arguments.
std::vector<OpsProgram> ReductionAndScalarPrograms() {
  return {
      {"reduce_0d",
       {"1", "2", "4", "2x2"},
       {2},
       [](const Shape&, std::mt19937* r) { return Tensors{RandomI32({8, 6}, r)}; },
       [](const Tensors& in, const Shape&) {
         HostTensor s = HostTensor::Zeros({}, MESHVK_ELEMENT_I32);
         for (int32_t v : in[0].i) s.i[0] += v;
         return Tensors{s};
       }},
      {"reduce_0d_2d",
       {"", "1x2", "2x1", "1x1"},
       {2, 2},
       [](const Shape&, std::mt19937* r) { return Tensors{RandomF32({8, 16}, r)}; },
       [](const Tensors& in, const Shape&) {
         HostTensor m = HostTensor::Zeros({}, MESHVK_ELEMENT_F32);
         m.f[0] = *std::max_element(in[0].f.begin(), in[0].f.end());
         return Tensors{m};
       }},
      {"scalars_0d",
       {"1", "2", "4"},
       {2},
       [](const Shape&, std::mt19937* r) {
         HostTensor s = HostTensor::Zeros({}, MESHVK_ELEMENT_F32);
         s.f[0] = 1.5f;
         return Tensors{RandomF32({8, 4}, r), s};
       },
       [](const Tensors& in, const Shape&) {
         HostTensor y = in[0];
         for (float& v : y.f) v *= in[1].f[0];
         HostTensor t = HostTensor::Zeros({}, MESHVK_ELEMENT_F32);
         t.f[0] = in[1].f[0] + 1.0f;
         return Tensors{y, t};
       }},
      {"scalars_unannotated",
       {"1", "2", "3", "4"},
       {2},
       [](const Shape&, std::mt19937* r) {
         HostTensor s = HostTensor::Zeros({}, MESHVK_ELEMENT_F32);
         s.f[0] = -2.5f;
         return Tensors{RandomF32({10}, r), s};
       },
       [](const Tensors& in, const Shape&) {
         double sum = 0;
         for (float v : in[0].f) sum += v;
         HostTensor y = HostTensor::Zeros({}, MESHVK_ELEMENT_F32);
         y.f[0] = static_cast<float>(sum) * in[1].f[0];
         return Tensors{y, in[1]};
       }},
      {"tosa_reduce_sum",
       {"1", "2", "4", "2x2"},
       {4},
       [](const Shape&, std::mt19937* r) { return Tensors{RandomF32({16, 8}, r)}; },
       [](const Tensors& in, const Shape&) {
         HostTensor s = HostTensor::Zeros({16, 1}, MESHVK_ELEMENT_F32);
         for (int64_t i = 0; i < 16; ++i) {
           double sum = 0;
           for (int64_t j = 0; j < 8; ++j) sum += in[0].f[i * 8 + j];
           s.f[i] = static_cast<float>(sum);
         }
         return Tensors{s};
       }},
  };
}

// Reductions long enough for meshvk-split-reductions (partials, a tail, a
// combine per process, then the all-reduce): sums in double (f32) or int64
// (i32), max with std::max_element, from each program's comment.
std::vector<OpsProgram> LongReductionPrograms() {
  return {
      {"reduce_all_f32",
       {"1", "2"},
       {2},
       [](const Shape&, std::mt19937* r) { return Tensors{RandomF32({131074}, r)}; },
       [](const Tensors& in, const Shape&) {
         double sum = 0;
         for (float v : in[0].f) sum += v;
         HostTensor s = HostTensor::Zeros({}, MESHVK_ELEMENT_F32), m = s, a = s;
         s.f[0] = static_cast<float>(sum);
         m.f[0] = *std::max_element(in[0].f.begin(), in[0].f.end());
         a.f[0] = static_cast<float>(sum / 131074.0);
         return Tensors{s, m, a};
       }},
      {"reduce_all_i32_2d",
       {"1", "2"},
       {2},
       [](const Shape&, std::mt19937* r) { return Tensors{RandomI32({256, 1000}, r)}; },
       [](const Tensors& in, const Shape&) {
         int64_t sum = 0;
         for (int32_t v : in[0].i) sum += v;
         HostTensor s = HostTensor::Zeros({}, MESHVK_ELEMENT_I32), m = s;
         s.i[0] = static_cast<int32_t>(sum);
         m.i[0] = *std::max_element(in[0].i.begin(), in[0].i.end());
         return Tensors{s, m};
       }},
      {"reduce_rows_long",
       {"1", "2"},
       {2},
       [](const Shape&, std::mt19937* r) { return Tensors{RandomI32({4, 300001}, r)}; },
       [](const Tensors& in, const Shape&) {
         HostTensor s = HostTensor::Zeros({4}, MESHVK_ELEMENT_I32);
         for (int64_t i = 0; i < 4; ++i) {
           int64_t sum = 0;
           for (int64_t j = 0; j < 300001; ++j) sum += in[0].i[i * 300001 + j];
           s.i[i] = static_cast<int32_t>(sum);
         }
         return Tensors{s};
       }},
  };
}

// Reshapes, pads, concats, slices and halo windows: data moved, not computed.
std::vector<OpsProgram> ShapePrograms() {
  return {
      {"reshape_rows",
       {"1", "2", "4"},
       {2},
       [](const Shape&, std::mt19937* r) { return Tensors{RandomI32({4, 2, 8}, r)}; },
       [](const Tensors& in, const Shape&) {
         HostTensor y = in[0];
         for (int32_t& v : y.i) v = -v;
         return Tensors{y};
       }},
      {"pad_concat_cols",
       {"1", "2", "3", "4", "2x2"},
       {2},
       [](const Shape&, std::mt19937* r) { return Tensors{RandomI32({8, 4}, r), RandomI32({8, 2}, r)}; },
       [](const Tensors& in, const Shape&) {
         return Tensors{Build({8, 8}, MESHVK_ELEMENT_I32, [&](int64_t r, int64_t c) {
           return c == 0 || c == 5 ? 7 : c < 5 ? At(in[0], r, c - 1) : At(in[1], r, c - 6);
         })};
       }},
      {"pad_rows",
       {"1", "2", "3", "4"},
       {2},
       [](const Shape&, std::mt19937* r) { return Tensors{RandomI32({8, 4}, r)}; },
       [](const Tensors& in, const Shape&) {
         return Tensors{Build({11, 4}, MESHVK_ELEMENT_I32,
                              [&](int64_t r, int64_t c) { return r >= 1 && r < 9 ? At(in[0], r - 1, c) : -1; })};
       }},
      {"concat_rows_2x2",
       {"", "1x2", "2x1", "1x1"},
       {2, 2},
       [](const Shape&, std::mt19937* r) { return Tensors{RandomI32({8, 8}, r), RandomI32({4, 8}, r)}; },
       [](const Tensors& in, const Shape&) {
         return Tensors{Build({12, 8}, MESHVK_ELEMENT_I32,
                              [&](int64_t r, int64_t c) { return r < 8 ? At(in[0], r, c) : At(in[1], r - 8, c); })};
       }},
      {"slices_2x2",
       {"", "1x2", "2x1"},
       {2, 2},
       [](const Shape&, std::mt19937* r) { return Tensors{RandomI32({8, 8}, r)}; },
       [](const Tensors& in, const Shape&) {
         const HostTensor& x = in[0];
         const meshvk_element_type_t i32 = MESHVK_ELEMENT_I32;
         return Tensors{Build({8, 4}, i32, [&](int64_t r, int64_t c) { return At(x, r, c + 2); }),
                        Build({4, 8}, i32, [&](int64_t r, int64_t c) { return At(x, r + 2, c); }),
                        Build({8, 8}, i32, [&](int64_t r, int64_t c) { return r >= 1 && r < 5 ? At(x, r + 1, c) : 0; }),
                        Build({8, 4}, i32, [&](int64_t r, int64_t c) { return At(x, r, 1 + 2 * c); }),
                        Build({8}, i32, [&](int64_t r, int64_t) { return At(x, r, 3); })};
       }},
      {"tosa_pad_concat_slice",
       {"1", "2", "3", "4"},
       {2},
       [](const Shape&, std::mt19937* r) { return Tensors{RandomF32({8, 4}, r), RandomF32({8, 2}, r)}; },
       [](const Tensors& in, const Shape&) {
         return Tensors{Build({8, 5}, MESHVK_ELEMENT_F32, [&](int64_t r, int64_t c) {
           const int64_t k = c + 2;  // column of the concatenation
           return k < 6 ? (k == 0 || k == 5 ? 0.5 : At(in[0], r, k - 1)) : At(in[1], r, k - 6);
         })};
       }},
      {"stencil_pad_windows",
       {"1", "2", "3", "4"},
       {2},
       [](const Shape&, std::mt19937* r) { return Tensors{RandomI32({8, 4}, r)}; },
       StencilReference},
      {"halo_annotations",
       {"1", "2", "4"},
       {2},
       [](const Shape&, std::mt19937* r) { return Tensors{RandomI32({8, 4}, r)}; },
       [](const Tensors& in, const Shape&) {
         HostTensor y = in[0];
         for (int32_t& v : y.i) v = v * v + v;
         return Tensors{y};
       }},
  };
}

// Element-wise math, constants and attention rows.
std::vector<OpsProgram> ElementwisePrograms() {
  return {
      {"tosa_select_erf",
       {"1", "2", "4"},
       {2},
       [](const Shape&, std::mt19937* r) { return Tensors{RandomF32({8, 4}, r), RandomF32({8, 4}, r)}; },
       [](const Tensors& in, const Shape&) {
         HostTensor y = in[0];
         for (size_t e = 0; e < y.f.size(); ++e)
           y.f[e] = std::max(in[0].f[e], in[1].f[e]) + static_cast<float>(std::erf(double{in[0].f[e]}));
         return Tensors{y};
       }},
      {"constants_f32",
       {"1", "2", "3", "4", "2x2"},
       {2},
       [](const Shape&, std::mt19937* r) { return Tensors{RandomF32({8, 4}, r)}; },
       [](const Tensors& in, const Shape&) {
         const double w[4][3] = {{1, 0, -1}, {2, 0.5, 0}, {0, -1, 3}, {1, 1, 1}};
         const double bias[3] = {0.5, -1, 2}, m[4] = {1, -1, 2, 0.5};
         HostTensor s = HostTensor::Zeros({8}, MESHVK_ELEMENT_F32);
         for (int64_t i = 0; i < 8; ++i) {
           double sum = 0;
           for (int64_t j = 0; j < 4; ++j) sum += At(in[0], i, j) * m[j];
           s.f[i] = static_cast<float>(sum);
         }
         return Tensors{Build({8, 3}, MESHVK_ELEMENT_F32,
                              [&](int64_t i, int64_t j) {
                                double dot = 0;
                                for (int64_t k = 0; k < 4; ++k) dot += At(in[0], i, k) * w[k][j];
                                return dot + bias[j] + static_cast<double>(i - 2 * j);
                              }),
                        s};
       }},
      {"constants_tosa_i32",
       {"1", "2", "3", "4", "2x2"},
       {2},
       [](const Shape&, std::mt19937* r) { return Tensors{RandomI32({6, 4}, r)}; },
       [](const Tensors& in, const Shape&) {
         const int32_t k[6][4] = {{1, -2, 3, -4},    {5, 6, -7, 8},     {-9, 10, 11, 12},
                                  {13, -14, 15, 16}, {17, 18, -19, 20}, {-21, 22, 23, -24}};
         const int32_t r[4] = {10, 20, 30, 40};
         return Tensors{
             Build({6, 4}, MESHVK_ELEMENT_I32, [&](int64_t i, int64_t j) { return At(in[0], i, j) * k[i][j] + r[j]; }),
             Build({6, 4}, MESHVK_ELEMENT_I32, [&](int64_t i, int64_t j) { return k[i][j]; })};
       }},
      {"tosa_attention_rows",
       {"1", "2", "3", "4"},
       {2},
       [](const Shape&, std::mt19937* r) {
         return Tensors{RandomF32({1, 5, 4}, r), RandomF32({1, 4, 8}, r), RandomF32({1, 8, 4}, r)};
       },
       [](const Tensors& in, const Shape&) {
         const HostTensor &q = in[0], &kt = in[1], &v = in[2];
         HostTensor o = HostTensor::Zeros({1, 5, 4}, MESHVK_ELEMENT_F32);
         for (int64_t i = 0; i < 5; ++i) {
           double s[8], e[8], m = -1e30, sum = 0;
           for (int64_t j = 0; j < 8; ++j) {
             s[j] = 0;
             for (int64_t k = 0; k < 4; ++k) s[j] += double{q.f[i * 4 + k]} * kt.f[k * 8 + j];
             m = std::max(m, s[j]);
           }
           for (int64_t j = 0; j < 8; ++j) sum += e[j] = std::exp(s[j] - m);
           for (int64_t c = 0; c < 4; ++c) {
             double acc = 0;
             for (int64_t j = 0; j < 8; ++j) acc += e[j] / sum * v.f[j * 4 + c];
             o.f[i * 4 + c] = static_cast<float>(acc);
           }
         }
         return Tensors{o};
       }},
      {"math_expansions",
       {"1", "2", "3"},
       {2},
       [](const Shape&, std::mt19937* r) {
         HostTensor k = RandomI32({8, 4}, r);
         k.i[0] = 0;  // cttz(0) = 32
         k.i[1] = -1;
         k.i[2] = INT32_MIN;
         return Tensors{RandomF32({8, 4}, r), RandomF32({8, 4}, r), k};
       },
       [](const Tensors& in, const Shape&) {
         HostTensor c = in[0], t = in[0], u = in[0], n = in[2];
         for (size_t e = 0; e < c.f.size(); ++e) {
           const double a = in[0].f[e], b = in[1].f[e];
           c.f[e] = static_cast<float>(std::cbrt(a));
           t.f[e] = static_cast<float>(std::atan2(a, b));
           u.f[e] = std::trunc(4.0f * in[0].f[e]);
         }
         for (size_t e = 0; e < n.i.size(); ++e) {
           const uint32_t k = static_cast<uint32_t>(in[2].i[e]);
           n.i[e] = __builtin_popcount(k) + 100 * (k == 0 ? 32 : __builtin_ctz(k));
         }
         return Tensors{c, t, u, n};
       }},
      {"tensor_reshape_rows",
       {"1", "2"},
       {2},
       [](const Shape&, std::mt19937* r) { return Tensors{RandomI32({8, 4}, r)}; },
       [](const Tensors& in, const Shape&) {
         // Row-major data is unchanged by a reshape: only the shape differs.
         HostTensor f = in[0], g = in[0], h = in[0];
         f.shape = {32};
         g.shape = {2, 4, 4};
         h.shape = {4, 8};
         return Tensors{f, g, h};
       }},
  };
}

// Programs written per process (shard.* collectives, send/recv, stencils by hand).
std::vector<OpsProgram> SpmdPrograms() {
  return {
      {"spmd_stencil_rows",
       {"1", "2", "4"},
       {2},
       [](const Shape& grid, std::mt19937* r) { return Tensors{RandomI32({4 * Processes(grid), 8}, r)}; },
       StencilReference},
      {"spmd_stencil_rows_2d",
       {"", "1x2", "2x1"},
       {2, 2},
       [](const Shape& grid, std::mt19937* r) { return Tensors{RandomI32({4 * Processes(grid), 8}, r)}; },
       StencilReference},
      {"spmd_collectives",
       {"1", "2", "4", "2x2"},
       {2},
       [](const Shape& grid, std::mt19937* r) { return Tensors{RandomI32({4 * Processes(grid), 4}, r)}; },
       [](const Tensors& in, const Shape& grid) {
         const int64_t n = Processes(grid);
         std::vector<std::vector<int32_t>> sum, root, prev;
         for (int64_t p = 0; p < n; ++p) {
           std::vector<int64_t> members = GroupOverAxis0(grid, p);
           std::vector<int32_t> s(16, 0);
           for (int64_t q : members) {
             std::vector<int32_t> b = Block(in[0], q, 4);
             for (int e = 0; e < 16; ++e) s[e] += b[e];
           }
           sum.push_back(s);
           root.push_back(Block(in[0], members.front(), 4));
           int64_t k = std::find(members.begin(), members.end(), p) - members.begin();
           int64_t m = static_cast<int64_t>(members.size());
           prev.push_back(Block(in[0], members[(k - 1 + m) % m], 4));
         }
         return Tensors{Stack(sum, 4, 4), Stack(root, 4, 4), Stack(prev, 4, 4)};
       }},
      {"spmd_send_recv",
       {"1", "2", "3", "4", "2x2"},
       {2},
       [](const Shape& grid, std::mt19937* r) { return Tensors{RandomI32({4 * Processes(grid), 4}, r)}; },
       [](const Tensors& in, const Shape& grid) {
         const int64_t n = Processes(grid);
         std::vector<std::vector<int32_t>> prev, next;
         for (int64_t p = 0; p < n; ++p) {
           std::vector<int64_t> members = GroupOverAxis0(grid, p);
           int64_t k = std::find(members.begin(), members.end(), p) - members.begin();
           int64_t m = static_cast<int64_t>(members.size());
           prev.push_back(Block(in[0], members[(k - 1 + m) % m], 4));
           next.push_back(Block(in[0], members[(k + 1) % m], 4));
         }
         return Tensors{Stack(prev, 4, 4), Stack(next, 4, 4)};
       }},
      {"spmd_reshape_collectives_2",
       {""},
       {2},
       [](const Shape& grid, std::mt19937* r) { return Tensors{RandomI32({4 * Processes(grid), 4}, r)}; },
       ReshapeCollectivesReference},
      {"spmd_reshape_collectives_4",
       {""},
       {4},
       [](const Shape& grid, std::mt19937* r) { return Tensors{RandomI32({4 * Processes(grid), 4}, r)}; },
       ReshapeCollectivesReference},
      {"spmd_reshape_collectives_2x2",
       {""},
       {2, 2},
       [](const Shape& grid, std::mt19937* r) { return Tensors{RandomI32({4 * Processes(grid), 4}, r)}; },
       ReshapeCollectivesReference},
  };
}

const std::vector<OpsProgram>& Programs() {
  static const std::vector<OpsProgram> programs = [] {
    std::vector<OpsProgram> all;
    for (auto family :
         {ReductionAndScalarPrograms, LongReductionPrograms, ShapePrograms, ElementwisePrograms, SpmdPrograms})
      for (OpsProgram& p : family()) all.push_back(std::move(p));
    return all;
  }();
  return programs;
}

class OpsTest : public ProgramCaseTest {};

TEST_P(OpsTest, MatchesHostLoops) {
  const OpsProgram* program = FindProgram(Programs(), GetParam().program);
  ASSERT_NE(program, nullptr);
  meshvk::CompiledProgram compiled;
  const uint32_t processes = CompileThisCase(MESHVK_OPS_PROGRAMS_DIR, "meshvk ops test",
                                             static_cast<uint32_t>(Processes(program->written_grid)), &compiled);
  ASSERT_NE(processes, 0u);
  Shape grid = program->written_grid;
  std::string error;
  if (!GetParam().grid.empty()) ASSERT_TRUE(meshvk::parseGridShape(GetParam().grid, &grid, &error)) << error;
  std::mt19937 rng(20261201);
  Tensors inputs = program->inputs(grid, &rng);
  RunAndCompare(compiled.artifact, processes, inputs, program->reference(inputs, grid), 1e-4, 1e-5, What());
}

MESHVK_INSTANTIATE_PROGRAM_CASES(Programs, OpsTest, Programs());

}  // namespace
}  // namespace meshvk_e2e
