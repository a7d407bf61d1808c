// Each pixel shows the field value meshvk computed for it, read straight from
// the application's storage buffer (no host copy in between).
#version 450
layout(set = 0, binding = 0) readonly buffer Field { vec4 rgba[]; };
layout(push_constant) uniform Params { uint width; } params;
layout(location = 0) out vec4 color;

void main() {
  uvec2 pixel = uvec2(gl_FragCoord.xy);
  color = rgba[pixel.y * params.width + pixel.x];
}
