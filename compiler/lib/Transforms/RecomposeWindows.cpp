//===- RecomposeWindows.cpp - local window sums back into one op ----------===//
//
// ConvWindows.cpp decomposes each convolution and pooling into generics over
// its taps' shifted windows, so that batch, channel and spatial splits all
// partition; each window then costs a fill and a copy of the whole input, a
// filter slice a kernel, and the groups of taps a kernel each plus their sums.
// Where partitioning left every window of an op local (no shifted or padded
// dimension split over a grid axis), nothing needs the decomposition any
// more: this pass rebuilds the op from the template ConvWindows kept, on the
// local shards, reading the input padded once. The match is strict — the tap
// generics must still combine exactly as ConvWindows emitted them (a chain
// through the accumulator, or sums by linalg.add, then the strided slice and
// the added accumulator) — and anything else keeps the decomposition, which
// is correct everywhere.
//
//===----------------------------------------------------------------------===//
#include "ConvWindows.h"
#include "LinalgPatterns.h"
#include "meshvk/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Verifier.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

#include <map>

using namespace mlir;

namespace meshvk {
#define GEN_PASS_DEF_RECOMPOSEWINDOWS
#include "meshvk/Transforms/Passes.h.inc"
} // namespace meshvk

namespace {

/// The one user of `v`, or null.
Operation *singleUser(Value v) { return v.hasOneUse() ? *v.getUsers().begin() : nullptr; }

/// One decomposed op: its template and its tap generics in program order.
struct WindowOpUse {
  func::FuncOp templateFn;
  SmallVector<linalg::GenericOp> groups;
};

/// The rebuild of one decomposed op; each step returns false where the IR
/// is not what ConvWindows emitted (the op then stays decomposed).
class Recomposition {
public:
  Recomposition(WindowOpUse &use, OpBuilder &b) : use(use), b(b) {}

  bool run() {
    if (!findTemplateOp() || !followChain() || !findOperands() || !windowsAreLocal())
      return false;
    return rebuild();
  }

private:
  /// The template's body: an optional tensor.pad of argument 0, the op,
  /// the return.
  bool findTemplateOp() {
    Block &body = use.templateFn.getBody().front();
    auto ret = cast<func::ReturnOp>(body.getTerminator());
    if (ret.getNumOperands() != 1)
      return false;
    op = ret.getOperand(0).getDefiningOp<linalg::LinalgOp>();
    if (!op)
      return false;
    for (OpOperand *input : op.getDpsInputOperands())
      if (auto p = input->get().getDefiningOp<tensor::PadOp>())
        pad = p;
    return true;
  }

  /// From the first group to the value that replaced the op's result: each
  /// group continues the previous one (its accumulator input) or is added to
  /// the sum so far; then the strided slice and the added accumulator.
  bool followChain() {
    Value acc = use.groups.front()->getResult(0);
    for (linalg::GenericOp group : ArrayRef(use.groups).drop_front()) {
      ArrayRef<int64_t> roles = rolesOf(group);
      auto accInput = llvm::find(roles, meshvk::kAccumulatorRole);
      if (accInput != roles.end()) {
        if (group.getDpsInputs()[accInput - roles.begin()] != acc || !acc.hasOneUse())
          return false;
        acc = group->getResult(0);
        continue;
      }
      auto add = dyn_cast_or_null<linalg::AddOp>(singleUser(acc));
      if (!add || add.getDpsInputs()[0] != acc || add.getDpsInputs()[1] != group->getResult(0) ||
          !group->getResult(0).hasOneUse())
        return false;
      erased.push_back(add);
      acc = add->getResult(0);
    }
    if (auto slice = dyn_cast_or_null<tensor::ExtractSliceOp>(singleUser(acc))) {
      if (!slice.hasZeroOffset() || slice.getSourceType().getRank() != slice.getType().getRank())
        return false;
      erased.push_back(slice);
      acc = slice.getResult();
    }
    Value init = use.groups.front().getDpsInits()[0];
    // A sum that started from zeros with a tensor added after: ConvWindows'
    // form of an accumulator that was not a fresh fill (a bias), or a
    // residual add after a fresh one; either way the op sums into it.
    // Only a broadcast is taken in as the accumulator (the kernel computes it
    // per tile; codegen does not start a contraction from a tensor it reads),
    // any other tensor stays added after (an epilogue FuseKernels merges).
    if (auto add = dyn_cast_or_null<linalg::AddOp>(singleUser(acc));
        add && add.getDpsInputs()[0] == acc && meshvk::sumIntoOut(op) && isZeroFill(init) &&
        meshvk::isBroadcast(add.getDpsInputs()[1].getDefiningOp())) {
      erased.push_back(add);
      localInit = add.getDpsInputs()[1];
      result = add->getResult(0);
      return true;
    }
    result = acc;
    if (init.getType() == result.getType()) {
      localInit = init;
      return true;
    }
    // Extended outputs: the groups summed into a fill (or an empty) of the
    // stride-1 shape; the op writes its own (made in rebuild).
    initFill = init.getDefiningOp<linalg::FillOp>();
    return initFill || init.getDefiningOp<tensor::EmptyOp>();
  }

