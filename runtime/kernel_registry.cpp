//===- kernel_registry.cpp - kernels by op table entry --------------------===//
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

#include "runtime/kernel.h"

namespace pir::runtime {

void registerAllKernels(KernelRegistry& registry);  // runtime/kernels/register_all.cpp

DtypeSet dtypeBit(DataType dtype) {
  switch (dtype) {
    case DataType::F32:
      return kF32;
    case DataType::F64:
      return kF64;
    case DataType::BF16:
      return kBF16;
    case DataType::I32:
      return kI32;
    case DataType::I64:
      return kI64;
    case DataType::Bool:
      return kBool;
    default:
      return 0;
  }
}

std::string dtypeSetText(DtypeSet set) {
  static constexpr std::pair<DtypeBits, std::string_view> kNames[] = {{kF32, "f32"}, {kF64, "f64"}, {kBF16, "bf16"},
                                                                      {kI32, "i32"}, {kI64, "i64"}, {kBool, "bool"}};
  std::string s;
  for (auto [bit, name] : kNames)
    if (set & bit) s += (s.empty() ? "" : " ") + std::string(name);
  return s;
}

KernelRegistry::KernelRegistry() : kernels_(core::opTable().size(), nullptr), dtypes_(core::opTable().size(), 0) {}

void KernelRegistry::add(std::string_view opName, KernelFn fn, DtypeSet dtypes) {
  const core::OpInfo* info = core::lookupOp(opName);
  if (!info) {
    std::fprintf(stderr, "internal error: kernel for '%.*s', which has no op table entry\n", int(opName.size()),
                 opName.data());
    std::abort();
  }
  kernels_[info->index()] = fn;
  dtypes_[info->index()] = dtypes;
}

std::vector<std::string_view> KernelRegistry::names() const {
  std::vector<std::string_view> out;
  auto table = core::opTable();
  for (size_t i = 0; i < kernels_.size(); ++i)
    if (kernels_[i]) out.push_back(table[i].name);
  return out;
}

const KernelRegistry& kernelRegistry() {
  static const KernelRegistry registry = [] {
    KernelRegistry r;
    registerAllKernels(r);
    return r;
  }();
  return registry;
}

}  // namespace pir::runtime
