#version 450
// Built-in MESHVK_BUILTIN_SUM_F32: dst[i] = src0[i] + ... + src{k-1}[i] for
// i < count (the local step of an all-reduce). All eight source bindings must
// be bound (the runtime binds unused ones to src0); only the first k are read.
// dst may alias a source: each invocation reads index i before writing it.
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) buffer Dst { float v[]; } dst;
layout(set = 0, binding = 1) readonly buffer Src0 { float v[]; } src0;
layout(set = 0, binding = 2) readonly buffer Src1 { float v[]; } src1;
layout(set = 0, binding = 3) readonly buffer Src2 { float v[]; } src2;
layout(set = 0, binding = 4) readonly buffer Src3 { float v[]; } src3;
layout(set = 0, binding = 5) readonly buffer Src4 { float v[]; } src4;
layout(set = 0, binding = 6) readonly buffer Src5 { float v[]; } src5;
layout(set = 0, binding = 7) readonly buffer Src6 { float v[]; } src6;
layout(set = 0, binding = 8) readonly buffer Src7 { float v[]; } src7;

layout(push_constant) uniform Params {
  uint count;
  uint k;
} params;

void main() {
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint i = gl_GlobalInvocationID.x; i < params.count; i += stride) {
    // Summed in source order so a host loop in the same order is exact.
    float acc = src0.v[i];
    if (params.k > 1) acc += src1.v[i];
    if (params.k > 2) acc += src2.v[i];
    if (params.k > 3) acc += src3.v[i];
    if (params.k > 4) acc += src4.v[i];
    if (params.k > 5) acc += src5.v[i];
    if (params.k > 6) acc += src6.v[i];
    if (params.k > 7) acc += src7.v[i];
    dst.v[i] = acc;
  }
}
