#include "report.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

namespace meshvk_conformance {
namespace {

// XML attribute and text escaping (the five predefined entities; control
// characters other than tab/newline are dropped: XML 1.0 cannot carry them).
std::string XmlEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\t' || c == '\n') out += c;
    }
  }
  return out;
}

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string Number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// "copy_src|copy_dst|generic_src|generic_dst" (the set bits) or "none".
std::string FeatureList(uint32_t flags) {
  static const char* const kNames[] = {"copy_src", "copy_dst", "generic_src", "generic_dst"};
  std::string out;
  for (int i = 0; i < 4; ++i)
    if (flags >> i & 1) out += std::string(out.empty() ? "" : "|") + kNames[i];
  return out.empty() ? "none" : out;
}

Counts CountOne(const TopologyResult& t) {
  Counts c;
  for (const CaseResult& r : t.cases) {
    if (r.outcome == Outcome::kPass) ++c.pass;
    if (r.outcome == Outcome::kFail) ++c.fail;
    if (r.outcome == Outcome::kNotSupported) ++c.not_supported;
  }
  return c;
}

}  // namespace

const char* OutcomeName(Outcome outcome) {
  switch (outcome) {
    case Outcome::kPass:
      return "pass";
    case Outcome::kFail:
      return "fail";
    case Outcome::kNotSupported:
      return "not supported";
  }
  return "?";
}

Counts CountOutcomes(const std::vector<TopologyResult>& topologies) {
  Counts all;
  for (const TopologyResult& t : topologies) {
    Counts c = CountOne(t);
    all.pass += c.pass;
    all.fail += c.fail;
    all.not_supported += c.not_supported;
  }
  return all;
}

std::string SummaryText(const std::vector<TopologyResult>& topologies) {
  std::ostringstream out;
  for (const TopologyResult& t : topologies) {
    Counts c = CountOne(t);
    out << "topology " << t.name << " (" << t.description << "): " << c.pass << " pass, " << c.fail << " fail, "
        << c.not_supported << " not supported\n";
    for (const CaseResult& r : t.cases) {
      char line[160];
      std::snprintf(line, sizeof line, "  %-48s %-14s %7.3f s", r.name.c_str(), OutcomeName(r.outcome), r.seconds);
      out << line;
      if (!r.reason.empty()) out << "  " << r.reason;
      out << "\n";
    }
    if (!t.bandwidth.empty()) {
      out << "  copy bandwidth (GB/s at " << t.bandwidth.front().bytes << " B; latency of 4 B in us):\n";
      for (const Bandwidth& b : t.bandwidth) {
        char line[200];
        std::snprintf(line, sizeof line, "    %u -> %u  %-22s %8.2f GB/s  %8.1f us\n", b.src, b.dst, b.path.c_str(),
                      b.gb_per_s, b.latency_us);
        out << line;
      }
    }
    if (!t.peer_features.empty()) {
      out << "  peer memory features (vkGetDeviceGroupPeerMemoryFeatures: local device <- remote device's heap):\n";
      for (const PeerFeatures& f : t.peer_features)
        out << "    " << f.local << " <- " << f.remote << " heap " << f.heap
            << (f.device_local ? " (device-local)" : " (host)") << ": " << FeatureList(f.flags) << "\n";
    }
  }
  Counts all = CountOutcomes(topologies);
  out << "total: " << topologies.size() << " topologies, " << all.pass << " pass, " << all.fail << " fail, "
      << all.not_supported << " not supported\n";
  return out.str();
}

