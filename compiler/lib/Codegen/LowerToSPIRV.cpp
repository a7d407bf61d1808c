// meshvk-lower-kernels-to-spirv: gpu.launch (from meshvk-tile-and-distribute)
// -> gpu-kernel-outlining -> one spirv.module per kernel.
//
// Before: func.func @k(%a: memref<..>, %c: memref<..>) { gpu.launch ... }
// After:  gpu.module @k_kernel { gpu.func @main(...) kernel }   (kept for the host)
//         spirv.module @__spv__k_kernel Logical GLSL450 { spirv.func @main ... }
//         func.func @k(...) { gpu.launch_func @k_kernel::@main blocks in (..) threads in (..) }
//
// Why the steps beyond upstream's convert-gpu-to-spirv:
//  * every kernel's entry point is renamed `main`, so that two kernels that
//    compute the same thing serialize to identical words (deduplication);
//  * argument i of the host function is pinned to (set 0, binding i) with
//    spirv.interface_var_abi: outlining drops unused arguments and reorders
//    the rest, the documented layout must not depend on that;
//  * the conversion also carries math (exp, tanh, ...) patterns, which the
//    upstream pass lacks.
#include "KernelLowering.h"
#include "meshvk/Codegen/Passes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToSPIRV/ArithToSPIRV.h"
#include "mlir/Conversion/ControlFlowToSPIRV/ControlFlowToSPIRV.h"
#include "mlir/Conversion/FuncToSPIRV/FuncToSPIRV.h"
#include "mlir/Conversion/GPUToSPIRV/GPUToSPIRV.h"
#include "mlir/Conversion/MathToSPIRV/MathToSPIRV.h"
#include "mlir/Conversion/MemRefToSPIRV/MemRefToSPIRV.h"
#include "mlir/Conversion/SCFToSPIRV/SCFToSPIRV.h"
#include "mlir/Conversion/VectorToSPIRV/VectorToSPIRV.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/AsmState.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"

namespace meshvk::codegen {
#define GEN_PASS_DEF_LOWERKERNELSTOSPIRV
#include "meshvk/Codegen/Passes.h.inc"

namespace {

using namespace mlir;

// Math ops MLIR 22 has no SPIR-V pattern for, rewritten exactly with ops it
// has. Element-wise on scalars and vectors alike.

/// trunc(x) = x < 0 ? ceil(x) : floor(x) (NaN: floor(NaN)); no bit casts, so
/// f16 needs no 16-bit integers.
struct TruncToFloorCeil : OpRewritePattern<math::TruncOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::TruncOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getOperand();
    Value zero = arith::ConstantOp::create(rewriter, loc,
                                           cast<TypedAttr>(rewriter.getZeroAttr(x.getType())));
    Value negative = arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OLT, x, zero);
    Value up = math::CeilOp::create(rewriter, loc, x);
    Value down = math::FloorOp::create(rewriter, loc, x);
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, negative, up, down);
    return success();
  }
};

/// Population count of 32-bit integers (the classic SWAR sum of bits).
Value popCount32(PatternRewriter &rewriter, Location loc, Value v) {
  Type type = v.getType();
  auto c = [&](uint32_t value) {
    return createScalarOrSplatConstant(rewriter, loc, type, static_cast<int64_t>(value));
  };
  auto shr = [&](Value x, uint32_t n) { return arith::ShRUIOp::create(rewriter, loc, x, c(n)); };
  auto andi = [&](Value x, uint32_t m) { return arith::AndIOp::create(rewriter, loc, x, c(m)); };
  v = arith::SubIOp::create(rewriter, loc, v, andi(shr(v, 1), 0x55555555u));
  v = arith::AddIOp::create(rewriter, loc, andi(v, 0x33333333u), andi(shr(v, 2), 0x33333333u));
  v = andi(arith::AddIOp::create(rewriter, loc, v, shr(v, 4)), 0x0F0F0F0Fu);
  return shr(arith::MulIOp::create(rewriter, loc, v, c(0x01010101u)), 24);
}

bool isI32(Value v) { return getElementTypeOrSelf(v.getType()).isInteger(32); }

struct CtPopToArith : OpRewritePattern<math::CtPopOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::CtPopOp op, PatternRewriter &rewriter) const override {
    if (!isI32(op.getOperand()))
      return failure();
    rewriter.replaceOp(op, popCount32(rewriter, op.getLoc(), op.getOperand()));
    return success();
  }
};

