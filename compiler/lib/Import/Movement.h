//===- Movement.h - what the data-movement lowerings share ----------------===//
//
// The ONNX data-movement ops are lowered in three files by what they build:
// LowerMovement.cpp (a tensor's shape or layout changed, no element chosen:
// Reshape, Flatten, Squeeze, Unsqueeze, Transpose, Expand, Tile, Dropout,
// DepthToSpace, SpaceToDepth; and the one table of them all),
// LowerSlicing.cpp (slices and concatenations along axes: Concat, Slice,
// Split, Pad, CumSum; HostFold.cpp folds Slice by the same sliceRange) and LowerIndexing.cpp
// (elements chosen by computed indices: Gather, GatherElements, ArgMax, ArgMin). The IR helpers
// below are defined once, in LowerMovement.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef MESHVK_LIB_IMPORT_MOVEMENT_H_
#define MESHVK_LIB_IMPORT_MOVEMENT_H_

#include <cstdint>
#include <vector>

#include "Importer.h"

namespace meshvk::onnx_import {

// false with "an empty result ..." when a dimension of `shape` is not positive.
bool checkNonEmpty(Importer &im, const std::vector<int64_t> &shape);

// v[offsets : offsets + sizes * steps : steps] (positive steps); `v` itself
// when that is all of it.
mlir::Value slice(Importer &im, mlir::Value v, const std::vector<int64_t> &offsets,
                  const std::vector<int64_t> &sizes, const std::vector<int64_t> &steps);
// `v`'s elements [offset, offset + size) along `axis`.
mlir::Value sliceAxis(Importer &im, mlir::Value v, int64_t axis, int64_t offset, int64_t size);
// `parts` concatenated along `axis` (the one part itself).
mlir::Value concatAxis(Importer &im, llvm::ArrayRef<mlir::Value> parts, int64_t axis);
// `v` reversed along `axis` (itself where the axis has one element).
mlir::Value reverseAxis(Importer &im, mlir::Value v, int64_t axis);

// ONNX Slice's range along an axis of `dim` elements from `start` to `end` by
// `step` (not 0): bounds below 0 count from the end, then are clamped as the
// ONNX spec says. `first` is the first element taken, `count` how many (0 for
// an empty range); a negative step walks down from `first`.
struct SliceRange {
  int64_t first = 0, count = 0;
};
SliceRange sliceRange(int64_t dim, int64_t start, int64_t end, int64_t step);

// The lowerings of LowerSlicing.cpp and LowerIndexing.cpp, for the table.
bool lowerConcat(Importer &im);
bool lowerSlice(Importer &im);
bool lowerSplit(Importer &im);
bool lowerPad(Importer &im);
bool lowerCumSum(Importer &im);
bool lowerGather(Importer &im);
bool lowerGatherElements(Importer &im);
bool lowerArgExtreme(Importer &im);

} // namespace meshvk::onnx_import

#endif // MESHVK_LIB_IMPORT_MOVEMENT_H_
