// Fuzzes the ONNX frontend through the whole chain (load -> version
// conversion -> shape inference -> import -> compile): every input compiles
// to an artifact or is refused with exactly one line.
//
// Two drivers, as fuzz_compiler.cc:
//  - LLVMFuzzerTestOneInput (clang, -fsanitize=fuzzer): compiles in-process
//    (ProgramOptions::isolateCrashes = false) so libFuzzer sees coverage and
//    every crash is a finding, upstream or not.
//  - MESHVK_FUZZ_ONNX_MAIN (any compiler, run by ctest and
//    scripts/fuzz-long.sh): a structure-aware mutation loop over real models
//    (libonnx-testdata), compiled as the tools compile them: in a child
//    process. A crash in libonnx or protobuf is then isolated (counted, its
//    input kept as isolated-N.onnx); a crash in meshvk's own importer, or a
//    broken one-line contract, fails the run with the input kept as
//    current.onnx.
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "meshvk/Artifact/CompileProgram.h"

namespace {

// The contract every input is held to.
bool KeepsContract(const std::string& error, const meshvk::CompiledProgram& program) {
  return error.empty() ? !program.artifact.empty() : error.find('\n') == std::string::npos;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::filesystem::path dir = [] {
    std::filesystem::path d = std::filesystem::temp_directory_path() / ("meshvk-fuzz-onnx-" + std::to_string(getpid()));
    std::filesystem::create_directories(d);
    return d;
  }();
  const std::filesystem::path model = dir / "fuzz.onnx";
  {
    std::ofstream out(model, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  meshvk::ProgramOptions options;
  options.producer = "meshvk ONNX fuzz";
  options.isolateCrashes = false;  // libFuzzer needs the coverage of the code it runs
  meshvk::CompiledProgram program;
  std::string error = meshvk::compileProgramFile(model.string(), options, &program);
  if (!KeepsContract(error, program)) std::abort();
  return 0;
}

#ifdef MESHVK_FUZZ_ONNX_MAIN
#include "onnx_mutator.h"

namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return in ? text.str() : std::string();
}

}  // namespace

// fuzz_onnx_importer SECONDS SEED WORKDIR MODEL.onnx...
int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: fuzz_onnx_importer SECONDS SEED WORKDIR MODEL.onnx...\n");
    return 2;
  }
  const double seconds = std::atof(argv[1]);
  meshvk_fuzz::Mutator mutator(static_cast<uint32_t>(std::strtoul(argv[2], nullptr, 10)));
  const std::filesystem::path work = argv[3];
  std::filesystem::create_directories(work);
  std::vector<std::string> seeds;
  for (int i = 4; i < argc; ++i) {
    seeds.push_back(ReadFile(argv[i]));
    if (seeds.back().empty()) {
      std::fprintf(stderr, "fuzz_onnx_importer: cannot read %s\n", argv[i]);
      return 2;
    }
  }
  // The one external data file a mutation may point at, shorter than most
  // initializers.
  std::ofstream(work / "data.bin", std::ios::binary) << std::string(12, '\x7f');
  const std::filesystem::path current = work / "current.onnx";
  const auto start = std::chrono::steady_clock::now();
  size_t runs = 0, compiled = 0, isolated = 0;
  while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < seconds) {
    std::string input = seeds[mutator.Pick(seeds.size())];
    for (size_t m = 0, n = 1 + mutator.Pick(3); m < n; ++m) input = mutator.Mutate(input);
    std::ofstream(current, std::ios::binary | std::ios::trunc) << input;
    meshvk::ProgramOptions options;
    options.producer = "meshvk ONNX fuzz";
    meshvk::CompiledProgram program;
    std::string error = meshvk::compileProgramFile(current.string(), options, &program);
    ++runs;
    compiled += error.empty();
    if (!KeepsContract(error, program)) {
      std::fprintf(stderr, "fuzz_onnx_importer: broken contract on %s: '%s'\n", current.c_str(), error.c_str());
      return 1;
    }
    if (error.find("it ran in a child process") == std::string::npos) continue;
    // Isolated: upstream's crash is survived and kept; meshvk's own is a bug.
    if (error.find("in stage importing ONNX node") != std::string::npos) {
      std::fprintf(stderr, "fuzz_onnx_importer: meshvk's importer crashed on %s: %s\n", current.c_str(), error.c_str());
      return 1;
    }
    std::filesystem::copy_file(current, work / ("isolated-" + std::to_string(isolated) + ".onnx"),
                               std::filesystem::copy_options::overwrite_existing);
    std::fprintf(stderr, "fuzz_onnx_importer: isolated crash %zu: %s\n", isolated, error.c_str());
    ++isolated;
  }
  std::printf(
      "fuzz_onnx_importer: %zu mutated models, %zu compiled, %zu refused with one line (%zu of them "
      "crashes in upstream code isolated in the compiling child process), 0 broken contracts\n",
      runs, compiled, runs - compiled, isolated);
  std::filesystem::remove(current);
  return 0;
}
#endif  // MESHVK_FUZZ_ONNX_MAIN
