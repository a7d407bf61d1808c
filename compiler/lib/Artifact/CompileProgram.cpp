// The compiler chain behind one call (see meshvk/Artifact/CompileProgram.h).
// Every diagnostic of every stage lands in one handler; the first error
// becomes the one-line message, so a caller never sees MLIR's multi-line
// output or a crash for bad input.
#include "meshvk/Artifact/CompileProgram.h"
#include "GridVariants.h"
#include "IsolatedCompile.h"
#include "meshvk/Import/OnnxImport.h"
#include "meshvk/Support/CompileStage.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "meshvk/Dialect/MeshVKDialect.h"
#include "meshvk/Transforms/Passes.h"
#include "meshvk/Artifact/ArtifactEmitter.h"
#include "meshvk/Codegen/KernelCompiler.h"
#include "meshvk/Codegen/Passes.h"
#include "llvm/ADT/StringSet.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"

namespace meshvk {
namespace {

using namespace mlir;

/// The artifact's declared type of an ONNX dtype (onnx.TensorProto.DataType:
/// INT64 = 7, BOOL = 9, DOUBLE = 11; the importer holds them as i32, i32 and
/// f32), kSame for every type the device holds as it is.
artifact::DeclaredType declaredTypeOf(int32_t onnxType) {
  switch (onnxType) {
  case 7:
    return artifact::DeclaredType::kI64;
  case 9:
    return artifact::DeclaredType::kBool;
  case 11:
    return artifact::DeclaredType::kF64;
  default:
    return artifact::DeclaredType::kSame;
  }
}

// "file:line:col" of the innermost file location, or "" when there is none.
std::string locationText(Location loc) {
  std::string text;
  loc->walk([&](Location l) {
    if (auto file = dyn_cast<FileLineColLoc>(l); file && file.getLine() > 0) {
      text = (file.getFilename().str() + ":" + std::to_string(file.getLine()) + ":" +
              std::to_string(file.getColumn()));
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return text;
}

std::string oneLine(std::string s) {
  for (char &c : s)
    if (c == '\n' || c == '\r')
      c = ' ';
  return s;
}

// MLIR's parser and passes recurse once per nesting level with no bound: a
// few thousand nested `module {` or `[` overflow an 8 MiB stack (segfault,
// issue #13). Real programs nest about 10 deep; refuse anything deeper than
// kMaxNesting before parsing. Strings and `//` comments are skipped; `->` is
// not a closing bracket.
constexpr int kMaxNesting = 256;

std::string nestingError(const std::string &source, const std::string &bufferName) {
  int depth = 0, line = 1, column = 0;
  for (size_t i = 0; i < source.size(); ++i) {
    char c = source[i];
    ++column;
    if (c == '\n') {
      ++line;
      column = 0;
    } else if (c == '"') {
      for (++i; i < source.size() && source[i] != '"' && source[i] != '\n'; ++i)
        if (source[i] == '\\')
          ++i;
      if (i < source.size() && source[i] == '\n')
        --i;
    } else if (c == '/' && i + 1 < source.size() && source[i + 1] == '/') {
      while (i + 1 < source.size() && source[i + 1] != '\n')
        ++i;
    } else if (c == '(' || c == '[' || c == '{' || c == '<') {
      if (++depth > kMaxNesting)
        return bufferName + ":" + std::to_string(line) + ":" + std::to_string(column) +
               ": error: nesting deeper than " + std::to_string(kMaxNesting) +
               " levels of (, [, { and <; meshvk accepts programs nested at most " +
               std::to_string(kMaxNesting) + " deep";
    } else if ((c == ')' || c == ']' || c == '}' || c == '>') && depth > 0 &&
               !(c == '>' && i > 0 && source[i - 1] == '-')) {
      --depth;
    }
  }
  return "";
}

// Remembers the first pass that failed, for failures without a diagnostic.
class NameFailedPass : public PassInstrumentation {
public:
  explicit NameFailedPass(std::string *name) : name_(name) {}
  void runAfterPassFailed(Pass *pass, Operation *) override {
    if (name_->empty())
      *name_ = pass->getArgument().empty() ? pass->getName().str() : pass->getArgument().str();
  }

private:
  std::string *name_;
};

// SPIR-V version ceiling of a Vulkan version (Vulkan spec, "Versions").
uint32_t maxSpirvFor(uint32_t vulkan) { return vulkan >= 103 ? 106 : vulkan == 102 ? 105 : 103; }

// "2x2" ("?" for a dynamic extent).
std::string shapeText(ArrayRef<int64_t> shape) {
  std::string text;
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? "x" : "") +
            (ShapedType::isDynamic(shape[i]) ? std::string("?") : std::to_string(shape[i]));
  return text;
}

std::string axesText(size_t count) {
  return std::to_string(count) + (count == 1 ? " axis" : " axes");
}

/// One compilation of a program's source, step by step: the context with
/// every stage's diagnostics in one handler, the module, and the result.
/// Each step returns "" or the one-line error.
class ProgramCompilation {
public:
  ProgramCompilation(const std::string &bufferName, const ProgramOptions &options,
                     CompiledProgram *out)
      : bufferName(bufferName), options(options), out(out),
        context(makeRegistry(), MLIRContext::Threading::DISABLED),
        handler(&context, [this](Diagnostic &diag) { return collect(diag); }) {}

  std::string run(const std::string &source) {
    if (std::string error = parse(source); !error.empty())
      return error;
    return compileParsed(source);
  }

  /// An ONNX model: imported into this compilation's context with builders,
  /// then the same steps as a parsed program.
  std::string runOnnx(const std::string &path) {
    std::string error = importOnnx(path);
    return error.empty() ? compileParsed("") : error;
  }

private:
  std::string compileParsed(const std::string &source) {
    if (std::string error = resolveDynamicGrids(); !error.empty())
      return error;
    if (!variantsGrid.empty())
      return compileGridVariants(source, bufferName, options, variantsWhere, variantsGrid, out);
    if (std::string error = overrideGridShape(); !error.empty())
      return error;
    if (std::string error = runPipelines(); !error.empty())
      return error;
    recordPlanNumbers();
    if (std::string error = compileKernels(); !error.empty())
      return error;
    return emit();
  }

  std::string importOnnx(const std::string &path) {
    OnnxImportOptions import;
    std::string error;
    if (!options.onnxShard.empty() &&
        (!parseOnnxShardPolicy(options.onnxShard, &import, &error) ||
         !checkOnnxShardGrid(options.onnxShard, options.gridShape, &error)))
      return fail(error);
    import.devices = 1;
    for (int64_t extent : options.gridShape)
      import.devices *= extent;
    import.gridShape = options.gridShape;
    import.float64 = options.device.shaderFloat64;
    for (const auto &[name, shape] : options.onnxInputShapes)
      import.inputShapes[name] = shape;
    for (const auto &[name, shape] : options.onnxInputShapeHints) {
      if (name.empty())
        import.inputShapeHintsByPosition.push_back(shape);
      else
        import.inputShapeHintsByName[name] = shape;
    }
    FailureOr<OwningOpRef<ModuleOp>> imported =
        importOnnxFile(path, import, context, &onnxSignature, &error);
    if (failed(imported))
      return error.empty() ? fail("cannot import the ONNX model") : oneLine(error);
    module = std::move(*imported);
    return "";
  }

  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    registerAllDialects(registry);
    registerAllExtensions(registry); // the sharding-interface models of linalg/tensor/arith
    registry.insert<meshvk::MeshVKDialect>();
    registerCodegenDialects(registry); // what the codegen stage needs, up front
    return registry;
  }

  /// Warnings are kept; the first error becomes the message.
  LogicalResult collect(Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Warning) {
      std::string where = locationText(diag.getLocation());
      warnings.push_back((where.empty() ? bufferName : where) +
                         ": warning: " + oneLine(diag.str()));
      return success();
    }
    if (diag.getSeverity() != DiagnosticSeverity::Error || !firstError.empty())
      return success();
    std::string where = locationText(diag.getLocation());
    firstError = (where.empty() ? bufferName : where) + ": error: " + oneLine(diag.str());
    // Notes add the expected form; the pass manager's "see current operation"
    // dump of the whole IR does not help a user and is dropped.
    for (const Diagnostic &note : diag.getNotes())
      if (options.keepOperationNotes || note.str().rfind("see current operation", 0) != 0)
        firstError += " (" + oneLine(note.str()) + ")";
    recordCompileError(firstError); // kept for a crash that may follow
    return success();
  }

  std::string fail(const std::string &fallback) {
    *out = CompiledProgram();
    return firstError.empty() ? bufferName + ": error: " + fallback : firstError;
  }

  /// The module, with a public function to compile.
  std::string parse(const std::string &source) {
    setCompileStage("parse (MLIR's parser)", bufferName);
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(source, bufferName),
                                 llvm::SMLoc());
    module = parseSourceFile<ModuleOp>(sourceMgr, &context);
    if (!module)
      return fail("cannot parse the program");
    bool hasPublicFunction = false;
    for (auto f : module->getOps<func::FuncOp>())
      hasPublicFunction |= f.isPublic() && !f.isExternal();
    if (!hasPublicFunction)
      return fail("the program has no public func.func to compile (expected one function whose "
                  "arguments or results carry shard.shard annotations)");
    return "";
  }

