// Numerical tests of generated kernels: every op x dtype x shape class is
// compiled with the codegen pipeline, validated with SPIRV-Tools, run on the
// first Vulkan device (lavapipe in CI) with the Khronos validation layer on,
// and compared with plain C++ loops over the same inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <sstream>

#include "kernel_test_support.h"

namespace meshvk_codegen_test {
namespace {

// ---- op generators: MLIR text + host reference ----------------------------

// The case @k(a, b) -> out = `op` (with its attributes) of a and b into a
// zero fill; `out` holds the host result, over a contraction of K terms.
Case Contraction(const std::string& name, const std::string& op, DType t, const Tensor& a, const Tensor& b,
                 const Tensor& out, int64_t K) {
  std::ostringstream m;
  m << "func.func @k(%a: " << a.mlir() << ", %b: " << b.mlir() << ") -> " << out.mlir()
    << " attributes {meshvk.kernel} {\n"
    << "  %z = " << Zero(t) << "\n"
    << "  %e = tensor.empty() : " << out.mlir() << "\n"
    << "  %f = linalg.fill ins(%z : " << Name(t) << ") outs(%e : " << out.mlir() << ") -> " << out.mlir() << "\n"
    << "  %r = " << op << " ins(%a, %b : " << a.mlir() << ", " << b.mlir() << ") outs(%f : " << out.mlir() << ") -> "
    << out.mlir() << "\n"
    << "  return %r : " << out.mlir() << "\n}\n";
  Case c;
  c.name = name;
  c.mlir = m.str();
  c.inputs = {a, b};
  c.outputs = {out};
  c.tolerance = t == DType::F16 ? 2e-2 * std::sqrt(static_cast<double>(K)) : 1e-4;
  return c;
}

// C[M,N] = sum_k A * B with optional transposes (A as KxM, B as NxK).
Case Matmul(const std::string& name, DType t, int64_t M, int64_t N, int64_t K, bool transA, bool transB) {
  Tensor a = Random(t, transA ? std::vector<int64_t>{K, M} : std::vector<int64_t>{M, K}, 1);
  Tensor b = Random(t, transB ? std::vector<int64_t>{N, K} : std::vector<int64_t>{K, N}, 2);
  Tensor out = Zeros(t, {M, N});
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double s = 0;
      for (int64_t k = 0; k < K; ++k)
        s += a.values[transA ? k * M + i : i * K + k] * b.values[transB ? j * K + k : k * N + j];
      out.values[i * N + j] = s;
    }
  std::string maps;
  if (transA || transB) {
    maps = std::string(" indexing_maps = [") +
           (transA ? "affine_map<(m, n, k) -> (k, m)>" : "affine_map<(m, n, k) -> (m, k)>") + ", " +
           (transB ? "affine_map<(m, n, k) -> (n, k)>" : "affine_map<(m, n, k) -> (k, n)>") +
           ", affine_map<(m, n, k) -> (m, n)>]";
  }
  return Contraction(name, "linalg.matmul" + maps, t, a, b, out, K);
}

Case BatchMatmul(const std::string& name, DType t, int64_t B, int64_t M, int64_t N, int64_t K) {
  Tensor a = Random(t, {B, M, K}, 3), b = Random(t, {B, K, N}, 4);
  Tensor out = Zeros(t, {B, M, N});
  for (int64_t p = 0; p < B; ++p)
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        double s = 0;
        for (int64_t k = 0; k < K; ++k) s += a.values[(p * M + i) * K + k] * b.values[(p * K + k) * N + j];
        out.values[(p * M + i) * N + j] = s;
      }
  return Contraction(name, "linalg.batch_matmul", t, a, b, out, K);
}

