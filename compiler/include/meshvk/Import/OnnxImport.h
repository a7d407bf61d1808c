//===- OnnxImport.h - ONNX model -> MLIR (func + tosa/linalg/tensor) -------===//
//
// The ONNX frontend: reads a ModelProto (file or bytes), checks it, upgrades it
// to opset 17 where ONNX's version converter can, infers shapes, and builds
// one `func.func @main` with builders (tosa for the structured ops, linalg
// generics over arith/math for elementwise ops, arith constants for the
// initializers). Shape subgraphs over constants are folded at import. The
// sharding policy writes `shard.grid` + `shard.shard` annotations so the rest
// of the compiler partitions the model like any annotated program.
//
// Every failure is ONE line: an unreadable model, a checker error, or the
// first node it cannot express (its name, op type, the opset and what is
// supported).
//
//===----------------------------------------------------------------------===//
#ifndef MESHVK_IMPORT_ONNXIMPORT_H_
#define MESHVK_IMPORT_ONNXIMPORT_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

namespace meshvk {

enum class OnnxShardPolicy {
  None,   // no annotation: a grid of one
  Data,   // leading dimension of every activation input split, weights replicated
  Tensor, // Megatron by data flow: a MatMul/Gemm weight split by columns, the weight its
          // output flows into split by rows; attention heads; embeddings; conv channels
  Spec,   // OnnxImportOptions::specPath: tensor name -> split axes (JSON)
  Grid,   // data and tensor on the axes of a 2-D grid (OnnxImportOptions::axisPolicies)
};

// A tensor value known at compile time, row-major; integers in `ints`,
// floating point in `reals` (one of the two is filled).
struct OnnxHostTensor {
  std::vector<int64_t> shape;
  int32_t onnxType = 0; // onnx::TensorProto::DataType
  std::vector<int64_t> ints;
  std::vector<double> reals;
};

struct OnnxImportOptions {
  OnnxShardPolicy shard = OnnxShardPolicy::None;
  int64_t devices = 1; // the 1-D grid's size for Data/Tensor when gridShape is empty
  // Data/Tensor/Grid: the grid the policies split over (empty: {devices}).
  std::vector<int64_t> gridShape;
  // Grid: the policy of each grid axis, Data or Tensor, each once ("data,tensor":
  // axis 0 splits the batch, axis 1 the weights).
  std::vector<OnnxShardPolicy> axisPolicies;
  std::string specPath; // Spec: {"grid": [2], "tensors": {"name": [[0], []]}}
  // Graph inputs whose values are fixed at compile time (folded into the
  // program, dropped from its arguments) when the model uses them as shape
  // operands (Reshape's shape, Slice's starts, ...); an input used only as
  // data stays an argument. Keyed by the ONNX input name.
  std::map<std::string, OnnxHostTensor> shapeInputValues;
  // Dynamic dimensions fixed by input name ("x" -> {1, 3, 224, 224}).
  std::map<std::string, std::vector<int64_t>> inputShapes;
  // The shapes of the data the caller will pass (mesh-vk-run: its --input
  // files), for dynamic dimensions inputShapes leaves open: by input name,
  // then by position among the data inputs no name claims (initializers are
  // not data inputs), an empty shape for "unknown". A hint is used only when
  // its rank and every static dimension agree with the model's.
  std::map<std::string, std::vector<int64_t>> inputShapeHintsByName;
  std::vector<std::vector<int64_t>> inputShapeHintsByPosition;
  // DOUBLE tensors computed as f64 (the target has shaderFloat64:
  // TargetDescription::shaderFloat64); false: as f32, the artifact declaring
  // them F64 so that runners widen the results back.
  bool float64 = false;
};

// What the program's signature means in ONNX terms: per argument the ONNX
// input name and its declared dtype (an int64/bool input is an i32 argument),
// per result the output name and dtype.
struct OnnxSignature {
  std::vector<std::string> argumentNames, resultNames;
  std::vector<int32_t> argumentTypes, resultTypes;
  // Graph inputs folded as compile-time values (OnnxImportOptions::shapeInputValues).
  std::vector<std::string> boundInputs;
  // Which policy put which split on which tensor ("x: [[0]] (data)").
  std::vector<std::string> plan;
};

// Imports the model at `path`. On failure: the one-line error.
mlir::FailureOr<mlir::OwningOpRef<mlir::ModuleOp>>
importOnnxFile(llvm::StringRef path, const OnnxImportOptions &options, mlir::MLIRContext &context,
               OnnxSignature *signature, std::string *error);
// Same from the serialized model (`name` labels messages).
mlir::FailureOr<mlir::OwningOpRef<mlir::ModuleOp>>
importOnnxBytes(llvm::StringRef bytes, llvm::StringRef name, const OnnxImportOptions &options,
                mlir::MLIRContext &context, OnnxSignature *signature, std::string *error);

// Reads a serialized onnx.TensorProto (a backend test case's input_0.pb):
// its name (may be empty) and elements. false with a one-line *error.
bool readOnnxTensorFile(const std::string &path, std::string *name, OnnxHostTensor *out,
                        std::string *error);

// Loads the dialects the importer builds (func, tosa, linalg, tensor, arith,
// math, shard) into `context`.
void loadOnnxImportDialects(mlir::MLIRContext &context);

// Parses "none", "data", "tensor", a list of one policy per grid axis
// ("data,tensor", "tensor,data") or a path to a .json spec. A repeated policy,
// none or a spec in a list: false with one line.
bool parseOnnxShardPolicy(llvm::StringRef text, OnnxImportOptions *options, std::string *error);
// Checks a policy against the grid it runs on (`grid`: its shape, empty when
// the caller gives none): a policy list needs a grid of its length, a single
// data/tensor policy a 1-D grid. false with one line naming both.
bool checkOnnxShardGrid(llvm::StringRef policy, const std::vector<int64_t> &grid,
                        std::string *error);

} // namespace meshvk

#endif // MESHVK_IMPORT_ONNXIMPORT_H_