  /// A dynamic grid takes its size from the caller (mesh-vk-run --devices=N;
  /// mesh-vk-compile --grid-shape): meshvk unrolls the grid into one program
  /// per process, so a plan is compiled for one process count. With no count
  /// given, the program is compiled once per count of options.gridSizes into
  /// one file of variants (compileGridVariants; `variantsGrid` names it).
  std::string resolveDynamicGrids() {
    llvm::StringSet<> usedGrids;
    module->walk([&](shard::ShardingOp s) { usedGrids.insert(s.getGrid()); });
    for (auto grid : module->getOps<shard::GridOp>()) {
      ArrayRef<int64_t> shape = grid.getShape();
      int64_t dynamicAxes = llvm::count_if(shape, ShapedType::isDynamic);
      if (dynamicAxes == 0 || !options.gridShape.empty() || !usedGrids.contains(grid.getSymName()))
        continue;
      std::string written;
      int64_t fixed = 1;
      for (int64_t s : shape) {
        written +=
            (written.empty() ? "" : "x") + (ShapedType::isDynamic(s) ? "?" : std::to_string(s));
        fixed *= ShapedType::isDynamic(s) ? 1 : s;
      }
      std::string problem;
      if (dynamicAxes > 1)
        problem = "grid @" + grid.getSymName().str() + " (" + written +
                  ") has more than one '?' axis: meshvk sizes one '?' axis as the process count "
                  "divided by the static axes; write the other extents, or pass --grid-shape";
      else if (options.dynamicGridProcesses <= 0 && !options.compileGridVariants)
        problem = "grid @" + grid.getSymName().str() + " has a dynamic shape (" + written +
                  "): pass the process count (mesh-vk-run --devices=N), or compile it once for "
                  "every count with mesh-vk-compile";
      else if (options.dynamicGridProcesses <= 0) {
        variantsGrid = "grid @" + grid.getSymName().str() + " (shape " + written + ")";
        variantsWhere = locationText(grid.getLoc());
        if (variantsWhere.empty())
          variantsWhere = bufferName;
        continue;
      } else if (fixed <= 0 || options.dynamicGridProcesses % fixed != 0)
        problem = "grid @" + grid.getSymName().str() + " (" + written + ") cannot take " +
                  std::to_string(options.dynamicGridProcesses) +
                  " processes: meshvk sizes one '?' axis as the process count divided by the "
                  "static axes; pass --grid-shape instead";
      if (!problem.empty()) {
        grid.emitError(problem);
        return fail(problem);
      }
      SmallVector<int64_t> resolved(shape);
      for (int64_t &s : resolved)
        if (ShapedType::isDynamic(s))
          s = options.dynamicGridProcesses / fixed;
      grid.setShape(resolved);
    }
    return "";
  }

