// meshvk-tile-and-distribute: `meshvk.kernel` functions on tensors become
// functions on buffers that hold one gpu.launch, tiled for workgroups and then
// for invocations, with every tile loop distributed CYCLICALLY over the ids
// (grid-stride), so a kernel is correct for any workgroup count the runtime
// picks (the runtime may clamp counts to the device limit).
//
// Before (contract, see README.md):
//   func.func @k(%a: tensor<MxKxf32>, %b: tensor<KxNxf32>) -> tensor<MxNxf32>
//       attributes {meshvk.kernel} { fill + matmul + bias/activation generics }
// After:
//   func.func @k(%a: memref<MxKxf32>, %b: memref<KxNxf32>, %c: memref<MxNxf32>)
//       attributes {meshvk.kernel, meshvk.num_inputs = 2} {
//     gpu.launch blocks(..) in (%gx = <tiles>, 1, 1) threads(..) in (%tx = 64, 1, 1) {
//       scf.for %t = %block_id to %num_tiles step %grid_dim {          // workgroup tiles
//         scf.if %thread_id < %num_thread_tiles {   // register tiles (<= 1 per invocation)
//           scf.if %full_tile { 4x4 accumulators in registers over K }
//           else { scalar loops for the ragged edge }
//           epilogue loops }}}}
//
// Steps (each an upstream MLIR utility unless noted):
//  1. wrap: buffer arguments (inputs, then outputs), bufferization.to_tensor /
//     materialize_in_destination at the edges, body moved into a gpu.launch;
//  2. elementwise fusion + canonicalization; elementwise consumers are made
//     to write in place into their producer's tensor (meshvk pattern), then
//     empty-tensor elimination so results are computed straight into outputs;
//  3. per output: tile the root op to scf.forall mapped to #gpu.block and fuse
//     its producers, then tile again to scf.forall mapped to #gpu.thread;
//  4. one-shot bufferization (temporaries in Function memory, space 6);
//  5. contraction / reduction thread tiles get register accumulators
//     (meshvk rewrite in RegisterTiles.cpp: full tiles unrolled with the K
//     loop carrying the accumulators, partial tiles keep the generic loop);
//  6. scf.forall -> cyclic scf.for over the linearised tile index (an scf.if
//     for invocation tiles that provably fit in one workgroup);
//  7. remaining linalg ops -> loops;
//  8. vec4 loads/stores on provably 4-aligned columns (VectorAccess.cpp);
//  9. buffers with dynamic dims -> flat runtime arrays, sizes from push
//     constants (passSizesAsPushConstants).
#include <algorithm>
#include <map>
#include <numeric>

