// -v/--verbose of mesh-vk-run: how much of what meshvk decides (topology,
// devices, compile grid, copy paths, trace/benchmark choices) is told on
// stderr. Level 0 (default) prints nothing extra, so error exits keep their
// one line; 1 prints decisions; 2 adds per-phase detail.
#ifndef MESHVK_SAMPLES_MESH_VK_RUN_VERBOSE_H_
#define MESHVK_SAMPLES_MESH_VK_RUN_VERBOSE_H_

namespace meshvk_run {

void SetVerbosity(int level);
int Verbosity();
// printf-style line "mesh-vk-run: <text>\n" on stderr when Verbosity() >= level.
void Verbose(int level, const char* format, ...) __attribute__((format(printf, 2, 3)));

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_VERBOSE_H_