  /// --grid-shape: the program's one grid on the shape asked for.
  std::string overrideGridShape() {
    if (!options.gridSizes.empty())
      return fail("process counts to compile for (--grid-sizes) apply to a program whose used "
                  "shard.grid has a '?' axis; this program's grid is static (use --grid-shape to "
                  "compile it for another grid)");
    if (options.gridShape.empty())
      return "";
    std::vector<shard::GridOp> grids(module->getOps<shard::GridOp>().begin(),
                                     module->getOps<shard::GridOp>().end());
    // A program without a grid runs on one process: a grid of 1 asks for just
    // that (an ONNX model under the `none` policy, compiled with grid 1).
    int64_t processes = 1;
    for (int64_t extent : options.gridShape)
      processes *= extent;
    if (grids.empty() && processes == 1)
      return "";
    if (grids.size() != 1)
      return fail("a grid shape override needs exactly one shard.grid in the program, found " +
                  std::to_string(grids.size()));
    // Fewer axes than declared would surface as a sharding error of some op
    // far from the cause; say what does not fit. More axes are fine: the
    // added ones are replicated (a 1-D program on a 2x2 grid).
    ArrayRef<int64_t> declared = grids[0].getShape();
    if (options.gridShape.size() < declared.size())
      return fail("grid shape " + shapeText(options.gridShape) + " given (" +
                  axesText(options.gridShape.size()) + ") does not fit the program's shard.grid @" +
                  grids[0].getSymName().str() + " of " + axesText(declared.size()) + " (" +
                  shapeText(declared) + ")");
    grids[0].setShape(options.gridShape);
    if (failed(verify(*module)))
      return fail("the program does not verify on the overridden grid");
    return "";
  }

