#version 450
// Copy-bandwidth probe: dst[i] = src[i] as vec4.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer S { vec4 s[]; };
layout(set = 0, binding = 1) writeonly buffer D { vec4 d[]; };
layout(push_constant) uniform P { uint count; } p;
void main() {
  uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 64;
  if (i < p.count) d[i] = s[i];
}
