// The field's weights, host reference and program (see neural_field.h).
#include "neural_field.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "embed_render_shaders.h"
#include "meshvk/artifact/builder.h"

namespace embed_render {
namespace {

// A small LCG: the same weights on every machine, no <random> distribution
// differences between standard libraries.
float Uniform(uint32_t* state, float scale) {
  *state = *state * 1664525u + 1013904223u;
  return scale * (static_cast<float>(*state >> 8) / static_cast<float>(1u << 24) * 2.0f - 1.0f);
}

}  // namespace

std::vector<float> FieldWeights() {
  uint32_t state = 2026;
  std::vector<float> w;
  for (int i = 0; i < 2 * kHidden; ++i) w.push_back(Uniform(&state, 6.0f));  // W1
  for (int i = 0; i < kHidden; ++i) w.push_back(Uniform(&state, 3.0f));      // b1
  for (int i = 0; i < 3 * kHidden; ++i) w.push_back(Uniform(&state, 1.2f));  // W2
  for (int i = 0; i < 3; ++i) w.push_back(Uniform(&state, 0.5f));            // b2
  return w;
}

std::vector<float> PixelCoordinates(uint32_t width, uint32_t height) {
  std::vector<float> xy(size_t{width} * height * 2);
  for (uint32_t y = 0; y < height; ++y) {
    for (uint32_t x = 0; x < width; ++x) {
      xy[2 * (size_t{y} * width + x)] = (x + 0.5f) / width * 2.0f - 1.0f;
      xy[2 * (size_t{y} * width + x) + 1] = (y + 0.5f) / height * 2.0f - 1.0f;
    }
  }
  return xy;
}

std::vector<uint8_t> HostImage(uint32_t width, uint32_t height, const std::vector<float>& w) {
  std::vector<float> xy = PixelCoordinates(width, height);
  std::vector<uint8_t> image(size_t{width} * height * 4);
  for (size_t i = 0; i < size_t{width} * height; ++i) {
    float px = xy[2 * i], py = xy[2 * i + 1];
    float out[3] = {w[6 * kHidden], w[6 * kHidden + 1], w[6 * kHidden + 2]};
    for (int j = 0; j < kHidden; ++j) {
      float h = std::sin(px * w[j] + py * w[kHidden + j] + w[2 * kHidden + j]);
      for (int c = 0; c < 3; ++c) out[c] += h * w[3 * kHidden + 3 * j + c];
    }
    for (int c = 0; c < 3; ++c) {
      float v = 1.0f / (1.0f + std::exp(-out[c]));
      image[4 * i + c] = static_cast<uint8_t>(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f));
    }
    image[4 * i + 3] = 255;
  }
  return image;
}

std::vector<uint8_t> FieldProgram(uint32_t width, uint32_t height, uint32_t processes,
                                  const std::vector<float>& weights) {
  using namespace meshvk::artifact;
  const uint64_t pixels = uint64_t{width} * height;
  ArtifactBuilder b({processes});
  ExecutableDesc kernel;
  kernel.spirv.assign(shaders::field, shaders::field + shaders::field_word_count);
  kernel.workgroup_size[0] = 64;
  kernel.writable_bindings = {false, false, true};
  kernel.push_constant_size = 4;
  uint32_t field = b.AddExecutable(kernel);
  TensorDesc coords{{pixels, 2}, ElementType::kF32, {{0}, {}}, {}};
  TensorDesc rgba{{pixels, 4}, ElementType::kF32, {{0}, {}}, {}};
  std::vector<uint8_t> weight_bytes(weights.size() * 4);
  std::memcpy(weight_bytes.data(), weights.data(), weight_bytes.size());
  for (uint32_t p = 0; p < processes; ++p) {
    std::vector<uint64_t> offset, shape;
    ShardOf({processes}, {{0}, {}}, {pixels, 2}, p, &offset, &shape);
    const uint64_t count = shape[0];
    uint32_t in = b.AddBuffer(p, {count * 8, BufferKind::kArgumentShard});
    uint32_t w = b.AddBuffer(p, {weight_bytes.size(), BufferKind::kConstant, -1, weight_bytes});
    uint32_t out = b.AddBuffer(p, {count * 16, BufferKind::kResultShard});
    DispatchDesc d;
    d.executable = field;
    d.workgroup_count[0] = static_cast<uint32_t>(std::min<uint64_t>((count + 63) / 64, 65535));
    d.bindings = {{in, 0, 0}, {w, 0, 0}, {out, 0, 0}};
    uint32_t push = static_cast<uint32_t>(count);
    d.push_constants.resize(4);
    std::memcpy(d.push_constants.data(), &push, 4);
    b.AddDispatch(p, d);
    coords.shards.push_back({p, in, 0, offset, shape});
    rgba.shards.push_back({p, out, 0, {offset[0], 0}, {count, 4}});
  }
  b.AddFunction({"field", {coords}, {rgba}});
  return b.Finish();
}

}  // namespace embed_render
