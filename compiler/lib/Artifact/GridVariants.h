//===- GridVariants.h - a dynamic grid compiled per process count ---------===//
//
// A program whose used shard.grid has a '?' axis, compiled with no process
// count given (mesh-vk-compile without --grid-shape): CompileProgram.cpp's
// chain runs once per count and the plans are packed into one .mvk.
//
//===----------------------------------------------------------------------===//
#ifndef MESHVK_ARTIFACT_GRIDVARIANTS_H_
#define MESHVK_ARTIFACT_GRIDVARIANTS_H_

#include <string>

#include "meshvk/Artifact/CompileProgram.h"

namespace meshvk {

// One plan per count of options.gridSizes (kDefaultGridSizes when empty),
// each compiled exactly as for mesh-vk-run --devices=N (the whole chain again,
// on the source), packed into one file of variants; a count the program cannot
// take is left out with a warning. `grid` names the grid in messages and
// `gridWhere` is its location ("NAME:LINE:COL: ... grid @g (shape ?)"). "" or
// the one-line error when no count compiles.
std::string compileGridVariants(const std::string &source, const std::string &bufferName,
                                const ProgramOptions &options, const std::string &gridWhere,
                                const std::string &grid, CompiledProgram *out);

} // namespace meshvk

#endif // MESHVK_ARTIFACT_GRIDVARIANTS_H_