/// cttz(x) = popcount(~x & (x - 1)): the trailing zeros become the only ones
/// set (32 for x = 0, as math.cttz defines).
struct CtTzToArith : OpRewritePattern<math::CountTrailingZerosOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::CountTrailingZerosOp op,
                                PatternRewriter &rewriter) const override {
    Value x = op.getOperand();
    if (!isI32(x))
      return failure();
    Location loc = op.getLoc();
    Type type = x.getType();
    Value notX = arith::XOrIOp::create(rewriter, loc, x,
                                       createScalarOrSplatConstant(rewriter, loc, type, -1));
    Value below = arith::SubIOp::create(rewriter, loc, x,
                                        createScalarOrSplatConstant(rewriter, loc, type, 1));
    Value trailing = arith::AndIOp::create(rewriter, loc, notX, below);
    rewriter.replaceOp(op, popCount32(rewriter, loc, trailing));
    return success();
  }
};

/// A math op on f64 that GLSL.std.450 defines for 16- and 32-bit floats only
/// (exp, log, pow, tanh, the trigonometric functions, ...) computes through
/// f32: truncf, the op, extf. Sqrt, rsqrt, abs, floor, ceil, round, fma and
/// copysign have 64-bit forms and stay f64 (as does every arith op).
struct F64MathThroughF32 : RewritePattern {
  explicit F64MathThroughF32(MLIRContext *ctx) : RewritePattern(MatchAnyOpTypeTag(), 1, ctx) {}
  LogicalResult matchAndRewrite(Operation *op, PatternRewriter &rewriter) const override {
    if (op->getDialect()->getNamespace() != math::MathDialect::getDialectNamespace() ||
        op->getNumResults() != 1 || op->getNumRegions() != 0 ||
        isa<math::SqrtOp, math::RsqrtOp, math::AbsFOp, math::FloorOp, math::CeilOp, math::RoundOp,
            math::RoundEvenOp, math::FmaOp, math::CopySignOp>(op))
      return failure();
    auto isF64 = [](Type t) { return getElementTypeOrSelf(t).isF64(); };
    if (!isF64(op->getResult(0).getType()) || !llvm::all_of(op->getOperandTypes(), isF64))
      return failure();
    Location loc = op->getLoc();
    auto toF32 = [&](Type t) -> Type {
      if (auto v = dyn_cast<VectorType>(t))
        return v.clone(rewriter.getF32Type());
      return rewriter.getF32Type();
    };
    OperationState state(loc, op->getName());
    for (Value operand : op->getOperands())
      state.addOperands(
          arith::TruncFOp::create(rewriter, loc, toF32(operand.getType()), operand).getResult());
    state.addTypes(toF32(op->getResult(0).getType()));
    state.addAttributes(op->getAttrs());
    Operation *narrow = rewriter.create(state);
    rewriter.replaceOpWithNewOp<arith::ExtFOp>(op, op->getResult(0).getType(),
                                               narrow->getResult(0));
    return success();
  }
};

spirv::TargetEnvAttr makeTargetEnv(MLIRContext *ctx, const TargetDescription &t) {
  std::string caps = "Shader, GroupNonUniform";
  std::string exts = "SPV_KHR_storage_buffer_storage_class";
  if (t.supportsF16()) {
    caps += ", Float16, StorageBuffer16BitAccess";
    exts += ", SPV_KHR_16bit_storage";
  }
  if (t.shaderFloat64)
    caps += ", Float64";
  std::string text =
      "#spirv.target_env<#spirv.vce<v1.3, [" + caps + "], [" + exts +
      "]>, #spirv.resource_limits<max_compute_shared_memory_size = " +
      std::to_string(t.maxSharedMemoryBytes) +
      ", max_compute_workgroup_invocations = " + std::to_string(t.maxWorkgroupInvocations) +
      ", max_compute_workgroup_size = [" + std::to_string(t.maxWorkgroupSize[0]) + ", " +
      std::to_string(t.maxWorkgroupSize[1]) + ", " + std::to_string(t.maxWorkgroupSize[2]) +
      "], subgroup_size = " + std::to_string(t.subgroupSize) + ">>";
  return cast<spirv::TargetEnvAttr>(parseAttribute(text, ctx));
}

