// Benchmarks of generated kernels against hand-written ones, measured in the
// same run on the first Vulkan device (lavapipe here): each benchmark runs the
// generated kernel (its time is the benchmark's time) and, in the same
// process, the naive one-output-per-invocation GLSL kernel and the best
// hand-written GLSL kernel from shaders/reference/, and reports throughput of
// all three and the ratios. Elementwise and reduction kernels also report the
// fraction of the device's measured copy bandwidth (copy_vec4 probe).
// BM_MatmulRoof and BM_Conv3x3Roof report the generated f32 matmul and a
// ResNet-18 3x3 convolution layer as fractions of the FMA peak that
// `mesh-vk-run --benchmark` measures (samples/mesh-vk-run/probes.cc, linked
// here) and against OpenBLAS cblas_sgemm on the host CPU (when CMake found
// it), medians of 5 interleaved rounds in one process.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <string>

#include "kernel_harness.h"
#include "meshvk/Codegen/Passes.h"
#include "meshvk/Dialect/MeshVKDialect.h"
#include "meshvk/Transforms/Passes.h"
#include "meshvk_reference_shaders.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "probes.h"

#ifdef MESHVK_BENCH_OPENBLAS
#include <cblas.h>
#endif

namespace {

using meshvk_codegen_test::Buffer;
using meshvk_codegen_test::Device;
using meshvk_codegen_test::Kernel;
namespace ref = meshvk::reference_spirv;

Device& TheDevice() {
  static Device device(/*validation=*/false);
  return device;
}

std::vector<float> RandomFloats(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-1, 1);
  std::vector<float> v(n);
  for (float& x : v) x = d(rng);
  return v;
}

std::unique_ptr<Buffer> Upload(const std::vector<float>& v) {
  auto b = std::make_unique<Buffer>(TheDevice(), v.size() * 4);
  (void)b->Write(v.data(), v.size() * 4);
  return b;
}

std::unique_ptr<Buffer> Empty(size_t floats) { return std::make_unique<Buffer>(TheDevice(), floats * 4); }

// The device's target; MESHVK_BENCH_TILE=rows,cols,invocations overrides the
// tiler's knobs (to explore them).
meshvk::codegen::TargetDescription BenchTarget(const char* variable = "MESHVK_BENCH_TILE") {
  meshvk::codegen::TargetDescription target = TheDevice().target();
  if (const char* env = std::getenv(variable)) {
    unsigned r = 0, c = 0, i = 0;
    if (std::sscanf(env, "%u,%u,%u", &r, &c, &i) == 3) {
      target.registerTileRows = r;
      target.registerTileCols = c;
      target.preferredWorkgroupInvocations = i;
    }
  }
  return target;
}

// Compiles one kernel (cached per MLIR text).
const meshvk::codegen::CompiledKernel* Generated(const std::string& mlir, std::string* error) {
  static std::map<std::string, meshvk::codegen::CompiledKernels> cache;
  auto it = cache.find(mlir);
  if (it == cache.end()) {
    meshvk::codegen::CompiledKernels k;
    meshvk::codegen::TargetDescription target = BenchTarget();
    *error = meshvk_codegen_test::CompileMlir(mlir, target, &k);
    if (!error->empty()) return nullptr;
    it = cache.emplace(mlir, std::move(k)).first;
  }
  return &it->second.kernels.at(0);
}

// Best of `reps` runs, the same count for every variant of one benchmark (the
// device is a CPU shared with the host; the best run is the least disturbed).
// The generated kernel for `mlir`, or null once the benchmark is marked
// skipped (no Vulkan device, or the kernel did not compile).
const meshvk::codegen::CompiledKernel* GeneratedOrSkip(benchmark::State& state, const std::string& mlir) {
  if (!TheDevice().error().empty()) {
    state.SkipWithError(TheDevice().error().c_str());
    return nullptr;
  }
  std::string err;
  const auto* gen = Generated(mlir, &err);
  if (!gen) state.SkipWithError(err.c_str());
  return gen;
}

double BestSeconds(Kernel& k, const std::vector<Buffer*>& bufs, const std::vector<bool>& writes,
                   std::array<uint32_t, 3> count, const void* push, uint32_t push_size, int reps, std::string* error) {
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    double s = 0;
    std::string e = k.Run(bufs, writes, count, push, push_size, 1, &s);
    if (!e.empty()) {
      *error = e;
      return 0;
    }
    best = std::min(best, s);
  }
  return best;
}

std::array<uint32_t, 3> Grid1D(uint64_t groups) {
  uint32_t x = static_cast<uint32_t>(std::min<uint64_t>(groups, 4096));
  uint32_t y = static_cast<uint32_t>((groups + x - 1) / x);
  return {x, y, 1};
}

// Runs the variants round-robin `reps` times and keeps each one's best time:
// interleaving spreads host-load changes over all variants, so the ratios
// measured in one run stay fair on a busy machine.
struct Variant {
  Kernel* kernel;
  std::array<uint32_t, 3> count;
  const void* push;
  uint32_t push_size;
  const std::vector<Buffer*>* bufs = nullptr;  // default: the shared ones
  const std::vector<bool>* writes = nullptr;
};

// The copy probe as a variant (same bytes read as the op under test), so
// fractions of copy bandwidth compare runs made under the same host load.
struct CopyProbe {
  explicit CopyProbe(uint32_t vec4s)
      : count(vec4s),
        src(Upload(RandomFloats(uint64_t(vec4s) * 4, 1))),
        dst(Empty(uint64_t(vec4s) * 4)),
        kernel(TheDevice(), ref::copy_vec4, ref::copy_vec4_word_count, 2, 4),
        bufs{src.get(), dst.get()} {}
  Variant variant() { return {&kernel, Grid1D((count + 63) / 64), &count, 4, &bufs, &writes}; }
  double GBs(double seconds) const { return 2.0 * count * 16 / seconds / 1e9; }
  uint32_t count;
  std::unique_ptr<Buffer> src, dst;
  Kernel kernel;
  std::vector<Buffer*> bufs;
  std::vector<bool> writes{false, true};
};

