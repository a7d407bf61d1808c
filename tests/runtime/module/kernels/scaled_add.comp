// c = a + scale * b over `count` floats; a grid-stride loop, so any workgroup
// count covers the whole range. Test kernel of the artifact tests.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform Params { uint count; float scale; } params;

void main() {
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint i = gl_GlobalInvocationID.x; i < params.count; i += stride) {
    c[i] = a[i] + params.scale * b[i];
  }
}
