//===- huge_pages.h - transparent huge pages for big tables ----*- C++ -*-===//
//
// A table of millions of entries faulted in 4 KiB at a time spends more in
// page faults than in filling it. Asking for huge pages turns that into one
// fault per 2 MiB; the kernel may still say no, so this is a hint only.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <vector>

namespace pir::core {

/// The size of a transparent huge page on x86-64 and AArch64 (4 KiB base pages).
constexpr size_t kHugePage = size_t{2} << 20;

/// Asks for transparent huge pages on the 2 MiB-aligned pages that lie
/// wholly inside [p, p + n).
void adviseHugePages(void* p, size_t n);

/// `n` bytes of fresh memory (n a multiple of kHugePage) that start on a
/// huge page boundary, advised as adviseHugePages does: all of it can sit
/// on huge pages, where an unaligned mapping has 4 KiB pages at both ends.
/// Null when the kernel gives no room. Freed with munmap(p, n).
void* mapHugePages(size_t n);

/// Reserves room for `n` elements in `v`, on huge pages where it is big
/// enough to hold some.
template <class T>
void reserveOnHugePages(std::vector<T>& v, size_t n) {
  v.reserve(n);
  adviseHugePages(v.data(), v.capacity() * sizeof(T));
}

}  // namespace pir::core