std::vector<double> Interleaved(const std::vector<Variant>& variants, const std::vector<Buffer*>& bufs,
                                const std::vector<bool>& writes, int reps, std::string* error) {
  std::vector<double> best(variants.size(), 1e30);
  for (int r = 0; r < reps; ++r)
    for (size_t v = 0; v < variants.size(); ++v) {
      double s = BestSeconds(*variants[v].kernel, variants[v].bufs ? *variants[v].bufs : bufs,
                             variants[v].writes ? *variants[v].writes : writes, variants[v].count, variants[v].push,
                             variants[v].push_size, 1, error);
      if (!error->empty()) return best;
      best[v] = std::min(best[v], s);
    }
  return best;
}

// The counters every kernel benchmark reports: the generated kernel's rate
// (`work` units per second, in billions, named `unit`), the two reference
// kernels' rates, and how many times faster the generated one is.
void ReportVsReferences(benchmark::State& state, const std::string& unit, double work, double genS, double naiveS,
                        double handwrittenS) {
  state.counters[unit] = work / genS / 1e9;
  state.counters["naive_" + unit] = work / naiveS / 1e9;
  state.counters["handwritten_" + unit] = work / handwrittenS / 1e9;
  state.counters["x_vs_naive"] = naiveS / genS;
  state.counters["x_vs_handwritten"] = handwrittenS / genS;
}

// Memory-bound kernels also report the copy probe's rate from the same run
// and the fraction of it the generated kernel reaches.
void ReportVsCopy(benchmark::State& state, double genGBs, double copyGBs) {
  state.counters["copy_GB/s"] = copyGBs;
  state.counters["frac_copy_bw"] = genGBs / copyGBs;
}

// Best times of one benchmark's variants: the generated kernel, its two
// hand-written references and (memory-bound kernels) the copy probe's rate.
struct Times {
  double gen = 0, naive = 0, handwritten = 0, copyGBs = 0;
};

// The timing loop every kernel benchmark shares: the generated kernel `gen`,
// its references `naive` and `handwritten` (and, when `copyVec4s` is not 0,
// the copy probe over that many vec4s) interleaved for `reps` rounds. None,
// with the benchmark marked skipped, on a Vulkan error.
std::optional<Times> TimeVsReferences(benchmark::State& state, const meshvk::codegen::CompiledKernel& gen,
                                      const Variant& naive, const Variant& handwritten, uint32_t copyVec4s,
                                      const std::vector<Buffer*>& bufs, const std::vector<bool>& writes, int reps) {
  Kernel gk(TheDevice(), gen);
  std::vector<Variant> all = {{&gk, gen.workgroupCount, nullptr, 0}, naive, handwritten};
  std::unique_ptr<CopyProbe> copy = copyVec4s ? std::make_unique<CopyProbe>(copyVec4s) : nullptr;
  if (copy) all.push_back(copy->variant());
  Times times;
  std::string err;
  for (auto _ : state) {
    std::vector<double> t = Interleaved(all, bufs, writes, reps, &err);
    if (!err.empty()) {
      state.SkipWithError(err.c_str());
      return std::nullopt;
    }
    if (copy) times.copyGBs = copy->GBs(t[3]);
    times.gen = t[0];
    times.naive = t[1];
    times.handwritten = t[2];
    state.SetIterationTime(times.gen);
  }
  return times;
}

// A memory-bound kernel's counters: GB/s against the references and the copy probe.
void ReportBandwidth(benchmark::State& state, double bytes, const Times& t) {
  ReportVsReferences(state, "GB/s", bytes, t.gen, t.naive, t.handwritten);
  ReportVsCopy(state, bytes / t.gen / 1e9, t.copyGBs);
}

double CopyBandwidthGBs() {
  static double gbs = [] {
    const uint32_t count = 4u << 20;  // vec4s: 64 MiB each way
    auto src = Upload(RandomFloats(count * 4, 1));
    auto dst = Empty(count * 4);
    Kernel k(TheDevice(), ref::copy_vec4, ref::copy_vec4_word_count, 2, 4);
    std::string err;
    double s = BestSeconds(k, {src.get(), dst.get()}, {false, true}, Grid1D(count / 64), &count, 4, 3, &err);
    return err.empty() && s > 0 ? 2.0 * count * 16 / s / 1e9 : 0.0;
  }();
  return gbs;
}

void BM_CopyBandwidth(benchmark::State& state) {
  if (!TheDevice().error().empty()) return state.SkipWithError(TheDevice().error().c_str());
  for (auto _ : state) state.SetIterationTime(64.0 * 2 * (1 << 20) / (CopyBandwidthGBs() * 1e9));
  state.counters["GB/s"] = CopyBandwidthGBs();
}
BENCHMARK(BM_CopyBandwidth)->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);

std::string MatmulMlir(int64_t M, int64_t N, int64_t K) {
  std::ostringstream m;
  auto t = [](int64_t a, int64_t b) { return "tensor<" + std::to_string(a) + "x" + std::to_string(b) + "xf32>"; };
  m << "func.func @matmul(%a: " << t(M, K) << ", %b: " << t(K, N) << ") -> " << t(M, N)
    << " attributes {meshvk.kernel} {\n  %z = arith.constant 0.0 : f32\n"
    << "  %e = tensor.empty() : " << t(M, N) << "\n"
    << "  %f = linalg.fill ins(%z : f32) outs(%e : " << t(M, N) << ") -> " << t(M, N) << "\n"
    << "  %r = linalg.matmul ins(%a, %b : " << t(M, K) << ", " << t(K, N) << ") outs(%f : " << t(M, N) << ") -> "
    << t(M, N) << "\n  return %r : " << t(M, N) << "\n}\n";
  return m.str();
}

