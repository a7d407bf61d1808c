// Row tiles (RowTiles.h): one invocation per row, the row's loops whole.
#include "RowTiles.h"

#include <algorithm>

#include "llvm/ADT/SetVector.h"
#include "meshvk/Codegen/TargetDescription.h"

namespace meshvk::codegen {

using namespace mlir;

namespace {

// Most producers searched back from a root.
constexpr unsigned kMaxChainOps = 64;

/// `map` reads the first `rows` loops as its leading results, in order.
bool readsRowPrefix(AffineMap map, unsigned rows) {
  if (map.getNumResults() < rows)
    return false;
  for (unsigned k = 0; k < rows; ++k) {
    auto d = dyn_cast<AffineDimExpr>(map.getResult(k));
    if (!d || d.getPosition() != k)
      return false;
  }
  return true;
}

/// The number of leading (row) loops of a row reduction: reduction loops
/// only after its parallel ones, the output indexed by exactly the parallel
/// loops in order; 0 when `op` is none.
unsigned rowReductionRank(linalg::LinalgOp op) {
  if (op.getNumReductionLoops() == 0 || op.getNumDpsInits() != 1)
    return 0;
  unsigned rows = op.getNumParallelLoops();
  auto iters = op.getIteratorTypesArray();
  for (unsigned d = 0; d < iters.size(); ++d)
    if (linalg::isParallelIterator(iters[d]) != (d < rows))
      return 0;
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  return out.getNumResults() == rows && readsRowPrefix(out, rows) ? rows : 0;
}

/// The row rank of the chain ending at `root`: that of a row reduction some
/// op of the chain reads through its row loops while iterating more loops
/// than the reduction's rows (the broadcast back over the row); 0 if none.
unsigned chainRowRank(linalg::LinalgOp root) {
  llvm::SetVector<Operation *> chain;
  chain.insert(root);
  for (unsigned i = 0; i < chain.size() && chain.size() < kMaxChainOps; ++i) {
    auto op = cast<linalg::LinalgOp>(chain[i]);
    for (OpOperand &operand : op->getOpOperands()) {
      auto producer = operand.get().getDefiningOp<linalg::LinalgOp>();
      if (!producer)
        continue;
      unsigned rows = rowReductionRank(producer);
      AffineMap read = op.getMatchingIndexingMap(&operand);
      if (rows && op.getNumLoops() > rows && read.getNumResults() == rows &&
          readsRowPrefix(read, rows))
        return rows;
      chain.insert(producer);
    }
  }
  return 0;
}

} // namespace

std::optional<RowTiles> planRowTiles(linalg::LinalgOp root, int64_t workgroupInvocations) {
  unsigned rows = chainRowRank(root);
  if (rows == 0 || root.getNumDpsInits() < 1 || root.getNumLoops() < rows ||
      !readsRowPrefix(root.getMatchingIndexingMap(root.getDpsInitOperand(0)), rows))
    return std::nullopt;
  SmallVector<int64_t> ranges = root.getStaticLoopRanges();
  auto iters = root.getIteratorTypesArray();
  int64_t rowElements = 1;
  for (unsigned d = 0; d < ranges.size(); ++d) {
    if (ShapedType::isDynamic(ranges[d]) || (d < rows && !linalg::isParallelIterator(iters[d])))
      return std::nullopt;
    if (d >= rows)
      rowElements *= ranges[d];
  }
  if (rowElements > kMaxRowTileElements)
    return std::nullopt;
  RowTiles t;
  t.workgroupTile.assign(ranges.size(), 0);
  t.threadTile.assign(ranges.size(), 0);
  for (unsigned d = 0; d < rows; ++d)
    t.workgroupTile[d] = t.threadTile[d] = 1;
  // The innermost row loop spreads over the workgroup's invocations.
  int64_t inner = std::max<int64_t>(1, ranges[rows - 1]);
  int64_t tm = 1;
  while (tm < inner && 2 * tm <= workgroupInvocations)
    tm *= 2;
  t.workgroupTile[rows - 1] = tm;
  t.invocations = tm;
  return t;
}

} // namespace meshvk::codegen
