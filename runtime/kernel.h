//===- kernel.h - what a kernel sees and how it is found --------*- C++ -*-===//
//
// A kernel computes one op on one rank: it reads its operands, sets its
// results and returns a Status (no exception leaves a kernel). Kernels are
// found through the op table (core/op_table.h): the registry maps
// OpInfo::index() to a function, so finding one is an array read, done once
// per op when the executor compiles its plan.
//
// Conventions the executor keeps for every kernel:
//   - an absent optional operand (`<<NULL VALUE>>`) is a null pointer;
//   - a `vec[..]` operand or result (builtin.combine's) is a list value;
//   - a result whose type is `<<NULL TYPE>>` is not materialised (left empty);
//   - for an in-place pair of the op table (relu_: x -> out) the result
//     arrives preset to the operand's tensor, so writing results[i] writes
//     the operand's buffer; every other result arrives empty and the kernel
//     allocates it (it knows the output shape from the operands);
//   - attributes are read with core/attr_access.h from `op`;
//   - an operand no later op reads and nothing else holds (reusable(i)) may
//     become a result: an elementwise kernel writes there instead of into a
//     new buffer (kernels/math_util.h's reuseOrAllocate).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/op_table.h"
#include "core/operation.h"
#include "core/status.h"
#include "runtime/tensor.h"

namespace pir::runtime {

class Communicator;  // runtime/comm/communicator.h

/// One value at run time: a tensor, or the elements of a vec.
struct RuntimeValue {
  Tensor tensor;
  std::vector<Tensor> elements;
  bool isList = false;
};

struct KernelContext {
  const core::Operation& op;
  std::span<const RuntimeValue* const> operands;  // null: absent optional operand
  std::span<RuntimeValue> results;
  Communicator* comm = nullptr;  // the rank's communicator (collectives, send/recv)
  uint64_t dying = 0;            // bit i: operand i's value is read by no later op (the executor's plan)

  bool has(size_t i) const { return i < operands.size() && operands[i] != nullptr; }
  /// Whether operand i's buffer may hold a result: its value dies at this op
  /// and no other tensor (a view, a feed, a fetch, another rank's message)
  /// shares its storage, so writing it is seen by no one.
  bool reusable(size_t i) const {
    return i < 64 && (dying >> i & 1) && has(i) && !operands[i]->isList && operands[i]->tensor.ownsStorageAlone();
  }
  const Tensor& in(size_t i) const { return operands[i]->tensor; }
  const std::vector<Tensor>& inList(size_t i) const { return operands[i]->elements; }
  Tensor& out(size_t i) { return results[i].tensor; }
  void setOut(size_t i, Tensor t) { results[i].tensor = std::move(t); }
  void setOutList(size_t i, std::vector<Tensor> ts) {
    results[i].elements = std::move(ts);
    results[i].isList = true;
  }
};

using KernelFn = core::Status (*)(KernelContext&);

/// The dtypes a kernel accepts, as a bit set: the dtype of its main input
/// (for a comparison its inputs, for a creation op such as full or arange
/// the results it can make, for a communication op what it moves). Given at
/// registration and checked against the code by
/// runtime/tests/kernel_dtypes_test.cpp; pir-run --list-kernels prints it.
enum DtypeBits : uint8_t { kF32 = 1, kF64 = 2, kBF16 = 4, kI32 = 8, kI64 = 16, kBool = 32 };
using DtypeSet = uint8_t;
constexpr DtypeSet kFloats = kF32 | kF64 | kBF16;
constexpr DtypeSet kInts = kI32 | kI64;
constexpr DtypeSet kNumbers = kFloats | kInts;
constexpr DtypeSet kAllDtypes = kNumbers | kBool;

/// The bit of `dtype` (0 for a dtype the runner does not run).
DtypeSet dtypeBit(DataType dtype);
/// `f32 f64 bf16 i32 i64 bool`: the names of the dtypes in `set`, in that
/// order, separated by spaces.
std::string dtypeSetText(DtypeSet set);

/// Kernels by op. Built once (kernelRegistry()), then read-only and safe to
/// share between rank threads.
class KernelRegistry {
 public:
  KernelRegistry();
  /// Registers `fn` for `opName`, which must have an op table entry (a
  /// programming error otherwise: it aborts at start-up, not at run time),
  /// accepting the dtypes `dtypes` (0: not given, as a test's stand-in
  /// kernel; every kernel of kernelRegistry() gives them).
  void add(std::string_view opName, KernelFn fn, DtypeSet dtypes = 0);
  /// The kernel for `info`, or null.
  KernelFn find(const core::OpInfo* info) const {
    return info && info->index() < kernels_.size() ? kernels_[info->index()] : nullptr;
  }
  KernelFn find(std::string_view opName) const { return find(core::lookupOp(opName)); }
  /// The dtypes the kernel for `info` accepts (0 without a kernel).
  DtypeSet dtypesOf(const core::OpInfo* info) const {
    return info && info->index() < dtypes_.size() ? dtypes_[info->index()] : 0;
  }
  /// Op names with a kernel, in op table order (for tests; a pir-run
  /// --list-kernels is the real-programs issue's to add).
  std::vector<std::string_view> names() const;

 private:
  std::vector<KernelFn> kernels_;
  std::vector<DtypeSet> dtypes_;
};

/// Every kernel of the runner (runtime/kernels/register_all.cpp).
const KernelRegistry& kernelRegistry();

}  // namespace pir::runtime