  /// Partitioning and planning (Pipelines.cpp).
  std::string runPipelines() {
    std::string failedPass;
    PassManager pm(&context);
    pm.enableVerifier(true);
    if (options.applyMlirCommandLineOptions) {
      if (failed(applyPassManagerCLOptions(pm)))
        return fail("bad --mlir-* pass manager options");
      applyDefaultTimingPassManagerCLOptions(pm);
    }
    OpPassManager &top = pm;
    if (options.storeInF16 && !options.device.storageBuffer16BitAccess)
      return fail("--precision=f16 needs 16-bit storage buffers, which target '" +
                  options.device.name + "' lacks (storageBuffer16BitAccess)");
    recordF32Boundary();
    buildPartitionPipeline(top, options.storeInF16);
    buildPlanPipeline(top);
    pm.addInstrumentation(std::make_unique<NameFailedPass>(&failedPass));
    pm.addInstrumentation(createCompileStageInstrumentation());
    // A pass that fails without a diagnostic (upstream shard-partition does, on
    // ops it cannot partition) is still named, never "failed" alone.
    if (failed(pm.run(*module)))
      return fail("compiling the plan failed in pass '" + failedPass +
                  "' without a diagnostic (an op it cannot handle; please report the program)");
    return "";
  }

  /// --precision=f16: which arguments and results of the public function are
  /// f32 tensors as written (declared F32 once they are f16 on the device).
  void recordF32Boundary() {
    if (!options.storeInF16)
      return;
    for (auto f : module->getOps<func::FuncOp>()) {
      if (f.isPrivate() || f.isExternal())
        continue;
      auto f32 = [](Type t) {
        auto r = dyn_cast<RankedTensorType>(t);
        return r && r.getElementType().isF32();
      };
      for (Type t : f.getArgumentTypes())
        f32Arguments.push_back(f32(t));
      for (Type t : f.getResultTypes())
        f32Results.push_back(f32(t));
      return;
    }
  }

  /// The plan's numbers, for callers that compare the runtime with the plan.
  void recordPlanNumbers() {
    for (auto f : module->getOps<func::FuncOp>()) {
      PlanAttr plan = getPlan(f);
      if (!plan)
        continue;
      ArrayRef<int64_t> shape = plan.getGridShape().asArrayRef();
      out->gridShape.assign(shape.begin(), shape.end());
      if (ArrayAttr memory = MeshVKDialect::MemoryAttrHelper(&context).getAttr(f))
        for (ProcessMemoryAttr m : memory.getAsRange<ProcessMemoryAttr>())
          out->memory.push_back({static_cast<uint64_t>(m.getArgumentBytes()),
                                 static_cast<uint64_t>(m.getResultBytes()),
                                 static_cast<uint64_t>(m.getTransientBytes()),
                                 static_cast<uint64_t>(m.getConstantBytes())});
      if (ArrayAttr collectives = MeshVKDialect::CollectivesAttrHelper(&context).getAttr(f))
        for (CollectiveAttr c : collectives.getAsRange<CollectiveAttr>()) {
          ArrayRef<int64_t> pulled = c.getPulledBytes().asArrayRef();
          out->collectives.push_back({c.getKind().str(), c.getAlgorithm().str(), c.getGroupSize(),
                                      std::vector<int64_t>(pulled.begin(), pulled.end())});
        }
    }
  }

  /// The codegen stage: every kernel of the plan module compiled for
  /// options.device (the meshvk-codegen pipeline on a copy of the kernels).
  std::string compileKernels() {
    setCompileStage("kernel codegen");
    codegen::CompileOptions compile;
    compile.dumpDirectory = options.dumpDirectory;
    FailureOr<codegen::CompiledKernels> compiled =
        codegen::compileKernels(*module, options.device, compile);
    if (failed(compiled))
      return fail("emitting the artifact failed");
    kernels = std::move(*compiled);
    return "";
  }

