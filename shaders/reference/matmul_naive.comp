#version 450
// Baseline: one C element per invocation, K loop from global memory.
// C[M,N] = A[M,K] * B[K,N], row-major f32. Push: M, N, K.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform P { uint M; uint N; uint K; } p;
void main() {
  uint col = gl_GlobalInvocationID.x, row = gl_GlobalInvocationID.y;
  if (row >= p.M || col >= p.N) return;
  float acc = 0.0;
  for (uint k = 0; k < p.K; ++k) acc += a[row * p.K + k] * b[k * p.N + col];
  c[row * p.N + col] = acc;
}
