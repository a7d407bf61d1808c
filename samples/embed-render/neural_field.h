// The sample's neural field: a 2 -> 16 -> 3 MLP with sine hidden units
// (SIREN-style) and a sigmoid output; fixed pseudo-random weights, the host
// reference image, and the sharded .mvk program that evaluates the field on
// the devices (built with meshvk's artifact builder, as a compiler would emit
// it: pixels split over a 1-D grid of P processes, weights a constant on each).
#ifndef MESHVK_SAMPLES_EMBED_RENDER_NEURAL_FIELD_H_
#define MESHVK_SAMPLES_EMBED_RENDER_NEURAL_FIELD_H_

#include <cstdint>
#include <vector>

namespace embed_render {

inline constexpr int kHidden = 16;

// W1[2][16], b1[16], W2[16][3], b2[3] (see field.comp).
std::vector<float> FieldWeights();

// Pixel (x, y) -> coordinates in [-1, 1]^2 at the pixel centre, row-major.
std::vector<float> PixelCoordinates(uint32_t width, uint32_t height);

// RGBA8 image of the field computed on the host (the test's oracle).
std::vector<uint8_t> HostImage(uint32_t width, uint32_t height, const std::vector<float>& weights);

// field(coords f32[N, 2]) -> rgba f32[N, 4], N = width * height split over
// `processes` (which must divide N).
std::vector<uint8_t> FieldProgram(uint32_t width, uint32_t height, uint32_t processes,
                                  const std::vector<float>& weights);

}  // namespace embed_render

#endif  // MESHVK_SAMPLES_EMBED_RENDER_NEURAL_FIELD_H_