void BM_Matmul(benchmark::State& state) {
  const int64_t M = state.range(0), N = state.range(1), K = state.range(2);
  const auto* gen = GeneratedOrSkip(state, MatmulMlir(M, N, K));
  if (!gen) return;
  Device& dev = TheDevice();
  auto a = Upload(RandomFloats(M * K, 2)), b = Upload(RandomFloats(K * N, 3));
  auto c = Empty(M * N);
  std::vector<Buffer*> bufs = {a.get(), b.get(), c.get()};
  std::vector<bool> writes = {false, false, true};
  Kernel naive(dev, ref::matmul_naive, ref::matmul_naive_word_count, 3, 12);
  Kernel tiled(dev, ref::matmul_tiled, ref::matmul_tiled_word_count, 3, 12);
  uint32_t push[3] = {static_cast<uint32_t>(M), static_cast<uint32_t>(N), static_cast<uint32_t>(K)};
  const int reps = M * N * K >= (int64_t(1) << 30) ? 2 : 3;
  const std::optional<Times> t = TimeVsReferences(
      state, *gen, {&naive, {static_cast<uint32_t>((N + 7) / 8), static_cast<uint32_t>((M + 7) / 8), 1}, push, 12},
      {&tiled, {static_cast<uint32_t>(N / 64), static_cast<uint32_t>(M / 32), 1}, push, 12}, 0, bufs, writes, reps);
  if (!t) return;
  ReportVsReferences(state, "GFLOPS", 2.0 * M * N * K, t->gen, t->naive, t->handwritten);
}
BENCHMARK(BM_Matmul)
    ->Args({256, 256, 256})
    ->Args({512, 512, 512})
    ->Args({1024, 1024, 1024})
    ->Args({2048, 2048, 512})
    ->UseManualTime()
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

// relu(a . b + bias[j]) as ONE kernel (what meshvk-fuse-kernels makes of
// matmul + bias + relu) vs the two kernels it replaces (the matmul, then
// bias + relu re-reading the product), timed interleaved in one process:
// x_vs_unfused = (matmul + epilogue) / fused; epilogue_overhead = fused /
// matmul alone (1.0 = the epilogue is free).
std::string EpilogueBody(const std::string& in, const std::string& T, const std::string& R) {
  return "  %e2 = tensor.empty() : " + T +
         "\n"
         "  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, "
         "affine_map<(i, j) -> (i, j)>], iterator_types = [\"parallel\", \"parallel\"]} ins(" +
         in + ", %bias : " + T + ", " + R + ") outs(%e2 : " + T +
         ") {\n"
         "  ^bb0(%x: f32, %y: f32, %o: f32):\n    %v = arith.addf %x, %y : f32\n"
         "    %zero = arith.constant 0.0 : f32\n    %w = arith.maxnumf %v, %zero fastmath<nnan> : f32\n"
         "    linalg.yield %w : f32\n  } -> " +
         T + "\n  return %r : " + T + "\n}\n";
}

std::string MatmulEpilogueMlir(int64_t M, int64_t N, int64_t K) {
  auto t = [](int64_t a, int64_t b) { return "tensor<" + std::to_string(a) + "x" + std::to_string(b) + "xf32>"; };
  std::string R = "tensor<" + std::to_string(N) + "xf32>";
  std::ostringstream m;
  m << "func.func @fused(%a: " << t(M, K) << ", %b: " << t(K, N) << ", %bias: " << R << ") -> " << t(M, N)
    << " attributes {meshvk.kernel} {\n  %z = arith.constant 0.0 : f32\n"
    << "  %e = tensor.empty() : " << t(M, N) << "\n"
    << "  %f = linalg.fill ins(%z : f32) outs(%e : " << t(M, N) << ") -> " << t(M, N) << "\n"
    << "  %m = linalg.matmul ins(%a, %b : " << t(M, K) << ", " << t(K, N) << ") outs(%f : " << t(M, N) << ") -> "
    << t(M, N) << "\n"
    << EpilogueBody("%m", t(M, N), R);
  return m.str();
}

std::string EpilogueMlir(int64_t M, int64_t N) {
  std::string T = "tensor<" + std::to_string(M) + "x" + std::to_string(N) + "xf32>";
  std::string R = "tensor<" + std::to_string(N) + "xf32>";
  return "func.func @epilogue(%c: " + T + ", %bias: " + R + ") -> " + T + " attributes {meshvk.kernel} {\n" +
         EpilogueBody("%c", T, R);
}

void BM_MatmulEpilogue(benchmark::State& state) {
  Device& dev = TheDevice();
  if (!dev.error().empty()) return state.SkipWithError(dev.error().c_str());
  const int64_t M = state.range(0), N = state.range(1), K = state.range(2);
  std::string err;
  const auto* fused = Generated(MatmulEpilogueMlir(M, N, K), &err);
  const auto* matmul = fused ? Generated(MatmulMlir(M, N, K), &err) : nullptr;
  const auto* epilogue = matmul ? Generated(EpilogueMlir(M, N), &err) : nullptr;
  if (!epilogue) return state.SkipWithError(err.c_str());
  auto a = Upload(RandomFloats(M * K, 2)), b = Upload(RandomFloats(K * N, 3));
  auto bias = Upload(RandomFloats(N, 4));
  auto c = Empty(M * N), out = Empty(M * N);
  std::vector<Buffer*> fusedBufs = {a.get(), b.get(), bias.get(), out.get()};
  std::vector<Buffer*> matmulBufs = {a.get(), b.get(), c.get()};
  std::vector<Buffer*> epilogueBufs = {c.get(), bias.get(), out.get()};
  std::vector<bool> fusedWrites = {false, false, false, true}, matmulWrites = {false, false, true},
                    epilogueWrites = {false, false, true};
  Kernel fk(dev, *fused), mk(dev, *matmul), ek(dev, *epilogue);
  double fusedS = 0, matmulS = 0, epilogueS = 0;
  for (auto _ : state) {
    std::vector<double> t = Interleaved({{&fk, fused->workgroupCount, nullptr, 0, &fusedBufs, &fusedWrites},
                                         {&mk, matmul->workgroupCount, nullptr, 0, &matmulBufs, &matmulWrites},
                                         {&ek, epilogue->workgroupCount, nullptr, 0, &epilogueBufs, &epilogueWrites}},
                                        fusedBufs, fusedWrites, 3, &err);
    if (!err.empty()) return state.SkipWithError(err.c_str());
    fusedS = t[0];
    matmulS = t[1];
    epilogueS = t[2];
    state.SetIterationTime(fusedS);
  }
  state.counters["GFLOPS"] = 2.0 * M * N * K / fusedS / 1e9;
  state.counters["unfused_ms"] = (matmulS + epilogueS) * 1e3;
  state.counters["x_vs_unfused"] = (matmulS + epilogueS) / fusedS;
  state.counters["epilogue_overhead"] = fusedS / matmulS;
}
BENCHMARK(BM_MatmulEpilogue)
    ->Args({512, 512, 512})
    ->Args({256, 4096, 64})
    ->Args({8, 256, 64})
    ->UseManualTime()
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

