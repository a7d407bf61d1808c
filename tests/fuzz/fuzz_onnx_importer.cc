// Fuzzes the ONNX frontend through the whole chain (load -> version
// conversion -> shape inference -> import -> compile): every input compiles
// to an artifact or is refused with exactly one line.
//
// Two drivers, as fuzz_compiler.cc:
//  - LLVMFuzzerTestOneInput (clang, -fsanitize=fuzzer): compiles in-process
//    (ProgramOptions::isolateCrashes = false) so libFuzzer sees coverage and
//    every crash is a finding, upstream or not.
//  - MESHVK_FUZZ_ONNX_MAIN (any compiler, run by ctest and
//    scripts/fuzz-long.sh): a structure-aware mutation loop over real models
//    (libonnx-testdata), compiled as the tools compile them: in a child
//    process. A crash in libonnx or protobuf is then isolated (counted, its
//    input kept as isolated-N.onnx); a crash in meshvk's own importer, or a
//    broken one-line contract, fails the run with the input kept as
//    current.onnx.
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "meshvk/Artifact/CompileProgram.h"

namespace {

// The contract every input is held to.
bool KeepsContract(const std::string& error, const meshvk::CompiledProgram& program) {
  return error.empty() ? !program.artifact.empty() : error.find('\n') == std::string::npos;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::filesystem::path dir = [] {
    std::filesystem::path d = std::filesystem::temp_directory_path() / ("meshvk-fuzz-onnx-" + std::to_string(getpid()));
    std::filesystem::create_directories(d);
    return d;
  }();
  const std::filesystem::path model = dir / "fuzz.onnx";
  {
    std::ofstream out(model, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  meshvk::ProgramOptions options;
  options.producer = "meshvk ONNX fuzz";
  options.isolateCrashes = false;  // libFuzzer needs the coverage of the code it runs
  meshvk::CompiledProgram program;
  std::string error = meshvk::compileProgramFile(model.string(), options, &program);
  if (!KeepsContract(error, program)) std::abort();
  return 0;
}

#ifdef MESHVK_FUZZ_ONNX_MAIN
#include "onnx/onnx_pb.h"

namespace {

const int64_t kDims[] = {0, -1, -7, 1, 3, int64_t(1) << 31, int64_t(1) << 40, INT64_MAX};
const int64_t kOpsets[] = {0, 1, 6, 11, 13, 17, 18, 99, 10000, -1};
const int32_t kTypes[] = {0, 1, 6, 7, 10, 11, 16, 17, 100, -3};
const char* const kLocations[] = {"missing.bin", "data.bin", "../../../../../../dev/zero", "/etc/passwd", "", "."};
const char* const kOffsets[] = {"0", "4", "-8", "1099511627776", "abc", ""};

class Mutator {
 public:
  explicit Mutator(uint32_t seed) : rng_(seed) {}

  size_t Pick(size_t n) { return n == 0 ? 0 : std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }

  // One mutation of `bytes` (a serialized ModelProto): byte-level on the
  // wire, or structural on the parsed model.
  std::string Mutate(const std::string& bytes) {
    onnx::ModelProto m;
    if (Pick(6) == 0 || !m.ParseFromString(bytes)) return MutateBytes(bytes);
    MutateModel(&m);
    std::string out;
    m.SerializeToString(&out);
    return out;
  }

 private:
  std::string MutateBytes(std::string s) {
    if (s.empty()) return s;
    if (Pick(2))
      s.resize(Pick(s.size()));  // truncated
    else
      for (size_t i = 0, n = 1 + Pick(8); i < n; ++i) s[Pick(s.size())] ^= static_cast<char>(1u << Pick(8));
    return s;
  }

  onnx::TensorShapeProto* SomeShape(onnx::GraphProto* g) {
    std::vector<onnx::ValueInfoProto*> infos;
    for (auto& v : *g->mutable_input()) infos.push_back(&v);
    for (auto& v : *g->mutable_output()) infos.push_back(&v);
    for (auto& v : *g->mutable_value_info()) infos.push_back(&v);
    if (infos.empty()) return nullptr;
    onnx::ValueInfoProto* v = infos[Pick(infos.size())];
    if (!v->type().has_tensor_type()) return nullptr;
    return v->mutable_type()->mutable_tensor_type()->mutable_shape();
  }

  void MutateModel(onnx::ModelProto* m) {
    onnx::GraphProto* g = m->mutable_graph();
    switch (Pick(10)) {
      case 0: {  // an absurd dimension of an input, output or value
        if (onnx::TensorShapeProto* s = SomeShape(g); s && s->dim_size() > 0)
          s->mutable_dim(static_cast<int>(Pick(s->dim_size())))->set_dim_value(kDims[Pick(std::size(kDims))]);
        break;
      }
      case 1: {  // an initializer whose dims do not match its bytes
        if (g->initializer_size() == 0) break;
        onnx::TensorProto* t = g->mutable_initializer(static_cast<int>(Pick(g->initializer_size())));
        if (Pick(2) && t->dims_size() > 0)
          t->set_dims(static_cast<int>(Pick(t->dims_size())), kDims[Pick(std::size(kDims))]);
        else if (t->has_raw_data())
          t->mutable_raw_data()->resize(Pick(t->raw_data().size() + 2));
        else
          t->add_dims(kDims[Pick(std::size(kDims))]);
        break;
      }
      case 2: {  // external data: missing, outside the model's folder, bad offsets
        if (g->initializer_size() == 0) break;
        onnx::TensorProto* t = g->mutable_initializer(static_cast<int>(Pick(g->initializer_size())));
        t->clear_raw_data();
        t->set_data_location(onnx::TensorProto::EXTERNAL);
        t->clear_external_data();
        auto* location = t->add_external_data();
        location->set_key("location");
        location->set_value(kLocations[Pick(std::size(kLocations))]);
        if (Pick(2)) {
          auto* offset = t->add_external_data();
          offset->set_key(Pick(2) ? "offset" : "length");
          offset->set_value(kOffsets[Pick(std::size(kOffsets))]);
        }
        break;
      }
      case 3: {  // a dangling input
        if (g->node_size() == 0) break;
        onnx::NodeProto* n = g->mutable_node(static_cast<int>(Pick(g->node_size())));
        if (n->input_size() > 0) n->set_input(static_cast<int>(Pick(n->input_size())), "dangling");
        break;
      }
      case 4: {  // a cycle: a node reads its own or a later node's output
        if (g->node_size() == 0) break;
        int a = static_cast<int>(Pick(g->node_size()));
        int b = a + static_cast<int>(Pick(g->node_size() - a));
        onnx::NodeProto* n = g->mutable_node(a);
        if (n->input_size() > 0 && g->node(b).output_size() > 0)
          n->set_input(static_cast<int>(Pick(n->input_size())), g->node(b).output(0));
        break;
      }
      case 5: {  // an unknown or absurd opset
        if (m->opset_import_size() == 0) m->add_opset_import();
        m->mutable_opset_import(0)->set_version(kOpsets[Pick(std::size(kOpsets))]);
        if (Pick(4) == 0) m->mutable_opset_import(0)->set_domain("com.example");
        break;
      }
      case 6: {  // a dtype code out of range
        if (Pick(2) && g->initializer_size() > 0) {
          g->mutable_initializer(static_cast<int>(Pick(g->initializer_size())))
              ->set_data_type(kTypes[Pick(std::size(kTypes))]);
        } else if (g->input_size() > 0) {
          auto* v = g->mutable_input(static_cast<int>(Pick(g->input_size())));
          v->mutable_type()->mutable_tensor_type()->set_elem_type(kTypes[Pick(std::size(kTypes))]);
        }
        break;
      }
      case 7: {  // an attribute with an absurd value or the wrong type
        if (g->node_size() == 0) break;
        onnx::NodeProto* n = g->mutable_node(static_cast<int>(Pick(g->node_size())));
        if (n->attribute_size() == 0) break;
        onnx::AttributeProto* a = n->mutable_attribute(static_cast<int>(Pick(n->attribute_size())));
        if (Pick(2)) {
          a->set_i(kDims[Pick(std::size(kDims))]);
          for (int i = 0; i < a->ints_size(); ++i)
            if (Pick(2)) a->set_ints(i, kDims[Pick(std::size(kDims))]);
        } else {
          a->set_type(static_cast<onnx::AttributeProto::AttributeType>(Pick(14)));
        }
        break;
      }
      case 8: {  // a node or an input removed
        if (Pick(2) && g->node_size() > 0)
          g->mutable_node()->DeleteSubrange(static_cast<int>(Pick(g->node_size())), 1);
        else if (g->input_size() > 0)
          g->mutable_input()->DeleteSubrange(static_cast<int>(Pick(g->input_size())), 1);
        break;
      }
      default: {  // a node duplicated (two producers of one name)
        if (g->node_size() > 0) *g->add_node() = g->node(static_cast<int>(Pick(g->node_size())));
        break;
      }
    }
  }

  std::mt19937 rng_;
};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return in ? text.str() : std::string();
}

}  // namespace

// fuzz_onnx_importer SECONDS SEED WORKDIR MODEL.onnx...
int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: fuzz_onnx_importer SECONDS SEED WORKDIR MODEL.onnx...\n");
    return 2;
  }
  const double seconds = std::atof(argv[1]);
  Mutator mutator(static_cast<uint32_t>(std::strtoul(argv[2], nullptr, 10)));
  const std::filesystem::path work = argv[3];
  std::filesystem::create_directories(work);
  std::vector<std::string> seeds;
  for (int i = 4; i < argc; ++i) {
    seeds.push_back(ReadFile(argv[i]));
    if (seeds.back().empty()) {
      std::fprintf(stderr, "fuzz_onnx_importer: cannot read %s\n", argv[i]);
      return 2;
    }
  }
  // The one external data file a mutation may point at, shorter than most
  // initializers.
  std::ofstream(work / "data.bin", std::ios::binary) << std::string(12, '\x7f');
  const std::filesystem::path current = work / "current.onnx";
  const auto start = std::chrono::steady_clock::now();
  size_t runs = 0, compiled = 0, isolated = 0;
  while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < seconds) {
    std::string input = seeds[mutator.Pick(seeds.size())];
    for (size_t m = 0, n = 1 + mutator.Pick(3); m < n; ++m) input = mutator.Mutate(input);
    std::ofstream(current, std::ios::binary | std::ios::trunc) << input;
    meshvk::ProgramOptions options;
    options.producer = "meshvk ONNX fuzz";
    meshvk::CompiledProgram program;
    std::string error = meshvk::compileProgramFile(current.string(), options, &program);
    ++runs;
    compiled += error.empty();
    if (!KeepsContract(error, program)) {
      std::fprintf(stderr, "fuzz_onnx_importer: broken contract on %s: '%s'\n", current.c_str(), error.c_str());
      return 1;
    }
    if (error.find("it ran in a child process") == std::string::npos) continue;
    // Isolated: upstream's crash is survived and kept; meshvk's own is a bug.
    if (error.find("in stage importing ONNX node") != std::string::npos) {
      std::fprintf(stderr, "fuzz_onnx_importer: meshvk's importer crashed on %s: %s\n", current.c_str(), error.c_str());
      return 1;
    }
    std::filesystem::copy_file(current, work / ("isolated-" + std::to_string(isolated) + ".onnx"),
                               std::filesystem::copy_options::overwrite_existing);
    std::fprintf(stderr, "fuzz_onnx_importer: isolated crash %zu: %s\n", isolated, error.c_str());
    ++isolated;
  }
  std::printf(
      "fuzz_onnx_importer: %zu mutated models, %zu compiled, %zu refused with one line (%zu of them "
      "crashes in upstream code isolated in the compiling child process), 0 broken contracts\n",
      runs, compiled, runs - compiled, isolated);
  std::filesystem::remove(current);
  return 0;
}
#endif  // MESHVK_FUZZ_ONNX_MAIN
