// Unit tests of mesh-vk-run's input parsing and comparison (tensor_io.cc,
// compare.cc): half-float conversion against hand-computed bit patterns,
// .npy variants numpy writes (format 1/2/3, 1-D and scalar shapes), and the
// numpy.isclose rules. The CLI tests cover the same parsers end to end.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "compare.h"
#include "tensor_io.h"

namespace meshvk_run {
namespace {

TEST(Half, KnownBitPatterns) {
  // IEEE binary16 values computed by hand.
  EXPECT_EQ(FloatToHalf(0.0f), 0x0000);
  EXPECT_EQ(FloatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(FloatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(FloatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(FloatToHalf(0.5f), 0x3800);
  EXPECT_EQ(FloatToHalf(65504.0f), 0x7bff);                 // largest finite
  EXPECT_EQ(FloatToHalf(65520.0f), 0x7c00);                 // rounds up to inf
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -24)), 0x0001);    // smallest subnormal
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -14)), 0x0400);    // smallest normal
  EXPECT_EQ(FloatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3c00);  // tie -> even
  EXPECT_EQ(FloatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);  // tie -> even (up)
  EXPECT_EQ(FloatToHalf(std::numeric_limits<float>::infinity()), 0x7c00);
  EXPECT_EQ(FloatToHalf(std::nanf("")) & 0x7c00, 0x7c00);
  EXPECT_NE(FloatToHalf(std::nanf("")) & 0x03ff, 0);
}