  static bool isZeroFill(Value init) {
    auto fill = init.getDefiningOp<linalg::FillOp>();
    return fill && matchPattern(fill.getInputs()[0], m_AnyZeroFloat()) ||
           fill && matchPattern(fill.getInputs()[0], m_Zero());
  }

  static ArrayRef<int64_t> rolesOf(linalg::GenericOp group) {
    auto roles = meshvk::MeshVKDialect::WindowRolesAttrHelper(group->getContext()).getAttr(group);
    return roles ? roles.asArrayRef() : ArrayRef<int64_t>();
  }

  /// The local values of the template's arguments: x (what the windows
  /// shift), and each filter (what its slices cut, or itself).
  bool findOperands() {
    unsigned numArgs = use.templateFn.getNumArguments();
    arguments.assign(numArgs, Value());
    for (linalg::GenericOp group : use.groups) {
      ArrayRef<int64_t> roles = rolesOf(group);
      if (roles.size() != group.getNumDpsInputs())
        return false;
      for (auto [tag, input] : llvm::zip(roles, group.getDpsInputs())) {
        int64_t role = tag;
        Value value = input;
        if (role == meshvk::kAccumulatorRole)
          continue;
        if (role == meshvk::kImageRole) {
          if (auto window = input.getDefiningOp<meshvk::WindowOp>()) {
            windows.push_back(window);
            value = window.getSource();
          }
          // The extension ConvWindows padded x with for strided or
          // size-changing windows (high side only).
          if (auto extension = value.getDefiningOp<tensor::PadOp>();
              extension && isExtensionOfX(extension))
            value = extension.getSource();
          role = 0;
        } else if (auto slice = input.getDefiningOp<tensor::ExtractSliceOp>()) {
          value = slice.getSource();
        }
        if (role < 0 || role >= (int64_t)numArgs - 1)
          return false;
        if (arguments[role] && arguments[role] != value)
          return false;
        arguments[role] = value;
      }
    }
    // An input the op's body does not read (a pooling's window shape) has
    // no tap operand: an empty tensor of its type stands for it.
    for (unsigned i = 1; i + 1 < numArgs; ++i) {
      auto type = dyn_cast<RankedTensorType>(use.templateFn.getArgument(i).getType());
      if (!arguments[i] && (!type || !type.hasStaticShape()))
        return false;
    }
    return (bool)arguments[0];
  }

  bool isExtensionOfX(tensor::PadOp extension) {
    return llvm::all_of(extension.getStaticLow(), [](int64_t l) { return l == 0; }) &&
           llvm::none_of(extension.getStaticHigh(), ShapedType::isDynamic);
  }

