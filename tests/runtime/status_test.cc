// meshvk_status_t: NULL is OK, codes have names, messages survive until free.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "meshvk/meshvk.h"

namespace {

TEST(StatusTest, NullIsOk) {
  EXPECT_EQ(meshvk_status_code(MESHVK_OK), MESHVK_STATUS_OK);
  EXPECT_STREQ(meshvk_status_message(MESHVK_OK), "");
  meshvk_status_free(MESHVK_OK);  // a no-op
}

TEST(StatusTest, EveryCodeHasADistinctName) {
  const meshvk_status_code_t codes[] = {MESHVK_STATUS_OK,
                                        MESHVK_STATUS_INVALID_ARGUMENT,
                                        MESHVK_STATUS_OUT_OF_RANGE,
                                        MESHVK_STATUS_FAILED_PRECONDITION,
                                        MESHVK_STATUS_RESOURCE_EXHAUSTED,
                                        MESHVK_STATUS_UNAVAILABLE,
                                        MESHVK_STATUS_UNIMPLEMENTED,
                                        MESHVK_STATUS_DEADLINE_EXCEEDED,
                                        MESHVK_STATUS_DEVICE_LOST,
                                        MESHVK_STATUS_DATA_LOSS,
                                        MESHVK_STATUS_INTERNAL};
  std::set<std::string> names;
  for (auto code : codes) names.insert(meshvk_status_code_name(code));
  EXPECT_EQ(names.size(), sizeof(codes) / sizeof(codes[0]));
  EXPECT_STREQ(meshvk_status_code_name(MESHVK_STATUS_OUT_OF_RANGE), "OUT_OF_RANGE");
  EXPECT_STREQ(meshvk_status_code_name(static_cast<meshvk_status_code_t>(99)), "UNKNOWN");
}

TEST(StatusTest, ErrorCarriesCodeAndMessage) {
  // A real error from the API: an instance query with a NULL output.
  meshvk_status_t status = meshvk_instance_physical_device_info(nullptr, 0, nullptr);
  ASSERT_NE(status, MESHVK_OK);
  EXPECT_EQ(meshvk_status_code(status), MESHVK_STATUS_INVALID_ARGUMENT);
  EXPECT_NE(std::string(meshvk_status_message(status)).find("meshvk_instance_physical_device_info"), std::string::npos);
  meshvk_status_free(status);
}

}  // namespace
