// The C++ entry point (compileKernels), SPIRV-Tools helpers and the
// registration of everything for mesh-vk-opt.
#include "meshvk/Codegen/KernelCompiler.h"

#include "KernelLowering.h"
#include "llvm/Support/raw_ostream.h"
#include "meshvk/Codegen/Passes.h"
#include "meshvk/Support/CompileStage.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Transforms/SubsetInsertionOpInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Transforms/TilingInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Tensor/IR/TensorInferTypeOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/SubsetInsertionOpInterfaceImpl.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/SPIRV/Serialization.h"
#include "spirv-tools/libspirv.h"

namespace meshvk {

void registerCodegenDialects(mlir::DialectRegistry &registry) {
  using namespace mlir;
  registry.insert<affine::AffineDialect, arith::ArithDialect, bufferization::BufferizationDialect,
                  cf::ControlFlowDialect, func::FuncDialect, gpu::GPUDialect, linalg::LinalgDialect,
                  math::MathDialect, memref::MemRefDialect, scf::SCFDialect, spirv::SPIRVDialect,
                  tensor::TensorDialect, vector::VectorDialect, MeshVKDialect>();
  affine::registerValueBoundsOpInterfaceExternalModels(registry);
  arith::registerValueBoundsOpInterfaceExternalModels(registry);
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  linalg::registerSubsetOpInterfaceExternalModels(registry);
  linalg::registerTilingInterfaceExternalModels(registry);
  memref::registerValueBoundsOpInterfaceExternalModels(registry);
  scf::registerValueBoundsOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerInferTypeOpInterfaceExternalModels(registry);
  tensor::registerValueBoundsOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerSubsetOpInterfaceExternalModels(registry);
}

namespace codegen {

namespace {
using namespace mlir;

std::string elementTypeName(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

/// The bindings and push-constant words of lowered kernel `host`, whose
/// declared tensor types (inputs, then results) are `kernelTypes`.
void describeInterface(func::FuncOp host, ArrayRef<Type> kernelTypes, CompiledKernel &k) {
  MLIRContext *ctx = host.getContext();
  MeshVKDialect::NumInputsAttrHelper numInputsOf(ctx);
  MeshVKDialect::AliasOfAttrHelper aliasOf(ctx);
  MeshVKDialect::PushConstantsAttrHelper pushConstants(ctx);
  MeshVKDialect::PushConstantDimsAttrHelper pushConstantDims(ctx);
  int64_t numInputs = numInputsOf.getAttr(host).getInt();
  for (auto [i, t] : llvm::enumerate(host.getArgumentTypes())) {
    if (host.getArgAttr(i, aliasOf.getName()))
      continue; // vec4 view, same binding
    if (host.getArgAttr(i, pushConstants.getName()))
      continue; // sizes, not a buffer
    auto mt = cast<MemRefType>(t);
    KernelBinding b;
    b.binding = static_cast<uint32_t>(i);
    b.writes = static_cast<int64_t>(i) >= numInputs;
    // A flattened dynamic buffer (memref<?xT>): its shape is the kernel's.
    auto declared = dyn_cast<RankedTensorType>(i < kernelTypes.size() ? kernelTypes[i] : Type());
    ArrayRef<int64_t> shape = declared ? declared.getShape() : mt.getShape();
    for (int64_t d : shape)
      b.shape.push_back(ShapedType::isDynamic(d) ? -1 : d);
    b.elementType = elementTypeName(mt.getElementType());
    b.sizeBytes =
        (declared ? declared.hasStaticShape() : mt.hasStaticShape())
            ? static_cast<uint64_t>(declared ? declared.getNumElements() : mt.getNumElements()) *
                  ((mt.getElementTypeBitWidth() + 7) / 8)
            : 0;
    k.bindings.push_back(std::move(b));
  }
  if (DenseI64ArrayAttr dims = pushConstantDims.getAttr(host)) {
    ArrayRef<int64_t> pairs = dims.asArrayRef();
    for (size_t w = 0; w + 1 < pairs.size(); w += 2)
      k.pushConstants.push_back({static_cast<uint32_t>(4 * (w / 2)),
                                 static_cast<uint32_t>(pairs[w]),
                                 static_cast<uint32_t>(pairs[w + 1])});
    k.pushConstantSize = static_cast<uint32_t>(4 * k.pushConstants.size());
  }
}

} // namespace

void buildCodegenPipeline(mlir::OpPassManager &pm, const TargetDescription &target,
                          const std::string &dumpDirectory) {
  pm.addPass(createTileAndDistributePass(target));
  pm.addPass(createLowerKernelsToSPIRVPass(target));
  if (!dumpDirectory.empty())
    pm.addPass(createDumpKernels(DumpKernelsOptions{dumpDirectory}));
}

std::string disassembleSPIRV(const std::vector<uint32_t> &words) {
  spv_context ctx = spvContextCreate(SPV_ENV_VULKAN_1_1);
  spv_text text = nullptr;
  spv_diagnostic diag = nullptr;
  std::string out;
  if (spvBinaryToText(ctx, words.data(), words.size(),
                      SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES | SPV_BINARY_TO_TEXT_OPTION_INDENT,
                      &text, &diag) == SPV_SUCCESS) {
    out.assign(text->str, text->length);
  } else {
    out = std::string("; disassembly failed: ") + (diag ? diag->error : "unknown error") + "\n";
  }
  spvTextDestroy(text);
  spvDiagnosticDestroy(diag);
  spvContextDestroy(ctx);
  return out;
}

std::string validateSPIRV(const std::vector<uint32_t> &words) {
  spv_context ctx = spvContextCreate(SPV_ENV_VULKAN_1_1);
  spv_const_binary_t binary{words.data(), words.size()};
  spv_diagnostic diag = nullptr;
  std::string out;
  if (spvValidate(ctx, &binary, &diag) != SPV_SUCCESS)
    out = diag ? diag->error : "invalid SPIR-V";
  spvDiagnosticDestroy(diag);
  spvContextDestroy(ctx);
  return out;
}

mlir::FailureOr<CompiledKernels> compileKernels(mlir::ModuleOp input,
                                                const TargetDescription &target,
                                                const CompileOptions &options) {
  using namespace mlir;
  MLIRContext *ctx = input.getContext();
  // The caller's context already holds what codegen needs (its registry is
  // the caller's, never extended here): say so instead of failing deep in a
  // pass.
  DialectRegistry needed;
  registerCodegenDialects(needed);
  if (!needed.isSubsetOf(ctx->getDialectRegistry()))
    return input.emitError("the context lacks the kernel code generation dialects and "
                           "interfaces: register them with meshvk::registerCodegenDialects "
                           "before creating it");
  ctx->loadAllAvailableDialects();
  // Only the kernels are lowered (a fresh module): the rest of the caller's
  // module (plans, launches referring to the tensor signatures) stays as is.
  OwningOpRef<ModuleOp> module(ModuleOp::create(input.getLoc()));
  std::map<std::string, SmallVector<Type>> declaredTypes;
  {
    OpBuilder b(module->getBodyRegion());
    for (auto f : input.getOps<func::FuncOp>())
      if (isKernel(f)) {
        auto clone = cast<func::FuncOp>(b.clone(*f));
        clone.setPublic();
        SmallVector<Type> &types = declaredTypes[f.getName().str()];
        llvm::append_range(types, f.getArgumentTypes());
        llvm::append_range(types, f.getResultTypes());
      }
  }
  if (module->getBody()->empty())
    return CompiledKernels{};
  PassManager pm(ctx);
  buildCodegenPipeline(pm, target);
  pm.addInstrumentation(createCompileStageInstrumentation());
  if (failed(pm.run(*module)))
    return failure();

  CompiledKernels result;
  std::map<std::vector<uint32_t>, size_t> byWords;
  WalkResult r = module->walk([&](func::FuncOp host) {
    if (!isKernel(host))
      return WalkResult::advance();
    gpu::LaunchFuncOp launch;
    host.walk([&](gpu::LaunchFuncOp l) { launch = l; });
    if (!launch) {
      host.emitError("kernel has no launch after lowering");
      return WalkResult::interrupt();
    }
    auto spv = dyn_cast_or_null<spirv::ModuleOp>(SymbolTable::lookupSymbolIn(
        *module, StringAttr::get(ctx, "__spv__" + launch.getKernelModuleName().str())));
    if (!spv) {
      host.emitError("no spirv.module for kernel");
      return WalkResult::interrupt();
    }
    SmallVector<uint32_t> words;
    if (failed(spirv::serialize(spv, words))) {
      host.emitError("SPIR-V serialization failed");
      return WalkResult::interrupt();
    }
    std::vector<uint32_t> w(words.begin(), words.end());
    auto it = byWords.find(w);
    if (it != byWords.end()) {
      result.kernels[it->second].functions.push_back(host.getName().str());
      result.byFunction[host.getName().str()] = it->second;
      return WalkResult::advance();
    }
    CompiledKernel k;
    k.functions.push_back(host.getName().str());
    k.spirv = w;
    auto constant = [](Value v) {
      return static_cast<uint32_t>(getConstantIntValue(v).value_or(1));
    };
    k.workgroupSize = {constant(launch.getBlockSizeX()), constant(launch.getBlockSizeY()),
                       constant(launch.getBlockSizeZ())};
    k.workgroupCount = {constant(launch.getGridSizeX()), constant(launch.getGridSizeY()),
                        constant(launch.getGridSizeZ())};
    // Declared tensor types of the kernel (inputs, then results): the source
    // of binding shapes, since dynamic buffers are flattened when lowered.
    SmallVector<Type> kernelTypes;
    if (auto it = declaredTypes.find(host.getName().str()); it != declaredTypes.end())
      kernelTypes = it->second;
    describeInterface(host, kernelTypes, k);
    if (!options.dumpDirectory.empty() &&
        failed(dumpKernel(host, options.dumpDirectory, host.getName().str(), w)))
      return WalkResult::interrupt();
    byWords[w] = result.kernels.size();
    result.byFunction[host.getName().str()] = result.kernels.size();
    result.kernels.push_back(std::move(k));
    return WalkResult::advance();
  });
  if (r.wasInterrupted())
    return failure();
  return result;
}

} // namespace codegen

void registerCodegenPasses() {
  codegen::registerMeshVKCodegenPasses();
  static mlir::PassPipelineRegistration<> pipeline(
      "meshvk-codegen", "meshvk kernels -> tiled, distributed spirv.modules (lavapipe target)",
      [](mlir::OpPassManager &pm) {
        codegen::buildCodegenPipeline(pm, codegen::lavapipeTarget());
      });
}

} // namespace meshvk