std::string JunitXml(const std::vector<TopologyResult>& topologies) {
  Counts all = CountOutcomes(topologies);
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites name=\"mesh-vk-conformance\" tests=\"" << all.pass + all.fail + all.not_supported
      << "\" failures=\"" << all.fail << "\" skipped=\"" << all.not_supported << "\">\n";
  for (const TopologyResult& t : topologies) {
    Counts c = CountOne(t);
    double seconds = 0;
    for (const CaseResult& r : t.cases) seconds += r.seconds;
    out << "  <testsuite name=\"" << XmlEscape(t.name) << "\" tests=\"" << t.cases.size() << "\" failures=\"" << c.fail
        << "\" errors=\"0\" skipped=\"" << c.not_supported << "\" time=\"" << Number(seconds) << "\">\n";
    out << "    <properties><property name=\"devices\" value=\"" << XmlEscape(t.description) << "\"/></properties>\n";
    for (const CaseResult& r : t.cases) {
      out << "    <testcase classname=\"" << XmlEscape(t.name) << "\" name=\"" << XmlEscape(r.name) << "\" time=\""
          << Number(r.seconds) << "\"";
      if (r.outcome == Outcome::kPass) {
        out << "/>\n";
        continue;
      }
      out << ">\n";
      if (r.outcome == Outcome::kFail)
        out << "      <failure message=\"" << XmlEscape(r.reason) << "\"/>\n";
      else
        out << "      <skipped message=\"" << XmlEscape(r.reason) << "\"/>\n";
      out << "    </testcase>\n";
    }
    out << "  </testsuite>\n";
  }
  out << "</testsuites>\n";
  return out.str();
}

std::string JsonReport(const std::vector<TopologyResult>& topologies, const std::string& machine) {
  Counts all = CountOutcomes(topologies);
  std::ostringstream out;
  out << "{\n  \"tool\": \"mesh-vk-conformance\",\n  \"machine\": " << JsonString(machine) << ",\n";
  out << "  \"counts\": {\"pass\": " << all.pass << ", \"fail\": " << all.fail
      << ", \"not_supported\": " << all.not_supported << "},\n  \"topologies\": [";
  for (size_t i = 0; i < topologies.size(); ++i) {
    const TopologyResult& t = topologies[i];
    out << (i ? "," : "") << "\n    {\"name\": " << JsonString(t.name)
        << ", \"description\": " << JsonString(t.description) << ",\n     \"cases\": [";
    for (size_t j = 0; j < t.cases.size(); ++j) {
      const CaseResult& r = t.cases[j];
      out << (j ? "," : "") << "\n       {\"name\": " << JsonString(r.name)
          << ", \"outcome\": " << JsonString(OutcomeName(r.outcome)) << ", \"reason\": " << JsonString(r.reason)
          << ", \"seconds\": " << Number(r.seconds) << "}";
    }
    out << "],\n     \"bandwidth\": [";
    for (size_t j = 0; j < t.bandwidth.size(); ++j) {
      const Bandwidth& b = t.bandwidth[j];
      out << (j ? "," : "") << "\n       {\"src\": " << b.src << ", \"dst\": " << b.dst
          << ", \"path\": " << JsonString(b.path) << ", \"bytes\": " << b.bytes
          << ", \"gb_per_s\": " << Number(b.gb_per_s) << ", \"latency_us\": " << Number(b.latency_us) << "}";
    }
    out << "],\n     \"peer_features\": [";
    for (size_t j = 0; j < t.peer_features.size(); ++j) {
      const PeerFeatures& f = t.peer_features[j];
      out << (j ? "," : "") << "\n       {\"heap\": " << f.heap
          << ", \"device_local\": " << (f.device_local ? "true" : "false") << ", \"local\": " << f.local
          << ", \"remote\": " << f.remote << ", \"flags\": " << f.flags
          << ", \"features\": " << JsonString(FeatureList(f.flags)) << "}";
    }
    out << "]}";
  }
  out << "\n  ]\n}\n";
  return out.str();
}

std::string WriteFileAtomically(const std::string& path, const std::string& text) {
  std::string tmp = path + ".tmp." + std::to_string(getpid());
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) return path + ": cannot write: " + std::strerror(errno);
    f << text;
    f.close();
    if (!f) {
      std::remove(tmp.c_str());
      return path + ": write failed";
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::string err = std::strerror(errno);
    std::remove(tmp.c_str());
    return path + ": cannot rename into place: " + err;
  }
  return "";
}

}  // namespace meshvk_conformance
