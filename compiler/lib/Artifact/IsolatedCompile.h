//===- IsolatedCompile.h - A compilation in a child process ----------------===//
//
// A whole compilation through runInChildProcess
// (meshvk/Support/CrashIsolation.h): ProgramOptions::isolateCrashes.
//
//===----------------------------------------------------------------------===//
#ifndef MESHVK_ARTIFACT_ISOLATEDCOMPILE_H_
#define MESHVK_ARTIFACT_ISOLATEDCOMPILE_H_

#include <string>

#include "meshvk/Artifact/CompileProgram.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace meshvk {

using CompileStep = llvm::function_ref<std::string(CompiledProgram *)>;

// Runs `compile` in a child process and returns what it returned, with `out`
// filled as the child filled it; a child that died returns the crash line
// (runInChildProcess) with `out` empty.
std::string compileInChildProcess(const std::string &inputName, CompileStep compile,
                                  CompiledProgram *out);

} // namespace meshvk

#endif // MESHVK_ARTIFACT_ISOLATEDCOMPILE_H_
