// meshvk/artifact/integrity.h — the .mvk integrity trailer.
//
// A .mvk file is the FlatBuffer (mvk.fbs) followed by 16 bytes:
//   "MVKC"  u32 algorithm (1 = FNV-1a 64)  u64 checksum
// (little-endian), the checksum covering every byte before it. The loader
// checks it before anything else, so a flipped bit or a truncated file is
// reported as such (exit 2 in mesh-vk-run) instead of running. FNV-1a detects
// every change confined to one byte (each step is a bijection of the state);
// it is an integrity check against corruption, not a signature against an
// attacker, who can recompute it (the verifier is the defence there).
// ArtifactBuilder::Finish appends the trailer, so every emitter gets it.
#ifndef MESHVK_ARTIFACT_INTEGRITY_H_
#define MESHVK_ARTIFACT_INTEGRITY_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace meshvk::artifact {

inline constexpr size_t kTrailerSize = 16;
inline constexpr char kTrailerMagic[4] = {'M', 'V', 'K', 'C'};
inline constexpr uint32_t kChecksumFnv1a64 = 1;

// FNV-1a 64 of `size` bytes.
uint64_t Fnv1a64(const uint8_t* data, size_t size);

// Appends the trailer to a FlatBuffer image.
void AppendTrailer(std::vector<uint8_t>* flatbuffer);

// Tests and tools that edit a finished file: drops the old trailer (if the
// file has one) and appends a new one over the edited bytes.
void Reseal(std::vector<uint8_t>* file);

// Checks the trailer of a whole file. Returns "" and the FlatBuffer's size
// (the file without its trailer), or a one-line reason.
std::string CheckTrailer(const uint8_t* data, size_t size, size_t* out_flatbuffer_size);

}  // namespace meshvk::artifact

#endif  // MESHVK_ARTIFACT_INTEGRITY_H_
