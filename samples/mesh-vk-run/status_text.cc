// Runtime statuses in a user's words (see status_text.h).
#include "status_text.h"

#include <algorithm>

namespace meshvk_run {

std::string WithoutFunctionNames(const std::string& message) {
  std::string out;
  size_t at = 0;
  while (at < message.size()) {
    const size_t name = message.find("meshvk_", at);
    if (name == std::string::npos) break;
    size_t end = name + 7;
    while (end < message.size() && ((message[end] >= 'a' && message[end] <= 'z') || message[end] == '_' ||
                                    (message[end] >= '0' && message[end] <= '9')))
      ++end;
    // Only a prefix: the name at the start or after ": ", followed by ": ".
    const bool prefix =
        (name == 0 || (name >= 2 && message.compare(name - 2, 2, ": ") == 0)) && message.compare(end, 2, ": ") == 0;
    out += message.substr(at, name - at);
    if (!prefix) out += message.substr(name, end - name);
    at = prefix ? end + 2 : end;
  }
  return out + message.substr(std::min(at, message.size()));
}

std::string StatusText(meshvk_status_t status) { return WithoutFunctionNames(meshvk_status_message(status)); }

}  // namespace meshvk_run