// relu(a * row[j] + col[i]). The max carries fastmath<nnan>: like GLSL's
// max() in the hand-written kernels it may ignore NaN operands (without the
// flag MLIR adds IsNan/Select pairs to honour maxnumf's NaN rule).
std::string EltwiseMlir(int64_t M, int64_t N) {
  std::string T = "tensor<" + std::to_string(M) + "x" + std::to_string(N) + "xf32>";
  std::string R = "tensor<" + std::to_string(N) + "xf32>", C = "tensor<" + std::to_string(M) + "xf32>";
  std::ostringstream m;
  m << "func.func @chain(%a: " << T << ", %row: " << R << ", %col: " << C << ") -> " << T
    << " attributes {meshvk.kernel} {\n"
    << "  %e = tensor.empty() : " << T << "\n"
    << "  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> "
       "(j)>, affine_map<(i, j) -> (i, j)>], iterator_types = [\"parallel\", \"parallel\"]} ins(%a, "
       "%row : "
    << T << ", " << R << ") outs(%e : " << T << ") {\n"
    << "  ^bb0(%x: f32, %y: f32, %o: f32):\n    %v = arith.mulf %x, %y : f32\n"
    << "    linalg.yield %v : f32\n  } -> " << T << "\n"
    << "  %e2 = tensor.empty() : " << T << "\n"
    << "  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> "
       "(i)>, affine_map<(i, j) -> (i, j)>], iterator_types = [\"parallel\", \"parallel\"]} ins(%s, "
       "%col : "
    << T << ", " << C << ") outs(%e2 : " << T << ") {\n"
    << "  ^bb0(%x: f32, %y: f32, %o: f32):\n    %v = arith.addf %x, %y : f32\n"
    << "    %z = arith.constant 0.0 : f32\n    %r = arith.maxnumf %v, %z fastmath<nnan> : f32\n"
    << "    linalg.yield %r : f32\n  } -> " << T << "\n  return %t : " << T << "\n}\n";
  return m.str();
}

void BM_ElementwiseChain(benchmark::State& state) {
  const int64_t M = state.range(0), N = state.range(1);
  const auto* gen = GeneratedOrSkip(state, EltwiseMlir(M, N));
  if (!gen) return;
  auto a = Upload(RandomFloats(M * N, 4)), row = Upload(RandomFloats(N, 5));
  auto col = Upload(RandomFloats(M, 6));
  auto out = Empty(M * N);
  std::vector<Buffer*> bufs = {a.get(), row.get(), col.get(), out.get()};
  std::vector<bool> writes = {false, false, false, true};
  Device& dev = TheDevice();
  Kernel naive(dev, ref::eltwise_naive, ref::eltwise_naive_word_count, 4, 8);
  Kernel vec4(dev, ref::eltwise_vec4, ref::eltwise_vec4_word_count, 4, 8);
  uint32_t push[2] = {static_cast<uint32_t>(M), static_cast<uint32_t>(N)};
  const std::optional<Times> t = TimeVsReferences(state, *gen, {&naive, Grid1D((M * N + 63) / 64), push, 8},
                                                  {&vec4, Grid1D((M * N / 4 + 63) / 64), push, 8},
                                                  static_cast<uint32_t>(M * N / 4), bufs, writes, 3);
  if (!t) return;
  ReportBandwidth(state, 2.0 * M * N * 4, *t);  // read a, write out (row/col vectors are tiny)
}
BENCHMARK(BM_ElementwiseChain)->Args({4096, 4096})->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);

std::string ReduceRowsMlir(int64_t M, int64_t N) {
  std::string T = "tensor<" + std::to_string(M) + "x" + std::to_string(N) + "xf32>";
  std::string R = "tensor<" + std::to_string(M) + "xf32>";
  std::ostringstream m;
  m << "func.func @rowsum(%a: " << T << ") -> " << R << " attributes {meshvk.kernel} {\n"
    << "  %z = arith.constant 0.0 : f32\n  %e = tensor.empty() : " << R << "\n"
    << "  %f = linalg.fill ins(%z : f32) outs(%e : " << R << ") -> " << R << "\n"
    << "  %r = linalg.reduce ins(%a : " << T << ") outs(%f : " << R << ") dimensions = [1]\n"
    << "    (%x: f32, %acc: f32) {\n      %s = arith.addf %x, %acc : f32\n"
    << "      linalg.yield %s : f32\n    }\n  return %r : " << R << "\n}\n";
  return m.str();
}

