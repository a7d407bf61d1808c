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

spirv::TargetEnvAttr makeTargetEnv(MLIRContext *ctx, const TargetDescription &t) {
  std::string caps = "Shader, GroupNonUniform";
  std::string exts = "SPV_KHR_storage_buffer_storage_class";
  if (t.supportsF16()) {
    caps += ", Float16, StorageBuffer16BitAccess";
    exts += ", SPV_KHR_16bit_storage";
  }
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
      // powers with integer exponents) become supported ops first.
      RewritePatternSet approximations(ctx);
      populatePolynomialApproximateErfPattern(approximations);
      populatePolynomialApproximateErfcPattern(approximations);
      math::populateExpansionPatterns(approximations, {"exp2", "fpowi"});
      (void)applyPatternsGreedily(gm, std::move(approximations));
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