  /// Every window reads only this process's shard: no dimension it shifts
  /// (or the template pads) is split over a grid axis.
  bool windowsAreLocal() {
    auto xType = dyn_cast<RankedTensorType>(arguments[0].getType());
    if (!xType || !xType.hasStaticShape())
      return false;
    SmallVector<bool> moved(xType.getRank(), false);
    if (pad)
      for (int64_t i = 0; i < xType.getRank(); ++i)
        moved[i] = pad.getStaticLow()[i] != 0 || pad.getStaticHigh()[i] != 0;
    for (meshvk::WindowOp window : windows) {
      ArrayRef<int64_t> shifts = window.getShifts();
      for (int64_t i = 0; i < xType.getRank(); ++i)
        moved[i] = moved[i] || shifts[i] != 0;
    }
    for (meshvk::WindowOp window : windows) {
      if (!window.getGridAttr())
        continue;
      ArrayRef<shard::GridAxesAttr> split = window.getSplitAxesAttr().getAxes();
      for (int64_t i = 0; i < (int64_t)split.size(); ++i)
        if (moved[i] && !split[i].empty())
          return false;
    }
    return true;
  }

  /// x padded on this process: a fill of the pad value with x copied into
  /// its interior (LowerCollectives makes the insert a local copy).
  Value paddedImage(Location loc) {
    Value x = arguments[0];
    if (!pad)
      return x;
    auto xType = cast<RankedTensorType>(x.getType());
    SmallVector<int64_t> shape(xType.getShape());
    for (int64_t i = 0; i < xType.getRank(); ++i)
      shape[i] += pad.getStaticLow()[i] + pad.getStaticHigh()[i];
    Attribute value;
    matchPattern(pad.getConstantPaddingValue(), m_Constant(&value));
    Value scalar = arith::ConstantOp::create(b, loc, cast<TypedAttr>(value));
    Value empty = tensor::EmptyOp::create(b, loc, shape, xType.getElementType());
    Value filled = linalg::FillOp::create(b, loc, scalar, empty).getResult(0);
    SmallVector<int64_t> ones(xType.getRank(), 1);
    return tensor::InsertSliceOp::create(b, loc, x, filled,
                                         getAsIndexOpFoldResult(b.getContext(), pad.getStaticLow()),
                                         getAsIndexOpFoldResult(b.getContext(), xType.getShape()),
                                         getAsIndexOpFoldResult(b.getContext(), ones));
  }

  /// The op on the local shards in place of the decomposition's result; the
  /// decomposition's ops then have no users and go.
  bool rebuild() {
    linalg::GenericOp first = use.groups.front();
    Location loc = first.getLoc();
    // After the last operand's definition: the added accumulator may be
    // computed between the groups and the add.
    Operation *anchor = result.getDefiningOp();
    Operation *before = anchor->getPrevNode();
    b.setInsertionPoint(anchor);
    IRMapping mapping;
    Block &body = use.templateFn.getBody().front();
    for (unsigned i = 0; i + 1 < use.templateFn.getNumArguments(); ++i) {
      Value argument = arguments[i];
      if (!argument) {
        auto type = cast<RankedTensorType>(body.getArgument(i).getType());
        argument = tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
      }
      mapping.map(body.getArgument(i), argument);
    }
    if (!localInit) {
      auto type = cast<RankedTensorType>(result.getType());
      localInit = tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
      if (initFill)
        localInit = linalg::FillOp::create(b, loc, initFill.getInputs()[0], localInit).getResult(0);
    }
    mapping.map(body.getArguments().back(), localInit);
    if (pad)
      mapping.map(pad.getResult(), paddedImage(loc));
    Operation *rebuilt = b.clone(*op, mapping);
    rebuilt->setLoc(result.getLoc());
    rebuilt->getResult(0).setType(result.getType());
    // The local shards must fit the op as the template wrote it (the loop
    // ranges its operands imply agree); where partitioning cut them
    // otherwise, the decomposition stays.
    if (!fitsLocalShapes(rebuilt)) {
      while (anchor->getPrevNode() != before)
        anchor->getPrevNode()->erase();
      return false;
    }
    // Kernel codegen tiles generics (a named convolution or pooling as one).
    if (auto named = dyn_cast<linalg::LinalgOp>(rebuilt); !isa<linalg::GenericOp>(rebuilt)) {
      IRRewriter rewriter(b);
      rewriter.setInsertionPoint(rebuilt);
      FailureOr<linalg::GenericOp> generic = linalg::generalizeNamedOp(rewriter, named);
      if (succeeded(generic))
        rebuilt = *generic;
    }
    result.replaceAllUsesWith(rebuilt->getResult(0));
    for (Operation *dead : llvm::reverse(erased))
      dead->erase();
    for (linalg::GenericOp group : llvm::reverse(use.groups))
      group->erase();
    return true;
  }