// relu(A x B + bias[n]): the epilogue is two separate generics in the input.
Case MatmulBiasRelu(const std::string& name, DType t, int64_t M, int64_t N, int64_t K) {
  Case c = Matmul(name, t, M, N, K, false, false);
  Tensor bias = Random(t, {N}, 5);
  Tensor& out = c.outputs[0];
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double v = out.values[i * N + j] + bias.values[j];
      out.values[i * N + j] = v > 0 ? v : 0;
    }
  std::string T = out.mlir(), e = Name(t);
  std::ostringstream m;
  m << "func.func @k(%a: " << c.inputs[0].mlir() << ", %b: " << c.inputs[1].mlir() << ", %bias: " << bias.mlir()
    << ") -> " << T << " attributes {meshvk.kernel} {\n"
    << "  %z = " << Zero(t) << "\n  %e = tensor.empty() : " << T << "\n"
    << "  %f = linalg.fill ins(%z : " << e << ") outs(%e : " << T << ") -> " << T << "\n"
    << "  %mm = linalg.matmul ins(%a, %b : " << c.inputs[0].mlir() << ", " << c.inputs[1].mlir() << ") outs(%f : " << T
    << ") -> " << T << "\n"
    << "  %e2 = tensor.empty() : " << T << "\n"
    << "  %biased = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, "
       "affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = "
       "[\"parallel\", \"parallel\"]} ins(%mm, %bias : "
    << T << ", " << bias.mlir() << ") outs(%e2 : " << T << ") {\n"
    << "  ^bb0(%x: " << e << ", %y: " << e << ", %o: " << e << "):\n"
    << "    %s = " << Add(t) << " %x, %y : " << e << "\n    linalg.yield %s : " << e << "\n  } -> " << T << "\n"
    << "  %e3 = tensor.empty() : " << T << "\n"
    << "  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) "
       "-> (i, j)>], iterator_types = [\"parallel\", \"parallel\"]} ins(%biased : "
    << T << ") outs(%e3 : " << T << ") {\n"
    << "  ^bb0(%x: " << e << ", %o: " << e << "):\n"
    << "    %zz = " << Zero(t) << "\n    %s = " << Max(t) << " %x, %zz : " << e << "\n    linalg.yield %s : " << e
    << "\n  } -> " << T << "\n"
    << "  return %r : " << T << "\n}\n";
  c.mlir = m.str();
  c.inputs.push_back(bias);
  return c;
}

// out = act(a * rowvec[n] + colvec[m]) as three generics (fused into one loop).
Case ElementwiseChain(const std::string& name, DType t, int64_t M, int64_t N) {
  Case c;
  c.name = name;
  Tensor a = Random(t, {M, N}, 6), row = Random(t, {N}, 7), col = Random(t, {M}, 8);
  Tensor out = Zeros(t, {M, N});
  bool useTanh = t == DType::F32;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double v = a.values[i * N + j] * row.values[j];
      if (t == DType::F16) v = HalfToFloat(FloatToHalf(static_cast<float>(v)));
      v += col.values[i];
      out.values[i * N + j] = useTanh ? std::tanh(v) : (v > 0 ? v : 0);
    }
  std::string T = out.mlir(), e = Name(t);
  auto generic = [&](const std::string& res, const std::string& ins, const std::string& types, const std::string& maps,
                     const std::string& args, const std::string& body) {
    std::ostringstream g;
    g << "  %" << res << "_init = tensor.empty() : " << T << "\n"
      << "  %" << res << " = linalg.generic {indexing_maps = [" << maps
      << ", affine_map<(i, j) -> (i, j)>], iterator_types = [\"parallel\", \"parallel\"]} ins(" << ins << " : " << types
      << ") outs(%" << res << "_init : " << T << ") {\n"
      << "  ^bb0(" << args << ", %o: " << e << "):\n"
      << body << "  } -> " << T << "\n";
    return g.str();
  };
  std::ostringstream m;
  m << "func.func @k(%a: " << T << ", %row: " << row.mlir() << ", %col: " << col.mlir() << ") -> " << T
    << " attributes {meshvk.kernel} {\n"
    << generic("scaled", "%a, %row", T + ", " + row.mlir(), "affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>",
               "%x: " + e + ", %y: " + e,
               "    %s = " + Mul(t) + " %x, %y : " + e + "\n    linalg.yield %s : " + e + "\n")
    << generic("shifted", "%scaled, %col", T + ", " + col.mlir(),
               "affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>", "%x: " + e + ", %y: " + e,
               "    %s = " + Add(t) + " %x, %y : " + e + "\n    linalg.yield %s : " + e + "\n")
    << generic("r", "%shifted", T, "affine_map<(i, j) -> (i, j)>", "%x: " + e,
               useTanh ? "    %s = math.tanh %x : " + e + "\n    linalg.yield %s : " + e + "\n"
                       : "    %zz = " + Zero(t) + "\n    %s = " + Max(t) + " %x, %zz : " + e +
                             "\n    linalg.yield %s : " + e + "\n")
    << "  return %r : " << T << "\n}\n";
  c.mlir = m.str();
  c.inputs = {a, row, col};
  c.outputs = {out};
  c.tolerance = t == DType::F16 ? 1e-2 : 1e-5;
  return c;
}

