// Host references of the conformance programs: plain loops in double
// precision written from each program's definition (programs/*.mlir and
// samples/programs/), never from meshvk's output.
#ifndef MESHVK_CONFORMANCE_HOST_REFERENCES_H_
#define MESHVK_CONFORMANCE_HOST_REFERENCES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "meshvk/module.h"

namespace meshvk_conformance {

// A dense row-major tensor; values held as double whatever the element type.
struct HostTensor {
  std::vector<uint64_t> shape;
  meshvk_element_type_t type = MESHVK_ELEMENT_F32;
  std::vector<double> values;

  uint64_t Count() const;
  std::vector<uint8_t> Bytes() const;  // as the device holds them
  static HostTensor FromBytes(const meshvk_tensor_info_t& info, const std::vector<uint8_t>& bytes);
};

// Seeded inputs for an argument: floats in [-1, 1), integers in [-100, 100).
HostTensor RandomInput(const meshvk_tensor_info_t& info, uint32_t seed);

struct ProgramReference {
  const char* program;  // file stem: mlp_megatron.mvk
  const char* covers;   // what it exercises (collectives, reshards, ...)
  std::vector<HostTensor> (*compute)(const std::vector<HostTensor>& inputs);
  double atol, rtol;
};

// Every program the kit knows; a .mvk without an entry here is not run.
const std::vector<ProgramReference>& ProgramReferences();

// "" when every element matches (|got - want| <= atol + rtol*|want|, NaN
// equal to NaN), else the first difference: "result 0 [3, 17]: got 1.5, expected 2".
std::string FirstDifference(const std::vector<HostTensor>& got, const std::vector<HostTensor>& want, double atol,
                            double rtol);

}  // namespace meshvk_conformance

#endif  // MESHVK_CONFORMANCE_HOST_REFERENCES_H_