TEST(Half, EveryHalfRoundTrips) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    float f = HalfToFloat(static_cast<uint16_t>(h));
    if (std::isnan(f)) continue;
    ASSERT_EQ(FloatToHalf(f), h) << std::hex << h;
  }
  EXPECT_EQ(HalfToFloat(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(HalfToFloat(0x3555), 0.333251953125f);
}

class NpyTest : public ::testing::Test {
 protected:
  std::string Write(const std::string& name, const std::string& header, const std::vector<uint8_t>& data,
                    int major = 1) {
    std::string path = ::testing::TempDir() + "/" + name;
    FILE* f = std::fopen(path.c_str(), "wb");
    std::string prefix = std::string("\x93NUMPY", 6) + static_cast<char>(major) + '\0';
    std::fwrite(prefix.data(), 1, prefix.size(), f);
    uint32_t len = static_cast<uint32_t>(header.size());
    std::fwrite(&len, 1, major == 1 ? 2 : 4, f);
    std::fwrite(header.data(), 1, header.size(), f);
    std::fwrite(data.data(), 1, data.size(), f);
    std::fclose(f);
    return path;
  }
};

TEST_F(NpyTest, FormatsAndShapesNumpyWrites) {
  std::vector<uint8_t> five(20);
  float one = 1.0f;
  for (int i = 0; i < 5; ++i) std::memcpy(&five[4 * i], &one, 4);
  HostTensor t;
  std::string error;
  ASSERT_TRUE(ReadNpy(Write("v1.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (5,), }\n", five), &t,
                      &error))
      << error;
  EXPECT_EQ(t.shape, std::vector<uint64_t>{5});
  EXPECT_EQ(t.At(4), 1.0);
  ASSERT_TRUE(ReadNpy(Write("v2.npy", "{\"descr\": \"<i4\", \"fortran_order\": False, \"shape\": (1, 5)}\n", five, 2),
                      &t, &error))
      << error;
  EXPECT_EQ(t.type, MESHVK_ELEMENT_I32);
  EXPECT_EQ(t.shape, (std::vector<uint64_t>{1, 5}));
  ASSERT_TRUE(ReadNpy(Write("v3.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (), }\n",
                            std::vector<uint8_t>(five.begin(), five.begin() + 4), 3),
                      &t, &error))
      << error;
  EXPECT_TRUE(t.shape.empty());
  EXPECT_EQ(t.element_count(), 1u);
}

TEST_F(NpyTest, BrokenHeaders) {
  std::vector<uint8_t> data(8);
  HostTensor t;
  std::string error;
  EXPECT_FALSE(ReadNpy(Write("v9.npy", "{}", data, 9), &t, &error));
  EXPECT_NE(error.find("unsupported .npy format version 9"), std::string::npos) << error;
  EXPECT_FALSE(ReadNpy(Write("nodescr.npy", "{'shape': (2,)}", data), &t, &error));
  EXPECT_NE(error.find("header has no 'descr'"), std::string::npos) << error;
  EXPECT_FALSE(ReadNpy(Write("be.npy", "{'descr': '>f4', 'fortran_order': False, 'shape': (2,)}", data), &t, &error));
  EXPECT_NE(error.find("unsupported dtype '>f4'"), std::string::npos) << error;
  EXPECT_FALSE(ReadNpy(Write("zero.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 2)}", data), &t,
                       &error));
  EXPECT_NE(error.find("zero dimension"), std::string::npos) << error;
  EXPECT_FALSE(ReadNpy(Write("open.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (2,", data), &t,
                       &error));
  EXPECT_NE(error.find("'shape' is not terminated"), std::string::npos) << error;
  EXPECT_FALSE(ReadNpy(Write("trail.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (1,)}", data), &t,
                       &error));
  EXPECT_NE(error.find("8 data bytes, shape 1 of f32 needs 4 (trailing bytes)"), std::string::npos) << error;
  // Header length past the end of the file.
  std::string path = ::testing::TempDir() + "/long.npy";
  FILE* f = std::fopen(path.c_str(), "wb");
  std::fwrite("\x93NUMPY\x01\x00\xff\xff{", 1, 11, f);
  std::fclose(f);
  EXPECT_FALSE(ReadNpy(path, &t, &error));
  EXPECT_NE(error.find("truncated .npy header"), std::string::npos) << error;
}

TEST(TensorSpec, ScalarsAndSeparators) {
  HostTensor t;
  std::string error;
  ASSERT_TRUE(ParseTensorSpec("f32=2.5", &t, &error)) << error;
  EXPECT_TRUE(t.shape.empty());
  EXPECT_EQ(t.At(0), 2.5);
  ASSERT_TRUE(ParseTensorSpec("2x2xi32=1,2 3\t4", &t, &error)) << error;
  EXPECT_EQ(t.At(3), 4.0);
  ASSERT_TRUE(ParseTensorSpec("3xf16=1e-8 70000 -0.25", &t, &error)) << error;
  EXPECT_EQ(t.At(0), 0.0);  // underflows to zero in f16
  EXPECT_TRUE(std::isinf(t.At(1)));
  EXPECT_EQ(t.At(2), -0.25);
  EXPECT_FALSE(ParseTensorSpec("2x0xf32=1", &t, &error));
  EXPECT_NE(error.find("dimension 1 is '0'"), std::string::npos) << error;
  EXPECT_FALSE(ParseTensorSpec("2x-3xf32=1", &t, &error));
  EXPECT_FALSE(ParseTensorSpec("=1", &t, &error));
  EXPECT_NE(error.find("element type ''"), std::string::npos) << error;
  EXPECT_FALSE(ParseTensorSpec("2xi32=1.5 2", &t, &error));
  EXPECT_NE(error.find("'1.5' is not an i32"), std::string::npos) << error;
  EXPECT_FALSE(ParseTensorSpec("100000x100000xf32=1", &t, &error));
  EXPECT_NE(error.find("more than 2^32 elements"), std::string::npos) << error;
}

TEST(TensorSpec, NpyRoundTripThroughWriteNpy) {
  HostTensor t, back;
  std::string error;
  ASSERT_TRUE(ParseTensorSpec("2x3xf16=1 2 3 4 5 6", &t, &error));
  std::string path = ::testing::TempDir() + "/round.npy";
  ASSERT_TRUE(WriteNpy(path, t, &error)) << error;
  ASSERT_TRUE(ReadNpy(path, &back, &error)) << error;
  EXPECT_EQ(back.shape, t.shape);
  EXPECT_EQ(back.type, MESHVK_ELEMENT_F16);
  EXPECT_EQ(back.data, t.data);
}

HostTensor Floats(std::vector<float> v) {
  HostTensor t;
  t.shape = {v.size()};
  t.data.resize(4 * v.size());
  std::memcpy(t.data.data(), v.data(), t.data.size());
  return t;
}

TEST(Compare, NumpyIscloseRules) {
  Tolerance tol;  // atol 1e-8, rtol 1e-5
  std::string report;
  EXPECT_TRUE(TensorsClose(Floats({1000.0f}), Floats({1000.009f}), tol, &report));  // within rtol * |expected|
  EXPECT_FALSE(TensorsClose(Floats({1000.0f}), Floats({1000.02f}), tol, &report));
  float inf = std::numeric_limits<float>::infinity(), nan = std::nanf("");
  EXPECT_TRUE(TensorsClose(Floats({inf, -inf}), Floats({inf, -inf}), tol, &report));
  EXPECT_FALSE(TensorsClose(Floats({inf}), Floats({-inf}), tol, &report));
  EXPECT_FALSE(TensorsClose(Floats({nan}), Floats({nan}), tol, &report));  // equal_nan=False
  EXPECT_FALSE(TensorsClose(Floats({1.0f}), Floats({nan}), tol, &report));
  EXPECT_FALSE(TensorsClose(Floats({1.0f, 2.0f}), Floats({1.0f}), tol, &report));
  EXPECT_NE(report.find("result is 2xf32, expected 1xf32"), std::string::npos) << report;
}

}  // namespace
}  // namespace meshvk_run