  /// The op's verifier, silenced: a mismatch is a reason to keep the
  /// decomposition, not an error of the program.
  static bool fitsLocalShapes(Operation *rebuilt) {
    ScopedDiagnosticHandler silence(rebuilt->getContext(), [](Diagnostic &) { return success(); });
    return succeeded(verify(rebuilt));
  }

  WindowOpUse &use;
  OpBuilder &b;
  linalg::LinalgOp op;
  linalg::FillOp initFill; // the stride-1 accumulator's fill, when extended
  tensor::PadOp pad;
  SmallVector<Operation *> erased; // the chain's adds and slice, in order
  Value result, localInit;
  SmallVector<Value> arguments;
  SmallVector<meshvk::WindowOp> windows;
};

/// Pure ops left without users (the windows, filter slices, fills and empties
/// of the decompositions), last first.
void eraseDeadPureOps(func::FuncOp func) {
  SmallVector<Operation *> ops;
  func.walk([&](Operation *op) { ops.push_back(op); });
  for (Operation *op : llvm::reverse(ops))
    if (op->use_empty() && isPure(op) && op->getNumResults() > 0 && !isa<func::FuncOp>(op))
      op->erase();
}

struct RecomposeWindowsPass : meshvk::impl::RecomposeWindowsBase<RecomposeWindowsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    ModuleOp templates;
    for (auto nested : module.getOps<ModuleOp>())
      if (nested.getSymName() == meshvk::kTemplatesModule)
        templates = nested;
    if (!templates)
      return;
    OpBuilder b(module.getContext());
    for (auto func : module.getOps<func::FuncOp>()) {
      // Per template, per function: a function's groups (UnrollGrid has not
      // yet cloned them per process).
      std::map<Operation *, WindowOpUse> uses;
      SmallVector<Operation *> order;
      func.walk([&](linalg::GenericOp group) {
        auto ref = meshvk::MeshVKDialect::WindowOpAttrHelper(group->getContext()).getAttr(group);
        if (!ref)
          return;
        auto fn = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(module, ref);
        if (!fn)
          return;
        auto [it, fresh] = uses.try_emplace(fn, WindowOpUse{fn, {}});
        if (fresh)
          order.push_back(fn);
        it->second.groups.push_back(group);
      });
      bool changed = false;
      for (Operation *fn : order) {
        if (Recomposition(uses.at(fn), b).run()) {
          ++recomposed;
          changed = true;
        } else {
          ++kept;
        }
      }
      if (changed)
        eraseDeadPureOps(func);
    }
    templates->erase();
    // The tags of the ops left decomposed name the erased templates.
    module.walk([&](linalg::GenericOp group) {
      group->removeAttr(meshvk::MeshVKDialect::WindowOpAttrHelper::getNameStr());
      group->removeAttr(meshvk::MeshVKDialect::WindowRolesAttrHelper::getNameStr());
    });
  }
};

} // namespace
