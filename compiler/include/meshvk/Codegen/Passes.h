// meshvk/Codegen/Passes.h — the kernel code generation passes.
//
//   meshvk-tile-and-distribute  : `meshvk.kernel` funcs on tensors -> funcs on
//                                 memrefs holding one gpu.launch whose loops are
//                                 tiled for workgroups and invocations and
//                                 distributed cyclically (grid-stride).
//   meshvk-lower-kernels-to-spirv: gpu.launch -> outlined gpu.func -> spirv.module
//   meshvk-dump-kernels          : writes each spirv.module as .spv + .spvasm
//   meshvk-codegen (pipeline)    : the three above in order.
#ifndef MESHVK_CODEGEN_PASSES_H_
#define MESHVK_CODEGEN_PASSES_H_

#include <memory>
#include <string>

#include "meshvk/Codegen/TargetDescription.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class DialectRegistry;
class OpPassManager;
}  // namespace mlir

namespace meshvk {

// Registers the passes and the `meshvk-codegen` pipeline with the global
// registry (for mesh-vk-opt and lit tests).
void registerCodegenPasses();

// Dialects and external interface models (bufferization, tiling, value
// bounds, SPIR-V target) the codegen passes need.
void registerCodegenDialects(mlir::DialectRegistry& registry);

namespace codegen {
std::unique_ptr<mlir::Pass> createTileAndDistributePass(const TargetDescription& target);
std::unique_ptr<mlir::Pass> createLowerKernelsToSPIRVPass(const TargetDescription& target);
std::unique_ptr<mlir::Pass> createDumpKernelsPass(const std::string& directory);
// Adds tile-and-distribute + lower-to-spirv (+ dump when `dumpDirectory` is
// not empty) to `pm` (a pass manager on builtin.module).
void buildCodegenPipeline(mlir::OpPassManager& pm, const TargetDescription& target,
                          const std::string& dumpDirectory = "");
}  // namespace codegen
}  // namespace meshvk

#endif  // MESHVK_CODEGEN_PASSES_H_
