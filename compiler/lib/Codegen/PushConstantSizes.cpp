// Step 9 of meshvk-tile-and-distribute (the whole sequence is in
// TileAndDistribute.cpp): the sizes of dynamically shaped buffers come in as
// push constants.
#include <algorithm>
#include <map>
#include <numeric>

#include "KernelLowering.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/Transforms.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace meshvk::codegen {

using namespace mlir;

// ---------------------------------------------------------------------------
// 9. Dynamic shapes. MLIR 22's SPIR-V dialect has no OpArrayLength and its
// memref lowering needs static strides, so every buffer with a dynamic dim
// becomes a flat memref<?xT> (a runtime array) indexed row-major with sizes
// read from push constants: one extra argument memref<W x i32, 7> (memory
// space 7 = PushConstant) marked meshvk.push_constants; word k holds dim
// dims[2k+1] of binding dims[2k] (host attribute meshvk.push_constant_dims),
// binding order then dim order. Loop bounds were memref.dim of the buffers,
// so every loop is bounded by the runtime sizes.
// ---------------------------------------------------------------------------
LogicalResult passSizesAsPushConstants(func::FuncOp f, gpu::LaunchOp launch) {
  MLIRContext *ctx = f.getContext();
  SmallVector<int64_t> words; // (binding, dim) pairs
  SmallVector<unsigned> dynamicArgs;
  for (BlockArgument arg : f.getArguments()) {
    auto mt = dyn_cast<MemRefType>(arg.getType());
    if (!mt || mt.hasStaticShape())
      continue;
    dynamicArgs.push_back(arg.getArgNumber());
    for (unsigned d = 0; d < mt.getRank(); ++d)
      if (mt.isDynamicDim(d)) {
        words.push_back(arg.getArgNumber());
        words.push_back(d);
      }
  }
  if (dynamicArgs.empty())
    return success();
  Location loc = f.getLoc();
  int64_t numWords = static_cast<int64_t>(words.size() / 2);
  auto pcType = MemRefType::get({numWords}, IntegerType::get(ctx, 32), MemRefLayoutAttrInterface{},
                                IntegerAttr::get(IntegerType::get(ctx, 64), 7));
  unsigned pcIndex = f.getNumArguments();
  if (failed(f.insertArgument(
          pcIndex, pcType,
          DictionaryAttr::get(ctx,
                              {NamedAttribute(MeshVKDialect::PushConstantsAttrHelper(ctx).getName(),
                                              UnitAttr::get(ctx))}),
          loc)))
    return f.emitError("cannot add the push-constant argument");
  MeshVKDialect::PushConstantDimsAttrHelper(ctx).setAttr(f, DenseI64ArrayAttr::get(ctx, words));
  Value pc = f.getArgument(pcIndex);
  OpBuilder b(ctx);
  b.setInsertionPointToStart(&launch.getBody().front());
  std::map<std::pair<int64_t, int64_t>, Value> dims;
  for (int64_t k = 0; k < numWords; ++k) {
    Value idx = arith::ConstantIndexOp::create(b, loc, k);
    Value w = memref::LoadOp::create(b, loc, pc, ValueRange{idx});
    dims[{words[2 * k], words[2 * k + 1]}] =
        arith::IndexCastUIOp::create(b, loc, b.getIndexType(), w);
  }
  for (unsigned i : dynamicArgs) {
    BlockArgument arg = f.getArgument(i);
    auto mt = cast<MemRefType>(arg.getType());
    SmallVector<Value> sizes;
    {
      // (Re)set each time: the op the builder pointed at may have been erased.
      b.setInsertionPointToStart(&launch.getBody().front());
      for (unsigned d = 0; d < mt.getRank(); ++d)
        sizes.push_back(mt.isDynamicDim(d)
                            ? dims[{i, d}]
                            : arith::ConstantIndexOp::create(b, loc, mt.getDimSize(d)).getResult());
    }
    SmallVector<Operation *> users(arg.getUsers().begin(), arg.getUsers().end());
    for (Operation *u : users)
      if (!launch->isProperAncestor(u) || !isa<memref::LoadOp, memref::StoreOp, memref::DimOp>(u))
        return u->emitError() << "dynamically shaped buffer " << i
                              << " is used by an op the push-constant rewrite does not know";
    arg.setType(MemRefType::get({ShapedType::kDynamic}, mt.getElementType()));
    auto linearize = [&](OpBuilder &ob, Location l, ValueRange idx) {
      Value lin = idx.empty() ? arith::ConstantIndexOp::create(ob, l, 0).getResult() : idx[0];
      for (unsigned d = 1; d < idx.size(); ++d)
        lin = arith::AddIOp::create(ob, l, arith::MulIOp::create(ob, l, lin, sizes[d]), idx[d]);
      return lin;
    };
    for (Operation *u : users) {
      OpBuilder ub(u);
      if (auto ld = dyn_cast<memref::LoadOp>(u)) {
        Value lin = linearize(ub, ld.getLoc(), ld.getIndices());
        Value v = memref::LoadOp::create(ub, ld.getLoc(), arg, ValueRange{lin});
        ld.getResult().replaceAllUsesWith(v);
      } else if (auto st = dyn_cast<memref::StoreOp>(u)) {
        Value lin = linearize(ub, st.getLoc(), st.getIndices());
        memref::StoreOp::create(ub, st.getLoc(), st.getValueToStore(), arg, ValueRange{lin});
      } else {
        auto dim = cast<memref::DimOp>(u);
        std::optional<int64_t> d = dim.getConstantIndex();
        if (!d)
          return dim.emitError("memref.dim with a non-constant index");
        dim.getResult().replaceAllUsesWith(sizes[*d]);
      }
      u->erase();
    }
  }
  f.setType(FunctionType::get(ctx, f.getBody().front().getArgumentTypes(), {}));
  return success();
}

} // namespace meshvk::codegen