#include "KernelRewrites.h"
#include "meshvk/Codegen/Passes.h"
#include "meshvk/Codegen/TargetDescription.h"
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
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Pass/Pass.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace meshvk::codegen {
namespace {

using namespace mlir;

constexpr llvm::StringLiteral kKernelAttr = "meshvk.kernel";
constexpr llvm::StringLiteral kNumInputsAttr = "meshvk.num_inputs";
// Function memory (per invocation) in the numeric memref memory spaces that
// MLIR's Vulkan storage-class map understands.
constexpr int64_t kFunctionMemorySpace = 6;
// Default workgroup count of a tile loop whose trip count is known only at
// dispatch (dynamic shapes): grid-stride loops make any count correct; this
// many keeps every core busy without thousands of empty workgroups.
constexpr int64_t kDynamicWorkgroupCount = 1024;
// Most accumulators one invocation keeps in registers.
constexpr int64_t kMaxRegisterTileOutputs = 64;

int64_t nextPowerOf2(int64_t v) {
  int64_t p = 1;
  while (p < v) p <<= 1;
  return p;
}

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// ---------------------------------------------------------------------------
// 1. Wrap the tensor function into a buffer function with one gpu.launch.
// ---------------------------------------------------------------------------
// When the tensor function is still referenced (e.g. by meshvk.launch in a
// plan), it stays as is and the buffer function is added as <name>_lowered.
constexpr llvm::StringLiteral kLoweredSuffix = "_lowered";

FailureOr<func::FuncOp> wrapKernel(func::FuncOp f, bool keepOriginal) {
  MLIRContext* ctx = f.getContext();
  Location loc = f.getLoc();
  if (f.isExternal()) return f.emitError("meshvk.kernel function has no body");
  if (!f.getBody().hasOneBlock())
    return f.emitError("meshvk.kernel body must be a single block (no control flow)");
  FunctionType ft = f.getFunctionType();
  SmallVector<Type> bufferTypes;
  auto toBuffer = [&](Type t, StringRef what, unsigned i) -> FailureOr<Type> {
    auto rt = dyn_cast<RankedTensorType>(t);
    if (!rt || rt.getEncoding())
      return f.emitError() << what << " " << i << " has type " << t
                           << "; expected a ranked tensor without encoding";
    // Dynamic dims are allowed: their sizes come in as push constants
    // (passSizesAsPushConstants).
    return Type(MemRefType::get(rt.getShape(), rt.getElementType()));
  };
  for (auto [i, t] : llvm::enumerate(ft.getInputs())) {
    FailureOr<Type> b = toBuffer(t, "argument", i);
    if (failed(b)) return failure();
    bufferTypes.push_back(*b);
  }
  if (ft.getNumResults() == 0) return f.emitError("meshvk.kernel has no results");
  for (auto [i, t] : llvm::enumerate(ft.getResults())) {
    FailureOr<Type> b = toBuffer(t, "result", i);
    if (failed(b)) return failure();
    bufferTypes.push_back(*b);
  }

  OpBuilder b(f);
  std::string name = f.getName().str();
  if (keepOriginal) {
    name += kLoweredSuffix.str();
    b.setInsertionPointAfter(f);
  }
  auto nf = func::FuncOp::create(b, loc, name, FunctionType::get(ctx, bufferTypes, {}));
  nf->setAttr(kKernelAttr, UnitAttr::get(ctx));
  nf->setAttr(kNumInputsAttr, b.getI64IntegerAttr(ft.getNumInputs()));
  Block* entry = nf.addEntryBlock();
  b.setInsertionPointToStart(entry);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto launch = gpu::LaunchOp::create(b, loc, one, one, one, one, one, one);
  func::ReturnOp::create(b, loc);

  Block& body = launch.getBody().front();
  b.setInsertionPointToStart(&body);
  IRMapping map;
  for (unsigned i = 0; i < ft.getNumInputs(); ++i) {
    Value t = bufferization::ToTensorOp::create(b, loc, ft.getInput(i), entry->getArgument(i),
                                                /*restrict=*/true, /*writable=*/false);
    map.map(f.getArgument(i), t);
  }
  Block& old = f.getBody().front();
  for (Operation& op : old.without_terminator()) b.clone(op, map);
  Operation* ret = old.getTerminator();
  for (unsigned j = 0; j < ft.getNumResults(); ++j) {
    bufferization::MaterializeInDestinationOp::create(
        b, loc, TypeRange{}, map.lookupOrDefault(ret->getOperand(j)),
        entry->getArgument(ft.getNumInputs() + j), /*restrict=*/true, /*writable=*/true);
  }
  gpu::TerminatorOp::create(b, loc);
  if (!keepOriginal) f.erase();
  return nf;
}

// ---------------------------------------------------------------------------
// 2. An elementwise consumer whose fresh (tensor.empty) output has the same
// shape as one of its inputs, computed in this kernel and used only here,
// writes into that input instead. After tiling this keeps e.g. a matmul's
// accumulator tile and its bias+activation epilogue in ONE buffer (no
// temporary, no copy).
// ---------------------------------------------------------------------------
struct ElementwiseInPlace : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op, PatternRewriter& rw) const override {
    if (op.getNumDpsInits() != 1 || !op.hasPureTensorSemantics()) return failure();
    if (op.getNumParallelLoops() != op.getNumLoops()) return failure();
    OpOperand* init = op.getDpsInitOperand(0);
    if (!init->get().getDefiningOp<tensor::EmptyOp>()) return failure();
    if (op.payloadUsesValueFromOperand(init)) return failure();
    if (!op.getMatchingIndexingMap(init).isIdentity()) return failure();
    for (OpOperand* in : op.getDpsInputOperands()) {
      Value v = in->get();
      if (v.getType() != init->get().getType() || !v.hasOneUse()) continue;
      if (!op.getMatchingIndexingMap(in).isIdentity()) continue;
      if (!isa_and_nonnull<linalg::LinalgOp>(v.getDefiningOp())) continue;
      unsigned idx = in->getOperandNumber();
      SmallVector<Value> inputs;
      SmallVector<AffineMap> maps;
      for (OpOperand* other : op.getDpsInputOperands()) {
        if (other == in) continue;
        inputs.push_back(other->get());
        maps.push_back(op.getMatchingIndexingMap(other));
      }
      maps.push_back(op.getMatchingIndexingMap(init));
      auto newOp = linalg::GenericOp::create(rw, op.getLoc(), op->getResultTypes(), inputs,
                                             ValueRange{v}, maps, op.getIteratorTypesArray());
      rw.inlineRegionBefore(op.getRegion(), newOp.getRegion(), newOp.getRegion().end());
      Block& blk = newOp.getRegion().front();
      // The old output block argument is unused: it becomes the in-place one.
      rw.replaceAllUsesWith(blk.getArgument(idx), blk.getArgument(op.getNumDpsInputs()));
      blk.eraseArgument(idx);
      rw.replaceOp(op, newOp->getResults());
      return success();
    }
    return failure();
  }
};

