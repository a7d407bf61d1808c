// Unit tests of mesh-vk-run's input parsing and comparison (tensor_io.cc,
// compare.cc): half-float conversion against hand-computed bit patterns,
// .npy variants numpy writes (format 1/2/3, 1-D and scalar shapes), and the
// numpy.isclose rules. The CLI tests cover the same parsers end to end.
#include "tensor_io.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "compare.h"
#include "npy_header.h"
#include "output_files.h"

namespace meshvk_run {
namespace {

TEST(Half, KnownBitPatterns) {
  // IEEE binary16 values computed by hand.
  EXPECT_EQ(FloatToHalf(0.0f), 0x0000);
  EXPECT_EQ(FloatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(FloatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(FloatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(FloatToHalf(0.5f), 0x3800);
  EXPECT_EQ(FloatToHalf(65504.0f), 0x7bff);                          // largest finite
  EXPECT_EQ(FloatToHalf(65520.0f), 0x7c00);                          // rounds up to inf
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -24)), 0x0001);             // smallest subnormal
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -14)), 0x0400);             // smallest normal
  EXPECT_EQ(FloatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3c00);      // tie -> even
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
  ASSERT_TRUE(ReadNpy(Write("v1.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (5,), }\n", five), &t, &error))
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
  EXPECT_FALSE(
      ReadNpy(Write("zero.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 2)}", data), &t, &error));
  EXPECT_NE(error.find("zero dimension"), std::string::npos) << error;
  EXPECT_FALSE(ReadNpy(Write("open.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (2,", data), &t, &error));
  EXPECT_NE(error.find("'shape' is not terminated"), std::string::npos) << error;
  EXPECT_FALSE(
      ReadNpy(Write("trail.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (1,)}", data), &t, &error));
  EXPECT_NE(error.find("8 data bytes, shape 1 of f32 needs 4 (trailing bytes)"), std::string::npos) << error;
  // Header length past the end of the file.
  std::string path = ::testing::TempDir() + "/long.npy";
  FILE* f = std::fopen(path.c_str(), "wb");
  std::fwrite("\x93NUMPY\x01\x00\x00\x01{", 1, 11, f);
  std::fclose(f);
  EXPECT_FALSE(ReadNpy(path, &t, &error));
  EXPECT_NE(error.find("truncated .npy header"), std::string::npos) << error;
}

// Headers numpy would read differently from a substring search, or not at
// all: each is refused with its own reason (issue 13).
TEST_F(NpyTest, HeaderIsParsedAsTheDictNumpyReads) {
  std::vector<uint8_t> data(8);
  HostTensor t;
  std::string error;
  auto refused = [&](const std::string& name, const std::string& header, const std::string& why) {
    SCOPED_TRACE(name);
    EXPECT_FALSE(ReadNpy(Write(name, header, data), &t, &error));
    EXPECT_NE(error.find(why), std::string::npos) << error;
  };
  // Python keeps the last of two equal keys: a substring search took the first.
  refused("twice.npy", "{'descr': '<f4', 'descr': '<i4', 'fortran_order': False, 'shape': (2,)}",
          "key 'descr' appears twice");
  refused("int.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (2)}", "an int, not a tuple");
  refused("extra.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': True}", "unexpected key 'x'");
  refused("hidden.npy", "{'descr': '<f4', 'fortran_order': False, 'note': \"'shape': (2,)\", 'shape': (1, 2)}",
          "unexpected key 'note'");  // a key inside a string value is no key
  refused("hex.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (0x2,)}", "entry '0x2'");
  refused("zeros.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (02,)}", "entry '02'");
  refused("nested.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': ((2),)}", "entry ''");
  refused("concat.npy", "{'descr': '<' 'f4', 'fortran_order': False, 'shape': (2,)}", "adjacent strings");
  refused("comment.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (2,)} # x", "after the dict");
  refused("fo.npy", "{'descr': '<f4', 'fortran_order': 0, 'shape': (2,)}", "'fortran_order' has an unsupported value");
  refused("rank.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1,1)}", "rank 9");
  // 2^32 x 2^32 wraps to 0 in 64 bits: checked.
  refused("wrap.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296)}",
          "more than 2^32 elements");
  // numpy.lib.format refuses headers over 10000 bytes.
  refused("huge.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (2,)}" + std::string(10000, ' '),
          "longer than numpy's limit of 10000");
  // What numpy itself writes, with odd but valid spacing and quotes.
  data.resize(8);
  ASSERT_TRUE(
      ReadNpy(Write("ok.npy", "{ \"shape\" : ( 2 , ) ,'fortran_order':False,'descr':'<f4'}   \n", data), &t, &error))
      << error;
  EXPECT_EQ(t.shape, std::vector<uint64_t>{2});
}

