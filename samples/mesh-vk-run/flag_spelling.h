// One spelling of every flag, the other accepted: meshvk's flags are written
// with dashes (--print-plan, --expected-output); IREE's underscore spelling
// (--expected-output, --print-max-element-count) is accepted as an alias by
// rewriting the flag's name, in one place for mesh-vk-run and mesh-vk-compile,
// before their parsers see it. An unknown flag is answered with the nearest
// known one. No Vulkan, no LLVM: both tools link it.
#ifndef MESHVK_SAMPLES_MESH_VK_RUN_FLAG_SPELLING_H_
#define MESHVK_SAMPLES_MESH_VK_RUN_FLAG_SPELLING_H_

#include <functional>
#include <string>
#include <vector>

namespace meshvk_run {

// The name of the flag in `arg`, without its dashes or value:
// "--print_plnn=3" -> "print_plnn"; "" when `arg` is not a flag ("-", "x.mlir").
std::string FlagName(const std::string& arg);

// `args` with each flag's name in the dash spelling where the parser knows
// that spelling and not the one given (`known` takes a name without dashes):
// "--expected-output=@c_1.npy" -> "--expected-output=@c_1.npy". Values, plain
// arguments and everything after "--" are left as they are, and so is a name
// the parser knows as written.
std::vector<std::string> DashSpelling(const std::vector<std::string>& args,
                                      const std::function<bool(const std::string&)>& known);

// "unknown flag '--print_plnn'; did you mean --print-plan?" for the flag in
// `arg` (its value left out), the suggestion the nearest of `known` (names
// without dashes) by edit distance, named only when it is close.
std::string UnknownFlagMessage(const std::string& arg, const std::vector<std::string>& known);

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_FLAG_SPELLING_H_
