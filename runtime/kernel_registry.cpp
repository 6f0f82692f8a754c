//===- kernel_registry.cpp - kernels by op table entry --------------------===//
#include <cstdio>
#include <cstdlib>

#include "runtime/kernel.h"

namespace pir::runtime {

void registerAllKernels(KernelRegistry& registry);  // runtime/kernels/register_all.cpp

KernelRegistry::KernelRegistry() : kernels_(core::opTable().size(), nullptr) {}

void KernelRegistry::add(std::string_view opName, KernelFn fn) {
  const core::OpInfo* info = core::lookupOp(opName);
  if (!info) {
    std::fprintf(stderr, "internal error: kernel for '%.*s', which has no op table entry\n", int(opName.size()),
                 opName.data());
    std::abort();
  }
  kernels_[info->index()] = fn;
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