TEST_F(NpyTest, SizesAreCheckedBeforeReading) {
  HostTensor t, expected;
  std::string error;
  // The spec's type is compared with the header before any data is read.
  expected.shape = {4, 3};
  std::string path =
      Write("other.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (2,)}", {0, 0, 0, 0, 0, 0, 0, 0});
  EXPECT_FALSE(ReadNpy(path, &t, &error, &expected));
  EXPECT_NE(error.find("holds 2xf32 but the spec says 4x3xf32"), std::string::npos) << error;
  // Not a regular file: read at most one byte past the expected size.
  EXPECT_FALSE(ParseTensorSpec("4x3xf32=@/dev/zero", &t, &error));
  EXPECT_NE(error.find("/dev/zero: more than 48 bytes"), std::string::npos) << error;
  EXPECT_FALSE(ReadNpy("/dev/zero", &t, &error));
  EXPECT_NE(error.find("not a .npy file"), std::string::npos) << error;
  EXPECT_FALSE(ParseTensorSpec("4x3xf32=@" + ::testing::TempDir(), &t, &error));
  EXPECT_NE(error.find("Is a directory"), std::string::npos) << error;
}

TEST(TensorSpec, TypeOnlyAndCheckedCounts) {
  HostTensor t;
  std::string error;
  ASSERT_TRUE(ParseTensorType("65536x65536xf32=1", &t, &error)) << error;  // 2^32: allowed, nothing allocated
  EXPECT_TRUE(t.data.empty());
  EXPECT_EQ(t.element_count(), uint64_t(1) << 32);
  EXPECT_FALSE(ParseTensorType("4294967296x4294967296xf32=1", &t, &error));  // wraps to 0 unchecked
  EXPECT_NE(error.find("more than 2^32 elements"), std::string::npos) << error;
  EXPECT_FALSE(ParseTensorType("65536x65536x2xf32=1", &t, &error));
  EXPECT_FALSE(ParseTensorType("1x1x1x1x1x1x1x1x1xf32=1", &t, &error));
  EXPECT_NE(error.find("rank 9"), std::string::npos) << error;
}

TEST(OutputFiles, ModeFollowsTheUmask) {
  HostTensor t;
  std::string error;
  ASSERT_TRUE(ParseTensorSpec("2xf32=1", &t, &error));
  std::string path = ::testing::TempDir() + "/umask.npy";
  mode_t old = umask(027);
  bool ok = WriteNpy(path, t, &error);
  umask(old);
  ASSERT_TRUE(ok) << error;
  struct stat st{};
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);
}

TEST(OutputFiles, NothingIsReplacedUntilEveryFileIsWritten) {
  HostTensor t;
  std::string error;
  ASSERT_TRUE(ParseTensorSpec("2xf32=1", &t, &error));
  std::string dir = ::testing::TempDir(), first = dir + "/first.npy";
  ASSERT_TRUE(WriteNpy(first, t, &error)) << error;
  HostTensor other;
  ASSERT_TRUE(ParseTensorSpec("3xf32=7", &other, &error));
  {
    OutputFiles files;
    ASSERT_TRUE(files.Stage(first, other, &error)) << error;
    EXPECT_FALSE(files.Stage(dir + "/" + std::string(250, 'y'), other, &error));  // temporary name too long
  }
  HostTensor back;
  ASSERT_TRUE(ReadNpy(first, &back, &error)) << error;
  EXPECT_EQ(back.shape, std::vector<uint64_t>{2});  // the old file
}

TEST(OutputFiles, SigtermRemovesTheTemporaries) {
  std::string dir = ::testing::TempDir() + "/sigterm";
  mkdir(dir.c_str(), 0777);
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    HostTensor t;
    std::string error;
    OutputFiles files;
    if (!ParseTensorSpec("2xf32=1", &t, &error) || !files.Stage(dir + "/a.npy", t, &error) ||
        !files.Stage(dir + "/b.npy", t, &error))
      _exit(1);
    kill(getpid(), SIGTERM);
    _exit(2);  // not reached
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status)) << status;
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
  std::string listing;
  for (const char* name : {"a.npy", "b.npy"}) {
    std::string glob = dir + "/" + name;
    EXPECT_NE(access(glob.c_str(), F_OK), 0) << glob;
  }
  FILE* ls = popen(("ls -A " + dir).c_str(), "r");
  char buf[256];
  while (ls && fgets(buf, sizeof(buf), ls)) listing += buf;
  if (ls) pclose(ls);
  EXPECT_EQ(listing, "") << "left behind: " << listing;
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
  EXPECT_TRUE(TensorsClose(Floats({nan, -nan}), Floats({nan, nan}), tol, &report));  // equal_nan=True
  EXPECT_FALSE(TensorsClose(Floats({1.0f}), Floats({nan}), tol, &report));
  EXPECT_FALSE(TensorsClose(Floats({nan}), Floats({1.0f}), tol, &report));
  EXPECT_FALSE(TensorsClose(Floats({nan}), Floats({inf}), tol, &report));
  EXPECT_FALSE(TensorsClose(Floats({inf}), Floats({1e30f}), Tolerance{1e38, 0}, &report));
  EXPECT_FALSE(TensorsClose(Floats({1.0f, 2.0f}), Floats({1.0f}), tol, &report));
  EXPECT_NE(report.find("result is 2xf32, expected 1xf32"), std::string::npos) << report;
}

}  // namespace
}  // namespace meshvk_run
