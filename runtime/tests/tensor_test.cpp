//===- tensor_test.cpp - Tensor storage, views and bf16 -------------------===//
#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <new>

#include "runtime/kernel.h"
#include "runtime/tensor.h"

using namespace pir::runtime;

TEST_CASE("a tensor is 64-byte aligned and knows its size", "[tensor]") {
  Tensor t = Tensor::allocate(DataType::F32, {3, 5});
  CHECK(t.defined());
  CHECK(t.numel() == 15);
  CHECK(t.bytes() == 60);
  CHECK(reinterpret_cast<uintptr_t>(t.raw()) % 64 == 0);
  Tensor scalar = Tensor::zeros(DataType::I64, std::span<const int64_t>{});
  CHECK(scalar.rank() == 0);
  CHECK(scalar.numel() == 1);
  CHECK(scalar.data<int64_t>()[0] == 0);
  Tensor empty = Tensor::allocate(DataType::F64, {0, 4});
  CHECK(empty.numel() == 0);
  CHECK(empty.defined());
}

TEST_CASE("copies and views share storage, clones do not", "[tensor]") {
  Tensor a = Tensor::zeros(DataType::F32, std::vector<int64_t>{2, 3});
  Tensor b = a;
  int64_t flat[] = {6};
  Tensor v = a.view(flat);
  v.data<float>()[4] = 7.0f;
  CHECK(b.data<float>()[4] == 7.0f);
  CHECK(v.sharesStorageWith(a));
  Tensor c = a.clone();
  c.data<float>()[4] = 1.0f;
  CHECK(a.data<float>()[4] == 7.0f);
  CHECK_FALSE(c.sharesStorageWith(a));
  CHECK(v.shape().size() == 1);
  CHECK(a.shape().size() == 2);
}

TEST_CASE("bf16 rounds to nearest even and keeps NaN", "[tensor]") {
  CHECK(BFloat16::fromFloat(1.0f).bits == 0x3f80);
  CHECK(BFloat16::fromFloat(1.0f).toFloat() == 1.0f);
  // 1 + 2^-8 is halfway between two bf16 values: rounds to even (1.0).
  CHECK(BFloat16::fromFloat(1.00390625f).bits == 0x3f80);
  // 1 + 3 * 2^-8 rounds up to 1 + 2^-6.
  CHECK(BFloat16::fromFloat(1.01171875f).bits == 0x3f82);
  float nan = BFloat16::fromFloat(std::numeric_limits<float>::quiet_NaN()).toFloat();
  CHECK(nan != nan);
  CHECK(elementSize(DataType::BF16) == 2);
  CHECK(elementSize(DataType::C64) == 0);
}

TEST_CASE("the kernel registry is keyed by the op table", "[kernel]") {
  KernelRegistry r;
  CHECK(r.find("pd_op.matmul") == nullptr);
  r.add("pd_op.matmul", [](KernelContext&) { return pir::core::Status::ok(); });
  CHECK(r.find("pd_op.matmul") != nullptr);
  CHECK(r.find(pir::core::lookupOp("pd_op.matmul")) != nullptr);
  CHECK(r.find("pd_op.relu") == nullptr);
  CHECK(r.find("pd_op.no_such_op") == nullptr);
  REQUIRE(r.names().size() == 1);
  CHECK(r.names()[0] == "pd_op.matmul");
}

TEST_CASE("allocate refuses a negative dim, an overflowing count and a tensor past the byte limit", "[tensor]") {
  CHECK_THROWS_AS(Tensor::allocate(DataType::F32, {2, -1}), std::bad_alloc);
  CHECK_THROWS_AS(Tensor::allocate(DataType::F32, {int64_t(1) << 40, int64_t(1) << 40}), std::bad_alloc);
  setTensorByteLimit(64);
  CHECK(Tensor::allocate(DataType::F64, {8}).bytes() == 64);
  CHECK_THROWS_AS(Tensor::allocate(DataType::F64, {9}), std::bad_alloc);
  CHECK_THROWS_AS(Tensor::allocate(DataType::F32, {4, 5}), std::bad_alloc);
  setTensorByteLimit(std::numeric_limits<size_t>::max());
  CHECK(Tensor::allocate(DataType::F64, {9}).numel() == 9);
}
