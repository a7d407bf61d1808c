// Which descriptor bindings a SPIR-V module reads and writes.
#pragma once

#include "layer.h"

namespace meshvk_layer {

// Follows every pointer derived from a buffer variable (access chains, copies,
// bitcasts) to the loads, stores and atomics that use it. A binding used in a
// way the analysis does not understand (passed to a function call) counts as
// read and written: the race detector may then over-report, never miss.
ShaderAccess analyzeSpirv(const uint32_t* words, size_t wordCount);

}  // namespace meshvk_layer
