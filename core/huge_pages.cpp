//===- huge_pages.cpp -----------------------------------------------------===//
#include "core/huge_pages.h"

#include <sys/mman.h>

#include <cstdint>

namespace pir::core {

void adviseHugePages(void* p, size_t n) {
  uintptr_t begin = (reinterpret_cast<uintptr_t>(p) + kHugePage - 1) & ~(kHugePage - 1);
  uintptr_t end = (reinterpret_cast<uintptr_t>(p) + n) & ~(kHugePage - 1);
  if (begin < end) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

}  // namespace pir::core
