#version 450
// Writes tag * 100000 + global index. The tag comes from push constants and the
// global index includes vkCmdDispatchBase's base: together they show which
// device ran which workgroups (gl_DeviceIndex reads 0 under the emulation layer).
layout(local_size_x = 64) in;
layout(push_constant) uniform Push { uint tag; uint count; } pc;
layout(set = 0, binding = 0) writeonly buffer Out { uint data[]; } outBuf;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < pc.count) outBuf.data[i] = pc.tag * 100000u + i;
}