// Upstream GPUToSPIRVPass, plus math patterns and numeric memory spaces.
LogicalResult convertGPUModulesToSPIRV(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  SmallVector<Operation *> clones;
  OpBuilder builder(ctx);
  module.walk([&](gpu::GPUModuleOp m) {
    builder.setInsertionPoint(m);
    clones.push_back(builder.clone(*m));
  });
  for (Operation *gm : clones) {
    {
      spirv::MemorySpaceToStorageClassConverter converter(
          spirv::mapMemorySpaceToVulkanStorageClass);
      spirv::convertMemRefTypesAndAttrs(gm, converter);
    }
    {
      // Math ops without a SPIR-V pattern (erf of tosa.erf / GELU, exp2,
      // powers with integer exponents, cube roots, atan2, trunc, ctpop,
      // cttz) become supported ops first.
      RewritePatternSet approximations(ctx);
      populatePolynomialApproximateErfPattern(approximations);
      populatePolynomialApproximateErfcPattern(approximations);
      math::populateExpansionPatterns(approximations, {"exp2", "fpowi"});
      // Polynomial approximations (f32; f16 computes through f32):
      // cube roots, atan2, and erfc of f16.
      auto approximated = [](StringRef name) -> bool {
        return name == math::CbrtOp::getOperationName() ||
               name == math::Atan2Op::getOperationName() ||
               name == math::AtanOp::getOperationName() || name == math::ErfcOp::getOperationName();
      };
      populateMathF32ExpansionPatterns(approximations, approximated);
      populateMathPolynomialApproximationPatterns(approximations, [](StringRef name) -> bool {
        return name == math::CbrtOp::getOperationName() ||
               name == math::Atan2Op::getOperationName();
      });
      approximations.add<TruncToFloorCeil, CtPopToArith, CtTzToArith>(ctx);
      (void)applyPatternsGreedily(gm, std::move(approximations));
      // After the expansions above, which may make exp or log of f64.
      RewritePatternSet f64Math(ctx);
      f64Math.add<F64MathThroughF32>(ctx);
      (void)applyPatternsGreedily(gm, std::move(f64Math));
    }
    spirv::TargetEnvAttr targetAttr = spirv::lookupTargetEnvOrDefault(gm);
    std::unique_ptr<ConversionTarget> target = SPIRVConversionTarget::get(targetAttr);
    SPIRVConversionOptions options;
    SPIRVTypeConverter typeConverter(targetAttr, options);
    RewritePatternSet patterns(ctx);
    populateGPUToSPIRVPatterns(typeConverter, patterns);
    ScfToSPIRVContext scfContext;
    populateSCFToSPIRVPatterns(typeConverter, scfContext, patterns);
    arith::populateArithToSPIRVPatterns(typeConverter, patterns);
    cf::populateControlFlowToSPIRVPatterns(typeConverter, patterns);
    populateMathToSPIRVPatterns(typeConverter, patterns);
    populateMemRefToSPIRVPatterns(typeConverter, patterns);
    populateFuncToSPIRVPatterns(typeConverter, patterns);
    populateVectorToSPIRVPatterns(typeConverter, patterns);
    if (failed(applyFullConversion(gm, *target, std::move(patterns))))
      return failure();
  }
  return success();
}

/// An f64 kernel on a target without shaderFloat64: one error at the kernel
/// (the SPIR-V conversion would only say that an f64 type is illegal).
LogicalResult checkFloat64(ModuleOp module, const TargetDescription &target) {
  if (target.shaderFloat64)
    return success();
  auto f64 = [](Type t) { return getElementTypeOrSelf(t).isF64(); };
  WalkResult r = module.walk([&](gpu::GPUFuncOp kernel) {
    WalkResult uses = kernel.walk([&](Operation *op) {
      return llvm::any_of(op->getResultTypes(), f64) ? WalkResult::interrupt()
                                                     : WalkResult::advance();
    });
    if (!uses.wasInterrupted() && !llvm::any_of(kernel.getArgumentTypes(), f64))
      return WalkResult::advance();
    kernel.emitError() << "kernel uses f64 but target '" << target.name << "' lacks shaderFloat64";
    return WalkResult::interrupt();
  });
  return failure(r.wasInterrupted());
}

struct LowerKernelsToSPIRVPass : impl::LowerKernelsToSPIRVBase<LowerKernelsToSPIRVPass> {
  using LowerKernelsToSPIRVBase::LowerKernelsToSPIRVBase;
  explicit LowerKernelsToSPIRVPass(const TargetDescription &t) : fixedTarget(t) {}

