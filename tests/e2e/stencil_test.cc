// Stencils written on the global tensor (issue #12, halos): tensor.pad with a constant value, then
// tensor.extract_slice windows of the unpadded shape, combined elementwise. meshvk turns each window into a
// meshvk.window, so each process copies its own rows locally and pulls only the borders its shifts reach from
// its neighbours. Every case is compiled for its grid, run with validation on (logical devices; ctest also runs
// the list on the emulated device group of 4), and compared with plain C++ loops (the stencil's definition,
// never meshvk's output); i32 exactly. The bytes each process pulls are checked against a count made here from
// the shard boxes (the window's elements inside the tensor and outside the process's own shard), and no other
// collective may appear (the split dimension is never gathered).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <sstream>

#include "program_case_test.h"
#include "samples.h"
#include "vulkan_fixture.h"

namespace meshvk_e2e {
namespace {

struct Window {
  int64_t rows, cols;  // shift: result[i, j] = x[i + rows, j + cols], or the pad value outside x
  int32_t weight;
};

struct StencilCase {
  std::string name;
  int64_t rows, cols;
  bool f32;
  std::vector<int64_t> grid;
  std::vector<int64_t> row_axes, col_axes;  // grid axes each dimension is split over
  std::vector<Window> windows;
  int32_t pad;
};

std::string Axes(const std::vector<int64_t>& axes) {
  std::string s = "[";
  for (size_t i = 0; i < axes.size(); ++i) s += (i ? ", " : "") + std::to_string(axes[i]);
  return s + "]";
}

// The program: y = sum_k weight_k * window_k, windows cut from one pad of x.
std::string Program(const StencilCase& c) {
  int64_t low_r = 0, high_r = 0, low_c = 0, high_c = 0;
  for (const Window& w : c.windows) {
    low_r = std::max(low_r, -w.rows);
    high_r = std::max(high_r, w.rows);
    low_c = std::max(low_c, -w.cols);
    high_c = std::max(high_c, w.cols);
  }
  const std::string e = c.f32 ? "f32" : "i32";
  const std::string t = "tensor<" + std::to_string(c.rows) + "x" + std::to_string(c.cols) + "x" + e + ">";
  const std::string pt = "tensor<" + std::to_string(c.rows + low_r + high_r) + "x" +
                         std::to_string(c.cols + low_c + high_c) + "x" + e + ">";
  auto scalar = [&](int32_t v) { return c.f32 ? std::to_string(v) + ".0" : std::to_string(v); };
  std::string grid;
  for (size_t i = 0; i < c.grid.size(); ++i) grid += (i ? "x" : "") + std::to_string(c.grid[i]);
  std::ostringstream s;
  s << "shard.grid @g(shape = " << grid << ")\n"
    << "func.func @main(%x: " << t << ") -> " << t << " {\n"
    << "  %s = shard.sharding @g split_axes = [" << Axes(c.row_axes) << ", " << Axes(c.col_axes)
    << "] : !shard.sharding\n"
    << "  %xs = shard.shard %x to %s annotate_for_users : " << t << "\n"
    << "  %pad = arith.constant " << scalar(c.pad) << " : " << e << "\n"
    << "  %p = tensor.pad %xs low[" << low_r << ", " << low_c << "] high[" << high_r << ", " << high_c << "] {\n"
    << "  ^bb0(%i: index, %j: index):\n    tensor.yield %pad : " << e << "\n  } : " << t << " to " << pt << "\n";
  for (size_t k = 0; k < c.windows.size(); ++k)
    s << "  %w" << k << " = tensor.extract_slice %p[" << low_r + c.windows[k].rows << ", " << low_c + c.windows[k].cols
      << "] [" << c.rows << ", " << c.cols << "] [1, 1] : " << pt << " to " << t << "\n";
  s << "  %e = tensor.empty() : " << t << "\n  %y = linalg.generic {indexing_maps = [";
  for (size_t k = 0; k <= c.windows.size(); ++k) s << (k ? ", " : "") << "affine_map<(i, j) -> (i, j)>";
  s << "], iterator_types = [\"parallel\", \"parallel\"]} ins(";
  for (size_t k = 0; k < c.windows.size(); ++k) s << (k ? ", " : "") << "%w" << k;
  s << " : ";
  for (size_t k = 0; k < c.windows.size(); ++k) s << (k ? ", " : "") << t;
  s << ") outs(%e : " << t << ") {\n  ^bb0(";
  for (size_t k = 0; k < c.windows.size(); ++k) s << "%a" << k << ": " << e << ", ";
  s << "%out: " << e << "):\n";
  const std::string mul = c.f32 ? "arith.mulf" : "arith.muli", add = c.f32 ? "arith.addf" : "arith.addi";
  for (size_t k = 0; k < c.windows.size(); ++k) {
    s << "    %c" << k << " = arith.constant " << scalar(c.windows[k].weight) << " : " << e << "\n"
      << "    %m" << k << " = " << mul << " %a" << k << ", %c" << k << " : " << e << "\n";
    if (k)
      s << "    %s" << k << " = " << add << " %" << (k == 1 ? "m0" : "s" + std::to_string(k - 1)) << ", %m" << k
        << " : " << e << "\n";
  }
  s << "    linalg.yield %" << (c.windows.size() == 1 ? "m0" : "s" + std::to_string(c.windows.size() - 1)) << " : " << e
    << "\n  } -> " << t << "\n"
    << "  %ys = shard.shard %y to %s : " << t << "\n  return %ys : " << t << "\n}\n";
  return s.str();
}

HostTensor Reference(const StencilCase& c, const HostTensor& x) {
  HostTensor y = HostTensor::Zeros({c.rows, c.cols}, x.type);
  for (int64_t i = 0; i < c.rows; ++i)
    for (int64_t j = 0; j < c.cols; ++j) {
      double sum = 0;
      for (const Window& w : c.windows) {
        const int64_t r = i + w.rows, q = j + w.cols;
        const bool inside = r >= 0 && r < c.rows && q >= 0 && q < c.cols;
        const double v = !inside ? c.pad : c.f32 ? x.f[r * c.cols + q] : x.i[r * c.cols + q];
        sum += w.weight * v;
      }
      if (c.f32)
        y.f[i * c.cols + j] = static_cast<float>(sum);
      else
        y.i[i * c.cols + j] = static_cast<int32_t>(sum);
    }
  return y;
}

// [begin, end) of block `b` of `size` cut into `parts` (numpy.array_split: the first size % parts blocks get one
// element more).
std::pair<int64_t, int64_t> Block(int64_t size, int64_t parts, int64_t b) {
  const int64_t base = size / parts, extra = size % parts;
  const int64_t begin = b * base + std::min(b, extra);
  return {begin, begin + base + (b < extra ? 1 : 0)};
}

// Process p's [begin, end) along a dimension split over `axes` of `grid` (first axis most significant).
std::pair<int64_t, int64_t> Range(const StencilCase& c, int64_t size, const std::vector<int64_t>& axes, int64_t p) {
  std::vector<int64_t> multi(c.grid.size());
  for (int64_t a = static_cast<int64_t>(c.grid.size()) - 1; a >= 0; --a) {
    multi[a] = p % c.grid[a];
    p /= c.grid[a];
  }
  int64_t block = 0, parts = 1;
  for (int64_t a : axes) {
    block = block * c.grid[a] + multi[a];
    parts *= c.grid[a];
  }
  return Block(size, parts, block);
}

// Bytes process p pulls: for every window, its elements inside the tensor that p's shard does not hold.
int64_t ExpectedPulled(const StencilCase& c, int64_t p) {
  const auto [r0, r1] = Range(c, c.rows, c.row_axes, p);
  const auto [c0, c1] = Range(c, c.cols, c.col_axes, p);
  int64_t elements = 0;
  for (const Window& w : c.windows)
    for (int64_t i = r0; i < r1; ++i)
      for (int64_t j = c0; j < c1; ++j) {
        const int64_t r = i + w.rows, q = j + w.cols;
        const bool inside = r >= 0 && r < c.rows && q >= 0 && q < c.cols;
        const bool own = r >= r0 && r < r1 && q >= c0 && q < c1;
        elements += inside && !own;
      }
  return elements * 4;
}

const std::vector<Window> kThreeRows = {{-1, 0, 1}, {0, 0, 2}, {1, 0, 3}};
const std::vector<Window> kFivePoint = {{-1, 0, 1}, {1, 0, 2}, {0, -1, 3}, {0, 1, 5}, {0, 0, -7}};
const std::vector<Window> kNine = {{-1, -1, 1}, {-1, 0, 2}, {-1, 1, 3}, {0, -1, 4}, {0, 0, 5},
                                   {0, 1, 6},   {1, -1, 7}, {1, 0, 8},  {1, 1, 9}};

std::vector<StencilCase> Cases() {
  std::vector<StencilCase> cases;
  for (int64_t n : {1, 2, 3, 4})  // 16 rows over 3: 6, 5, 5
    cases.push_back({"rows3_on" + std::to_string(n), 16, 8, false, {n}, {0}, {}, kThreeRows, 0});
  cases.push_back({"cols_shift_rows_split", 16, 8, false, {4}, {0}, {}, {{0, -1, 1}, {0, 2, 3}}, -5});
  cases.push_back({"five_point_rows_on4", 16, 8, false, {4}, {0}, {}, kFivePoint, 2});
  cases.push_back({"five_point_cols_on3", 8, 12, false, {3}, {}, {0}, kFivePoint, 0});
  cases.push_back({"nine_point_2x2", 8, 8, false, {2, 2}, {0}, {1}, kNine, 1});
  cases.push_back({"nine_point_rows_over_2x2", 16, 4, false, {2, 2}, {0, 1}, {}, kNine, 0});
  cases.push_back({"rows_on_2x2_axis0", 8, 4, false, {2, 2}, {0}, {}, kThreeRows, 0});
  cases.push_back({"uneven_10_over_4", 10, 4, false, {4}, {0}, {}, kThreeRows, 0});
  cases.push_back({"wide_uneven_10_over_4", 10, 4, false, {4}, {0}, {}, {{-3, 0, 1}, {0, 0, 10}, {3, 1, 100}}, 9});
  cases.push_back({"blur_f32_64x32_on4", 64, 32, true, {4}, {0}, {}, {{-1, 0, 1}, {0, 0, 1}, {1, 0, 1}}, 0});
  return cases;
}

class StencilTest : public ProgramRunTest, public ::testing::WithParamInterface<StencilCase> {};

TEST_P(StencilTest, MatchesHostLoopsAndPullsOnlyBorders) {
  const StencilCase& c = GetParam();
  meshvk::ProgramOptions options;
  options.producer = "meshvk stencil test";
  meshvk::CompiledProgram compiled;
  ASSERT_EQ(meshvk::compileProgramSource(Program(c), c.name + ".mlir", options, &compiled), "") << Program(c);
  int64_t processes = 1;
  for (int64_t s : c.grid) processes *= s;
  ASSERT_EQ(compiled.memory.size(), static_cast<size_t>(processes));
  EXPECT_TRUE(compiled.warnings.empty()) << compiled.warnings.front();

  // Bytes pulled: windows only, as counted from the shard boxes.
  std::vector<int64_t> pulled(processes, 0);
  for (const meshvk::CollectivePlan& k : compiled.collectives) {
    EXPECT_EQ(k.kind, "window") << "a " << k.kind << " (" << k.algorithm << ") in " << c.name;
    for (int64_t p = 0; p < processes; ++p) pulled[p] += k.pulledBytes[p];
  }
  for (int64_t p = 0; p < processes; ++p) EXPECT_EQ(pulled[p], ExpectedPulled(c, p)) << "process " << p;

  std::mt19937 rng(20261201);
  HostTensor x = HostTensor::Zeros({c.rows, c.cols}, c.f32 ? MESHVK_ELEMENT_F32 : MESHVK_ELEMENT_I32);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (float& v : x.f) v = u(rng);
  for (int32_t& v : x.i) v = static_cast<int32_t>(rng() % 2001) - 1000;
  const HostTensor expected = Reference(c, x);

  RunAndCompare(compiled.artifact, static_cast<uint32_t>(processes), {x}, {expected}, 1e-5, 1e-5, c.name);
}

INSTANTIATE_TEST_SUITE_P(Stencils, StencilTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<StencilCase>& info) { return info.param.name; });

}  // namespace
}  // namespace meshvk_e2e
