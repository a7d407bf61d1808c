// meshvk/artifact/builder.h — builds .mvk artifacts (FlatBuffers, schema in
// runtime/artifact/mvk.fbs) from plain C++ descriptions.
//
// Used by the compiler's emitter and by tests. The builder does NOT check
// semantics (the runtime's loader does, as a trust boundary): tests rely on
// that to write deliberately broken files. It only deduplicates executables
// (an SPMD program's processes share kernels) and assigns command indices.
// No Vulkan, no LLVM.
#ifndef MESHVK_ARTIFACT_BUILDER_H_
#define MESHVK_ARTIFACT_BUILDER_H_

#include <cstdint>
#include <string>
#include <vector>

namespace meshvk::artifact {

// The format version this builder writes and this runtime reads.
inline constexpr uint32_t kFormatVersion = 1;
// file_identifier of the schema.
inline constexpr char kFileIdentifier[] = "MVK1";

enum class ElementType : uint8_t { kF32 = 0, kF16 = 1, kI32 = 2, kF64 = 3 };
// mvk.fbs DeclaredType: the source model's dtype of a tensor the program
// holds in another element type (kI64, kBool: an i32 tensor; kF64: an f32).
// kF32: an f16 tensor (--precision=f16).
enum class DeclaredType : uint8_t { kSame = 0, kI64 = 1, kBool = 2, kF64 = 3, kF32 = 4 };
enum class BufferKind : uint8_t { kArgumentShard = 0, kResultShard = 1, kTransient = 2, kConstant = 3 };

struct BufferDesc {
  uint64_t size = 0;
  BufferKind kind = BufferKind::kTransient;
  int32_t reuse_slot = -1;
  std::vector<uint8_t> initial_data;  // constants only
};

struct ExecutableDesc {
  std::vector<uint32_t> spirv;
  std::string entry_point = "main";
  uint32_t workgroup_size[3] = {1, 1, 1};
  std::vector<bool> writable_bindings;  // one per binding (set 0, binding i)
  uint32_t push_constant_size = 0;
};

struct BindingDesc {
  uint32_t buffer = 0;
  uint64_t offset = 0;
  uint64_t range = 0;  // 0: to the end
};

struct CommandRef {
  uint32_t process = 0;
  uint32_t command = 0;
};

struct DispatchDesc {
  uint32_t executable = 0;
  uint32_t workgroup_count[3] = {1, 1, 1};
  std::vector<BindingDesc> bindings;
  std::vector<uint8_t> push_constants;
  uint64_t flops = 0;  // operations the dispatch performs (0: not counted)
};

struct StridedRegionDesc {
  uint64_t src_offset_words = 0;
  uint64_t dst_offset_words = 0;
  uint32_t count[3] = {1, 1, 1};
  uint32_t src_stride[3] = {0, 0, 0};
  uint32_t dst_stride[3] = {0, 0, 0};
};

struct CopyDesc {
  uint32_t src_process = 0;
  uint32_t src_buffer = 0;
  uint64_t src_offset = 0;
  uint32_t dst_buffer = 0;  // dst_process is the stream's process (a pull)
  uint64_t dst_offset = 0;
  uint64_t size = 0;
  std::vector<StridedRegionDesc> regions;
};

struct FillDesc {
  uint32_t buffer = 0;
  uint64_t offset = 0;
  uint64_t size = 0;
  uint32_t value = 0;
};

struct ShardDesc {
  uint32_t process = 0;
  uint32_t buffer = 0;
  uint64_t offset = 0;
  std::vector<uint64_t> global_offset;
  std::vector<uint64_t> shape;
};

struct TensorDesc {
  std::vector<uint64_t> shape;
  ElementType element_type = ElementType::kF32;
  std::vector<std::vector<uint32_t>> split_axes;  // per dimension
  std::vector<ShardDesc> shards;
  std::string name;  // the source model's name for it ("": none, not stored)
  DeclaredType declared_type = DeclaredType::kSame;
};

// A lowered collective (mvk.fbs `Collective`); values as in the schema.
enum class CollectiveKind : uint8_t {
  kOther = 0,
  kAllReduce = 1,
  kAllGather = 2,
  kReduceScatter = 3,
  kAllToAll = 4,
  kBroadcast = 5,
  kAllSlice = 6,
  kShift = 7
};
// mvk.fbs Reduction: float kMax/kMin propagate NaN, kMaxNum/kMinNum ignore it.
enum class Reduction : uint8_t { kNone = 0, kSum = 1, kProduct = 2, kMax = 3, kMin = 4, kMaxNum = 5, kMinNum = 6 };
struct CollectiveDesc {
  CollectiveKind kind = CollectiveKind::kOther;
  Reduction reduction = Reduction::kNone;
  std::string algorithm;
  ElementType element_type = ElementType::kF32;
};

struct FunctionDesc {
  std::string name;
  std::vector<TensorDesc> arguments;
  std::vector<TensorDesc> results;
  std::vector<CollectiveDesc> collectives;  // indexed by the commands' `collective`
};

// Bytes per element of `type`.
uint32_t ElementSize(ElementType type);
const char* ElementTypeName(ElementType type);  // "f32", "f16", "i32"
// "i64", "bool", "f64" ("" for kSame).
const char* DeclaredTypeName(DeclaredType type);

class ArtifactBuilder {
 public:
  // A grid of product(grid_shape) processes, row-major process ids.
  explicit ArtifactBuilder(std::vector<uint32_t> grid_shape, std::vector<uint32_t> peered_axes = {});

