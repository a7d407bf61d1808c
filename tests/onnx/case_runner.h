// One ONNX backend test case through meshvk (import, compile, run, compare);
// see onnx_suite.cc.
#ifndef MESHVK_TESTS_ONNX_CASE_RUNNER_H_
#define MESHVK_TESTS_ONNX_CASE_RUNNER_H_

#include <string>

namespace meshvk_onnx_suite {

// "PASS", "REFUSED <stage>: <one line>" or "WRONG <what differs>" for the case
// in `dir` (model.onnx + test_data_set_0/).
// With `devices` > 1 the model is imported with the data-parallel policy
// (the leading dimension of every activation input split over a grid of
// `devices`) and run on that many processes; a case whose first input has
// fewer rows than processes is "SKIP".
std::string RunCase(const std::string& dir, int devices = 1);

// The refusal's group for the summary: its stage and op type and the kind of
// reason, without the case's names.
std::string ReasonGroup(const std::string& reason);

}  // namespace meshvk_onnx_suite

#endif  // MESHVK_TESTS_ONNX_CASE_RUNNER_H_
