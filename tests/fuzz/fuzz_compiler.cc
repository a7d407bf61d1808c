// Compiler fuzz target (issue #13): program text through the whole chain of
// meshvk/Artifact/CompileProgram.h (parse, input normalisation, sharding checks,
// upstream propagation + partition, planning, kernel codegen, emission). Any
// input must end in "" or one error line; a crash or an abort fails.
//
// Two ways to run it:
//  * as a libFuzzer target (LLVMFuzzerTestOneInput), when built with clang
//    and -fsanitize=fuzzer (see docs in README "Fuzzing");
//  * standalone (this file's main, MESHVK_FUZZ_COMPILER_MAIN): mutates the
//    sample programs with sharding-aware and byte-level mutations for a given
//    time, deterministic for a seed. Each input is written to
//    <work>/current.mlir before it is compiled, so a crash leaves its
//    reproducer behind. ctest runs it briefly.
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "meshvk/Artifact/CompileProgram.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  meshvk::ProgramOptions options;
  options.producer = "meshvk compiler fuzz";
  options.isolateCrashes = false;  // libFuzzer needs the coverage of the code it runs
  meshvk::CompiledProgram program;
  std::string text(reinterpret_cast<const char*>(data), size);
  std::string error = meshvk::compileProgramSource(text, "fuzz.mlir", options, &program);
  // The contract: success with an artifact, or exactly one line of error.
  if (error.empty() ? program.artifact.empty() : error.find('\n') != std::string::npos) std::abort();
  return 0;
}

#ifdef MESHVK_FUZZ_COMPILER_MAIN
namespace {

const char* const kSplits[] = {"[[]]",       "[[0]]",      "[[], [0]]", "[[1]]", "[[0, 1]]",      "[[1, 0]]",
                               "[[0], [1]]", "[[1], [0]]", "[[], [1]]", "[[2]]", "[[], [], [0]]", "[[0], [], [1]]"};
const char* const kNumbers[] = {"0", "1", "2", "3", "4", "5", "7", "8", "10", "16", "64", "1023", "65536", "-1"};
const char* const kTypes[] = {"f32", "f16", "i32", "f64", "i8", "index"};
const char* const kGrids[] = {"1", "2", "4", "2x2", "3", "8", "2x2x2", "?", "0", "4x1", "1024x1024"};

// One mutation of `s`, chosen by `rng`.
std::string Mutate(std::string s, std::mt19937* rng) {
  auto pick = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(*rng); };
  auto replaceNth = [&](const std::string& needle, const std::string& end, const std::string& with) {
    std::vector<size_t> hits;
    for (size_t p = s.find(needle); p != std::string::npos; p = s.find(needle, p + 1)) hits.push_back(p);
    if (hits.empty()) return;
    size_t at = hits[pick(hits.size())] + needle.size();
    size_t stop = s.find(end, at);
    if (stop == std::string::npos) return;
    s.replace(at, stop - at, with);
  };
  switch (pick(10)) {
    case 0:  // another split
      replaceNth("split_axes = ", " :", kSplits[pick(std::size(kSplits))]);
      break;
    case 1: {  // another grid shape
      replaceNth("(shape = ", ")", kGrids[pick(std::size(kGrids))]);
      break;
    }
    case 2: {  // toggle annotate_for_users on one annotation
      size_t p = s.find("annotate_for_users", pick(s.size()));
      if (p != std::string::npos)
        s.erase(p, 18);
      else if ((p = s.find(" : tensor<", pick(s.size()))) != std::string::npos)
        s.insert(p, " annotate_for_users");
      break;
    }
    case 3: {  // a number becomes another
      std::vector<size_t> digits;
      for (size_t i = 0; i < s.size(); ++i)
        if (std::isdigit(static_cast<unsigned char>(s[i])) &&
            (i == 0 || !std::isalnum(static_cast<unsigned char>(s[i - 1]))))
          digits.push_back(i);
      if (digits.empty()) break;
      size_t at = digits[pick(digits.size())], end = at;
      while (end < s.size() && std::isdigit(static_cast<unsigned char>(s[end]))) ++end;
      s.replace(at, end - at, kNumbers[pick(std::size(kNumbers))]);
      break;
    }
    case 4: {  // an element type becomes another
      std::string from = kTypes[pick(3)], to = kTypes[pick(std::size(kTypes))];
      size_t p = s.find(from, pick(s.size()));
      if (p != std::string::npos) s.replace(p, from.size(), to);
      break;
    }
    case 5:
    case 6: {  // delete or duplicate a line
      std::vector<std::string> lines;
      std::stringstream in(s);
      for (std::string line; std::getline(in, line);) lines.push_back(line);
      if (lines.empty()) break;
      size_t i = pick(lines.size());
      if (pick(2))
        lines.erase(lines.begin() + i);
      else
        lines.insert(lines.begin() + i, lines[i]);
      s.clear();
      for (const std::string& line : lines) s += line + "\n";
      break;
    }
    case 7:  // flip a byte
      if (!s.empty()) s[pick(s.size())] ^= static_cast<char>(1u << pick(8));
      break;
    case 8:  // truncate
      s.resize(pick(s.size() + 1));
      break;
    default: {  // swap two lines' values: use a value before its definition
      size_t a = s.find('%', pick(s.size())), b = s.find('%', pick(s.size()));
      if (a != std::string::npos && b != std::string::npos) std::swap(s[a + 1], s[b + 1]);
      break;
    }
  }
  return s;
}

}  // namespace

