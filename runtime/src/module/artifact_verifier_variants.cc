// The root of a .mvk file holding one plan per process count (format_version
// 2, meshvk/artifact/variants.h): nothing but variants, and each variant a
// complete plan file whose grid has the variant's process count.
#include <cstdint>
#include <map>

#include "artifact_verifier.h"
#include "artifact_verifier_checker.h"

namespace meshvk::module {

using verifier::Len;
using verifier::Msg;

std::string CheckVariants(const mvk::Artifact* root) {
  // A version-2 root that also held a plan would leave a reader to guess which
  // one runs: refused, field by field.
  if (root->grid()) return "grid: a format_version 2 file holds its plans in variants only";
  if (root->processes()) return "processes: a format_version 2 file holds its plans in variants only";
  if (root->executables()) return "executables: a format_version 2 file holds its plans in variants only";
  if (root->functions()) return "functions: a format_version 2 file holds its plans in variants only";
  const auto* variants = root->variants();
  if (Len(variants) == 0) return "variants: empty (a format_version 2 file holds at least one plan)";
  if (Len(variants) > kMaxVariants) return Msg("variants: ", Len(variants), " plans, more than ", kMaxVariants);
  std::map<uint32_t, uint32_t> seen;  // process count -> variant index
  for (uint32_t i = 0; i < variants->size(); ++i) {
    const mvk::GridVariant* v = variants->Get(i);
    std::string path = Msg("variants[", i, "]");
    if (!v->artifact()) return path + ".artifact: missing";
    const uint8_t* image = v->artifact()->data();
    // The plan is read where it lies; the builder aligns it to 16 bytes.
    if (reinterpret_cast<uintptr_t>(image) % 8 != 0) return path + ".artifact: misaligned plan (corrupt file)";
    const mvk::Artifact* plan = nullptr;
    std::string error = VerifyImage(image, v->artifact()->size(), /*inside_variants=*/true, &plan);
    if (!error.empty()) return path + ".artifact: " + error;
    uint64_t processes = 1;
    for (uint32_t extent : *plan->grid()->shape()) processes *= extent;
    if (processes != v->process_count())
      return Msg(path, ".process_count: ", v->process_count(), ", but its plan's grid has ", processes, " processes");
    auto [it, inserted] = seen.emplace(v->process_count(), i);
    if (!inserted) return Msg(path, ".process_count: ", v->process_count(), " repeated (variants[", it->second, "])");
  }
  return "";
}

}  // namespace meshvk::module
