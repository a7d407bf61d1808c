// Compile a sample for a grid and run it through the public runtime API (the
// path mesh-vk-run takes), for the e2e and conformance tests.
#ifndef MESHVK_TESTS_E2E_PROGRAM_RUNNER_H_
#define MESHVK_TESTS_E2E_PROGRAM_RUNNER_H_

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "meshvk/Artifact/CompileProgram.h"
#include "meshvk/meshvk.h"
#include "meshvk/module.h"
#include "samples.h"

namespace meshvk_e2e {

// Compiles samples/programs/<name>.mlir for `grid` ("" = as written) with the
// lavapipe preset. Cached per (name, grid): many tests share a compile.
// Returns "" or the compiler's one-line error.
std::string CompileSample(const std::string& name, const std::string& grid, const meshvk::CompiledProgram** out);

struct ModuleDeleter {
  void operator()(meshvk_module_t* m) const { meshvk_module_release(m); }
};
struct ProgramDeleter {
  void operator()(meshvk_program_t* p) const { meshvk_program_release(p); }
};
using ModulePtr = std::unique_ptr<meshvk_module_t, ModuleDeleter>;
using ProgramPtr = std::unique_ptr<meshvk_program_t, ProgramDeleter>;

// Loads `artifact`, creates a program on `set`, invokes function 0 once with
// `inputs` and returns the gathered results in *outputs. "" or the failing
// step's message. The program is handed back (if `program` is not null) for
// inspection.
std::string RunOnce(const std::vector<uint8_t>& artifact, meshvk_device_set_t* set,
                    const std::vector<HostTensor>& inputs, std::vector<HostTensor>* outputs,
                    ProgramPtr* program = nullptr, ModulePtr* module = nullptr);

// "2x2" -> 4.
uint32_t ProcessCount(const std::string& grid);

// The topology the sharded programs run on, from MESHVK_E2E_TOPOLOGY: =group
// on device group 0 (ctest does so under the emulated group of 4),
// =independent on one VkDevice per physical device, round robin (ctest: the
// emulation layer's separate groups, with and without external memory, and
// lavapipe registered twice); default: logical devices.
meshvk_topology_t TopologyFromEnvironment();
// MESHVK_E2E_TARGET=lavapipe|gpu|generic: the codegen preset the programs are
// compiled for (unset: ProgramOptions' default, lavapipe); "" or the error.
std::string TargetFromEnvironment(meshvk::codegen::TargetDescription* target);

// One case of a table of test programs: `program` (<dir>/<program>.mlir)
// compiled for `grid`: "" as written, "dN" a `?` grid run on N processes (as
// mesh-vk-run --devices=N), else a --grid-shape value ("2x2").
struct ProgramCase {
  std::string program, grid;
};

// Every (name, grid) of a table whose rows have `name` and `grids`.
template <typename Table>
std::vector<ProgramCase> CasesOf(const Table& programs) {
  std::vector<ProgramCase> cases;
  for (const auto& p : programs)
    for (const std::string& g : p.grids) cases.push_back({p.name, g});
  return cases;
}

// The row of `programs` named `name`, or null.
template <typename Row>
const Row* FindProgram(const std::vector<Row>& programs, const std::string& name) {
  for (const Row& p : programs)
    if (p.name == name) return &p;
  return nullptr;
}

// The gtest name of a case: <program>_grid<grid>, "asis" for "".
std::string CaseName(const ProgramCase& c);
void PrintTo(const ProgramCase& c, std::ostream* os);

// Compiles <dir>/<c.program>.mlir for c.grid. "" or the compiler's one line.
std::string CompileCase(const std::string& dir, const ProgramCase& c, const std::string& producer,
                        meshvk::CompiledProgram* out);

}  // namespace meshvk_e2e

#endif  // MESHVK_TESTS_E2E_PROGRAM_RUNNER_H_
