// The plan as a Graphviz picture (see plan_graph.h).
#include "plan_graph.h"

#include <map>
#include <vector>

#include "copy_path.h"
#include "meshvk/trace.h"
#include "output_files.h"

namespace meshvk_run {
namespace {

std::string Node(uint32_t process, uint32_t command) {
  return "p" + std::to_string(process) + "c" + std::to_string(command);
}

std::string Bytes(uint64_t bytes) {
  char buf[48];
  if (bytes >= (1u << 20))
    std::snprintf(buf, sizeof(buf), "%.1f MiB", bytes / 1048576.0);
  else if (bytes >= 1024)
    std::snprintf(buf, sizeof(buf), "%.1f KiB", bytes / 1024.0);
  else
    std::snprintf(buf, sizeof(buf), "%llu B", static_cast<unsigned long long>(bytes));
  return buf;
}

}  // namespace

std::string KernelName(const char* entry_point, uint32_t executable) {
  if (entry_point && *entry_point && std::string(entry_point) != "main") return entry_point;
  return "kernel_" + std::to_string(executable);
}

void FindCopyEnds(const meshvk_module_t* module, uint32_t function, uint32_t process, uint32_t command,
                  CommandRef* producer, CommandRef* consumer) {
  *producer = CommandRef{};
  *consumer = CommandRef{};
  auto info_of = [&](uint32_t p, uint32_t c, meshvk_command_info_t* info) {
    meshvk_status_t status = meshvk_module_command_info(module, function, p, c, info);
    bool ok = status == nullptr;
    meshvk_status_free(status);
    return ok;
  };
  // Producer: walk back through copies.
  uint32_t p = process, c = command;
  for (int guard = 0; guard < 1024; ++guard) {
    meshvk_command_info_t info = MESHVK_COMMAND_INFO_INIT;
    if (!info_of(p, c, &info)) return;
    uint32_t src = info.peer == MESHVK_TRACE_NONE ? p : info.peer;
    CommandRef next;
    for (uint32_t d = 0; d < info.dependency_count; ++d) {
      uint32_t q = 0, k = 0;
      meshvk_status_t status = meshvk_module_command_dependency(module, function, p, c, d, &q, &k);
      if (status) {
        meshvk_status_free(status);
        continue;
      }
      if (q == src && (!next.valid() || k > next.command)) next = {q, k};
    }
    if (!next.valid() && src == p) {  // a local copy: the stream order decides
      for (uint32_t k = c; k-- > 0;) {
        meshvk_command_info_t before = MESHVK_COMMAND_INFO_INIT;
        if (info_of(p, k, &before) && before.kind != MESHVK_TRACE_COPY) {
          next = {p, k};
          break;
        }
      }
    }
    if (!next.valid()) break;
    meshvk_command_info_t found = MESHVK_COMMAND_INFO_INIT;
    if (!info_of(next.process, next.command, &found)) break;
    if (found.kind != MESHVK_TRACE_COPY) {
      *producer = next;
      break;
    }
    p = next.process;
    c = next.command;
  }
  // Consumer: the next non-copy command of the destination's stream.
  uint32_t count = meshvk_module_command_count(module, function, process);
  for (uint32_t k = command + 1; k < count; ++k) {
    meshvk_command_info_t after = MESHVK_COMMAND_INFO_INIT;
    if (info_of(process, k, &after) && after.kind != MESHVK_TRACE_COPY) {
      *consumer = {process, k};
      return;
    }
  }
}

std::string PlanGraphDot(const meshvk_module_t* module, uint32_t function, const meshvk_device_set_t* set) {
  meshvk_grid_info_t grid = MESHVK_GRID_INFO_INIT;
  meshvk_status_free(meshvk_module_grid_info(module, &grid));
  meshvk_function_info_t fn = MESHVK_FUNCTION_INFO_INIT;
  if (meshvk_status_t status = meshvk_module_function_info(module, function, &fn)) meshvk_status_free(status);
  const uint32_t processes = grid.process_count;

  std::vector<std::vector<meshvk_command_info_t>> commands(processes);
  for (uint32_t p = 0; p < processes; ++p) {
    commands[p].resize(meshvk_module_command_count(module, function, p),
                       meshvk_command_info_t MESHVK_COMMAND_INFO_INIT);
    for (uint32_t c = 0; c < commands[p].size(); ++c)
      if (meshvk_status_t status = meshvk_module_command_info(module, function, p, c, &commands[p][c]))
        meshvk_status_free(status);
  }

  std::string out = "digraph plan {\n";
  out += "  label=\"" + std::string(fn.name ? fn.name : "function") + ": grid of " + std::to_string(processes) +
         " processes, " + std::to_string(meshvk_module_function_phase_count(module, function)) +
         " phases (nodes: dispatches and fills; edges: copies with bytes and path)\";\n";
  out += "  labelloc=t; rankdir=TB; compound=true; newrank=true;\n";
  out += "  node [shape=box, style=\"rounded,filled\", fillcolor=\"#e8f0fe\", fontname=\"Helvetica\"];\n";
  out += "  edge [fontname=\"Helvetica\", fontsize=10];\n";
  for (uint32_t p = 0; p < processes; ++p) {
    out += "  subgraph cluster_p" + std::to_string(p) + " {\n";
    out += "    label=\"process " + std::to_string(p) + "\"; style=rounded; color=\"#5f6368\";\n";
    out += "    p" + std::to_string(p) + "_in [label=\"inputs\", shape=cds, fillcolor=\"#fef7e0\"];\n";
    std::map<uint32_t, std::vector<uint32_t>> by_phase;
    for (uint32_t c = 0; c < commands[p].size(); ++c)
      if (commands[p][c].kind != MESHVK_TRACE_COPY) by_phase[commands[p][c].phase].push_back(c);
    for (const auto& [phase, list] : by_phase) {
      out += "    subgraph cluster_p" + std::to_string(p) + "_phase" + std::to_string(phase) + " {\n";
      out += "      label=\"phase " + std::to_string(phase) + "\"; style=dashed; color=\"#9aa0a6\";\n";
      for (uint32_t c : list) {
        const meshvk_command_info_t& info = commands[p][c];
        if (info.kind == MESHVK_TRACE_DISPATCH) {
          out += "      " + Node(p, c) + " [label=\"" + KernelName(info.name, info.executable) + "\\n#" +
                 std::to_string(c) + ", " + Bytes(info.bytes) + " bound\"];\n";
        } else {
          out += "      " + Node(p, c) + " [label=\"fill\\n#" + std::to_string(c) + ", " + Bytes(info.bytes) +
                 "\", fillcolor=\"#f1f3f4\"];\n";
        }
      }
      out += "    }\n";
    }
    out += "    p" + std::to_string(p) + "_out [label=\"results\", shape=cds, fillcolor=\"#e6f4ea\"];\n";
    // The stream order (dotted): what runs after what on this process.
    std::string previous = "p" + std::to_string(p) + "_in";
    for (uint32_t c = 0; c < commands[p].size(); ++c) {
      if (commands[p][c].kind == MESHVK_TRACE_COPY) continue;
      out += "    " + previous + " -> " + Node(p, c) + " [class=\"order\", style=dotted, color=\"#9aa0a6\"];\n";
      previous = Node(p, c);
    }
    out +=
        "    " + previous + " -> p" + std::to_string(p) + "_out [class=\"order\", style=dotted, color=\"#9aa0a6\"];\n";
    out += "  }\n";
  }
  for (uint32_t p = 0; p < processes; ++p) {
    for (uint32_t c = 0; c < commands[p].size(); ++c) {
      const meshvk_command_info_t& info = commands[p][c];
      if (info.kind != MESHVK_TRACE_COPY) continue;
      uint32_t src = info.peer == MESHVK_TRACE_NONE ? p : info.peer;
      std::string path = set ? CopyPathName(set, src, p) : (src == p ? "local" : "peer");
      CommandRef producer, consumer;
      FindCopyEnds(module, function, p, c, &producer, &consumer);
      std::string from =
          producer.valid() ? Node(producer.process, producer.command) : "p" + std::to_string(src) + "_in";
      std::string to = consumer.valid() ? Node(consumer.process, consumer.command) : "p" + std::to_string(p) + "_out";
      out += "  " + from + " -> " + to + " [class=\"copy\", label=\"" + Bytes(info.bytes) + "\\n" + path +
             "\", tooltip=\"copy #" + std::to_string(c) + " of process " + std::to_string(p) + ": " +
             std::to_string(info.bytes) + " bytes from process " + std::to_string(src) + " (" + path + "), phase " +
             std::to_string(info.phase) + "\", bytes=" + std::to_string(info.bytes) + ", color=\"" +
             (src == p ? "#5f6368" : "#d93025") + "\"];\n";
    }
  }
  out += "}\n";
  return out;
}

bool WritePlanGraph(const std::string& path, const meshvk_module_t* module, uint32_t function,
                    const meshvk_device_set_t* set, std::string* error) {
  std::string text = PlanGraphDot(module, function, set);
  OutputFiles file;
  return file.StageBytes(path, text.data(), text.size(), error) && file.Commit(error);
}

}  // namespace meshvk_run