  /// The artifact and the warnings.
  std::string emit() {
    setCompileStage("artifact emission");
    EmitOptions emit;
    emit.maxSpirvVersion = maxSpirvFor(options.vulkanVersion);
    emit.producer = options.producer;
    // An ONNX model's input and output names travel in the signature.
    emit.argumentNames = onnxSignature.argumentNames;
    emit.resultNames = onnxSignature.resultNames;
    // And their dtypes, where the device holds another (int64/bool as i32).
    for (int32_t type : onnxSignature.argumentTypes)
      emit.argumentDeclaredTypes.push_back(declaredTypeOf(type));
    for (int32_t type : onnxSignature.resultTypes)
      emit.resultDeclaredTypes.push_back(declaredTypeOf(type));
    // --precision=f16: an f32 boundary tensor the device holds as f16.
    auto f32Boundary = [](const std::vector<bool> &f32, std::vector<artifact::DeclaredType> *out) {
      out->resize(std::max(out->size(), f32.size()), artifact::DeclaredType::kSame);
      for (size_t i = 0; i < f32.size(); ++i)
        if (f32[i])
          (*out)[i] = artifact::DeclaredType::kF32;
    };
    f32Boundary(f32Arguments, &emit.argumentDeclaredTypes);
    f32Boundary(f32Results, &emit.resultDeclaredTypes);
    FailureOr<std::vector<uint8_t>> artifact = emitArtifact(*module, kernels, emit);
    if (failed(artifact))
      return fail("emitting the artifact failed");
    out->artifact = std::move(*artifact);
    out->warnings = std::move(warnings);
    out->shardingPlan = onnxSignature.plan;
    return "";
  }

  const std::string &bufferName;
  const ProgramOptions &options;
  CompiledProgram *out;
  std::string firstError;
  std::vector<std::string> warnings;
  MLIRContext context;
  ScopedDiagnosticHandler handler;
  OwningOpRef<ModuleOp> module;
  codegen::CompiledKernels kernels;
  OnnxSignature onnxSignature;                // names of an imported model's inputs and outputs
  std::vector<bool> f32Arguments, f32Results; // recordF32Boundary
  std::string variantsGrid, variantsWhere;    // a dynamic grid compiled per process count
};

} // namespace

namespace {

// A dump directory that cannot be created is the caller's mistake, not the
// program's: said before compiling (and without a program location).
std::string makeDumpDirectory(const ProgramOptions &options) {
  if (!options.dumpDirectory.empty())
    if (std::error_code ec = llvm::sys::fs::create_directories(options.dumpDirectory))
      return options.dumpDirectory + ": cannot create the kernel dump directory: " + ec.message();
  return "";
}

std::string compileSourceInProcess(const std::string &source, const std::string &bufferName,
                                   const ProgramOptions &options, CompiledProgram *out) {
  if (std::string error = makeDumpDirectory(options); !error.empty())
    return error;
  if (std::string error = nestingError(source, bufferName); !error.empty())
    return error;
  return ProgramCompilation(bufferName, options, out).run(source);
}

std::string compileOnnxInProcess(const std::string &path, const ProgramOptions &options,
                                 CompiledProgram *out) {
  if (std::string error = makeDumpDirectory(options); !error.empty())
    return error;
  return ProgramCompilation(path, options, out).runOnnx(path);
}

} // namespace

std::string compileProgramSource(const std::string &source, const std::string &bufferName,
                                 const ProgramOptions &options, CompiledProgram *out) {
  *out = CompiledProgram();
  auto compile = [&](CompiledProgram *result) {
    return compileSourceInProcess(source, bufferName, options, result);
  };
  return options.isolateCrashes ? compileInChildProcess(bufferName, compile, out) : compile(out);
}

std::string compileProgramFile(const std::string &path, const ProgramOptions &options,
                               CompiledProgram *out) {
  *out = CompiledProgram();
  if (llvm::StringRef(path).ends_with(".onnx")) {
    auto compile = [&](CompiledProgram *result) {
      return compileOnnxInProcess(path, options, result);
    };
    return options.isolateCrashes ? compileInChildProcess(path, compile, out) : compile(out);
  }
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return path + ": cannot read: " + std::strerror(errno);
  std::stringstream text;
  text << in.rdbuf();
  if (in.bad())
    return path + ": cannot read: " + std::strerror(errno);
  return compileProgramSource(text.str(), path, options, out);
}

} // namespace meshvk