// Splat tensor constants (cloned into kernels by the partitioner) become
// fills; other tensor constants have no place in a kernel (no globals yet).
LogicalResult constantsToFills(func::FuncOp f) {
  SmallVector<arith::ConstantOp> constants;
  f.walk([&](arith::ConstantOp c) {
    if (isa<RankedTensorType>(c.getType())) constants.push_back(c);
  });
  for (arith::ConstantOp c : constants) {
    auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
    if (!dense || !dense.isSplat())
      return c.emitError("non-splat tensor constant inside a kernel is not supported; "
                         "pass it as a kernel argument");
    auto tt = cast<RankedTensorType>(c.getType());
    OpBuilder b(c);
    Value scalar = arith::ConstantOp::create(b, c.getLoc(), dense.getSplatValue<TypedAttr>());
    Value empty = tensor::EmptyOp::create(b, c.getLoc(), tt.getShape(), tt.getElementType());
    Value filled = linalg::FillOp::create(b, c.getLoc(), scalar, empty).getResult(0);
    c.replaceAllUsesWith(filled);
    c.erase();
  }
  return success();
}

LogicalResult simplifyOnTensors(func::FuncOp f) {
  MLIRContext* ctx = f.getContext();
  RewritePatternSet patterns(ctx);
  linalg::populateElementwiseOpsFusionPatterns(patterns, [](OpOperand* operand) {
    Operation* producer = operand->get().getDefiningOp();
    return producer && producer->hasOneUse();
  });
  patterns.add<ElementwiseInPlace>(ctx);
  for (Dialect* d : ctx->getLoadedDialects()) d->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : ctx->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, ctx);
  return applyPatternsGreedily(f, std::move(patterns));
}

// Every result must come from a tileable linalg op; anything else (an input
// returned as is, a tensor.extract_slice = slice copy, a reshape) is copied by
// a linalg.copy so that it can be tiled and distributed like the rest.
void ensureTileableRoots(func::FuncOp f) {
  SmallVector<bufferization::MaterializeInDestinationOp> outs;
  f.walk([&](bufferization::MaterializeInDestinationOp m) { outs.push_back(m); });
  for (auto m : outs) {
    Value src = m.getSource();
    // A linalg op used only by this output is computed in place into it.
    if (isa_and_nonnull<linalg::LinalgOp>(src.getDefiningOp()) && src.hasOneUse()) continue;
    OpBuilder b(m);
    auto tt = cast<RankedTensorType>(src.getType());
    Value empty = tensor::EmptyOp::create(b, m.getLoc(), tt.getShape(), tt.getElementType());
    Value copied = linalg::CopyOp::create(b, m.getLoc(), src, empty).getResult(0);
    m.getSourceMutable().assign(copied);
  }
}

// ---------------------------------------------------------------------------
// 3. Tile sizes from the target.
// ---------------------------------------------------------------------------
struct TilePlan {
  SmallVector<int64_t> workgroupTile;  // per loop; 0 = not tiled
  SmallVector<int64_t> threadTile;     // per loop; 0 = not tiled
  SmallVector<int64_t> registerTile;   // per loop (parallel caps) or empty
  int64_t invocations = 1;
};

FailureOr<TilePlan> planTiles(linalg::LinalgOp op, const TargetDescription& target) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  auto iters = op.getIteratorTypesArray();
  unsigned n = op.getNumLoops();
  if (op.getNumDpsInits() < 1) return op->emitError("op has no outputs");
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  SmallVector<unsigned> outDims;  // loop dims of the output, outermost first
  for (AffineExpr e : outMap.getResults())
    if (auto d = dyn_cast<AffineDimExpr>(e))
      if (linalg::isParallelIterator(iters[d.getPosition()])) outDims.push_back(d.getPosition());
  if (outDims.empty())
    return op->emitError("reduction to a 0-d result is not supported by the kernel tiler; "
                         "expected at least one parallel dimension in the output");
  unsigned numReductions = op.getNumReductionLoops();
  int64_t T = target.workgroupInvocations();
  auto size = [&](unsigned d) {
    return ShapedType::isDynamic(ranges[d]) ? int64_t(1) << 30 : std::max<int64_t>(1, ranges[d]);
  };
  TilePlan p;
  p.workgroupTile.assign(n, 0);
  p.threadTile.assign(n, 0);
  for (unsigned d = 0; d < n; ++d)
    if (linalg::isParallelIterator(iters[d])) {
      p.workgroupTile[d] = 1;
      p.threadTile[d] = 1;
    }
  unsigned dn = outDims.back();
  if (numReductions > 0 && outDims.size() >= 2) {
    // Contraction: each invocation owns an rm x rn register tile.
    unsigned dm = outDims[outDims.size() - 2];
    int64_t rm = target.registerTileRows ? target.registerTileRows : 4;
    int64_t rn = target.registerTileCols ? target.registerTileCols : 4;
    rm = std::min(rm, size(dm));
    rn = std::min(rn, size(dn));
    int64_t tn = std::min<int64_t>(std::max<int64_t>(1, T / 8) >= 8 ? 8 : T,
                                   nextPowerOf2(ceilDiv(size(dn), rn)));
    tn = std::max<int64_t>(1, std::min(tn, T));
    int64_t tm = std::max<int64_t>(1, std::min(T / tn, nextPowerOf2(ceilDiv(size(dm), rm))));
    p.threadTile[dm] = rm;
    p.threadTile[dn] = rn;
    p.workgroupTile[dm] = rm * tm;
    p.workgroupTile[dn] = rn * tn;
    p.invocations = tm * tn;
  } else {
    // Elementwise ops: several consecutive elements per invocation where the
    // row length allows (vec4 accesses after vectorizeBuffers): the target's
    // width (8 measured best on lavapipe), else 4, else 1.
    int64_t v = 1;
    if (numReductions == 0 && !ShapedType::isDynamic(ranges[dn])) {
      int64_t wide = std::max<int64_t>(4, target.elementwiseElementsPerInvocation);
      if (ranges[dn] % wide == 0) v = wide;
      else if (ranges[dn] % 4 == 0) v = 4;
    }
    p.threadTile[dn] = v;
    int64_t tn = std::min(T, nextPowerOf2(ceilDiv(size(dn), v)));
    p.workgroupTile[dn] = tn * v;
    p.invocations = tn;
    if (outDims.size() >= 2) {
      unsigned dm = outDims[outDims.size() - 2];
      int64_t tm = std::max<int64_t>(1, std::min(T / tn, nextPowerOf2(size(dm))));
      p.workgroupTile[dm] = tm;
      p.invocations *= tm;
    }
  }
  if (numReductions > 0 || p.threadTile[dn] > 1) {
    int64_t outputs = 1;
    for (unsigned d = 0; d < n; ++d)
      if (linalg::isParallelIterator(iters[d])) outputs *= p.threadTile[d];
    if (outputs <= kMaxRegisterTileOutputs) {
      p.registerTile.assign(n, 0);
      for (unsigned d = 0; d < n; ++d)
        if (linalg::isParallelIterator(iters[d])) p.registerTile[d] = p.threadTile[d];
    }
  }
  return p;
}