// Sum (or max) over dimension `dim` with linalg.reduce.
Case Reduce(const std::string& name, DType t, std::vector<int64_t> shape, int64_t dim, bool max) {
  Tensor a = Random(t, shape, 9);
  std::vector<int64_t> oshape;
  for (size_t d = 0; d < shape.size(); ++d)
    if (static_cast<int64_t>(d) != dim) oshape.push_back(shape[d]);
  Tensor out = Zeros(t, oshape);
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= shape[d];
  for (size_t d = dim + 1; d < shape.size(); ++d) inner *= shape[d];
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      double s = max ? -1e30 : 0;
      for (int64_t r = 0; r < shape[dim]; ++r) {
        double v = a.values[(o * shape[dim] + r) * inner + i];
        s = max ? std::max(s, v) : s + v;
      }
      out.values[o * inner + i] = s;
    }
  std::string e = Name(t);
  std::string init =
      max ? (t == DType::I32 ? "arith.constant -2147483648 : i32" : "arith.constant -6.0e4 : " + e) : Zero(t);
  std::ostringstream m;
  m << "func.func @k(%a: " << a.mlir() << ") -> " << out.mlir() << " attributes {meshvk.kernel} {\n"
    << "  %z = " << init << "\n  %e = tensor.empty() : " << out.mlir() << "\n"
    << "  %f = linalg.fill ins(%z : " << e << ") outs(%e : " << out.mlir() << ") -> " << out.mlir() << "\n"
    << "  %r = linalg.reduce ins(%a : " << a.mlir() << ") outs(%f : " << out.mlir() << ") dimensions = [" << dim
    << "]\n"
    << "    (%x: " << e << ", %acc: " << e << ") {\n"
    << "      %s = " << (max ? Max(t) : Add(t)) << " %x, %acc : " << e << "\n"
    << "      linalg.yield %s : " << e << "\n    }\n"
    << "  return %r : " << out.mlir() << "\n}\n";
  return Case{name, m.str(), {a}, {out}, t == DType::F16 ? 2e-2 * std::sqrt(static_cast<double>(shape[dim])) : 1e-4};
}

Case Transpose(const std::string& name, DType t, std::vector<int64_t> shape, std::vector<int64_t> perm) {
  Tensor a = Random(t, shape, 10);
  std::vector<int64_t> oshape;
  for (int64_t p : perm) oshape.push_back(shape[p]);
  Tensor out = Zeros(t, oshape);
  size_t rank = shape.size();
  std::vector<int64_t> idx(rank, 0);
  for (int64_t lin = 0; lin < a.count(); ++lin) {
    int64_t rest = lin;
    for (int d = static_cast<int>(rank) - 1; d >= 0; --d) {
      idx[d] = rest % shape[d];
      rest /= shape[d];
    }
    int64_t o = 0;
    for (size_t d = 0; d < rank; ++d) o = o * oshape[d] + idx[perm[d]];
    out.values[o] = a.values[lin];
  }
  std::string ps;
  for (size_t d = 0; d < perm.size(); ++d) ps += (d ? ", " : "") + std::to_string(perm[d]);
  std::ostringstream m;
  m << "func.func @k(%a: " << a.mlir() << ") -> " << out.mlir() << " attributes {meshvk.kernel} {\n"
    << "  %e = tensor.empty() : " << out.mlir() << "\n"
    << "  %r = linalg.transpose ins(%a : " << a.mlir() << ") outs(%e : " << out.mlir() << ") permutation = [" << ps
    << "]\n"
    << "  return %r : " << out.mlir() << "\n}\n";
  return Case{name, m.str(), {a}, {out}, 0};
}

Case Fill(const std::string& name, DType t, std::vector<int64_t> shape) {
  Case c;
  c.name = name;
  Tensor out = Zeros(t, shape);
  for (double& v : out.values) v = 3;
  std::string e = Name(t);
  std::ostringstream m;
  m << "func.func @k() -> " << out.mlir() << " attributes {meshvk.kernel} {\n"
    << "  %v = arith.constant " << (t == DType::I32 ? "3" : "3.0") << " : " << e << "\n"
    << "  %e = tensor.empty() : " << out.mlir() << "\n"
    << "  %r = linalg.fill ins(%v : " << e << ") outs(%e : " << out.mlir() << ") -> " << out.mlir()
    << "\n  return %r : " << out.mlir() << "\n}\n";
  c.mlir = m.str();
  c.outputs = {out};
  c.tolerance = 0;
  return c;
}

