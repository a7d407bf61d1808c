#version 450
// Best hand-written matmul for lavapipe (llvmpipe runs each invocation as a
// SIMD lane): a 4x8 register tile per invocation, B and C read/written as
// vec4, no shared memory (it measured slower on lavapipe).
// Requires N % 8 == 0 and M % 4 == 0. Push: M, N, K.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { vec4 b[]; };
layout(set = 0, binding = 2) writeonly buffer C { vec4 c[]; };
layout(push_constant) uniform P { uint M; uint N; uint K; } p;
void main() {
  uint col4 = gl_GlobalInvocationID.x * 2;  // in vec4 units: 8 columns
  uint row = gl_GlobalInvocationID.y * 4;
  uint n4 = p.N / 4;
  if (row >= p.M || col4 >= n4) return;
  vec4 acc[4][2];
  for (int i = 0; i < 4; ++i) { acc[i][0] = vec4(0.0); acc[i][1] = vec4(0.0); }
  for (uint k = 0; k < p.K; ++k) {
    vec4 b0 = b[k * n4 + col4];
    vec4 b1 = b[k * n4 + col4 + 1];
    for (int i = 0; i < 4; ++i) {
      float av = a[(row + i) * p.K + k];
      acc[i][0] += av * b0;
      acc[i][1] += av * b1;
    }
  }
  for (int i = 0; i < 4; ++i) {
    c[(row + i) * n4 + col4] = acc[i][0];
    c[(row + i) * n4 + col4 + 1] = acc[i][1];
  }
}
