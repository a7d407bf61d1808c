//===- mesh-vk-translate.cpp - ONNX model -> MLIR text ---------------------===//
//
// mesh-vk-translate --import-onnx MODEL.onnx [--shard=none|data|tensor|SPEC.json]
//   [--devices=N] [--input-shape=NAME=1x3x224x224] [-o OUT.mlir]
// prints the module the importer builds (as MLIR's own translators do), so a
// reader or a lit test can see the IR. Errors: one line, exit 2.
//
//===----------------------------------------------------------------------===//
#include "meshvk/Import/OnnxImport.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "meshvk/Support/CrashIsolation.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

namespace cl = llvm::cl;

static cl::opt<std::string> inputPath(cl::Positional, cl::desc("<model.onnx>"), cl::Required);
static cl::opt<bool> importOnnx("import-onnx", cl::desc("Import an ONNX model"), cl::init(false));
static cl::opt<std::string> outputPath("o", cl::desc("Output file"), cl::init("-"));
static cl::opt<std::string> shardPolicy("shard",
                                        cl::desc("none | data | tensor | data,tensor | SPEC.json"),
                                        cl::init("none"));
static cl::opt<int64_t> devices("devices", cl::desc("Grid size for --shard=data|tensor"),
                                cl::init(1));
static cl::opt<std::string>
    gridShapeText("grid-shape",
                  cl::desc("AxB: the grid of a policy list (--shard=data,tensor); its product "
                           "must be --devices when that is given"));
static cl::list<std::string> inputShapes("input-shape",
                                         cl::desc("NAME=DxDx... fixes a dynamic input shape"));
static cl::opt<bool> float64("float64",
                             cl::desc("Compute DOUBLE tensors as f64 (a target with "
                                      "shaderFloat64); default: as f32"),
                             cl::init(false));
static cl::opt<bool> printPlan("print-plan", cl::desc("Print which policy split which tensor"),
                               cl::init(false));

static bool parseInputShape(const std::string &text, meshvk::OnnxImportOptions *options) {
  size_t eq = text.rfind('=');
  if (eq == std::string::npos)
    return false;
  std::vector<int64_t> shape;
  llvm::SmallVector<llvm::StringRef> dims;
  llvm::StringRef(text).substr(eq + 1).split(dims, 'x');
  for (llvm::StringRef d : dims) {
    int64_t v;
    if (d.getAsInteger(10, v) || v <= 0)
      return false;
    shape.push_back(v);
  }
  options->inputShapes[text.substr(0, eq)] = shape;
  return true;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "meshvk translator (ONNX -> MLIR)\n");
  if (!importOnnx) {
    llvm::errs() << "mesh-vk-translate: give --import-onnx (the only translation)\n";
    return 2;
  }
  meshvk::OnnxImportOptions options;
  std::string error;
  if (!meshvk::parseOnnxShardPolicy(shardPolicy, &options, &error)) {
    llvm::errs() << "mesh-vk-translate: " << error << "\n";
    return 2;
  }
  options.devices = devices;
  options.float64 = float64;
  if (!gridShapeText.empty()) {
    llvm::SmallVector<llvm::StringRef> extents;
    llvm::StringRef(gridShapeText).split(extents, 'x');
    int64_t product = 1;
    for (llvm::StringRef e : extents) {
      int64_t v;
      if (e.getAsInteger(10, v) || v <= 0) {
        llvm::errs() << "mesh-vk-translate: --grid-shape=" << gridShapeText
                     << ": expected positive extents joined by x (e.g. 2x2)\n";
        return 2;
      }
      options.gridShape.push_back(v);
      product *= v;
    }
    if (devices.getNumOccurrences() && product != devices) {
      llvm::errs() << "mesh-vk-translate: --grid-shape=" << gridShapeText << ": " << product
                   << " processes, but --devices=" << devices << "\n";
      return 2;
    }
    options.devices = product;
  }
  if (!meshvk::checkOnnxShardGrid(shardPolicy, options.gridShape, &error)) {
    llvm::errs() << "mesh-vk-translate: " << error << "\n";
    return 2;
  }
  for (const std::string &s : inputShapes)
    if (!parseInputShape(s, &options)) {
      llvm::errs() << "mesh-vk-translate: --input-shape=" << s << ": expected NAME=DxD...\n";
      return 2;
    }
  // The import runs in a child process: libonnx's checker, version converter
  // and shape inference crash on some malformed models, and that must be one
  // error line, not a signal. The IR comes back as text, and the output file
  // is written only once it is whole.
  std::string text;
  error = meshvk::runInChildProcess(
      inputPath,
      [&](std::string *ir) {
        mlir::MLIRContext context;
        meshvk::OnnxSignature signature;
        std::string importError;
        auto module = meshvk::importOnnxFile(inputPath, options, context, &signature, &importError);
        if (failed(module))
          return importError.empty() ? inputPath + ": error: cannot import the ONNX model"
                                     : importError;
        llvm::raw_string_ostream os(*ir);
        if (printPlan)
          for (const std::string &line : signature.plan)
            os << "// plan: " << line << "\n";
        (*module)->print(os);
        os << "\n";
        return std::string();
      },
      &text);
  if (!error.empty()) {
    llvm::errs() << error << "\n";
    return 2;
  }
  std::error_code ec;
  llvm::raw_fd_ostream out(outputPath, ec, llvm::sys::fs::OF_Text);
  if (ec) {
    llvm::errs() << outputPath << ": cannot write: " << ec.message() << "\n";
    return 2;
  }
  out << text;
  return 0;
}
