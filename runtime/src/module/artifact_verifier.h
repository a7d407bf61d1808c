// The .mvk trust boundary: verifies an untrusted artifact image before the
// runtime uses any of it (and before any Vulkan call). No Vulkan, no meshvk
// status objects: the fuzz target builds this file on its own.
#ifndef MESHVK_RUNTIME_MODULE_ARTIFACT_VERIFIER_H_
#define MESHVK_RUNTIME_MODULE_ARTIFACT_VERIFIER_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "meshvk/artifact/mvk_generated.h"
#include "meshvk/instance.h"  // meshvk_device_limits_t (plain struct)

namespace meshvk::module {

// Limits the loader applies whatever the device (generous; device limits are
// checked when a program is created on a device set).
inline constexpr uint32_t kMaxProcesses = 4096;
inline constexpr uint32_t kMaxRank = 8;
inline constexpr uint32_t kMaxBindings = 32;
inline constexpr uint32_t kMaxPushConstantBytes = 256;
// A .mvk file is at most 1 GiB (README.md): the loader checks a file's size
// against it before reading (FlatBuffers themselves stop at 2 GiB).
inline constexpr uint64_t kMaxArtifactBytes = uint64_t(1) << 30;
// A strided copy runs one invocation per element: at most 2^31 of them.
inline constexpr uint64_t kMaxStridedCopyElements = uint64_t(1) << 31;
// Plans one file may hold (one per process count; counts are <= 1024 in the
// compiler).
inline constexpr uint32_t kMaxVariants = 1024;

// The first 8 bytes name a .mvk file ("" or the reason): lets the file loader
// stop after 8 bytes of something else (/dev/zero).
std::string CheckFileIdentifier(const uint8_t* data, size_t size);

// Verifies `data` (size and file identifier, the integrity trailer, the
// FlatBuffer structure, format version, then semantics).
// Returns "" and sets *out_artifact (pointing into `data`) when valid; else one
// line "FIELD.PATH: reason" (or a whole-file reason) and *out_artifact = null.
// A format_version 2 file (variants.h) is verified whole: the root holds
// variants only, and each variant's plan is verified as a file of its own
// ("variants[i].artifact: " + its reason), its process_count matching its grid,
// counts distinct, no variants inside variants. The verified plan of variant i
// then lies at VariantPlan(*out_artifact, i).
std::string VerifyArtifact(const uint8_t* data, size_t size, const mvk::Artifact** out_artifact);
// The same for an image found inside a variant (`inside_variants`: version 2
// is refused there).
std::string VerifyImage(const uint8_t* data, size_t size, bool inside_variants, const mvk::Artifact** out_artifact);
// The root of a format_version 2 file (the FlatBuffer verified): variants
// only, each plan verified (artifact_verifier_variants.cc).
std::string CheckVariants(const mvk::Artifact* root);

// Checks a verified artifact against the limits of the device that
// `process` runs on (workgroup counts/sizes, push constants, binding ranges and
// alignment, buffer sizes). Returns "" or "FIELD.PATH: reason".
std::string VerifyAgainstLimits(const mvk::Artifact* artifact, uint32_t process, const meshvk_device_limits_t& limits);

// Row-major multi-index of `process` in the grid.
void GridIndex(const flatbuffers::Vector<uint32_t>* grid_shape, uint32_t process,
               uint32_t* out_index /* grid rank entries */);

}  // namespace meshvk::module

#endif  // MESHVK_RUNTIME_MODULE_ARTIFACT_VERIFIER_H_
