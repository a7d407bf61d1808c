// Issue #12: "the compiler never crashes on any input". Runs meshvk's whole
// compiler chain (meshvk/Artifact/CompileProgram.h: input passes, sharding
// checks, upstream propagation + partition, planning, kernel codegen,
// emission) over every `// -----` chunk of upstream MLIR 22's own test inputs
// (third_party/mlir-test-inputs/: the shard, tosa-to-linalg, linalg and tosa
// dialect tests), as written: valid and invalid IR, annotated or not.
//
// Each chunk, and each function of a chunk alone, must end compiled (an
// artifact) or refused with exactly one error line; a crash ends this
// process (ctest reports it) after the input was written to
// WORKDIR/current.mlir, its reproducer. A dynamic grid (`shape = ?`) is
// compiled for 2 processes. Prints, per file, how many inputs were compiled
// and refused, and the most frequent refusals.
//
// upstream_inputs WORKDIR FILE.mlir...
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "meshvk/Artifact/CompileProgram.h"

namespace {

// MLIR's -split-input-file chunks: text between lines that begin with
// "// -----".
std::vector<std::string> SplitChunks(const std::string& text) {
  std::vector<std::string> chunks(1);
  std::stringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("// -----", 0) == 0) {
      chunks.emplace_back();
      continue;
    }
    chunks.back() += line + "\n";
  }
  return chunks;
}

// The chunk as written, then (where it holds several) each of its
// functions alone with the rest of the chunk (grids, globals): upstream
// tests put many functions in one chunk, and meshvk compiles one public
// function, so the first refusal would hide every later function. A
// function is a line starting "func.func" up to the next line "}" (how
// the upstream files are written; anything else stays in the rest).
std::vector<std::string> Inputs(const std::string& chunk) {
  std::vector<std::string> functions;
  std::string rest;
  std::stringstream in(chunk);
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (!inside && line.rfind("func.func", 0) == 0) {
      inside = true;
      functions.emplace_back();
    }
    (inside ? functions.back() : rest) += line + "\n";
    if (inside && line == "}") inside = false;
  }
  std::vector<std::string> inputs{chunk};
  for (size_t f = 0; functions.size() > 1 && f < functions.size(); ++f) inputs.push_back(rest + functions[f]);
  return inputs;
}

// The refusal without its location ("error: ..." at most 70 characters),
// to group refusals of one kind.
std::string RefusalKind(const std::string& error) {
  size_t at = error.find("error: ");
  std::string kind = at == std::string::npos ? error : error.substr(at + 7);
  if (kind.size() > 70) kind = kind.substr(0, 70) + "...";
  return kind;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: upstream_inputs WORKDIR FILE.mlir...\n");
    return 2;
  }
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // the lines so far survive a crash
  const std::filesystem::path work = argv[1];
  std::filesystem::create_directories(work);
  int chunks_total = 0, broken_contract = 0;
  for (int i = 2; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    if (!in) {
      std::fprintf(stderr, "upstream_inputs: cannot read %s\n", argv[i]);
      return 2;
    }
    const std::string file = std::filesystem::path(argv[i]).filename().string();
    int compiled = 0, refused = 0;
    std::map<std::string, int> kinds;
    std::vector<std::string> chunks;
    for (const std::string& chunk : SplitChunks(text.str()))
      for (std::string& input : Inputs(chunk)) chunks.push_back(std::move(input));
    for (size_t c = 0; c < chunks.size(); ++c) {
      {
        std::ofstream out(work / "current.mlir", std::ios::binary | std::ios::trunc);
        out << "// " << argv[i] << ", input " << c << "\n" << chunks[c];
      }
      meshvk::ProgramOptions options;
      options.producer = "meshvk upstream inputs";
      options.dynamicGridProcesses = 2;
      meshvk::CompiledProgram program;
      const std::string name = file + "#" + std::to_string(c);
      const std::string error = meshvk::compileProgramSource(chunks[c], name, options, &program);
      ++chunks_total;
      if (error.empty() && !program.artifact.empty()) {
        ++compiled;
      } else if (!error.empty() && error.find('\n') == std::string::npos) {
        ++refused;
        ++kinds[RefusalKind(error)];
      } else {
        ++broken_contract;
        std::printf("CONTRACT %s: %s\n", name.c_str(),
                    error.empty() ? "no error and no artifact" : ("several lines: " + error).c_str());
      }
    }
    std::printf("%-48s %3zu inputs: %3d compiled, %3d refused\n", file.c_str(), chunks.size(), compiled, refused);
    std::vector<std::pair<int, std::string>> top;
    for (const auto& [kind, n] : kinds) top.push_back({n, kind});
    std::sort(top.rbegin(), top.rend());
    for (size_t k = 0; k < top.size() && k < 3; ++k) std::printf("    %3d x %s\n", top[k].first, top[k].second.c_str());
  }
  std::printf("%d inputs, 0 crashes, %d with more than one error line or none\n", chunks_total, broken_contract);
  return broken_contract ? 1 : 0;
}
