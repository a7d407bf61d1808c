// --expected-output checking with numpy.testing.assert_allclose semantics:
// |actual - expected| <= atol + rtol * |expected| (defaults atol 1e-8,
// rtol 1e-5); NaN matches NaN only and an infinity the same infinity only
// (numpy.testing.assert_allclose's equal_nan=True: a program whose reference
// has a NaN where the result has one is right); i32 compares exactly when
// both tolerances are 0, else with the same formula.
#ifndef MESHVK_SAMPLES_MESH_VK_RUN_COMPARE_H_
#define MESHVK_SAMPLES_MESH_VK_RUN_COMPARE_H_

#include <string>

#include "tensor_io.h"

namespace meshvk_run {

struct Tolerance {
  double atol = 1e-8;
  double rtol = 1e-5;
};

// True when every element is close. Otherwise *report is one line: how many
// elements differ, the first one's index, actual and expected values. A
// shape/type mismatch is a difference too.
bool TensorsClose(const HostTensor& actual, const HostTensor& expected, const Tolerance& tol, std::string* report);

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_COMPARE_H_
