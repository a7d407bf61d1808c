#version 450
// Built-in MESHVK_BUILTIN_STRIDED_COPY: copies a 3-D region of 32-bit words
// (meshvk_strided_region_t, offsets narrowed to 32 bits by the runtime).
// Element (i, j, k) reads src[src_offset + i*src_stride.x + j*src_stride.y +
// k*src_stride.z] and writes the matching dst position.
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer Src { uint words[]; } src;
layout(set = 0, binding = 1) writeonly buffer Dst { uint words[]; } dst;

layout(push_constant) uniform Region {
  uint src_offset;
  uint dst_offset;
  uint count[3];
  uint src_stride[3];
  uint dst_stride[3];
} region;

void main() {
  uint total = region.count[0] * region.count[1] * region.count[2];
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint idx = gl_GlobalInvocationID.x; idx < total; idx += stride) {
    uint i = idx % region.count[0];
    uint j = (idx / region.count[0]) % region.count[1];
    uint k = idx / (region.count[0] * region.count[1]);
    uint s = region.src_offset + i * region.src_stride[0] + j * region.src_stride[1] +
             k * region.src_stride[2];
    uint d = region.dst_offset + i * region.dst_stride[0] + j * region.dst_stride[1] +
             k * region.dst_stride[2];
    dst.words[d] = src.words[s];
  }
}
