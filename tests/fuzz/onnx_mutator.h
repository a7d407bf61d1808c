// The ONNX fuzz targets' structure-aware mutator (fuzz_onnx_importer.cc's
// mutation loop, fuzz_onnx_import.cc's LLVMFuzzerCustomMutator): one
// mutation of a serialized ModelProto, on the wire (truncated, bit-flipped)
// or on the parsed model (absurd dims, initializers whose bytes do not match
// their dims, external data outside the folder or missing, dangling inputs,
// cycles, unknown opsets, dtype codes out of range, attributes of the wrong
// type, nodes removed or duplicated).
#ifndef MESHVK_TESTS_FUZZ_ONNX_MUTATOR_H_
#define MESHVK_TESTS_FUZZ_ONNX_MUTATOR_H_

#include <cstdint>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "onnx/onnx_pb.h"

namespace meshvk_fuzz {

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

}  // namespace meshvk_fuzz

#endif  // MESHVK_TESTS_FUZZ_ONNX_MUTATOR_H_
