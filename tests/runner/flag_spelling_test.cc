// Flag spellings, did-you-mean and runtime messages in a user's words
// (samples/mesh-vk-run/flag_spelling.h, status_text.h), without a device.
#include "flag_spelling.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "status_text.h"

namespace meshvk_run {
namespace {

const std::vector<std::string> kKnown = {
    "help",    "h",    "v", "verbose", "list-devices", "print-plan", "expected-output", "print-max-element-count",
    "devices", "input"};

bool Known(const std::string& name) { return std::find(kKnown.begin(), kKnown.end(), name) != kKnown.end(); }

TEST(FlagSpelling, UnderscoresBecomeDashesInKnownNamesOnly) {
  const std::vector<std::string> args = {
      "mesh-vk-run", "--expected_output=@c_1.npy", "-", "x_y.mlir", "--print_plnn", "-print_plan", "-vv", "--",
      "--print_plan"};
  const std::vector<std::string> want = {
      "mesh-vk-run", "--expected-output=@c_1.npy", "-", "x_y.mlir", "--print_plnn", "-print-plan", "-vv", "--",
      "--print_plan"};
  EXPECT_EQ(DashSpelling(args, Known), want);
}

TEST(FlagSpelling, ANameKnownAsWrittenStays) {
  auto known = [](const std::string& name) { return name == "odd_name" || name == "odd-name"; };
  EXPECT_EQ(DashSpelling({"--odd_name=1"}, known), std::vector<std::string>{"--odd_name=1"});
}

TEST(FlagSpelling, FlagName) {
  const std::pair<std::string, std::string> cases[] = {
      {"--print_plnn=3", "print_plnn"}, {"-o", "o"}, {"-", ""}, {"--", ""}, {"prog.mlir", ""}};
  for (const auto& [arg, name] : cases) EXPECT_EQ(FlagName(arg), name) << arg;
}

TEST(FlagSpelling, DidYouMean) {
  EXPECT_EQ(UnknownFlagMessage("--print_plnn", kKnown), "unknown flag '--print_plnn'; did you mean --print-plan?");
  EXPECT_EQ(UnknownFlagMessage("--print_plnn=3", kKnown), "unknown flag '--print_plnn'; did you mean --print-plan?");
  EXPECT_EQ(UnknownFlagMessage("--devcies=2", kKnown), "unknown flag '--devcies'; did you mean --devices?");
  EXPECT_EQ(UnknownFlagMessage("--lst-devices", kKnown), "unknown flag '--lst-devices'; did you mean --list-devices?");
  // Nothing close: no guess (and never a one-letter flag).
  EXPECT_EQ(UnknownFlagMessage("--bogus", kKnown), "unknown flag '--bogus'");
  EXPECT_EQ(UnknownFlagMessage("--x", kKnown), "unknown flag '--x'");
}

TEST(StatusText, FunctionNamesLeaveUserMessages) {
  EXPECT_EQ(WithoutFunctionNames("meshvk_device_set_create: physical device 1 of 1"), "physical device 1 of 1");
  EXPECT_EQ(WithoutFunctionNames("llvmpipe: meshvk_executable_create: 9 bindings"), "llvmpipe: 9 bindings");
  EXPECT_EQ(WithoutFunctionNames("a: meshvk_a: meshvk_b: c"), "a: c");
  // Not a prefix: kept.
  EXPECT_EQ(WithoutFunctionNames("see meshvk_buffer_create for x"), "see meshvk_buffer_create for x");
  EXPECT_EQ(WithoutFunctionNames("meshvk_"), "meshvk_");
}

}  // namespace
}  // namespace meshvk_run
