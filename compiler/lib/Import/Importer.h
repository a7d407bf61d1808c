//===- Importer.h - the state of one ONNX graph's import -------------------===//
//
// Shared by the graph walk (Importer.cpp) and the op lowerings
// (LowerElementwise.cpp, LowerStructured.cpp): the ONNX values seen so far
// (an MLIR value, or a host tensor known at compile time, or both), the
// current node with its attributes, and the IR helpers the lowerings share.
//
//===----------------------------------------------------------------------===//
#ifndef MESHVK_LIB_IMPORT_IMPORTER_H_
#define MESHVK_LIB_IMPORT_IMPORTER_H_

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "OnnxModel.h"
#include "meshvk/Import/OnnxImport.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace meshvk::onnx_import {

// One ONNX tensor during the import. `value` is null while the tensor is only
// known on the host (folded shape arithmetic, constants not yet used on the
// device); `host` is set when its elements are known at compile time.
struct Tensor {
  mlir::Value value;
  std::vector<int64_t> shape;
  int32_t onnxType = 0;
  std::optional<OnnxHostTensor> host;
  // A graph input whose value was given for shape operands only: read by
  // hostInts(), never folded into data (its data uses read the argument).
  bool boundInput = false;
};

// `node`'s attribute `name`, or nullptr (Importer::attr for the node being
// lowered; this one for scans over the whole graph).
const onnx::AttributeProto *findAttribute(const onnx::NodeProto &node, const std::string &name);

// The computed element kind of an ONNX dtype: floats (FLOAT, DOUBLE as f64
// or f32: OnnxImportOptions::float64, FLOAT16), integers (all as i32), booleans (i1).
enum class Kind { Float, Int, Bool };
Kind kindOf(int32_t onnxType);
bool isFloatType(int32_t onnxType);

// The scalar body of an elementwise op: the operands' scalars (already in the
// computed element types) -> the result scalar.
using ScalarBody = std::function<mlir::Value(mlir::OpBuilder &, mlir::Location, mlir::ValueRange)>;

class Importer {
public:
  Importer(mlir::MLIRContext &context, const OnnxImportOptions &options, int64_t opset,
           std::string directory);

  mlir::OpBuilder b;
  mlir::Location loc;
  const OnnxImportOptions &options;
  int64_t opset;
  std::string directory;
  std::map<std::string, Tensor> values;
  // Shape-inferred types of the graph's values (inputs, outputs, value_info).
  std::map<std::string, const onnx::ValueInfoProto *> valueInfo;
  // The sharding plan: ONNX tensor name -> split axes per dimension on @grid,
  // written as a shard.shard where the tensor first gets a device value.
  std::map<std::string, std::vector<std::vector<int64_t>>> splits;
  std::map<std::string, std::string> splitReasons; // name -> policy, for the plan
  // Weights a policy considered and left replicated -> why (for the plan).
  std::map<std::string, std::string> replicatedReasons;
  // 2-D initializers read only as a Gemm's B with transB=1, stored transposed
  // at import (their data and split axes): the Gemm then reads B^T directly,
  // instead of transposing the weights on the device at every call into an
  // activation as large as the weights.
  std::set<std::string> pretransposed;
  // Initializers read only as a ConvTranspose's weight, stored at import as
  // the equivalent Conv weight (convTransposeWeightAsConv), so the window is
  // not flipped on the device at every call.
  std::set<std::string> convTransposeStored;
  // Initializers read only as the weight of a group-1 Conv (or of a
  // ConvTranspose once stored as one), stored at import as TOSA's OHWI
  // (output, window..., input) instead of OIHW: otherwise every call
  // transposes every weight into a transient buffer as large as it.
  std::set<std::string> ohwiStored;
  std::vector<std::string> *plan = nullptr;
  // Annotates `value` (the device value of ONNX tensor `name`) when the plan
  // splits it; returns the value its users read.
  mlir::Value annotate(const std::string &name, mlir::Value value, bool forUsers);
  const onnx::NodeProto *node = nullptr;
  std::string error;

  // Records "node 'NAME' (OP, opset N): WHAT" and returns false.
  bool fail(const std::string &what);

  // An axis of a rank-`rank` tensor, normalized to 0..rank-1 (a negative axis
  // counts from the end; `pastEnd`: rank itself is valid too, as Flatten's
  // axis). false with "WHAT A is out of range for a rank-R tensor (expected
  // -R..R-1)" otherwise: an axis is never used to index unchecked.
  bool axis(int64_t value, int64_t rank, int64_t *out, const char *what = "axis",
            bool pastEnd = false);
  // Each of `values` the same way, into *out.
  bool axes(const std::vector<int64_t> &values, int64_t rank, std::vector<int64_t> *out,
            const char *what = "axes");

