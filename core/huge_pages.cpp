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

void* mapHugePages(size_t n) {
  n = (n + 4095) & ~size_t{4095};
  // Map a huge page more, then unmap what lies before the first boundary and after n bytes from it.
  void* p = mmap(nullptr, n + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  auto begin = reinterpret_cast<uintptr_t>(p);
  uintptr_t aligned = (begin + kHugePage - 1) & ~(kHugePage - 1);
  if (aligned > begin) munmap(p, aligned - begin);
  if (uintptr_t tail = begin + n + kHugePage - (aligned + n)) munmap(reinterpret_cast<void*>(aligned + n), tail);
  madvise(reinterpret_cast<void*>(aligned), n, MADV_HUGEPAGE);
  return reinterpret_cast<void*>(aligned);
}

}  // namespace pir::core
