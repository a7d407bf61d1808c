// The kit's device-group kernel (group_cases.cc): dst[i] = src[i] * 3 + salt
// for every global invocation i below `count`. A peer's buffer may be either
// binding (generic source / destination), and a dispatch split over the
// group with vkCmdDispatchBase writes only its slice: gl_GlobalInvocationID
// includes the workgroup base.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer Src { uint src[]; };
layout(set = 0, binding = 1) writeonly buffer Dst { uint dst[]; };
layout(push_constant) uniform Params {
  uint count;
  uint salt;
};
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < count) dst[i] = src[i] * 3u + salt;
}
