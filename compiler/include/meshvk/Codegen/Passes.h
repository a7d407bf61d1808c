// meshvk/Codegen/Passes.h — the kernel code generation passes (declared in
// Passes.td) and the `meshvk-codegen` pipeline.
#ifndef MESHVK_CODEGEN_PASSES_H_
#define MESHVK_CODEGEN_PASSES_H_

#include <memory>
#include <string>

#include "meshvk/Codegen/TargetDescription.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class DialectRegistry;
class OpPassManager;
} // namespace mlir

namespace meshvk {

// Registers the passes and the `meshvk-codegen` pipeline with the global
// registry (for mesh-vk-opt and lit tests).
void registerCodegenPasses();

// Dialects and external interface models (bufferization, tiling, value
// bounds, SPIR-V target) the codegen passes need.
void registerCodegenDialects(mlir::DialectRegistry &registry);

namespace codegen {

#define GEN_PASS_DECL
#include "meshvk/Codegen/Passes.h.inc"

// The passes for a given target description (the registered passes take a
// preset name instead).
std::unique_ptr<mlir::Pass> createTileAndDistributePass(const TargetDescription &target);
std::unique_ptr<mlir::Pass> createLowerKernelsToSPIRVPass(const TargetDescription &target);

// Adds tile-and-distribute + lower-to-spirv (+ dump when `dumpDirectory` is
// not empty) to `pm` (a pass manager on builtin.module).
void buildCodegenPipeline(mlir::OpPassManager &pm, const TargetDescription &target,
                          const std::string &dumpDirectory = "");

#define GEN_PASS_REGISTRATION
#include "meshvk/Codegen/Passes.h.inc"

} // namespace codegen
} // namespace meshvk

#endif // MESHVK_CODEGEN_PASSES_H_