SmallVector<Attribute> mappingFor(MLIRContext* ctx, ArrayRef<int64_t> tiles, bool threads) {
  SmallVector<Attribute> mapping;
  int id = 0;
  for (int64_t t : tiles) {
    if (t == 0) continue;
    auto m = static_cast<gpu::MappingId>(static_cast<int>(gpu::MappingId::LinearDim0) + id++);
    if (threads)
      mapping.push_back(gpu::GPUThreadMappingAttr::get(ctx, m));
    else
      mapping.push_back(gpu::GPUBlockMappingAttr::get(ctx, m));
  }
  return mapping;
}

FailureOr<scf::SCFTileAndFuseResult> tileAndFuse(RewriterBase& rw, TilingInterface op,
                                                 ArrayRef<int64_t> tiles, bool threads) {
  scf::SCFTilingOptions tiling;
  tiling.setTileSizes(getAsIndexOpFoldResult(op->getContext(), tiles));
  tiling.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  tiling.setMapping(mappingFor(op->getContext(), tiles, threads));
  scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(tiling);
  rw.setInsertionPoint(op);
  FailureOr<scf::SCFTileAndFuseResult> res =
      scf::tileConsumerAndFuseProducersUsingSCF(rw, op, options);
  if (failed(res)) return op->emitError("tiling failed"), failure();
  for (OpResult r : op->getResults()) {
    Value repl = res->replacements.lookup(r);
    if (repl) rw.replaceAllUsesWith(r, repl);
  }
  return res;
}

LogicalResult tileRoots(func::FuncOp f, const TargetDescription& target, int64_t* invocations) {
  SmallVector<bufferization::MaterializeInDestinationOp> outs;
  f.walk([&](bufferization::MaterializeInDestinationOp m) { outs.push_back(m); });
  IRRewriter rw(f.getContext());
  *invocations = 1;
  for (auto m : outs) {
    auto root = m.getSource().getDefiningOp<linalg::LinalgOp>();
    if (!root) return m.emitError("kernel result is not computed by a linalg op");
    FailureOr<TilePlan> plan = planTiles(root, target);
    if (failed(plan)) return failure();
    *invocations = std::max(*invocations, plan->invocations);
    auto wg = tileAndFuse(rw, cast<TilingInterface>(root.getOperation()), plan->workgroupTile,
                          /*threads=*/false);
    if (failed(wg)) return failure();
    auto tiledRoot = cast<TilingInterface>(wg->tiledAndFusedOps.front());
    auto th = tileAndFuse(rw, tiledRoot, plan->threadTile, /*threads=*/true);
    if (failed(th)) return failure();
    if (!plan->registerTile.empty())
      th->tiledAndFusedOps.front()->setAttr(kRegisterTileAttr,
                                            rw.getDenseI64ArrayAttr(plan->registerTile));
  }
  return success();
}

