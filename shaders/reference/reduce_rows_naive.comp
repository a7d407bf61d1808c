#version 450
// Baseline: out[i] = sum_j a[i,j], one row per invocation.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer O { float o[]; };
layout(push_constant) uniform P { uint M; uint N; } p;
void main() {
  uint r = gl_GlobalInvocationID.x;
  if (r >= p.M) return;
  float s = 0.0;
  for (uint j = 0; j < p.N; ++j) s += a[r * p.N + j];
  o[r] = s;
}
