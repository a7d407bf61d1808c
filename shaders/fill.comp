#version 450
// Built-in MESHVK_BUILTIN_FILL: dst[offset_words + i] = value for i < count_words.
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) writeonly buffer Dst { uint words[]; } dst;

layout(push_constant) uniform Params {
  uint offset_words;
  uint count_words;
  uint value;
} params;

void main() {
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint i = gl_GlobalInvocationID.x; i < params.count_words; i += stride) {
    dst.words[params.offset_words + i] = params.value;
  }
}