// Dynamic-size temporaries (ragged tiles) get a static upper bound so that
// they fit in Function memory: tensor.empty(%sz) -> slice of tensor.empty(cap).
LogicalResult boundTemporaries(func::FuncOp f) {
  SmallVector<tensor::EmptyOp> empties;
  f.walk([&](tensor::EmptyOp e) {
    if (!e.getType().hasStaticShape()) empties.push_back(e);
  });
  for (tensor::EmptyOp e : empties) {
    OpBuilder b(e);
    SmallVector<int64_t> shape;
    SmallVector<OpFoldResult> sizes = e.getMixedSizes();
    for (OpFoldResult s : sizes) {
      FailureOr<int64_t> ub = ValueBoundsConstraintSet::computeConstantBound(
          presburger::BoundType::UB, ValueBoundsConstraintSet::Variable(s), nullptr,
          /*closedUB=*/true);
      if (failed(ub))
        return e.emitError("temporary tensor has no static upper bound; cannot place it "
                           "in invocation-private memory");
      shape.push_back(*ub);
    }
    Value big = tensor::EmptyOp::create(b, e.getLoc(), shape, e.getType().getElementType());
    SmallVector<OpFoldResult> zeros(shape.size(), b.getIndexAttr(0));
    SmallVector<OpFoldResult> ones(shape.size(), b.getIndexAttr(1));
    Value slice = tensor::ExtractSliceOp::create(b, e.getLoc(), e.getType(), big, zeros, sizes,
                                                 ones);
    e.replaceAllUsesWith(slice);
    e.erase();
  }
  return success();
}

LogicalResult bufferize(func::FuncOp f) {
  MLIRContext* ctx = f.getContext();
  bufferization::OneShotBufferizationOptions options;
  options.bufferizeFunctionBoundaries = false;
  options.memCpyFn = [](OpBuilder& b, Location loc, Value from, Value to) {
    linalg::CopyOp::create(b, loc, from, to);
    return success();
  };
  options.defaultMemorySpaceFn = [ctx](TensorType) -> std::optional<Attribute> {
    return IntegerAttr::get(IntegerType::get(ctx, 64), kFunctionMemorySpace);
  };
  bufferization::BufferizationState state;
  if (failed(bufferization::runOneShotBufferize(f, options, state)))
    return f.emitError("bufferization failed");
  return success();
}

// Function-memory allocations become OpVariables at the top of the kernel.
LogicalResult allocationsToPrivateVariables(func::FuncOp f, gpu::LaunchOp launch) {
  SmallVector<memref::AllocOp> allocs;
  f.walk([&](memref::AllocOp a) { allocs.push_back(a); });
  SmallVector<memref::DeallocOp> deallocs;
  f.walk([&](memref::DeallocOp d) { deallocs.push_back(d); });
  for (auto d : deallocs) d.erase();
  OpBuilder b(f.getContext());
  for (memref::AllocOp a : allocs) {
    // (Re)set each time: the previous insertion point may be an erased alloc.
    b.setInsertionPointToStart(&launch.getBody().front());
    if (!a.getType().hasStaticShape())
      return a.emitError("dynamic temporary buffer inside a kernel");
    if (!a->getParentOfType<gpu::LaunchOp>())
      return a.emitError("temporary buffer outside the kernel launch");
    auto alloca = memref::AllocaOp::create(b, a.getLoc(), a.getType());
    a.replaceAllUsesWith(alloca.getResult());
    a.erase();
  }
  return success();
}

