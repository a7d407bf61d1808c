// A .mvk file holding one plan per process count (see variants.h).
#include "meshvk/artifact/variants.h"

#include "meshvk/artifact/integrity.h"
#include "meshvk/artifact/mvk_generated.h"

namespace meshvk::artifact {

// Each plan is a whole file image: the loader verifies it as it would a file
// of its own, and a tool can cut it out and run it alone. 16-byte alignment
// (the finished buffer is aligned to the largest alignment used) keeps the
// plan's 8-byte vectors aligned where it lies, for a reader that maps the file.
constexpr size_t kPlanAlignment = 16;

std::vector<uint8_t> BuildVariantsArtifact(const std::vector<GridVariantDesc>& variants, const std::string& producer,
                                           uint32_t format_version) {
  size_t total = 1024;
  for (const GridVariantDesc& v : variants) total += v.file.size() + kPlanAlignment;
  flatbuffers::FlatBufferBuilder fbb(total);
  std::vector<flatbuffers::Offset<mvk::GridVariant>> list;
  for (const GridVariantDesc& v : variants) {
    fbb.ForceVectorAlignment(v.file.size(), 1, kPlanAlignment);
    auto bytes = fbb.CreateVector(v.file);
    list.push_back(mvk::CreateGridVariant(fbb, v.process_count, bytes));
  }
  auto root = mvk::CreateArtifact(fbb, format_version, fbb.CreateString(producer), 0, 0, 0, 0, fbb.CreateVector(list));
  mvk::FinishArtifactBuffer(fbb, root);
  std::vector<uint8_t> file(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
  AppendTrailer(&file);
  return file;
}

}  // namespace meshvk::artifact
