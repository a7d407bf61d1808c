//===- mesh-vk-opt.cpp - mlir-opt with meshvk's dialect and passes --------===//
//
// Every upstream dialect and pass (so `sharding-propagation`,
// `shard-partition`, `canonicalize` and H4's SPIR-V lowering are at hand), plus
// meshvk's dialect, passes and named pipelines.
//
//===----------------------------------------------------------------------===//
#include "meshvk/MeshVKDialect.h"
#include "meshvk/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#ifdef MESHVK_HAS_CODEGEN
#include "meshvk/Codegen/Passes.h"
#endif

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  meshvk::registerMeshVKPasses();
  meshvk::registerMeshVKPipelines();
#ifdef MESHVK_HAS_CODEGEN
  meshvk::registerCodegenPasses();
#endif

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registry.insert<meshvk::MeshVKDialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "meshvk optimizer driver\n", registry));
}
