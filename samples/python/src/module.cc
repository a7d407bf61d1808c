// meshvk._meshvk: the runtime side of the meshvk Python package, over the
// public C API (runtime/include/meshvk). The classes here are wrapped by the
// pure-Python package (meshvk/__init__.py), which is the documented API.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "artifact.h"
#include "device_tensor.h"
#include "errors.h"
#include "program.h"
#include "ranks.h"
#include "runtime.h"
#include "tensors.h"

namespace py = pybind11;
using namespace meshvk_py;

PYBIND11_MODULE(_meshvk, m) {
  m.doc() = "meshvk runtime bindings (use the meshvk package)";
  RegisterErrorTranslator();

  m.def(
      "devices", [] { return ListDevices(nullptr); },
      "Physical devices with their limits, queues and heaps (as mesh-vk-run --list-devices).");
  m.def(
      "device_groups", [] { return ListDeviceGroups(nullptr); },
      "Device groups with their physical devices and peer-memory matrix per heap.");

  py::class_<Artifact, std::shared_ptr<Artifact>>(m, "Artifact")
      .def_static("from_bytes",
                  [](const py::bytes& b, const std::string& name) { return Artifact::FromBytes(std::string(b), name); })
      .def_static("from_file", &Artifact::FromFile)
      .def_property_readonly("name", &Artifact::name)
      .def_property_readonly("process_count", &Artifact::process_count)
      .def_property_readonly("grid_shape", [](const Artifact& a) { return py::tuple(py::cast(a.grid_shape())); })
      .def_property_readonly("peered_axes", &Artifact::peered_axes)
      .def_property_readonly("functions", &Artifact::function_names)
      .def_property_readonly("process_counts", &Artifact::process_counts)
      .def("for_process_count", &Artifact::ForProcessCount, py::arg("processes"))
      .def("signature", &Artifact::SignatureDict, py::arg("function") = "")
      .def("plan", &Artifact::PlanDict, py::arg("function") = "")
      .def("kernels", &Artifact::Kernels)
      .def(
          "plan_graph", [](const Artifact& a, const std::string& function) { return a.PlanGraph(function, nullptr); },
          py::arg("function") = "")
      .def("to_bytes", [](const Artifact& a) { return py::bytes(a.bytes()); })
      .def("save", &Artifact::Save, py::arg("path"));

  BindDeviceTensor(m);

  py::class_<Function>(m, "Function")
      // Inputs by position, or by the program's argument names as keywords
      // (an ONNX model's inputs: fn(x=a)); keep_sharded and timeout are the call's own.
      .def(
          "__call__",
          [](Function& f, const py::args& args, bool keep_sharded, bool keep_on_device, const py::object& timeout,
             const py::kwargs& kwargs) {
            return f.CallAny(InputsByName(f.signature(), args, kwargs), keep_sharded, keep_on_device, timeout);
          },
          py::kw_only(), py::arg("keep_sharded") = false, py::arg("keep_on_device") = false,
          py::arg("timeout") = py::none())
      .def(
          "benchmark",
          [](Function& f, const py::args& args, uint32_t iterations, const py::kwargs& kwargs) {
            return f.Benchmark(InputsByName(f.signature(), args, kwargs), iterations);
          },
          py::kw_only(), py::arg("iterations") = 20)
      .def_property_readonly("name", &Function::name)
      .def_property_readonly("signature", &Function::SignatureDict)
      .def("__repr__", [](const Function& f) { return "<meshvk.Function '" + f.name() + "'>"; });

  py::class_<LoadedProgram>(m, "LoadedProgram")
      .def("__getitem__", &LoadedProgram::Get, py::arg("function"))
      .def("function", &LoadedProgram::Get, py::arg("function") = "")
      .def_property_readonly("functions", &LoadedProgram::function_names)
      .def("placement", &LoadedProgram::Placement)
      .def_property_readonly("stats", &LoadedProgram::Stats)
      .def_property_readonly("topology", &LoadedProgram::Topology)
      .def("plan_graph", &LoadedProgram::PlanGraph, py::arg("function") = "")
      .def("close", &LoadedProgram::Close)
      .def_property_readonly("closed", &LoadedProgram::closed)
      .def("__repr__",
           [](const LoadedProgram& p) { return "<meshvk.LoadedProgram " + p.name() + (p.closed() ? " closed>" : ">"); })
      .def("__enter__", [](py::object self) { return self; })
      .def("__exit__", [](LoadedProgram& p, py::args) { p.Close(); });

  // Ends MPI (when a Runtime started it) after closing those runtimes; the
  // package registers it with atexit.
  m.def("_end_ranks", [] {
    py::gil_scoped_release release;
    EndRanks();
  });
  py::class_<Runtime>(m, "Runtime")
      .def(py::init<py::object, std::string, py::object, py::object, py::object, py::object>(),
           py::arg("devices") = py::none(), py::arg("topology") = "auto", py::arg("group") = py::none(),
           py::arg("validation") = py::none(), py::arg("ranks") = py::none(), py::arg("rank_axes") = py::none())
      .def("_load", [](Runtime& r, const std::shared_ptr<Artifact>& a) { return LoadedProgram(r.Load(a)); })
      .def("close", &Runtime::Close)
      .def_property_readonly("closed", &Runtime::closed)
      .def_property_readonly("process_count", &Runtime::process_count)
      .def_property_readonly("topology", &Runtime::topology)
      .def_property_readonly("requested_topology", &Runtime::requested_topology)
      .def("_open_devices", &Runtime::OpenDevices)
      .def_property_readonly("validation_messages", &Runtime::validation_messages)
      .def_property_readonly("rank", &Runtime::rank)
      .def_property_readonly("rank_count", &Runtime::rank_count)
      .def("devices", &Runtime::Devices)
      .def("device_groups", &Runtime::DeviceGroups)
      .def("__enter__", [](py::object self) { return self; })
      .def("__exit__", [](Runtime& r, py::args) { r.Close(); });
}