// out = a[r0 : r0 + R : rs, c0 : c0 + C] (a strided slice copy).
Case Slice(const std::string& name, DType t, int64_t M, int64_t N, int64_t r0, int64_t c0, int64_t R, int64_t C,
           int64_t rs) {
  Tensor a = Random(t, {M, N}, 11);
  Tensor out = Zeros(t, {R, C});
  for (int64_t i = 0; i < R; ++i)
    for (int64_t j = 0; j < C; ++j) out.values[i * C + j] = a.values[(r0 + i * rs) * N + c0 + j];
  std::ostringstream m;
  m << "func.func @k(%a: " << a.mlir() << ") -> " << out.mlir() << " attributes {meshvk.kernel} {\n"
    << "  %r = tensor.extract_slice %a[" << r0 << ", " << c0 << "] [" << R << ", " << C << "] [" << rs
    << ", 1] : " << a.mlir() << " to " << out.mlir() << "\n"
    << "  return %r : " << out.mlir() << "\n}\n";
  return Case{name, m.str(), {a}, {out}, 0};
}

// Row softmax numerator: exp(x - max_j x): a reduction whose result is
// broadcast back (the reduction is fused into each row tile).
Case SoftmaxNumerator(const std::string& name, int64_t M, int64_t N) {
  Tensor a = Random(DType::F32, {M, N}, 12);
  Tensor out = Zeros(DType::F32, {M, N});
  for (int64_t i = 0; i < M; ++i) {
    double mx = -1e30;
    for (int64_t j = 0; j < N; ++j) mx = std::max(mx, a.values[i * N + j]);
    for (int64_t j = 0; j < N; ++j) out.values[i * N + j] = std::exp(a.values[i * N + j] - mx);
  }
  std::string T = a.mlir(), R = "tensor<" + std::to_string(M) + "xf32>";
  std::ostringstream m;
  m << "func.func @k(%a: " << T << ") -> " << T << " attributes {meshvk.kernel} {\n"
    << "  %ninf = arith.constant -3.0e38 : f32\n  %e = tensor.empty() : " << R << "\n"
    << "  %f = linalg.fill ins(%ninf : f32) outs(%e : " << R << ") -> " << R << "\n"
    << "  %mx = linalg.reduce ins(%a : " << T << ") outs(%f : " << R << ") dimensions = [1]\n"
    << "    (%x: f32, %acc: f32) {\n      %s = arith.maxnumf %x, %acc : f32\n"
    << "      linalg.yield %s : f32\n    }\n"
    << "  %e2 = tensor.empty() : " << T << "\n"
    << "  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) "
       "-> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = [\"parallel\", \"parallel\"]} "
       "ins(%a, %mx : "
    << T << ", " << R << ") outs(%e2 : " << T << ") {\n"
    << "  ^bb0(%x: f32, %m: f32, %o: f32):\n    %d = arith.subf %x, %m : f32\n"
    << "    %y = math.exp %d : f32\n    linalg.yield %y : f32\n  } -> " << T << "\n"
    << "  return %r : " << T << "\n}\n";
  return Case{name, m.str(), {a}, {out}, 1e-5};
}