void BM_ReduceRows(benchmark::State& state) {
  const int64_t M = state.range(0), N = state.range(1);
  const auto* gen = GeneratedOrSkip(state, ReduceRowsMlir(M, N));
  if (!gen) return;
  auto a = Upload(RandomFloats(M * N, 7));
  auto out = Empty(M);
  std::vector<Buffer*> bufs = {a.get(), out.get()};
  std::vector<bool> writes = {false, true};
  Device& dev = TheDevice();
  Kernel naive(dev, ref::reduce_rows_naive, ref::reduce_rows_naive_word_count, 2, 8);
  Kernel tuned(dev, ref::reduce_rows_vec4, ref::reduce_rows_vec4_word_count, 2, 8);
  uint32_t push[2] = {static_cast<uint32_t>(M), static_cast<uint32_t>(N)};
  const std::optional<Times> t =
      TimeVsReferences(state, *gen, {&naive, Grid1D((M + 63) / 64), push, 8}, {&tuned, Grid1D(M), push, 8},
                       static_cast<uint32_t>(M * N / 4), bufs, writes, 3);
  if (!t) return;
  // A reduction reads its bytes once; the copy reads and writes them: compare
  // with the copy's read+write rate as the issue asks ("of copy bandwidth").
  ReportBandwidth(state, 1.0 * M * N * 4, *t);
}
BENCHMARK(BM_ReduceRows)->Args({4096, 4096})->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);

// A full f32 sum of n elements as a one-process program (what mesh-vk-run
// compiles from `linalg.reduce ... dimensions = [0]` to tensor<f32>).
std::string ReduceAllProgram(int64_t n) {
  std::string T = "tensor<" + std::to_string(n) + "xf32>";
  std::ostringstream m;
  m << "shard.grid @g(shape = 1)\n"
    << "func.func @sum(%x: " << T << ") -> tensor<f32> attributes {meshvk.abi = #meshvk.abi<grid = @g, "
    << "grid_shape = [1], args = [], results = []>} {\n"
    << "  %z = arith.constant 0.0 : f32\n  %e = tensor.empty() : tensor<f32>\n"
    << "  %f = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>\n"
    << "  %r = linalg.reduce ins(%x : " << T << ") outs(%f : tensor<f32>) dimensions = [0]\n"
    << "    (%v: f32, %acc: f32) {\n      %s = arith.addf %v, %acc : f32\n"
    << "      linalg.yield %s : f32\n    }\n  return %r : tensor<f32>\n}\n";
  return m.str();
}

// The dispatches meshvk-plan makes of a one-process program (unroll, split
// reductions, outline), compiled, in launch order: each launch's kernel and
// which buffers it binds (0 = the argument, k > 0 = the output of launch k-1).
struct PlannedDispatch {
  meshvk::codegen::CompiledKernel kernel;
  std::vector<size_t> operands;
  uint64_t resultBytes = 0;
};

std::string PlanDispatches(const std::string& program, std::vector<PlannedDispatch>* out) {
  mlir::DialectRegistry registry;
  meshvk::registerCodegenDialects(registry);
  registry.insert<mlir::shard::ShardDialect>();
  mlir::MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::parseSourceString<mlir::ModuleOp>(program, &ctx);
  if (!module) return "parse error";
  mlir::PassManager pm(&ctx);
  pm.addPass(meshvk::createUnrollGrid());
  pm.addPass(meshvk::createSplitReductions());
  pm.addPass(meshvk::createOutlineKernels());
  if (mlir::failed(pm.run(*module))) return "meshvk-plan passes failed";
  mlir::FailureOr<meshvk::codegen::CompiledKernels> kernels =
      meshvk::codegen::compileKernels(*module, TheDevice().target());
  if (mlir::failed(kernels)) return "codegen failed";
  llvm::DenseMap<mlir::Value, size_t> bufferOf;
  std::string error;
  module->walk([&](mlir::func::FuncOp f) {
    if (!meshvk::getPlan(f)) return;
    bufferOf[f.getArgument(0)] = 0;
    f.walk([&](meshvk::LaunchOp launch) {
      PlannedDispatch d;
      d.kernel = kernels->kernels.at(kernels->byFunction.at(launch.getKernel().str()));
      for (mlir::Value v : launch.getInputs()) d.operands.push_back(bufferOf.lookup(v));
      auto type = mlir::cast<mlir::RankedTensorType>(launch->getResult(0).getType());
      d.resultBytes = type.getNumElements() * 4;
      out->push_back(std::move(d));
      bufferOf[launch->getResult(0)] = out->size();
    });
  });
  return out->empty() ? "no launches" : "";
}

// A 64 MiB f32 sum to a scalar as meshvk-plan compiles it (partials + combine),
// every dispatch timed; frac_copy_bw: bytes read / summed time over the copy
// probe's read+write rate, interleaved in the same process.
void BM_ReduceAll(benchmark::State& state) {
  Device& dev = TheDevice();
  if (!dev.error().empty()) return state.SkipWithError(dev.error().c_str());
  const int64_t n = state.range(0);
  std::vector<PlannedDispatch> plan;
  std::string err = PlanDispatches(ReduceAllProgram(n), &plan);
  if (!err.empty()) return state.SkipWithError(err.c_str());
  std::vector<std::unique_ptr<Buffer>> buffers;
  buffers.push_back(Upload(RandomFloats(n, 11)));
  std::vector<std::unique_ptr<Kernel>> kernels;
  for (const PlannedDispatch& d : plan) {
    buffers.push_back(Empty(d.resultBytes / 4));
    kernels.push_back(std::make_unique<Kernel>(dev, d.kernel));
  }
  CopyProbe copy(static_cast<uint32_t>(n / 4));
  double best = 1e30, copyBest = 1e30;
  for (auto _ : state) {
    for (int rep = 0; rep < 3 && err.empty(); ++rep) {
      double total = 0;
      for (size_t k = 0; k < plan.size() && err.empty(); ++k) {
        std::vector<Buffer*> bufs;
        for (size_t b : plan[k].operands) bufs.push_back(buffers[b].get());
        bufs.push_back(buffers[k + 1].get());
        std::vector<bool> writes(bufs.size(), false);
        writes.back() = true;
        double s = 0;
        err = kernels[k]->Run(bufs, writes, plan[k].kernel.workgroupCount, nullptr, 0, 1, &s);
        total += s;
      }
      Variant c = copy.variant();
      double cs = BestSeconds(*c.kernel, *c.bufs, *c.writes, c.count, c.push, c.push_size, 1, &err);
      best = std::min(best, total);
      copyBest = std::min(copyBest, cs);
    }
    if (!err.empty()) return state.SkipWithError(err.c_str());
    state.SetIterationTime(best);
  }
  double bytes = 4.0 * n;
  state.counters["GB/s"] = bytes / best / 1e9;
  state.counters["dispatches"] = static_cast<double>(plan.size());
  ReportVsCopy(state, bytes / best / 1e9, copy.GBs(copyBest));
}
BENCHMARK(BM_ReduceAll)->Arg(16 << 20)->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);

