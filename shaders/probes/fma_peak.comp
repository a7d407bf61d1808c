#version 450
// FMA-peak probe for mesh-vk-run --benchmark's roofline: every invocation runs
// 8 independent vec4 FMA chains (enough independent work to hide FMA latency
// on a SIMD lane) for p.iterations rounds, so the kernel does
//   invocations * iterations * 8 chains * 4 lanes * 2 FLOP
// and touches memory once (one vec4 store, so the chains are not dead code).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) writeonly buffer Out { vec4 out_values[]; };
layout(push_constant) uniform P { uint iterations; float seed; } p;
void main() {
  uint id = gl_GlobalInvocationID.x;
  vec4 a = vec4(p.seed) + vec4(id);
  vec4 x0 = a, x1 = a + 1.0, x2 = a + 2.0, x3 = a + 3.0;
  vec4 x4 = a + 4.0, x5 = a + 5.0, x6 = a + 6.0, x7 = a + 7.0;
  const vec4 m = vec4(0.999999);
  const vec4 c = vec4(1e-6);
  for (uint i = 0; i < p.iterations; ++i) {
    x0 = fma(x0, m, c); x1 = fma(x1, m, c); x2 = fma(x2, m, c); x3 = fma(x3, m, c);
    x4 = fma(x4, m, c); x5 = fma(x5, m, c); x6 = fma(x6, m, c); x7 = fma(x7, m, c);
  }
  out_values[id] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
}
