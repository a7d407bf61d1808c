// libFuzzer target over the ONNX importer alone (load -> checker -> version
// conversion -> shape inference -> import to MLIR), built in the sanitizer
// build (scripts/test.sh: clang, ASan + UBSan, MESHVK_BUILD_IMPORTER=ON, no
// compiler) with -fsanitize=fuzzer. Every input is imported or refused with
// exactly one line; a crash, an ASan/UBSan report or a broken contract in
// meshvk's code (the importer, the external-data reads) is a finding.
//
// libonnx 1.12 and protobuf are not instrumented and crash on some models
// (tests/compiler/CrashIsolation: shape inference, the version converter):
// the tools survive those by compiling in a child process. Here the
// protobuf/libonnx part (onnx_import::loadModel) first runs in a fork()ed
// child (meshvk/Support/CrashIsolation.h); an input that crashes it there is
// counted as an upstream crash, reported once per stage on stderr, and kept
// out of the corpus; any other input is then imported in this process, where
// libFuzzer sees the coverage and the sanitizers see meshvk's code.
//
// The mutator is the structure-aware one of the mutation loop
// (onnx_mutator.h), as LLVMFuzzerCustomMutator, alternating with libFuzzer's
// own byte mutations. ctest seeds it with every model.onnx of
// libonnx-testdata (onnx_seeds.cmake); scripts/fuzz-long.sh runs it long.
#include <signal.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <string>

#include "OnnxModel.h"
#include "meshvk/Import/OnnxImport.h"
#include "meshvk/Support/CrashIsolation.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "onnx_mutator.h"

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t maxSize);

namespace {

// A folder of this process's own: the model is written there (external data
// resolves next to it) with the one data file a mutation may name.
const std::filesystem::path& WorkDir() {
  static const std::filesystem::path dir = [] {
    std::filesystem::path d =
        std::filesystem::temp_directory_path() / ("meshvk-fuzz-onnx-import-" + std::to_string(getpid()));
    std::filesystem::create_directories(d);
    std::ofstream(d / "data.bin", std::ios::binary) << std::string(12, '\x7f');
    return d;
  }();
  return dir;
}

bool OneLine(const std::string& error) { return !error.empty() && error.find('\n') == std::string::npos; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  const std::string model = (WorkDir() / "fuzz.onnx").string();
  {
    std::ofstream out(model, std::ios::binary | std::ios::trunc);
    out << bytes;
  }
  // Upstream first, in a child: its default signal handlers, so a crash in
  // uninstrumented libonnx ends it with the signal (not an ASan report).
  std::string payload;
  std::string upstream = meshvk::runInChildProcess(
      model,
      [&](std::string*) -> std::string {
        signal(SIGSEGV, SIG_DFL);
        signal(SIGBUS, SIG_DFL);
        signal(SIGFPE, SIG_DFL);
        signal(SIGABRT, SIG_DFL);
        onnx::ModelProto proto;
        int64_t opset = 0;
        std::string error;
        meshvk::onnx_import::loadModel(bytes, model, model, &proto, &opset, &error);
        return "";
      },
      &payload);
  if (upstream.find("it ran in a child process") != std::string::npos) {
    // The stage named, once per stage: "... in stage ONNX shape inference ...".
    static std::set<std::string> seen;
    size_t at = upstream.find(" in stage ");
    std::string stage = at == std::string::npos ? upstream : upstream.substr(at, upstream.find(';', at) - at);
    if (seen.insert(stage).second)
      std::fprintf(stderr, "fuzz_onnx_import: upstream crash isolated: %s\n", upstream.c_str());
    return -1;  // not added to the corpus
  }
  // One context for many inputs (making one and loading the dialects costs
  // more than most imports); renewed now and then, as it keeps every
  // attribute it uniqued.
  static std::unique_ptr<mlir::MLIRContext> shared;
  static unsigned uses = 0;
  if (!shared || ++uses % 512 == 0) {
    shared = std::make_unique<mlir::MLIRContext>(mlir::MLIRContext::Threading::DISABLED);
    shared->printOpOnDiagnostic(false);
    meshvk::loadOnnxImportDialects(*shared);
  }
  mlir::MLIRContext& context = *shared;
  std::string error;
  meshvk::OnnxSignature signature;
  mlir::FailureOr<mlir::OwningOpRef<mlir::ModuleOp>> module =
      meshvk::importOnnxFile(model, meshvk::OnnxImportOptions{}, context, &signature, &error);
  if (failed(module)) {
    if (!OneLine(error)) {
      std::fprintf(stderr, "fuzz_onnx_import: refused without one line: '%s'\n", error.c_str());
      std::abort();
    }
    return 0;
  }
  if (!error.empty() || failed(mlir::verify(**module))) {
    std::fprintf(stderr, "fuzz_onnx_import: imported an invalid module (or with an error: '%s')\n", error.c_str());
    std::abort();
  }
  return 0;
}

// Structure-aware mutations of the parsed model half the time, libFuzzer's
// byte-level ones the other half (and whenever the structured one does not
// fit in maxSize).
extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t maxSize, unsigned int seed) {
  meshvk_fuzz::Mutator mutator(seed);
  if (mutator.Pick(2) == 0) return LLVMFuzzerMutate(data, size, maxSize);
  std::string out = mutator.Mutate(std::string(reinterpret_cast<const char*>(data), size));
  if (out.size() > maxSize || out.empty()) return LLVMFuzzerMutate(data, size, maxSize);
  std::memcpy(data, out.data(), out.size());
  return out.size();
}