  void getDependentDialects(DialectRegistry &registry) const override {
    registerCodegenDialects(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    FailureOr<TargetDescription> target = passTarget(module, fixedTarget, targetName);
    if (failed(target))
      return signalPassFailure();
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(), UnitAttr::get(ctx));
    {
      OpPassManager pm("builtin.module");
      pm.addNestedPass<func::FuncOp>(createGpuLaunchSinkIndexComputationsPass());
      pm.addPass(createGpuKernelOutliningPass());
      if (failed(runPipeline(pm, module)))
        return signalPassFailure();
    }
    if (failed(checkFloat64(module, *target)))
      return signalPassFailure();
    spirv::TargetEnvAttr env = makeTargetEnv(ctx, *target);
    MeshVKDialect::AliasOfAttrHelper aliasOf(ctx);
    WalkResult r = module.walk([&](gpu::LaunchFuncOp launch) {
      auto host = launch->getParentOfType<func::FuncOp>();
      auto kernel =
          SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(launch, launch.getKernel());
      auto gm = kernel->getParentOfType<gpu::GPUModuleOp>();
      for (auto [i, operand] : llvm::enumerate(launch.getKernelOperands())) {
        auto arg = dyn_cast<BlockArgument>(operand);
        if (!arg || arg.getOwner()->getParentOp() != host.getOperation() ||
            !isa<MemRefType>(arg.getType())) {
          launch.emitError() << "kernel operand " << i
                             << " is not a buffer argument of the host function; "
                                "only buffers may cross into a kernel";
          return WalkResult::interrupt();
        }
        // A vec4 view of buffer j (meshvk.alias_of = j) shares its binding.
        unsigned binding = arg.getArgNumber();
        if (auto alias = host.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(), aliasOf.getName()))
          binding = static_cast<unsigned>(alias.getInt());
        kernel.setArgAttr(i, spirv::getInterfaceVarABIAttrName(),
                          spirv::getInterfaceVarABIAttr(0, binding, std::nullopt, ctx));
      }
      SmallVector<int32_t> wg;
      for (Value v : {launch.getBlockSizeX(), launch.getBlockSizeY(), launch.getBlockSizeZ()}) {
        std::optional<int64_t> c = getConstantIntValue(v);
        if (!c) {
          launch.emitError("workgroup size must be a constant");
          return WalkResult::interrupt();
        }
        wg.push_back(static_cast<int32_t>(*c));
      }
      kernel->setAttr(spirv::getEntryPointABIAttrName(), spirv::getEntryPointABIAttr(ctx, wg));
      SymbolTable::setSymbolName(kernel, "main");
      launch.setKernelAttr(
          SymbolRefAttr::get(gm.getNameAttr(), {FlatSymbolRefAttr::get(ctx, "main")}));
      gm->setAttr(spirv::getTargetEnvAttrName(), env);
      return WalkResult::advance();
    });
    if (r.wasInterrupted())
      return signalPassFailure();
    {
      OpPassManager pm("builtin.module");
      auto &g = pm.nest<gpu::GPUModuleOp>();
      g.addPass(memref::createFoldMemRefAliasOpsPass());
      g.addPass(createLowerAffinePass());
      g.addPass(createCanonicalizerPass());
      g.addPass(createCSEPass());
      if (failed(runPipeline(pm, module)))
        return signalPassFailure();
    }
    {
      // The index math of a tiled reshape (delinearisation) leaves
      // floordivsi / ceildivsi, which have no SPIR-V pattern: expand them into
      // plain integer ops (nothing else changes, so other kernels keep their
      // exact SPIR-V).
      RewritePatternSet expand(ctx);
      arith::populateCeilFloorDivExpandOpsPatterns(expand);
      if (failed(applyPatternsGreedily(module, std::move(expand))))
        return signalPassFailure();
    }
    // A full conversion that fails has reported the op it could not legalize
    // (at the user's op, see inheritUnknownLocations); a second, module-level
    // error would only hide that place from -verify-diagnostics.
    if (failed(convertGPUModulesToSPIRV(module)))
      return signalPassFailure();
    {
      OpPassManager pm("builtin.module");
      auto &s = pm.nest<spirv::ModuleOp>();
      s.addPass(spirv::createSPIRVLowerABIAttributesPass());
      s.addPass(spirv::createSPIRVUpdateVCEPass());
      s.addPass(createCanonicalizerPass());
      if (failed(runPipeline(pm, module)))
        return signalPassFailure();
    }
    // The sizes of dynamically shaped buffers (meshvk.push_constants, memory
    // space 7) became a PushConstant variable; the ABI lowering gave it the
    // descriptor decorations of a buffer, which Vulkan forbids there.
    module.walk([](spirv::GlobalVariableOp var) {
      auto ptr = dyn_cast<spirv::PointerType>(var.getType());
      if (!ptr || ptr.getStorageClass() != spirv::StorageClass::PushConstant)
        return;
      var->removeAttr(var.getDescriptorSetAttrName());
      var->removeAttr(var.getBindingAttrName());
    });
  }

  std::optional<TargetDescription> fixedTarget;
};

} // namespace

std::unique_ptr<mlir::Pass> createLowerKernelsToSPIRVPass(const TargetDescription &target) {
  return std::make_unique<LowerKernelsToSPIRVPass>(target);
}

} // namespace meshvk::codegen
