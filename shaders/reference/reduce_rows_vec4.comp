#version 450
// Hand-written row sum: a subgroup-free cooperative version. One workgroup of
// 64 invocations per 64 rows... on llvmpipe lanes are invocations, so the
// best layout has consecutive lanes read consecutive columns: each
// invocation sums a column stripe (vec4) of ONE row, then a shared-memory
// tree combines the 64 partial sums of that row.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { vec4 a[]; };
layout(set = 0, binding = 1) writeonly buffer O { float o[]; };
layout(push_constant) uniform P { uint M; uint N; } p;
shared float partial[64];
void main() {
  uint r = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
  uint t = gl_LocalInvocationID.x;
  uint n4 = p.N / 4;
  vec4 s = vec4(0.0);
  if (r < p.M)
    for (uint j = t; j < n4; j += 64) s += a[r * n4 + j];
  partial[t] = s.x + s.y + s.z + s.w;
  barrier();
  for (uint w = 32; w > 0; w >>= 1) {
    if (t < w) partial[t] += partial[t + w];
    barrier();
  }
  if (t == 0 && r < p.M) o[r] = partial[0];
}