// Two results from one kernel: a broadcast add and a transpose of the same
// input (two roots tiled in one launch).
Case TwoOutputs(const std::string& name, DType t, int64_t M, int64_t N) {
  Case c;
  c.name = name;
  Tensor a = Random(t, {M, N}, 13), b = Random(t, {N}, 14);
  Tensor sum = Zeros(t, {M, N}), tr = Zeros(t, {N, M});
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      sum.values[i * N + j] = a.values[i * N + j] + b.values[j];
      tr.values[j * M + i] = a.values[i * N + j];
    }
  std::string e = Name(t);
  std::ostringstream m;
  m << "func.func @k(%a: " << a.mlir() << ", %b: " << b.mlir() << ") -> (" << sum.mlir() << ", " << tr.mlir()
    << ") attributes {meshvk.kernel} {\n"
    << "  %e = tensor.empty() : " << sum.mlir() << "\n"
    << "  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> "
       "(j)>, affine_map<(i, j) -> (i, j)>], iterator_types = [\"parallel\", \"parallel\"]} ins(%a, "
       "%b : "
    << a.mlir() << ", " << b.mlir() << ") outs(%e : " << sum.mlir() << ") {\n"
    << "  ^bb0(%x: " << e << ", %y: " << e << ", %o: " << e << "):\n    %v = " << Add(t) << " %x, %y : " << e
    << "\n    linalg.yield %v : " << e << "\n  } -> " << sum.mlir() << "\n"
    << "  %e2 = tensor.empty() : " << tr.mlir() << "\n"
    << "  %t = linalg.transpose ins(%a : " << a.mlir() << ") outs(%e2 : " << tr.mlir() << ") permutation = [1, 0]\n"
    << "  return %s, %t : " << sum.mlir() << ", " << tr.mlir() << "\n}\n";
  c.mlir = m.str();
  c.inputs = {a, b};
  c.outputs = {sum, tr};
  c.tolerance = t == DType::F16 ? 1e-2 : 1e-6;
  return c;
}

std::vector<Case> AllCases() {
  std::vector<Case> cases;
  for (DType t : {DType::F32, DType::I32, DType::F16}) {
    std::string n = Name(t);
    cases.push_back(Matmul("matmul_tiny_" + n, t, 1, 1, 1, false, false));
    cases.push_back(Matmul("matmul_odd_" + n, t, 37, 61, 53, false, false));
    cases.push_back(Matmul("matmul_ragged_" + n, t, 70, 45, 33, false, false));
    cases.push_back(Matmul("matmul_transB_" + n, t, 37, 29, 19, false, true));
    cases.push_back(Matmul("matmul_transA_" + n, t, 23, 41, 17, true, false));
    cases.push_back(BatchMatmul("batch_matmul_odd_" + n, t, 3, 17, 9, 13));
    cases.push_back(MatmulBiasRelu("matmul_bias_relu_" + n, t, 45, 38, 21));
    cases.push_back(ElementwiseChain("eltwise_tiny_" + n, t, 1, 3));
    cases.push_back(ElementwiseChain("eltwise_odd_" + n, t, 37, 53));
    cases.push_back(Reduce("reduce_rows_" + n, t, {37, 53}, 1, false));
    cases.push_back(Reduce("reduce_cols_" + n, t, {37, 53}, 0, false));
    cases.push_back(Reduce("reduce_mid_max_" + n, t, {5, 19, 7}, 1, true));
    cases.push_back(Transpose("transpose_odd_" + n, t, {37, 53}, {1, 0}));
    cases.push_back(Transpose("transpose_3d_" + n, t, {3, 5, 7}, {2, 0, 1}));
    cases.push_back(Fill("fill_odd_" + n, t, {37, 53}));
    cases.push_back(Slice("slice_" + n, t, 37, 53, 3, 5, 11, 30, 2));
    // Shapes whose rows are multiples of 4: the vec4 paths.
    cases.push_back(Matmul("matmul_aligned_" + n, t, 64, 64, 64, false, false));
    cases.push_back(MatmulBiasRelu("matmul_bias_relu_aligned_" + n, t, 32, 64, 16));
    cases.push_back(ElementwiseChain("eltwise_aligned_" + n, t, 33, 64));
    cases.push_back(ElementwiseChain("eltwise_aligned4_" + n, t, 9, 20));
    cases.push_back(Reduce("reduce_rows_aligned_" + n, t, {40, 128}, 1, false));
    cases.push_back(Reduce("reduce_cols_aligned_" + n, t, {40, 128}, 0, true));
    cases.push_back(TwoOutputs("two_outputs_" + n, t, 37, 20));
  }
  // Large-ish f32 (still well under a second each on lavapipe).
  cases.push_back(Matmul("matmul_large_f32", DType::F32, 256, 256, 256, false, false));
  cases.push_back(ElementwiseChain("eltwise_large_f32", DType::F32, 512, 1000));
  cases.push_back(Reduce("reduce_rows_large_f32", DType::F32, {1024, 999}, 1, false));
  cases.push_back(SoftmaxNumerator("softmax_numerator_f32", 37, 53));
  // Fewer workgroups than tiles: the grid-stride loops must cover the rest.
  Case few = Matmul("matmul_one_workgroup_f32", DType::F32, 100, 90, 20, false, false);
  few.workgroups = 1;
  cases.push_back(few);
  Case few3 = ElementwiseChain("eltwise_three_workgroups_f32", DType::F32, 200, 301);
  few3.workgroups = 3;
  cases.push_back(few3);
  Case fewv = Matmul("matmul_aligned_one_workgroup_f32", DType::F32, 256, 256, 64, false, false);
  fewv.workgroups = 1;
  cases.push_back(fewv);
  Case fewr = Reduce("reduce_two_workgroups_f32", DType::F32, {300, 17}, 1, false);
  fewr.workgroups = 2;
  cases.push_back(fewr);
  return cases;
}

