// The .mvk integrity trailer (see integrity.h).
#include "meshvk/artifact/integrity.h"

#include <cstring>
#include <sstream>

namespace meshvk::artifact {
namespace {

void PutU32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}
void PutU64(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}
uint32_t GetU32(const uint8_t* p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}
uint64_t GetU64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

}  // namespace

uint64_t Fnv1a64(const uint8_t* data, size_t size) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < size; ++i) {
    h ^= data[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

void AppendTrailer(std::vector<uint8_t>* flatbuffer) {
  size_t at = flatbuffer->size();
  flatbuffer->resize(at + kTrailerSize);
  uint8_t* t = flatbuffer->data() + at;
  std::memcpy(t, kTrailerMagic, 4);
  PutU32(t + 4, kChecksumFnv1a64);
  PutU64(t + 8, Fnv1a64(flatbuffer->data(), at + 8));
}

void Reseal(std::vector<uint8_t>* file) {
  if (file->size() >= kTrailerSize && std::memcmp(file->data() + file->size() - kTrailerSize, kTrailerMagic, 4) == 0)
    file->resize(file->size() - kTrailerSize);
  AppendTrailer(file);
}

std::string CheckTrailer(const uint8_t* data, size_t size, size_t* out_flatbuffer_size) {
  *out_flatbuffer_size = 0;
  if (size < kTrailerSize + 8) {
    std::ostringstream os;
    os << "truncated: " << size << " bytes (a .mvk file has at least " << kTrailerSize + 8 << ")";
    return os.str();
  }
  const uint8_t* t = data + size - kTrailerSize;
  if (std::memcmp(t, kTrailerMagic, 4) != 0)
    return "no integrity trailer at the end of the file (truncated, or written by a meshvk older than the "
           "checksum: recompile the program)";
  if (GetU32(t + 4) != kChecksumFnv1a64) {
    std::ostringstream os;
    os << "integrity trailer: unknown checksum algorithm " << GetU32(t + 4) << " (expected " << kChecksumFnv1a64
       << ", FNV-1a 64)";
    return os.str();
  }
  uint64_t stored = GetU64(t + 8), computed = Fnv1a64(data, size - 8);
  if (stored != computed) {
    std::ostringstream os;
    os << "checksum mismatch: the file is corrupt (stored 0x" << std::hex << stored << ", computed 0x" << computed
       << ")";
    return os.str();
  }
  *out_flatbuffer_size = size - kTrailerSize;
  return "";
}

}  // namespace meshvk::artifact