// ---- Kernels vs the device's FMA roof and vs OpenBLAS (issue 31) ----------

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

constexpr int kRoofRounds = 5;

// The FMA peak exactly as `mesh-vk-run --benchmark` measures it for its
// roofline line (samples/mesh-vk-run/probes.cc, best of 3 inside).
double FmaPeakFlops(std::string* error) {
  meshvk_run::DeviceRoofs roofs;
  std::string e = meshvk_codegen_test::StatusText(meshvk_run::MeasureRoofs(TheDevice().set(), 0, &roofs));
  if (!e.empty()) *error = "FMA probe: " + e;
  return roofs.fma_flops_per_second;
}

// Row-major C[M x N] = A[M x K] B[K x N] on the host CPU with OpenBLAS
// (its own threads: every core, as lavapipe uses); seconds, or 0 without it.
double SgemmSeconds(int64_t M, int64_t N, int64_t K, const float* a, const float* b, float* c) {
#ifdef MESHVK_BENCH_OPENBLAS
  auto start = std::chrono::steady_clock::now();
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(M), static_cast<int>(N), static_cast<int>(K),
              1.0f, a, static_cast<int>(K), b, static_cast<int>(N), 0.0f, c, static_cast<int>(N));
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
#else
  (void)M, (void)N, (void)K, (void)a, (void)b, (void)c;
  return 0;
#endif
}

// The counters of a roof benchmark from its per-round medians: the
// generated kernels' rate, the FMA peak, the fraction of it, and (with
// OpenBLAS) how many times slower than cblas_sgemm the generated code is.
void ReportRoof(benchmark::State& state, double flops, const std::vector<double>& genS, const std::vector<double>& peak,
                const std::vector<double>& blasS) {
  double gen = Median(genS), roof = Median(peak);
  state.counters["GFLOPS"] = flops / gen / 1e9;
  state.counters["fma_peak_GFLOPS"] = roof / 1e9;
  state.counters["frac_fma_peak"] = flops / gen / roof;
  double blas = Median(blasS);
  if (blas > 0) {
    state.counters["openblas_GFLOPS"] = flops / blas / 1e9;
    state.counters["x_slower_than_openblas"] = gen / blas;
  }
}

double MaxAbsDiff(const std::vector<float>& x, const std::vector<float>& y) {
  double d = 0;
  for (size_t i = 0; i < x.size() && i < y.size(); ++i) d = std::max(d, double(std::fabs(x[i] - y[i])));
  return d;
}

// The generated 1024^3 f32 matmul: 5 rounds of (FMA probe, kernel, sgemm),
// medians; the kernel's product is checked against OpenBLAS's.
// MESHVK_BENCH_VS=rows,cols,invocations also times the kernel compiled with
// those knobs in the same rounds (x_variant_vs_default: its time over the
// default's), a fairer A/B on a busy host than two runs.
void BM_MatmulRoof(benchmark::State& state) {
  const int64_t M = state.range(0), N = state.range(1), K = state.range(2);
  const auto* gen = GeneratedOrSkip(state, MatmulMlir(M, N, K));
  if (!gen) return;
  Device& dev = TheDevice();
  std::string err;
  std::vector<float> ha = RandomFloats(M * K, 2), hb = RandomFloats(K * N, 3), hc(M * N), got(M * N);
  auto a = Upload(ha), b = Upload(hb);
  auto c = Empty(M * N);
  std::vector<Buffer*> bufs = {a.get(), b.get(), c.get()};
  std::vector<bool> writes = {false, false, true};
  Kernel gk(dev, *gen);
  std::unique_ptr<Kernel> vk;
  meshvk::codegen::CompiledKernels variant;
  if (std::getenv("MESHVK_BENCH_VS")) {
    err = meshvk_codegen_test::CompileMlir(MatmulMlir(M, N, K), BenchTarget("MESHVK_BENCH_VS"), &variant);
    if (!err.empty()) return state.SkipWithError(err.c_str());
    vk = std::make_unique<Kernel>(dev, variant.kernels.at(0));
  }
  std::vector<double> genS, peak, blasS, variantS;
  for (auto _ : state) {
    for (int r = 0; r < kRoofRounds; ++r) {
      peak.push_back(FmaPeakFlops(&err));
      double s = 0;
      if (err.empty()) err = gk.Run(bufs, writes, gen->workgroupCount, nullptr, 0, 1, &s);
      if (err.empty() && vk) {
        double v = 0;
        err = vk->Run(bufs, writes, variant.kernels.at(0).workgroupCount, nullptr, 0, 1, &v);
        variantS.push_back(v);
      }
      if (!err.empty()) return state.SkipWithError(err.c_str());
      genS.push_back(s);
      blasS.push_back(SgemmSeconds(M, N, K, ha.data(), hb.data(), hc.data()));
    }
    state.SetIterationTime(Median(genS));
  }
  ReportRoof(state, 2.0 * M * N * K, genS, peak, blasS);
  if (vk) state.counters["x_variant_vs_default"] = Median(variantS) / Median(genS);
  if (blasS.back() > 0 && c->Read(got.data(), got.size() * 4).empty())
    state.counters["max_abs_diff_vs_openblas"] = MaxAbsDiff(got, hc);
}
BENCHMARK(BM_MatmulRoof)->Args({1024, 1024, 1024})->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);

