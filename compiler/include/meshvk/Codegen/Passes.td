//===- Passes.td - meshvk kernel code generation passes ---*- tablegen -*-===//
//
// Order (pipeline `meshvk-codegen`, and codegen::compileKernels):
//   meshvk-tile-and-distribute, meshvk-lower-kernels-to-spirv
//   [, meshvk-dump-kernels].
// Input: the `meshvk.kernel` functions of a plan (compiler/README.md, "Kernel
// contract"). Output: one spirv.module per kernel, entry point `main`,
// descriptor set 0 with binding i = host argument i.
//
//===----------------------------------------------------------------------===//

#ifndef MESHVK_CODEGEN_PASSES_TD
#define MESHVK_CODEGEN_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileAndDistribute : Pass<"meshvk-tile-and-distribute", "mlir::ModuleOp"> {
  let summary = "Tile meshvk.kernel functions for workgroups and invocations, "
                "distribute the tiles cyclically, bufferize, and wrap them in gpu.launch";
  let description = [{
    Every tile loop is distributed CYCLICALLY over the ids (grid-stride), so a
    kernel is correct for any workgroup count the runtime picks. Tile sizes
    come from the target's TargetDescription (a preset named by `target`, or
    the description given to createTileAndDistributePass). A kernel still
    referenced (by a meshvk.launch) stays; its buffer form is added as
    `<name>_lowered`.

    Before:
    ```mlir
    func.func @k(%a: tensor<MxKxf32>, %b: tensor<KxNxf32>) -> tensor<MxNxf32>
        attributes {meshvk.kernel} { fill + matmul + bias/activation generics }
    ```
    After:
    ```mlir
    func.func @k(%a: memref<MxKxf32>, %b: memref<KxNxf32>, %c: memref<MxNxf32>)
        attributes {meshvk.kernel, meshvk.num_inputs = 2} {
      gpu.launch blocks(..) in (%gx = <tiles>, 1, 1) threads(..) in (%tx = 64, 1, 1) {
        scf.for %t = %block_id to %num_tiles step %grid_dim {     // workgroup tiles
          scf.if %thread_id < %num_thread_tiles {   // register tiles (<= 1 per invocation)
            scf.if %full_tile { 4x4 accumulators in registers over K }
            else { scalar loops for the ragged edge }
            epilogue loops }}}}
    ```
  }];
  let options = [
    Option<"targetName", "target", "std::string", /*default=*/"\"lavapipe\"",
           "target preset (lavapipe, gpu, generic)">,
    Option<"workgroupInvocations", "workgroup-invocations", "unsigned",
           /*default=*/"0", "override the preset's workgroup size">,
  ];
}

def LowerKernelsToSPIRV : Pass<"meshvk-lower-kernels-to-spirv", "mlir::ModuleOp"> {
  let summary = "Outline the gpu.launch of each meshvk kernel and convert it to a "
                "spirv.module (entry point main, set 0 binding i = host argument i)";
  let description = [{
    Before:
    ```mlir
    func.func @k(%a: memref<..>, %c: memref<..>) { gpu.launch ... }
    ```
    After:
    ```mlir
    gpu.module @k_kernel { gpu.func @main(...) kernel }   // kept for the host
    spirv.module @__spv__k_kernel Logical GLSL450 { spirv.func @main ... }
    func.func @k(...) { gpu.launch_func @k_kernel::@main blocks in (..) threads in (..) }
    ```
  }];
  let options = [
    Option<"targetName", "target", "std::string", /*default=*/"\"lavapipe\"",
           "target preset (lavapipe, gpu, generic)">,
  ];
}

def DumpKernels : Pass<"meshvk-dump-kernels", "mlir::ModuleOp"> {
  let summary = "Write each spirv.module as <dir>/<kernel>.spv and .spvasm "
                "(SPIRV-Tools disassembly)";
  let description = [{
    Runs after meshvk-lower-kernels-to-spirv; the IR is not changed.
  }];
  let options = [
    Option<"directory", "dir", "std::string", /*default=*/"", "output directory">,
  ];
}

#endif // MESHVK_CODEGEN_PASSES_TD
