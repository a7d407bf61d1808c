// Turns a CLI11 parse error into mesh-vk-run's one-line flag errors
// ("flag --X takes no value (got 'V')", "flag --X needs a value (--X=...)"),
// so moving to CLI11 did not change what a user reads.
#ifndef MESHVK_SAMPLES_MESH_VK_RUN_CLI_ERRORS_H_
#define MESHVK_SAMPLES_MESH_VK_RUN_CLI_ERRORS_H_

#include <CLI/Error.hpp>
#include <string>

namespace meshvk_run {

std::string DescribeParseError(const CLI::ParseError& error, int argc, char** argv);

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_CLI_ERRORS_H_
