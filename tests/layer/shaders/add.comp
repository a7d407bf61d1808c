#version 450
// c = a + b, element-wise: reads two buffers (one may be a peer view), writes one.
layout(local_size_x = 64) in;
layout(push_constant) uniform Push { uint count; } pc;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) readonly buffer B { uint b[]; };
layout(set = 0, binding = 2) writeonly buffer C { uint c[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < pc.count) c[i] = a[i] + b[i];
}
