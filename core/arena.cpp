//===- arena.cpp - slabs for the bump allocator ---------------------------===//
#include "core/arena.h"

#include <sys/mman.h>

#include <new>

namespace pir::core {

namespace {
constexpr size_t kLargeSlab = size_t{2} << 20;
}

Arena::~Arena() {
  for (const Slab& s : slabs_) {
    if (s.size >= kLargeSlab) munmap(s.data, s.size);
    else delete[] s.data;
  }
}

// Large slabs come straight from mmap and ask for transparent huge pages:
// a big program touches hundreds of MB of IR once, and faulting it in 4 KiB
// pages costs more than building it.
void Arena::grow(size_t atLeast) {
  size_t size = slabSize_;
  if (slabSize_ < (size_t{64} << 20)) slabSize_ *= 2;
  if (size < atLeast) size = atLeast;
  char* data = nullptr;
  if (size >= kLargeSlab) {
    size = (size + kLargeSlab - 1) & ~(kLargeSlab - 1);
    void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    madvise(p, size, MADV_HUGEPAGE);
    data = static_cast<char*>(p);
  } else {
    data = new char[size];
  }
  slabs_.push_back({data, size});
  cur_ = data;
  end_ = cur_ + size;
}

}  // namespace pir::core
