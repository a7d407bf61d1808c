// libFuzzer target for the .mvk trust boundary: any byte string must either
// verify or be refused with a message; never crash, hang or read out of
// bounds (built with AddressSanitizer). Verified inputs also go through the
// schedule and the device-limit check, which trust the verifier's guarantees.
// Each input is tried as it is (the integrity trailer refuses nearly every
// mutation) and resealed with a fresh checksum, so the mutations reach the
// FlatBuffers verifier and the semantic checks behind the trailer.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "artifact_verifier.h"
#include "meshvk/artifact/integrity.h"
#include "schedule.h"

namespace {

void Check(std::vector<uint8_t> bytes);
void CheckPlan(const meshvk::mvk::Artifact* artifact);

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The runtime verifies its own aligned copy (meshvk_module_load copies).
  std::vector<uint8_t> bytes(data, data + size);
  Check(bytes);
  meshvk::artifact::Reseal(&bytes);
  Check(std::move(bytes));
  return 0;
}

namespace {

void Check(std::vector<uint8_t> bytes) {
  const meshvk::mvk::Artifact* artifact = nullptr;
  std::string error = meshvk::module::VerifyArtifact(bytes.data(), bytes.size(), &artifact);
  if (!error.empty()) {
    if (artifact != nullptr) __builtin_trap();                    // refused files give no artifact
    if (error.find('\n') != std::string::npos) __builtin_trap();  // one line
    return;
  }
  // A file of variants: each verified plan goes through the same steps.
  if (artifact->variants()) {
    for (const meshvk::mvk::GridVariant* v : *artifact->variants())
      CheckPlan(meshvk::mvk::GetArtifact(v->artifact()->data()));
    return;
  }
  CheckPlan(artifact);
}

void CheckPlan(const meshvk::mvk::Artifact* artifact) {
  meshvk::module::Schedule schedule = meshvk::module::ComputeSchedule(artifact);
  meshvk_device_limits_t limits = MESHVK_DEVICE_LIMITS_INIT;
  for (int i = 0; i < 3; ++i) {
    limits.max_workgroup_count[i] = 65535;
    limits.max_workgroup_size[i] = 1024;
  }
  limits.max_workgroup_invocations = 1024;
  limits.max_push_constants_bytes = 128;
  limits.max_storage_buffer_range = 1u << 30;
  limits.max_memory_allocation_size = 1ull << 31;
  limits.min_storage_buffer_offset_alignment = 16;
  for (uint32_t p = 0; p < schedule.allocations.size(); ++p) meshvk::module::VerifyAgainstLimits(artifact, p, limits);
}

}  // namespace