class KernelTest : public ::testing::TestWithParam<Case> {};

TEST_P(KernelTest, MatchesHostReference) {
  Device& device = *Environment::device;
  ASSERT_EQ(device.error(), "");
  const Case& c = GetParam();
  bool usesF16 = false;
  for (const Tensor& t : c.inputs) usesF16 |= t.type == DType::F16;
  for (const Tensor& t : c.outputs) usesF16 |= t.type == DType::F16;
  if (usesF16 && !device.target().supportsF16())
    GTEST_SKIP() << "device lacks shaderFloat16 + storageBuffer16BitAccess";

  meshvk::codegen::CompiledKernels compiled;
  ASSERT_EQ(CompileMlir(c.mlir, device.target(), &compiled), "") << c.mlir;
  ASSERT_EQ(compiled.kernels.size(), 1u);
  const meshvk::codegen::CompiledKernel& k = compiled.kernels[0];
  EXPECT_EQ(meshvk::codegen::validateSPIRV(k.spirv), "");
  ASSERT_EQ(k.bindings.size(), c.inputs.size() + c.outputs.size());

  std::vector<std::unique_ptr<Buffer>> buffers;
  std::vector<Buffer*> raw;
  std::vector<bool> writes;
  for (const Tensor& t : c.inputs) {
    auto bytes = t.bytes();
    buffers.push_back(std::make_unique<Buffer>(device, bytes.size()));
    ASSERT_EQ(buffers.back()->Write(bytes.data(), bytes.size()), "");
    raw.push_back(buffers.back().get());
    writes.push_back(false);
  }
  for (const Tensor& t : c.outputs) {
    // Poison the output so that an element the kernel skips is caught.
    std::vector<uint8_t> poison(t.count() * Bytes(t.type), 0x7f);
    buffers.push_back(std::make_unique<Buffer>(device, poison.size()));
    ASSERT_EQ(buffers.back()->Write(poison.data(), poison.size()), "");
    raw.push_back(buffers.back().get());
    writes.push_back(true);
  }
  Kernel kernel(device, k);
  ASSERT_EQ(kernel.error(), "");
  std::array<uint32_t, 3> count = k.workgroupCount;
  if (c.workgroups) {
    ASSERT_LT(c.workgroups, count[0]) << "the test must launch fewer workgroups than tiles";
    count = {c.workgroups, 1, 1};
  }
  ASSERT_EQ(kernel.Run(raw, writes, count), "");

  for (size_t o = 0; o < c.outputs.size(); ++o) {
    Tensor got = c.outputs[o];
    std::vector<uint8_t> bytes(got.count() * Bytes(got.type));
    ASSERT_EQ(raw[c.inputs.size() + o]->Read(bytes.data(), bytes.size()), "");
    got.FromBytes(bytes);
    int bad = 0;
    for (int64_t i = 0; i < got.count() && bad < 5; ++i) {
      double want = c.outputs[o].values[i];
      double tol = c.tolerance * std::max(1.0, std::fabs(want));
      if (!(std::fabs(got.values[i] - want) <= tol)) {
        ADD_FAILURE() << c.name << " output " << o << " element " << i << ": got " << got.values[i] << ", want "
                      << want;
        ++bad;
      }
    }
  }
  for (const std::string& m : device.TakeMessages()) ADD_FAILURE() << "validation: " << m;
}

INSTANTIATE_TEST_SUITE_P(Ops, KernelTest, ::testing::ValuesIn(AllCases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

}  // namespace
}  // namespace meshvk_codegen_test

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::AddGlobalTestEnvironment(new meshvk_codegen_test::Environment);
  return RUN_ALL_TESTS();
}
