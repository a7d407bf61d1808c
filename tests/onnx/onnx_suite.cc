// The ONNX backend test suite (libonnx-testdata 1.12: node, simple,
// pytorch-converted, pytorch-operator) through meshvk: every case's model.onnx
// is imported (meshvk::importOnnxFile), compiled for a grid of one and run on
// the first Vulkan device, and each output is compared with the shipped
// test_data_set_0/output_N.pb (f32: rtol 1e-3, atol 1e-5; f16: 1e-2 / 1e-3;
// integers and bools exact; NaN equals NaN). The oracle is ONNX's own data.
//
// Each case runs in a forked child (a crash or a hang is that case's verdict,
// not the suite's end). One line per case: PASS, REFUSED (the one-line
// reason), WRONG (the first mismatch) or CRASHED (the signal). The suite fails
// on any WRONG or CRASHED case, and on a refusal that the expected-refusals
// list does not hold.
//
// With --data-parallel=N every case whose first input has N or more rows is
// imported with the data policy (leading dimensions split over a grid of N)
// and run on N processes, against the same shipped outputs.
//
// usage: onnx_suite EXPECTED_REFUSALS.txt SUITE_DIR... [--filter=SUBSTRING] [-j N]
//          [--data-parallel=N] [--write-expected=PATH]
#include <dirent.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "case_runner.h"