  uint32_t process_count() const { return static_cast<uint32_t>(buffers_.size()); }

  // Returns the buffer's index within `process`.
  uint32_t AddBuffer(uint32_t process, BufferDesc buffer);
  // Returns the executable index; an identical executable is returned again.
  uint32_t AddExecutable(ExecutableDesc executable);
  // Commands append to `process`'s stream of the function that the next
  // AddFunction adds (emit a function's body, then its signature); each
  // returns its reference within that function. Commands left after the last
  // AddFunction are appended to the last function at Finish (tests use this
  // to extend a finished program; their returned references then count from
  // 0, so such callers spell references out).
  CommandRef AddDispatch(uint32_t process, DispatchDesc dispatch, std::vector<CommandRef> deps = {});
  CommandRef AddCopy(uint32_t dst_process, CopyDesc copy, std::vector<CommandRef> deps = {});
  CommandRef AddFill(uint32_t process, FillDesc fill, std::vector<CommandRef> deps = {});
  void AddFunction(FunctionDesc function);

  void set_producer(std::string producer) { producer_ = std::move(producer); }
  // Commands added from now on belong to collective `index` of their
  // function's FunctionDesc::collectives (-1: to none).
  void set_collective(int32_t index) { collective_ = index; }
  // Tests: write a different version (to check the loader refuses it).
  void set_format_version(uint32_t version) { format_version_ = version; }
  // Tests: override the destination process recorded in a copy.
  void set_copy_dst_process_override(int64_t process) { copy_dst_override_ = process; }

  // Serializes everything added so far into a .mvk file image.
  std::vector<uint8_t> Finish() const;

 private:
  struct Command {
    enum class Kind { kDispatch, kCopy, kFill } kind;
    DispatchDesc dispatch;
    CopyDesc copy;
    FillDesc fill;
    uint32_t dst_process = 0;
    std::vector<CommandRef> deps;
    int32_t collective = -1;
  };
  using Streams = std::vector<std::vector<Command>>;  // per process
  CommandRef Append(uint32_t process, Command command);

  std::vector<uint32_t> grid_shape_;
  std::vector<uint32_t> peered_axes_;
  std::vector<std::vector<BufferDesc>> buffers_;  // per process
  std::vector<ExecutableDesc> executables_;
  std::vector<FunctionDesc> functions_;
  std::vector<Streams> function_streams_;  // per function
  Streams pending_;                        // commands of the next function
  std::string producer_ = "meshvk artifact builder";
  uint32_t format_version_ = kFormatVersion;
  int64_t copy_dst_override_ = -1;
  int32_t collective_ = -1;
};

// Helpers for the common SPMD case: the shard of `shape` that `process` holds
// when dimension d is split over grid axes split_axes[d] (even splits only).
// Returns the shard's global offset and shape.
void ShardOf(const std::vector<uint32_t>& grid_shape, const std::vector<std::vector<uint32_t>>& split_axes,
             const std::vector<uint64_t>& global_shape, uint32_t process, std::vector<uint64_t>* global_offset,
             std::vector<uint64_t>* shard_shape);

}  // namespace meshvk::artifact

#endif  // MESHVK_ARTIFACT_BUILDER_H_
