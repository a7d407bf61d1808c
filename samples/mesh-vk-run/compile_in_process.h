// mesh-vk-run compiles a .mlir program or an .onnx model in-process with the
// same chain as mesh-vk-compile, its kernels tiled for the devices the run
// uses (one target all of them run), sized for the run's process count
// (--devices, or the MPI job's ranks).
#ifndef MESHVK_SAMPLES_MESH_VK_RUN_COMPILE_IN_PROCESS_H_
#define MESHVK_SAMPLES_MESH_VK_RUN_COMPILE_IN_PROCESS_H_

#include <cstdint>
#include <string>

#include "meshvk/Artifact/CompileProgram.h"
#include "run_flags.h"
#include "run_program.h"

namespace meshvk_run {

// "" or the one-line error: any error in the program or the flags is bad
// input (exit 2) with the compiler's message. `mpi_ranks`: 0 outside mpirun.
std::string CompileInProcess(const std::string& path, const RunFlags& flags, const DeviceChoice& devices,
                             uint32_t mpi_ranks, meshvk::ProgramOptions* options, meshvk::CompiledProgram* compiled);

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_COMPILE_IN_PROCESS_H_
