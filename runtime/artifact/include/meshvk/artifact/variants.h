// meshvk/artifact/variants.h — a .mvk file that holds one plan per process
// count, for a program over a dynamic grid (`shard.grid @g(shape = ?)`).
//
// meshvk unrolls the grid into one program per process at compile time, so a
// plan exists for one process count only. mesh-vk-compile compiles a
// dynamic-grid program once per count it is asked for and packs the plans into
// one file: format_version 2, the root holding only `variants` (mvk.fbs
// `GridVariant`), each a complete version-1 .mvk file image (integrity trailer
// included, 16-byte aligned). The runtime picks a plan by the caller's device
// count (meshvk_module_select_process_count in meshvk/module.h).
//
// Like ArtifactBuilder, this does not check anything (tests write broken
// files with it); the runtime's loader is the judge.
#ifndef MESHVK_ARTIFACT_VARIANTS_H_
#define MESHVK_ARTIFACT_VARIANTS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace meshvk::artifact {

// The format_version of a file holding variants (builder.h's kFormatVersion,
// 1, is a file holding one plan).
inline constexpr uint32_t kVariantsFormatVersion = 2;

// One plan: the .mvk file image compiled for `process_count` processes.
struct GridVariantDesc {
  uint32_t process_count = 0;
  std::vector<uint8_t> file;
};

// Serializes `variants` (in the given order) into a .mvk file image with its
// own integrity trailer. `format_version`: tests write other versions.
std::vector<uint8_t> BuildVariantsArtifact(const std::vector<GridVariantDesc>& variants,
                                           const std::string& producer = "meshvk artifact builder",
                                           uint32_t format_version = kVariantsFormatVersion);

}  // namespace meshvk::artifact

#endif  // MESHVK_ARTIFACT_VARIANTS_H_