// A ResNet-18 3x3 convolution layer (64 -> 64 channels, 56x56, batch 1,
// padding 1, with its bias) as the ONNX importer hands it to the compiler:
// tosa.conv2d on NHWC with OHWI weights (the transposes around it fold away
// between layers).
std::string Conv3x3Program(int64_t H, int64_t W, int64_t C, int64_t F) {
  auto t = [](std::vector<int64_t> d) {
    std::string s = "tensor<";
    for (int64_t x : d) s += std::to_string(x) + "x";
    return s + "f32>";
  };
  std::string X = t({1, H, W, C}), Wt = t({F, 3, 3, C}), B = t({F}), Y = t({1, H, W, F});
  std::ostringstream m;
  m << "func.func @conv(%x: " << X << ", %w: " << Wt << ", %b: " << B << ") -> " << Y << " {\n"
    << "  %zp = \"tosa.const\"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>\n"
    << "  %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, "
       "1, 1, 1>, stride = array<i64: 1, 1>} : ("
    << X << ", " << Wt << ", " << B << ", tensor<1xf32>, tensor<1xf32>) -> " << Y << "\n"
    << "  return %y : " << Y << "\n}\n";
  return m.str();
}

// The steps the whole compiler (meshvk-compile-plan: input passes,
// partition, plan) makes of a one-process program, kernels compiled for this
// device, in plan order: launches, and meshvk.copy steps (runtime copies of
// a region; here done on the host once, at set-up: they are not kernels).
// Buffers are numbered: the program's arguments (0..nargs-1), then each
// step's results in order.
struct ProgramStep {
  bool copy = false;
  meshvk::codegen::CompiledKernel kernel;  // launches
  std::vector<size_t> operands, results;   // copy: operands = {source, dest}
  std::vector<int64_t> resultFloats;
  std::vector<int64_t> sourceShape, destShape, sourceOffsets, destOffsets, sizes;  // copies
};

std::vector<int64_t> ShapeOf(mlir::Value v) {
  auto type = mlir::cast<mlir::RankedTensorType>(v.getType());
  return std::vector<int64_t>(type.getShape().begin(), type.getShape().end());
}

std::string CompileProgramSteps(const std::string& program, size_t* nargs, std::vector<ProgramStep>* out,
                                size_t* returned) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registry.insert<meshvk::MeshVKDialect>();
  meshvk::registerCodegenDialects(registry);
  mlir::MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::parseSourceString<mlir::ModuleOp>(program, &ctx);
  if (!module) return "parse error";
  mlir::PassManager pm(&ctx);
  meshvk::buildPartitionPipeline(pm);
  meshvk::buildPlanPipeline(pm);
  if (mlir::failed(pm.run(*module))) return "meshvk-compile-plan failed";
  mlir::FailureOr<meshvk::codegen::CompiledKernels> kernels = meshvk::codegen::compileKernels(*module, BenchTarget());
  if (mlir::failed(kernels)) return "codegen failed";
  llvm::DenseMap<mlir::Value, size_t> bufferOf;
  std::string error;
  module->walk([&](mlir::func::FuncOp f) {
    if (!meshvk::getPlan(f)) return;
    *nargs = f.getNumArguments();
    for (unsigned i = 0; i < f.getNumArguments(); ++i) bufferOf[f.getArgument(i)] = i;
    size_t next = f.getNumArguments();
    auto operand = [&](mlir::Value v) {
      if (!bufferOf.count(v)) error = "a step reads a value no step made";
      return bufferOf.lookup(v);
    };
    auto result = [&](ProgramStep& step, mlir::Value r) {
      auto type = mlir::cast<mlir::RankedTensorType>(r.getType());
      step.resultFloats.push_back(type.getNumElements());
      step.results.push_back(next);
      bufferOf[r] = next++;
    };
    f.walk([&](mlir::Operation* op) {
      if (auto launch = mlir::dyn_cast<meshvk::LaunchOp>(op)) {
        ProgramStep step;
        step.kernel = kernels->kernels.at(kernels->byFunction.at(launch.getKernel().str()));
        for (mlir::Value v : launch.getInputs()) step.operands.push_back(operand(v));
        for (mlir::Value r : launch->getResults()) result(step, r);
        out->push_back(std::move(step));
      } else if (auto copy = mlir::dyn_cast<meshvk::CopyOp>(op)) {
        ProgramStep step;
        step.copy = true;
        step.operands = {operand(copy.getSource()), operand(copy.getDest())};
        step.sourceShape = ShapeOf(copy.getSource());
        step.destShape = ShapeOf(copy.getDest());
        step.sourceOffsets.assign(copy.getSourceOffsets().begin(), copy.getSourceOffsets().end());
        step.destOffsets.assign(copy.getDestOffsets().begin(), copy.getDestOffsets().end());
        step.sizes.assign(copy.getSizes().begin(), copy.getSizes().end());
        result(step, copy.getResult());
        out->push_back(std::move(step));
      } else if (auto ret = mlir::dyn_cast<mlir::func::ReturnOp>(op)) {
        if (ret.getNumOperands() == 1 && bufferOf.count(ret.getOperand(0)))
          *returned = bufferOf.lookup(ret.getOperand(0));
        else
          error = "the program does not return one step's result";
      } else if (op != f && op->getDialect() && op->getDialect()->getNamespace() == "meshvk") {
        error = "the plan has a " + op->getName().getStringRef().str() + " (only launches and copies run here)";
      }
    });
  });
  if (!error.empty()) return error;
  return out->empty() ? "no launches" : "";
}

// A meshvk.copy on the host: result = dest with the region of source written.
std::string HostCopy(const ProgramStep& step, std::vector<std::unique_ptr<Buffer>>& buffers) {
  auto count = [](const std::vector<int64_t>& shape) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
  };
  std::vector<float> src(count(step.sourceShape)), dst(count(step.destShape));
  std::string e = buffers[step.operands[0]]->Read(src.data(), src.size() * 4);
  if (e.empty()) e = buffers[step.operands[1]]->Read(dst.data(), dst.size() * 4);
  if (!e.empty()) return e;
  const size_t rank = step.sizes.size();
  std::vector<int64_t> idx(rank, 0);
  for (int64_t i = 0, n = count(step.sizes); i < n; ++i) {
    int64_t s = 0, d = 0;
    for (size_t k = 0; k < rank; ++k) {
      s = s * step.sourceShape[k] + step.sourceOffsets[k] + idx[k];
      d = d * step.destShape[k] + step.destOffsets[k] + idx[k];
    }
    dst[d] = src[s];
    for (size_t k = rank; k-- > 0;) {
      if (++idx[k] < step.sizes[k]) break;
      idx[k] = 0;
    }
  }
  return buffers[step.results[0]]->Write(dst.data(), dst.size() * 4);
}

