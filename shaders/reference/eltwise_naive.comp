#version 450
// Baseline: out[i,j] = max(a[i,j] * row[j] + col[i], 0), one element per invocation.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer R { float row[]; };
layout(set = 0, binding = 2) readonly buffer Cl { float col[]; };
layout(set = 0, binding = 3) writeonly buffer O { float o[]; };
layout(push_constant) uniform P { uint M; uint N; } p;
void main() {
  uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 64;
  if (i >= p.M * p.N) return;
  uint r = i / p.N, c = i % p.N;
  o[i] = max(a[i] * row[c] + col[r], 0.0);
}