namespace {

struct Case {
  std::string suite, name, dir;
};

std::vector<std::string> ListDirectory(const std::string& path) {
  std::vector<std::string> names;
  if (DIR* d = opendir(path.c_str())) {
    while (dirent* e = readdir(d))
      if (e->d_name[0] != '.') names.push_back(e->d_name);
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

// "suite/case: reason" lines; '#' starts a comment.
std::map<std::string, std::string> ReadExpected(const std::string& path) {
  std::map<std::string, std::string> expected;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    size_t colon = line.find(':');
    expected[line.substr(0, colon)] = colon == std::string::npos ? "" : line.substr(colon + 2);
  }
  return expected;
}

struct Running {
  pid_t pid;
  int fd;
  Case c;
  std::string text;
  std::chrono::steady_clock::time_point start;
};

constexpr int kCaseSeconds = 120;

std::string Verdict(Running& r, int status) {
  if (WIFSIGNALED(status))
    return "CRASHED signal " + std::to_string(WTERMSIG(status)) + (WTERMSIG(status) == SIGKILL ? " (timeout)" : "");
  if (r.text.empty()) return "CRASHED exit " + std::to_string(WEXITSTATUS(status)) + " without a verdict";
  std::string line = r.text.substr(0, r.text.find('\n'));
  // The importer's list of every op it lowers is noise in a per-case line.
  size_t list = line.find(" (supported: ");
  if (list != std::string::npos && line.size() - list > 200) line = line.substr(0, list) + " (supported: ...)";
  return line;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: onnx_suite EXPECTED_REFUSALS.txt SUITE_DIR... [--filter=S] [-j N] [--write-expected=PATH]\n";
    return 2;
  }
  std::string expectedPath = argv[1], filter, writeExpected;
  int jobs = 2, devices = 1;
  std::vector<Case> cases;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--filter=", 0) == 0) {
      filter = a.substr(9);
    } else if (a.rfind("--write-expected=", 0) == 0) {
      writeExpected = a.substr(17);
    } else if (a.rfind("--data-parallel=", 0) == 0) {
      devices = std::max(1, std::atoi(a.c_str() + 16));
    } else if (a == "-j" && i + 1 < argc) {
      jobs = std::max(1, std::atoi(argv[++i]));
    } else {
      std::string suite = a.substr(a.find_last_of('/') + 1);
      for (const std::string& name : ListDirectory(a)) cases.push_back({suite, name, a + "/" + name});
    }
  }
  std::map<std::string, std::string> expected = ReadExpected(expectedPath);
  std::map<std::string, std::array<int, 4>> counts;  // suite -> pass, refused, wrong, crashed
  std::map<std::string, int> reasons;
  std::vector<std::string> failures, refusalLines;
  std::vector<Running> running;
  size_t next = 0;
  auto finish = [&](Running& r, int status) {
    std::string verdict = Verdict(r, status);
    std::string key = r.c.suite + "/" + r.c.name;
    auto& count = counts[r.c.suite];
    std::cout << key << ": " << verdict << "\n" << std::flush;
    if (verdict == "SKIP") {
      return;  // fewer rows than processes: nothing to split
    } else if (verdict.rfind("PASS", 0) == 0) {
      ++count[0];
      if (expected.count(key)) std::cout << "  (listed as refused, now passes: remove it from the list)\n";
    } else if (verdict.rfind("REFUSED", 0) == 0) {
      ++count[1];
      std::string reason = verdict.substr(8);
      refusalLines.push_back(key + ": " + reason);
      ++reasons[meshvk_onnx_suite::ReasonGroup(reason)];
      if (!expected.count(key)) failures.push_back(key + ": a refusal not in the expected list: " + reason);
    } else if (verdict.rfind("WRONG", 0) == 0) {
      ++count[2];
      failures.push_back(key + ": " + verdict);
    } else {
      ++count[3];
      failures.push_back(key + ": " + verdict);
    }
  };
  while (next < cases.size() || !running.empty()) {
    while (running.size() < static_cast<size_t>(jobs) && next < cases.size()) {
      const Case& c = cases[next++];
      if (!filter.empty() && (c.suite + "/" + c.name).find(filter) == std::string::npos) continue;
      int fds[2];
      if (pipe(fds) != 0) return 2;
      pid_t pid = fork();
      if (pid == 0) {
        close(fds[0]);
        alarm(kCaseSeconds);
        std::string verdict = meshvk_onnx_suite::RunCase(c.dir, devices) + "\n";
        ssize_t ignored = write(fds[1], verdict.data(), verdict.size());
        (void)ignored;
        _exit(0);
      }
      close(fds[1]);
      running.push_back({pid, fds[0], c, "", std::chrono::steady_clock::now()});
    }
    std::vector<pollfd> polls;
    for (const Running& r : running) polls.push_back({r.fd, POLLIN, 0});
    poll(polls.data(), polls.size(), 1000);
    for (size_t i = 0; i < running.size();) {
      Running& r = running[i];
      char buffer[4096];
      bool closed = false;
      if (polls[i].revents & (POLLIN | POLLHUP)) {
        ssize_t n = read(r.fd, buffer, sizeof buffer);
        if (n > 0)
          r.text.append(buffer, n);
        else
          closed = true;
      }
      if (!closed) {
        ++i;
        continue;
      }
      int status = 0;
      waitpid(r.pid, &status, 0);
      close(r.fd);
      finish(r, status);
      running.erase(running.begin() + i);
      polls.erase(polls.begin() + i);
    }
  }
  std::cout << "\nsuite                 pass refused wrong crashed\n";
  for (const auto& [suite, c] : counts) std::printf("%-20s %5d %7d %5d %7d\n", suite.c_str(), c[0], c[1], c[2], c[3]);
  std::cout << "\nrefusals by reason:\n";
  std::vector<std::pair<int, std::string>> sorted;
  for (const auto& [reason, n] : reasons) sorted.push_back({-n, reason});
  std::sort(sorted.begin(), sorted.end());
  for (const auto& [n, reason] : sorted) std::printf("%5d  %s\n", -n, reason.c_str());
  if (!writeExpected.empty()) {
    std::ofstream out(writeExpected);
    out << "# ONNX backend cases meshvk refuses (suite/case: the one-line reason).\n"
           "# tests/onnx/onnx_suite fails on a refusal not listed here.\n";
    std::sort(refusalLines.begin(), refusalLines.end());
    for (const std::string& line : refusalLines) out << line << "\n";
  }
  std::cout << "\n" << failures.size() << " failures\n";
  for (const std::string& f : failures) std::cout << "  " << f << "\n";
  return failures.empty() ? 0 : 1;
}
