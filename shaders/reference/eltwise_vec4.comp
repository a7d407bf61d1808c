#version 450
// Hand-written: the same chain, one vec4 per invocation (N % 4 == 0).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { vec4 a[]; };
layout(set = 0, binding = 1) readonly buffer R { vec4 row[]; };
layout(set = 0, binding = 2) readonly buffer Cl { float col[]; };
layout(set = 0, binding = 3) writeonly buffer O { vec4 o[]; };
layout(push_constant) uniform P { uint M; uint N; } p;
void main() {
  uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 64;
  uint n4 = p.N / 4;
  if (i >= p.M * n4) return;
  uint r = i / n4, c = i % n4;
  o[i] = max(a[i] * row[c] + col[r], vec4(0.0));
}
