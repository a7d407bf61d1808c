// The neural field: a 2 -> 16 -> 3 MLP (sine, as in SIREN fields, then sigmoid) evaluated at
// every pixel coordinate of this process's shard. Weights layout (floats):
// W1[2][16] (input-major), b1[16], W2[16][3] (hidden-major), b2[3]; the host
// reference in neural_field.cc uses the same order of operations.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer Coords { vec2 xy[]; };
layout(set = 0, binding = 1) readonly buffer Weights { float w[]; };
layout(set = 0, binding = 2) writeonly buffer Field { vec4 rgba[]; };
layout(push_constant) uniform Params { uint count; } params;

const int kHidden = 16;

void main() {
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint i = gl_GlobalInvocationID.x; i < params.count; i += stride) {
    vec2 p = xy[i];
    vec3 out_value = vec3(w[6 * kHidden], w[6 * kHidden + 1], w[6 * kHidden + 2]);
    for (int j = 0; j < kHidden; ++j) {
      float h = sin(p.x * w[j] + p.y * w[kHidden + j] + w[2 * kHidden + j]);
      out_value += h * vec3(w[3 * kHidden + 3 * j], w[3 * kHidden + 3 * j + 1], w[3 * kHidden + 3 * j + 2]);
    }
    rgba[i] = vec4(1.0 / (1.0 + exp(-out_value)), 1.0);
  }
}