// One launch of a step (bindings: operands, then results).
std::string RunStep(Kernel& kernel, const ProgramStep& step, std::vector<std::unique_ptr<Buffer>>& buffers,
                    double* seconds) {
  std::vector<Buffer*> bufs;
  for (size_t b : step.operands) bufs.push_back(buffers[b].get());
  for (size_t b : step.results) bufs.push_back(buffers[b].get());
  std::vector<bool> writes(bufs.size(), false);
  for (size_t i = step.operands.size(); i < bufs.size(); ++i) writes[i] = true;
  return kernel.Run(bufs, writes, step.kernel.workgroupCount, nullptr, 0, 1, seconds);
}

// The layer as the compiler plans it: every step runs once at set-up (copies
// on the host), then 5 rounds of (FMA probe, the compute launches, sgemm).
// The compute launches are those that read two or more operands (the taps'
// windows with their filter slices, bias and accumulators): their summed time
// is the kernel time against the roof. The one-input launches (the windows'
// zero fills, the filter slices, the bias broadcast) are timed too and
// reported as setup_ms (in a model the filter slices are constants).
void BM_Conv3x3Roof(benchmark::State& state) {
  Device& dev = TheDevice();
  if (!dev.error().empty()) return state.SkipWithError(dev.error().c_str());
  const int64_t H = state.range(0), W = state.range(1), C = state.range(2), F = state.range(3);
  size_t nargs = 0, returned = ~size_t(0);
  std::vector<ProgramStep> plan;
  std::string err = CompileProgramSteps(Conv3x3Program(H, W, C, F), &nargs, &plan, &returned);
  if (!err.empty()) return state.SkipWithError(err.c_str());
  if (nargs != 3) return state.SkipWithError("the conv program should take x, w, b");
  std::vector<float> hx = RandomFloats(H * W * C, 21), hw = RandomFloats(F * 9 * C, 22), hb = RandomFloats(F, 23);
  std::vector<std::unique_ptr<Buffer>> buffers;
  buffers.push_back(Upload(hx));
  buffers.push_back(Upload(hw));
  buffers.push_back(Upload(hb));
  std::vector<std::unique_ptr<Kernel>> kernels;
  int launches = 0, compute = 0;
  for (const ProgramStep& step : plan) {
    for (int64_t n : step.resultFloats) buffers.push_back(Empty(n));
    kernels.push_back(step.copy ? nullptr : std::make_unique<Kernel>(dev, step.kernel));
    launches += !step.copy;
    compute += !step.copy && step.operands.size() >= 2;
  }
  double setupS = 0;
  for (size_t k = 0; k < plan.size() && err.empty(); ++k) {
    double s = 0;
    err = plan[k].copy ? HostCopy(plan[k], buffers) : RunStep(*kernels[k], plan[k], buffers, &s);
    if (!plan[k].copy && plan[k].operands.size() < 2) setupS += s;
  }
  if (!err.empty()) return state.SkipWithError(err.c_str());
  // The CPU reference: the layer as ONE sgemm over im2col'd input
  // (pixels x (3*3*C)) times the filter ((3*3*C) x F); only the sgemm is timed.
  const int64_t P = H * W, K = 9 * C;
  std::vector<float> cols(P * K, 0.0f), filt(K * F), ref(P * F);
  for (int64_t y = 0; y < H; ++y)
    for (int64_t x = 0; x < W; ++x)
      for (int64_t ky = 0; ky < 3; ++ky)
        for (int64_t kx = 0; kx < 3; ++kx) {
          int64_t iy = y + ky - 1, ix = x + kx - 1;
          if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
          for (int64_t c = 0; c < C; ++c) cols[(y * W + x) * K + (ky * 3 + kx) * C + c] = hx[(iy * W + ix) * C + c];
        }
  for (int64_t f = 0; f < F; ++f)
    for (int64_t k = 0; k < K; ++k) filt[k * F + f] = hw[f * K + k];
  std::vector<double> genS, peak, blasS;
  for (auto _ : state) {
    for (int r = 0; r < kRoofRounds; ++r) {
      peak.push_back(FmaPeakFlops(&err));
      double total = 0;
      for (size_t k = 0, c = 0; k < plan.size() && err.empty(); ++k) {
        if (plan[k].copy || plan[k].operands.size() < 2) continue;
        double s = 0;
        err = RunStep(*kernels[k], plan[k], buffers, &s);
        total += s;
        if (r == 0) state.counters["launch" + std::to_string(c++) + "_ms"] = s * 1e3;
      }
      if (!err.empty()) return state.SkipWithError(err.c_str());
      genS.push_back(total);
      blasS.push_back(SgemmSeconds(P, F, K, cols.data(), filt.data(), ref.data()));
    }
    state.SetIterationTime(Median(genS));
  }
  ReportRoof(state, 2.0 * P * F * K, genS, peak, blasS);
  state.counters["launches"] = launches;
  state.counters["compute_launches"] = compute;
  state.counters["setup_ms"] = setupS * 1e3;
  // The output checked against the host (OpenBLAS's product + bias).
  std::vector<float> got(P * F);
  if (blasS.back() > 0 && returned < buffers.size() && buffers[returned]->Read(got.data(), got.size() * 4).empty()) {
    for (int64_t p = 0; p < P; ++p)
      for (int64_t f = 0; f < F; ++f) ref[p * F + f] += hb[f];
    state.counters["max_abs_diff_vs_openblas"] = MaxAbsDiff(got, ref);
  }
}
BENCHMARK(BM_Conv3x3Roof)->Args({56, 56, 64, 64})->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
