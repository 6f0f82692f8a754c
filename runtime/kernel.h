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
//   - attributes are read with core/attr_access.h from `op`.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <span>
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

  bool has(size_t i) const { return i < operands.size() && operands[i] != nullptr; }
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

/// Kernels by op. Built once (kernelRegistry()), then read-only and safe to
/// share between rank threads.
class KernelRegistry {
 public:
  KernelRegistry();
  /// Registers `fn` for `opName`, which must have an op table entry (a
  /// programming error otherwise: it aborts at start-up, not at run time).
  void add(std::string_view opName, KernelFn fn);
  /// The kernel for `info`, or null.
  KernelFn find(const core::OpInfo* info) const {
    return info && info->index() < kernels_.size() ? kernels_[info->index()] : nullptr;
  }
  KernelFn find(std::string_view opName) const { return find(core::lookupOp(opName)); }
  /// Op names with a kernel, in op table order (for tests; a pir-run
  /// --list-kernels is the real-programs issue's to add).
  std::vector<std::string_view> names() const;

 private:
  std::vector<KernelFn> kernels_;
};

/// Every kernel of the runner (runtime/kernels/register_all.cpp).
const KernelRegistry& kernelRegistry();

}  // namespace pir::runtime