  // Attributes of the current node.
  const onnx::AttributeProto *attr(const std::string &name) const;
  int64_t attrInt(const std::string &name, int64_t otherwise) const;
  float attrFloat(const std::string &name, float otherwise) const;
  std::string attrString(const std::string &name, const std::string &otherwise) const;
  std::vector<int64_t> attrInts(const std::string &name) const;
  // Refuses (false) an attribute of the node other than `known`.
  bool onlyAttributes(std::initializer_list<const char *> known);

  // Operands and results of the current node.
  int inputCount() const;
  bool hasInput(int i) const; // present and not the empty name
  Tensor *input(int i);       // nullptr (with the error set) when missing
  // Integer elements of a compile-time operand (a constant or a folded shape
  // computation); false with the error when the operand is computed at run time.
  bool hostInts(int i, std::vector<int64_t> *out, const char *what);
  bool hostReals(int i, std::vector<double> *out, const char *what);
  void define(int output, Tensor tensor);
  // Output `output` is `v` (its shape read from v's type); false when `v` is
  // null, a lowering's failure already reported.
  bool defineValue(int output, mlir::Value v, int32_t onnxType);
  // The node's output declared shape/dtype after shape inference (empty
  // shape and 0 dtype when not known).
  bool outputInfo(int output, std::vector<int64_t> *shape, int32_t *onnxType);

  // The device value of a tensor (materializes a host tensor as a constant).
  mlir::Value valueOf(Tensor &tensor);
  mlir::Value constant(const OnnxHostTensor &host);
  // A BOOL host tensor as an i32 constant of 0s and 1s (storable, unlike i1:
  // a consumer compares it with 0 in its own body).
  mlir::Value boolWords(const OnnxHostTensor &host);
  mlir::Type elementType(int32_t onnxType);
  mlir::RankedTensorType tensorType(const std::vector<int64_t> &shape, int32_t onnxType);

  // IR helpers.
  mlir::Value reshape(mlir::Value value, const std::vector<int64_t> &shape);
  mlir::Value transpose(mlir::Value value, const std::vector<int64_t> &permutation);
  mlir::Value shapeConstant(const std::vector<int64_t> &values);
  mlir::Value zeroPoint(mlir::Type element);
  // A linalg.generic computing `body` elementwise over `operands`
  // (numpy-broadcast to `shape`) into an `onnxType` result.
  mlir::Value elementwise(std::vector<mlir::Value> operands, const std::vector<int64_t> &shape,
                          int32_t onnxType, const ScalarBody &body);
  // The scalar conversion between computed element types (Cast semantics).
  mlir::Value convertScalar(mlir::OpBuilder &builder, mlir::Location at, mlir::Value v,
                            mlir::Type to);
};

// The small builders every lowering file uses: an f32/f16 constant of type
// `t`, a ranked value's static shape, and a TOSA op by name (operands, result
// type, inherent attributes) for the ops whose generated builders differ
// between them.
mlir::Value fconst(mlir::OpBuilder &b, mlir::Location at, mlir::Type t, double v);
std::vector<int64_t> shapeOf(mlir::Value v);
mlir::Value tosaOp(Importer &im, llvm::StringRef name, mlir::Type result, mlir::ValueRange operands,
                   llvm::ArrayRef<mlir::NamedAttribute> attributes = {});

// Numpy broadcasting of two shapes; false when they do not broadcast.
bool broadcastShapes(const std::vector<int64_t> &a, const std::vector<int64_t> &b,
                     std::vector<int64_t> *out);
int64_t elementCount(const std::vector<int64_t> &shape);
// "8x1024", as the messages spell a shape.
std::string shapeText(const std::vector<int64_t> &shape);

// The op lowerings: each returns false with Importer::error set. A name the
// table does not hold returns std::nullopt.
using Lowering = bool (*)(Importer &);
std::optional<Lowering> elementwiseLowering(const std::string &opType);
std::optional<Lowering> structuredLowering(const std::string &opType);
// Folds the node on the host when all its operands are known and the op is
// one of the shape/integer ops; false (nothing defined) otherwise.
bool foldOnHost(Importer &im, bool *failed);
// A ConvTranspose weight [C, O/group, k...] rearranged in place into the
// weight [O, C/group, k...] of the stride-1 Conv that computes it (each
// group's channel roles swapped, the window flipped).
void convTransposeWeightAsConv(OnnxHostTensor &t, int64_t group);
// The op types the importer lowers, for "supported: ..." messages.
std::string supportedOps();

} // namespace meshvk::onnx_import

#endif // MESHVK_LIB_IMPORT_IMPORTER_H_