// fuzz_compiler SECONDS SEED WORKDIR SEED_FILES...
int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: fuzz_compiler SECONDS SEED WORKDIR PROGRAM.mlir...\n");
    return 2;
  }
  const double seconds = std::atof(argv[1]);
  std::mt19937 rng(static_cast<uint32_t>(std::strtoul(argv[2], nullptr, 10)));
  const std::filesystem::path work = argv[3];
  std::filesystem::create_directories(work);
  std::vector<std::string> seeds;
  for (int i = 4; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    if (!in || text.str().empty()) {
      std::fprintf(stderr, "fuzz_compiler: cannot read %s\n", argv[i]);
      return 2;
    }
    seeds.push_back(text.str());
  }
  const auto start = std::chrono::steady_clock::now();
  size_t runs = 0, compiled = 0, isolated = 0;
  while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < seconds) {
    std::string input = seeds[rng() % seeds.size()];
    for (int m = 0, n = 1 + static_cast<int>(rng() % 3); m < n; ++m) input = Mutate(input, &rng);
    {
      std::ofstream out(work / "current.mlir", std::ios::binary | std::ios::trunc);
      out << input;
    }
    meshvk::ProgramOptions options;
    meshvk::CompiledProgram program;
    std::string error = meshvk::compileProgramSource(input, "fuzz.mlir", options, &program);
    if (error.empty() ? program.artifact.empty() : error.find('\n') != std::string::npos) {
      std::fprintf(stderr, "fuzz_compiler: broken contract on %s: '%s'\n", (work / "current.mlir").c_str(),
                   error.c_str());
      return 1;
    }
    // A crash in upstream code (MLIR's parser, a pass) isolated in the
    // compiling child process keeps the contract; the input is kept, so the
    // crash classes can be read and reported upstream.
    if (error.find("it ran in a child process") != std::string::npos) {
      std::filesystem::copy_file(work / "current.mlir", work / ("isolated-" + std::to_string(isolated) + ".mlir"),
                                 std::filesystem::copy_options::overwrite_existing);
      std::fprintf(stderr, "fuzz_compiler: isolated crash %zu: %s\n", isolated, error.c_str());
      ++isolated;
    }
    compiled += error.empty();
    ++runs;
  }
  std::printf(
      "fuzz_compiler: %zu mutated programs, %zu compiled, %zu refused with one line (%zu of them crashes "
      "isolated in the compiling child process), 0 broken contracts\n",
      runs, compiled, runs - compiled, isolated);
  std::filesystem::remove(work / "current.mlir");
  return 0;
}
#endif  // MESHVK_FUZZ_COMPILER_MAIN
