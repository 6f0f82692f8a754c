//===- npy_test.cpp - .npy reading and writing, byte for byte -------------===//
#include <catch2/catch.hpp>
#include <string>

#include "runtime/npy.h"

using namespace pir::runtime;

namespace {

// What numpy 1.x writes for np.save(f, np.arange(6, dtype='<f4').reshape(2, 3)):
// a 118-byte dict padded to a 128-byte prefix.
std::string header(std::string_view dict, int major = 1) {
  std::string h("\x93NUMPY", 6);
  h += char(major);
  h += char(0);
  size_t prefix = major == 1 ? 10 : 12;
  size_t total = (prefix + dict.size() + 1 + 63) / 64 * 64;
  std::string d(dict);
  d.append(total - prefix - d.size() - 1, ' ');
  d += '\n';
  for (size_t i = 0; i < prefix - 8; ++i) h += char((d.size() >> (8 * i)) & 0xff);
  return h + d;
}

std::string floats(std::initializer_list<float> v) {
  std::string s;
  for (float f : v) s.append(reinterpret_cast<const char*>(&f), 4);
  return s;
}

}  // namespace

TEST_CASE("a written f32 array is byte-identical to numpy's", "[npy]") {
  Tensor t = Tensor::allocate(DataType::F32, {2, 3});
  for (int i = 0; i < 6; ++i) t.data<float>()[i] = float(i);
  std::string expected("\x93NUMPY\x01\x00\x76\x00", 10);
  expected += "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  expected.append(128 - expected.size() - 1, ' ');
  expected += '\n';
  expected += floats({0, 1, 2, 3, 4, 5});
  CHECK(encodeNpy(t) == expected);
}

TEST_CASE("1-D and 0-D shapes print as numpy tuples", "[npy]") {
  Tensor v = Tensor::zeros(DataType::I64, std::vector<int64_t>{4});
  std::string e = encodeNpy(v);
  CHECK(e.find("'shape': (4,), }") != std::string::npos);
  CHECK(e.find("'descr': '<i8'") != std::string::npos);
  CHECK(e.size() == 128 + 32);  // numpy pads this header to 128 too
  Tensor s = Tensor::zeros(DataType::Bool, std::vector<int64_t>{});
  CHECK(encodeNpy(s).find("'descr': '|b1', 'fortran_order': False, 'shape': (), }") != std::string::npos);
}

TEST_CASE("write then read gives the same tensor for every dtype", "[npy]") {
  for (DataType dt : {DataType::F32, DataType::F64, DataType::I32, DataType::I64, DataType::Bool, DataType::U8}) {
    Tensor t = Tensor::zeros(dt, std::vector<int64_t>{3, 2});
    auto* b = static_cast<unsigned char*>(t.raw());
    for (size_t i = 0; i < t.bytes(); ++i) b[i] = dt == DataType::Bool ? (i % 2) : static_cast<unsigned char>(i * 7);
    auto r = parseNpy(encodeNpy(t));
    REQUIRE(r);
    CHECK(r->dtype() == dt);
    CHECK(std::vector<int64_t>(r->shape().begin(), r->shape().end()) == std::vector<int64_t>{3, 2});
    CHECK(std::memcmp(r->raw(), t.raw(), t.bytes()) == 0);
  }
}

TEST_CASE("bf16 is written as f32", "[npy]") {
  Tensor t = Tensor::allocate(DataType::BF16, {2});
  t.data<BFloat16>()[0] = BFloat16::fromFloat(1.5f);
  t.data<BFloat16>()[1] = BFloat16::fromFloat(-2.0f);
  auto r = parseNpy(encodeNpy(t));
  REQUIRE(r);
  CHECK(r->dtype() == DataType::F32);
  CHECK(r->data<float>()[0] == 1.5f);
  CHECK(r->data<float>()[1] == -2.0f);
  Tensor back = convertFloat(*r, DataType::BF16);
  CHECK(back.data<BFloat16>()[0].bits == t.data<BFloat16>()[0].bits);
}

TEST_CASE("versions 2 and 3 read, with 32-bit header lengths", "[npy]") {
  for (int major : {2, 3}) {
    std::string f = header("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", major) + floats({3, 4});
    CHECK(f.size() == 128 + 8);
    auto r = parseNpy(f);
    REQUIRE(r);
    CHECK(r->numel() == 2);
    CHECK(r->data<float>()[1] == 4.0f);
  }
  // key order and spacing are free; '=' and '|' byte orders are fine
  auto r = parseNpy(header("{'shape':(1,1),'fortran_order':False,'descr':'=i4'}") + std::string(4, '\x01'));
  REQUIRE(r);
  CHECK(r->dtype() == DataType::I32);
  CHECK(r->data<int32_t>()[0] == 0x01010101);
}

TEST_CASE("refused .npy files say why", "[npy]") {
  auto msg = [](const std::string& bytes) {
    auto r = parseNpy(bytes);
    REQUIRE(!r);
    return r.status().message();
  };
  CHECK(msg(header("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }") + floats({1, 2, 3, 4})) ==
        "Fortran-order arrays are not supported (save with np.ascontiguousarray)");
  CHECK(msg(header("{'descr': '|O', 'fortran_order': False, 'shape': (1,), }") + std::string(8, '\0')) ==
        "object arrays are not supported");
  CHECK(msg(header("{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }") + floats({1})) ==
        "big-endian data ('>f4') is not supported");
  CHECK(msg(header("{'descr': '<f2', 'fortran_order': False, 'shape': (1,), }") + "ab") ==
        "unsupported .npy dtype '<f2' (the runner reads f4, f8, i4, i8, b1 and u1)");
  CHECK(msg(header("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }") + floats({1})) ==
        "structured dtypes are not supported");
  CHECK(msg(header("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }") + floats({1})) ==
        "truncated .npy data: 4 bytes, the shape needs 12");
  CHECK(msg("PK\x03\x04 not numpy") == "not a .npy file (no \\x93NUMPY magic)");
  CHECK(msg(header("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", 4)) == "unsupported .npy version 4");
}

TEST_CASE("a file that is not there is an error naming it", "[npy]") {
  auto r = readNpy("/nonexistent/x.npy");
  REQUIRE(!r);
  CHECK(r.status().message() == "/nonexistent/x.npy: cannot open");
}
