// Flag spellings and did-you-mean (see flag_spelling.h).
#include "flag_spelling.h"

#include <algorithm>

namespace meshvk_run {
namespace {

// Where the name starts (after one or two dashes), or npos for a non-flag.
size_t NameStart(const std::string& arg) {
  if (arg.size() < 2 || arg[0] != '-' || arg == "--") return std::string::npos;
  const size_t start = arg[1] == '-' ? 2 : 1;
  return start < arg.size() && arg[start] != '-' && arg[start] != '=' ? start : std::string::npos;
}

std::string Dashed(std::string name) {
  std::replace(name.begin(), name.end(), '_', '-');
  return name;
}

// Edit distance with adjacent transpositions (optimal string alignment):
// "devcies" is one step from "devices".
size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

}  // namespace

std::string FlagName(const std::string& arg) {
  const size_t start = NameStart(arg);
  if (start == std::string::npos) return "";
  return arg.substr(start, arg.find('=', start) - start);
}

std::vector<std::string> DashSpelling(const std::vector<std::string>& args,
                                      const std::function<bool(const std::string&)>& known) {
  std::vector<std::string> out;
  bool flags_end = false;
  for (const std::string& arg : args) {
    flags_end |= arg == "--";
    const std::string name = flags_end ? "" : FlagName(arg);
    const std::string dashed = Dashed(name);
    if (dashed == name || known(name) || !known(dashed)) {
      out.push_back(arg);
      continue;
    }
    const size_t start = NameStart(arg);
    out.push_back(arg.substr(0, start) + dashed + arg.substr(start + name.size()));
  }
  return out;
}

std::string UnknownFlagMessage(const std::string& arg, const std::vector<std::string>& known) {
  const std::string name = FlagName(arg);
  const std::string flag = name.empty() ? arg : arg.substr(0, NameStart(arg) + name.size());
  std::string message = "unknown flag '" + flag + "'";
  const std::string wanted = Dashed(name);
  std::string best;
  size_t best_distance = std::string::npos;
  for (const std::string& candidate : known) {
    if (candidate.size() < 2) continue;  // -v, -o: any short typo is one step from them
    const size_t distance = EditDistance(wanted, Dashed(candidate));
    if (distance < best_distance) best = candidate, best_distance = distance;
  }
  // Close: a third of the name may be wrong (two steps in "print-plnn"), at least one step.
  if (!best.empty() && best_distance <= std::max<size_t>(1, wanted.size() / 3))
    message += "; did you mean --" + best + "?";
  return message;
}

}  // namespace meshvk_run
