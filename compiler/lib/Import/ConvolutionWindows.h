//===- ConvolutionWindows.h - the window of a Conv or Pool node ----------===//
//
// What Conv, ConvTranspose and the pools (LowerConvolutions.cpp,
// LowerPools.cpp) share: the node's window in TOSA's terms (NHWC, pads
// [top, bottom, left, right], a trailing input crop where the stride does
// not divide) and the layout changes around TOSA's NHWC ops.
//
//===----------------------------------------------------------------------===//
#ifndef MESHVK_IMPORT_CONVOLUTIONWINDOWS_H_
#define MESHVK_IMPORT_CONVOLUTIONWINDOWS_H_

#include <vector>

#include "Importer.h"

namespace meshvk::onnx_import {

// The 2-D window of a Conv/Pool node: kernel, strides, dilations and TOSA
// pads [top, bottom, left, right], with auto_pad and ceil_mode applied.
struct Window {
  int64_t kernel[2] = {1, 1}, stride[2] = {1, 1}, dilation[2] = {1, 1};
  int64_t pad[4] = {0, 0, 0, 0};
  int64_t out[2] = {1, 1};
  int64_t cropInput[2] = {0, 0}; // trailing rows/cols sliced off the input
};

// One spatial axis of a Conv/Pool window: the TOSA pads [begin, end] after
// auto_pad and ceil_mode, the trailing input elements sliced off (`crop`)
// and the output size.
struct WindowAxis {
  int64_t in = 1, kernel = 1, stride = 1, dilation = 1, begin = 0, end = 0, crop = 0, out = 1;
};

// The window's axes of a node with `spatial` input dims and `kernel` (its
// strides, dilations, pads, auto_pad; `ceil`: ceil_mode). false after a
// one-line failure naming the bad attribute.
bool windowAxes(Importer &im, const std::vector<int64_t> &spatial,
                const std::vector<int64_t> &kernel, bool ceil, std::vector<WindowAxis> *axes);
// The 2-D window of axes `h` and `w`.
Window window2D(const WindowAxis &h, const WindowAxis &w);
// The 2-D window of a 1-D or 2-D node (1-D: height 1).
bool window(Importer &im, const std::vector<int64_t> &spatial, const std::vector<int64_t> &kernel,
            bool ceil, Window *w);
// x [N, C, (H,) W] -> NHWC with the window's input crop.
mlir::Value toNHWC(Importer &im, mlir::Value x, const Window &w);
// NHWC -> [N, C, (H,) W] for an ONNX tensor of `rank`.
mlir::Value fromNHWC(Importer &im, mlir::Value y, size_t rank);
// The unit-stride slice of `v` at `offsets` of `sizes`.
mlir::Value sliceOf(Importer &im, mlir::Value v, const std::vector<int64_t> &offsets,
                    const std::vector<int64_t> &sizes);
// An i64 array attribute.
mlir::NamedAttribute i64s(Importer &im, llvm::StringRef name, llvm::ArrayRef<int64_t> v);

} // namespace meshvk::onnx_import

#endif // MESHVK_IMPORT_CONVOLUTIONWINDOWS_H_