// ---------------------------------------------------------------------------
// 6. scf.forall (buffers, mapped to #gpu.block / #gpu.thread) -> cyclic loop:
//   for %t = id to prod(tripcounts) step count { ivs = delinearize(%t) ... }
// ---------------------------------------------------------------------------
// `invocations` is the workgroup size: when a thread loop provably has at most
// that many iterations, each invocation runs at most one, and the loop becomes
// an `if` (llvmpipe runs loops with per-lane masks; an if is cheaper).
LogicalResult distributeCyclically(IRRewriter& rw, scf::ForallOp forall, int64_t invocations) {
  if (!forall.getOutputs().empty())
    return forall.emitError("scf.forall still has tensor outputs after bufferization");
  std::optional<ArrayAttr> mapping = forall.getMapping();
  bool threads = mapping && !mapping->empty() && isa<gpu::GPUThreadMappingAttr>((*mapping)[0]);
  Location loc = forall.getLoc();
  rw.setInsertionPoint(forall);
  Value id, count;
  if (threads) {
    id = gpu::ThreadIdOp::create(rw, loc, gpu::Dimension::x);
    count = gpu::BlockDimOp::create(rw, loc, gpu::Dimension::x);
  } else {
    id = gpu::BlockIdOp::create(rw, loc, gpu::Dimension::x);
    count = gpu::GridDimOp::create(rw, loc, gpu::Dimension::x);
  }
  SmallVector<Value> lbs = getValueOrCreateConstantIndexOp(rw, loc, forall.getMixedLowerBound());
  SmallVector<Value> ubs = getValueOrCreateConstantIndexOp(rw, loc, forall.getMixedUpperBound());
  SmallVector<Value> steps = getValueOrCreateConstantIndexOp(rw, loc, forall.getMixedStep());
  SmallVector<Value> trips, spans;
  Value one = arith::ConstantIndexOp::create(rw, loc, 1);
  Value total = one;
  for (unsigned d = 0; d < lbs.size(); ++d) {
    // Trip count (ub - lb + step - 1) / step; spans are never negative here.
    Value span = arith::SubIOp::create(rw, loc, ubs[d], lbs[d]);
    spans.push_back(span);
    Value stepMinusOne = arith::SubIOp::create(rw, loc, steps[d], one);
    Value padded = arith::AddIOp::create(rw, loc, span, stepMinusOne);
    Value trip = arith::DivUIOp::create(rw, loc, padded, steps[d]);
    trips.push_back(trip);
    total = arith::MulIOp::create(rw, loc, total, trip);
  }
  bool single = threads;
  int64_t maxTotal = 1;
  for (unsigned d = 0; single && d < lbs.size(); ++d) {
    std::optional<int64_t> step = getConstantIntValue(steps[d]);
    FailureOr<int64_t> span = ValueBoundsConstraintSet::computeConstantBound(
        presburger::BoundType::UB, ValueBoundsConstraintSet::Variable(spans[d]), nullptr,
        /*closedUB=*/true);
    if (!step || *step <= 0 || failed(span)) {
      single = false;
      break;
    }
    maxTotal *= ceilDiv(std::max<int64_t>(*span, 0), *step);
  }
  single = single && maxTotal <= invocations;
  Block* bodyBlock;
  Operation* terminator;
  Value linear;
  if (single) {
    Value inRange = arith::CmpIOp::create(rw, loc, arith::CmpIPredicate::ult, id, total);
    auto ifOp = scf::IfOp::create(rw, loc, inRange, /*withElseRegion=*/false);
    bodyBlock = ifOp.thenBlock();
    terminator = bodyBlock->getTerminator();
    linear = id;
  } else {
    auto loop = scf::ForOp::create(rw, loc, id, total, count);
    bodyBlock = loop.getBody();
    terminator = bodyBlock->getTerminator();
    linear = loop.getInductionVar();
  }
  rw.setInsertionPointToStart(bodyBlock);
  SmallVector<Value> ivs(lbs.size());
  Value rest = linear;
  for (int d = static_cast<int>(lbs.size()) - 1; d >= 0; --d) {
    Value idx = d == 0 ? rest : arith::RemUIOp::create(rw, loc, rest, trips[d]).getResult();
    if (d > 0) rest = arith::DivUIOp::create(rw, loc, rest, trips[d]);
    Value scaled = arith::MulIOp::create(rw, loc, idx, steps[d]);
    ivs[d] = arith::AddIOp::create(rw, loc, lbs[d], scaled);
  }
  Block* body = forall.getBody();
  rw.eraseOp(body->getTerminator());
  rw.inlineBlockBefore(body, terminator, ivs);
  rw.eraseOp(forall);
  return success();
}

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
  MLIRContext* ctx = f.getContext();
  SmallVector<int64_t> words;  // (binding, dim) pairs
  SmallVector<unsigned> dynamicArgs;
  for (BlockArgument arg : f.getArguments()) {
    auto mt = dyn_cast<MemRefType>(arg.getType());
    if (!mt || mt.hasStaticShape()) continue;
    dynamicArgs.push_back(arg.getArgNumber());
    for (unsigned d = 0; d < mt.getRank(); ++d)
      if (mt.isDynamicDim(d)) {
        words.push_back(arg.getArgNumber());
        words.push_back(d);
      }
  }
  if (dynamicArgs.empty()) return success();
  Location loc = f.getLoc();
  int64_t numWords = static_cast<int64_t>(words.size() / 2);
  auto pcType = MemRefType::get({numWords}, IntegerType::get(ctx, 32), MemRefLayoutAttrInterface{},
                                IntegerAttr::get(IntegerType::get(ctx, 64), 7));
  unsigned pcIndex = f.getNumArguments();
  if (failed(f.insertArgument(pcIndex, pcType,
                              DictionaryAttr::get(ctx, {NamedAttribute(
                                                           StringAttr::get(ctx, "meshvk.push_constants"),
                                                           UnitAttr::get(ctx))}),
                              loc)))
    return f.emitError("cannot add the push-constant argument");
  f->setAttr("meshvk.push_constant_dims", DenseI64ArrayAttr::get(ctx, words));
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
        sizes.push_back(mt.isDynamicDim(d) ? dims[{i, d}]
                                           : arith::ConstantIndexOp::create(b, loc, mt.getDimSize(d))
                                                 .getResult());
    }
    SmallVector<Operation*> users(arg.getUsers().begin(), arg.getUsers().end());
    for (Operation* u : users)
      if (!launch->isProperAncestor(u) ||
          !isa<memref::LoadOp, memref::StoreOp, memref::DimOp>(u))
        return u->emitError() << "dynamically shaped buffer " << i
                              << " is used by an op the push-constant rewrite does not know";
    arg.setType(MemRefType::get({ShapedType::kDynamic}, mt.getElementType()));
    auto linearize = [&](OpBuilder& ob, Location l, ValueRange idx) {
      Value lin = idx.empty() ? arith::ConstantIndexOp::create(ob, l, 0).getResult() : idx[0];
      for (unsigned d = 1; d < idx.size(); ++d)
        lin = arith::AddIOp::create(ob, l, arith::MulIOp::create(ob, l, lin, sizes[d]), idx[d]);
      return lin;
    };
    for (Operation* u : users) {
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
        if (!d) return dim.emitError("memref.dim with a non-constant index");
        dim.getResult().replaceAllUsesWith(sizes[*d]);
      }
      u->erase();
    }
  }
  f.setType(FunctionType::get(ctx, f.getBody().front().getArgumentTypes(), {}));
  return success();
}

// Named linalg ops build their payload with unknown locations (upstream's
// region builder), so an op that cannot be lowered (math.erf in linalg.erf)
// was reported with no place at all. Every op and block argument without a
// location takes its parent op's: the kernel's ops were cloned from the user's
// program with their locations, so diagnostics point at the user's op.
void inheritUnknownLocations(func::FuncOp f) {
  f.walk<WalkOrder::PreOrder>([](Operation* op) {
    if (isa<UnknownLoc>(op->getLoc()))
      if (Operation* parent = op->getParentOp()) op->setLoc(parent->getLoc());
    for (Region& region : op->getRegions())
      for (Block& block : region)
        for (BlockArgument arg : block.getArguments())
          if (isa<UnknownLoc>(arg.getLoc())) arg.setLoc(op->getLoc());
  });
}

// Canonicalization may rebuild the gpu.launch: look it up again after each.
gpu::LaunchOp findLaunch(func::FuncOp f) {
  gpu::LaunchOp launch;
  f.walk([&](gpu::LaunchOp l) { launch = l; });
  return launch;
}

LogicalResult lowerKernel(func::FuncOp f, const TargetDescription& target) {
  MLIRContext* ctx = f.getContext();
  if (failed(constantsToFills(f))) return failure();
  if (failed(simplifyOnTensors(f))) return f.emitError("simplification did not converge");
  ensureTileableRoots(f);
  IRRewriter rw(ctx);
  if (failed(bufferization::eliminateEmptyTensors(rw, f)))
    return f.emitError("empty tensor elimination failed");
  int64_t invocations = 1;
  if (failed(tileRoots(f, target, &invocations))) return failure();
  if (failed(simplifyOnTensors(f))) return f.emitError("simplification did not converge");
  // Tiling gives ops whose output is never read a fresh tensor.empty tile;
  // eliminating it again writes those tiles straight into the output.
  if (failed(bufferization::eliminateEmptyTensors(rw, f)))
    return f.emitError("empty tensor elimination failed");
  // Everything that computes must now sit inside the thread loops: an op left
  // at workgroup level would be executed by every invocation.
  WalkResult stray = findLaunch(f).walk([&](linalg::LinalgOp op) {
    auto forall = op->getParentOfType<scf::ForallOp>();
    std::optional<ArrayAttr> mapping = forall ? forall.getMapping() : std::nullopt;
    if (!mapping || mapping->empty() || !isa<gpu::GPUThreadMappingAttr>((*mapping)[0])) {
      op->emitError("op could not be fused into the kernel's tiled loop nest");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (stray.wasInterrupted()) return failure();
  if (failed(boundTemporaries(f))) return failure();
  if (failed(bufferize(f))) return failure();
  if (failed(allocationsToPrivateVariables(f, findLaunch(f)))) return failure();

  SmallVector<linalg::LinalgOp> regTiles;
  f.walk([&](linalg::LinalgOp op) {
    if (op->hasAttr(kRegisterTileAttr)) regTiles.push_back(op);
  });
  for (linalg::LinalgOp op : regTiles) {
    auto caps = cast<DenseI64ArrayAttr>(op->getAttr(kRegisterTileAttr));
    if (failed(registerTile(rw, op, caps.asArrayRef()))) return failure();
  }

  // Workgroup count: one workgroup per tile, clamped to the device limit.
  int64_t tiles = 1;
  SmallVector<scf::ForallOp> foralls;
  f.walk([&](scf::ForallOp fa) { foralls.push_back(fa); });  // post-order: inner first
  for (scf::ForallOp fa : foralls) {
    std::optional<ArrayAttr> mapping = fa.getMapping();
    bool threads = mapping && !mapping->empty() && isa<gpu::GPUThreadMappingAttr>((*mapping)[0]);
    if (!threads) {
      int64_t t = 1;
      bool unknown = false;
      for (auto [lb, ub, st] : llvm::zip(fa.getMixedLowerBound(), fa.getMixedUpperBound(),
                                         fa.getMixedStep())) {
        auto l = getConstantIntValue(lb), u = getConstantIntValue(ub), s = getConstantIntValue(st);
        if (l && u && s) t *= ceilDiv(*u - *l, *s);
        else unknown = true;
      }
      if (unknown) t = kDynamicWorkgroupCount;
      tiles = std::max(tiles, t);
    }
    if (failed(distributeCyclically(rw, fa, invocations))) return failure();
  }
  tiles = std::max<int64_t>(1, std::min<int64_t>(tiles, target.maxWorkgroupCount));
  gpu::LaunchOp launch = findLaunch(f);
  rw.setInsertionPoint(launch);
  launch.getGridSizeXMutable().assign(arith::ConstantIndexOp::create(rw, launch.getLoc(), tiles));
  launch.getBlockSizeXMutable().assign(
      arith::ConstantIndexOp::create(rw, launch.getLoc(), invocations));

  {
    // In-place results leave copies of a tile onto itself (parallel_insert_slice
    // of the tile that was computed in place): canonicalization (trivial
    // subviews fold away) and CSE make both views one value.
    RewritePatternSet canon(ctx);
    for (Dialect* d : ctx->getLoadedDialects()) d->getCanonicalizationPatterns(canon);
    for (RegisteredOperationName op : ctx->getRegisteredOperations())
      op.getCanonicalizationPatterns(canon, ctx);
    (void)applyPatternsGreedily(f, std::move(canon));
    DominanceInfo dom(f);
    eliminateCommonSubExpressions(rw, dom, f);
    SmallVector<linalg::CopyOp> copies;
    f.walk([&](linalg::CopyOp c) {
      if (c.getDpsInputOperand(0)->get() == c.getDpsInitOperand(0)->get()) copies.push_back(c);
    });
    for (auto c : copies) rw.eraseOp(c);
  }
  SmallVector<linalg::LinalgOp> rest;
  f.walk([&](linalg::LinalgOp op) { rest.push_back(op); });
  for (linalg::LinalgOp op : rest) {
    rw.setInsertionPoint(op);
    if (failed(linalg::linalgOpToLoops(rw, op))) return op->emitError("lowering to loops failed");
    rw.eraseOp(op);
  }
  RewritePatternSet patterns(ctx);
  memref::populateFoldMemRefAliasOpPatterns(patterns);
  for (Dialect* d : ctx->getLoadedDialects()) d->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : ctx->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, ctx);
  (void)applyPatternsGreedily(f, std::move(patterns));
  {
    // Identical index computations must be one value for access grouping.
    DominanceInfo dom(f);
    eliminateCommonSubExpressions(rw, dom, f);
  }
  vectorizeBuffers(f);
  return passSizesAsPushConstants(f, findLaunch(f));
}

struct TileAndDistributePass
    : PassWrapper<TileAndDistributePass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TileAndDistributePass)
  TileAndDistributePass() = default;
  TileAndDistributePass(const TileAndDistributePass& other) : PassWrapper(other) {}
  explicit TileAndDistributePass(const TargetDescription& t) : fixedTarget(t) {}

  StringRef getArgument() const override { return "meshvk-tile-and-distribute"; }
  StringRef getDescription() const override {
    return "Tile meshvk.kernel functions for workgroups and invocations, distribute the "
           "tiles cyclically, bufferize, and wrap them in gpu.launch";
  }
  void getDependentDialects(DialectRegistry& registry) const override {
    registerCodegenDialects(registry);
  }

  Option<std::string> targetName{*this, "target",
                                 llvm::cl::desc("target preset (lavapipe, generic)"),
                                 llvm::cl::init("lavapipe")};
  Option<unsigned> invocations{*this, "workgroup-invocations",
                               llvm::cl::desc("override the preset's workgroup size"),
                               llvm::cl::init(0)};

  void runOnOperation() override {
    TargetDescription target;
    if (fixedTarget) {
      target = *fixedTarget;
    } else if (!lookupTarget(targetName, &target)) {
      getOperation().emitError() << "unknown codegen target '" << targetName
                                 << "'; expected lavapipe or generic";
      return signalPassFailure();
    }
    if (invocations) target.preferredWorkgroupInvocations = invocations;
    SmallVector<func::FuncOp> kernels;
    getOperation().walk([&](func::FuncOp f) {
      if (f->hasAttr(kKernelAttr) && !f->hasAttr(kNumInputsAttr) &&
          !SymbolTable::lookupNearestSymbolFrom(f, StringAttr::get(f.getContext(),
                                                                   f.getName() + kLoweredSuffix)))
        kernels.push_back(f);
    });
    for (func::FuncOp f : kernels) {
      if (!target.supportsF16()) {
        bool usesF16 = false;
        f.walk([&](Operation* op) {
          for (Type t : op->getResultTypes())
            if (getElementTypeOrSelf(t).isF16()) usesF16 = true;
        });
        for (Type t : f.getArgumentTypes())
          if (getElementTypeOrSelf(t).isF16()) usesF16 = true;
        if (usesF16) {
          f.emitError() << "kernel uses f16 but target '" << target.name
                        << "' lacks shaderFloat16 + storageBuffer16BitAccess";
          return signalPassFailure();
        }
      }
      inheritUnknownLocations(f);
      bool referenced = !SymbolTable::symbolKnownUseEmpty(f, getOperation());
      FailureOr<func::FuncOp> nf = wrapKernel(f, referenced);
      if (failed(nf) || failed(lowerKernel(*nf, target))) return signalPassFailure();
    }
  }

  std::optional<TargetDescription> fixedTarget;
};

}  // namespace

std::unique_ptr<mlir::Pass> createTileAndDistributePass(const TargetDescription& target) {
  return std::make_unique<TileAndDistributePass>(target);
}

void registerTileAndDistributePass() { mlir::PassRegistration<TileAndDistributePass>(); }

}  // namespace meshvk::codegen
