//===- arena.cpp - slabs for the bump allocator ---------------------------===//
#include "core/arena.h"

#include <sys/mman.h>

#include <new>
#include <system_error>
#include <thread>

#include "core/huge_pages.h"

namespace pir::core {

namespace {

constexpr size_t kLargeSlab = kHugePage;
// Large slabs stop doubling here: the one faulted in ahead and left unused
// at the end costs at most this much memory.
constexpr size_t kMaxSlab = size_t{16} << 20;

size_t roundToLargeSlab(size_t n) { return (n + kLargeSlab - 1) & ~(kLargeSlab - 1); }

// Large slabs come straight from mmap and ask for transparent huge pages:
// a big program touches hundreds of MB of IR once, and faulting it in 4 KiB
// pages costs more than building it.
char* mapSlab(size_t size) {
  void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  adviseHugePages(p, size);
  return static_cast<char*>(p);
}

}  // namespace

// The kernel zeroes each page on first touch, and on a VM that can cost more
// than the parsing that fills it. So while one large slab fills, the next is
// faulted in (MADV_POPULATE_WRITE, which writes nothing) on another thread.
// Without threads or that madvise (Linux < 5.14), pages fault on first use.
class Arena::Prefault {
 public:
  ~Prefault() { wait(); }

  void start(Slab slab) {
    wait();
    slab_ = slab;
    try {
      worker_ = std::thread([slab] { madvise(slab.data, slab.size, MADV_POPULATE_WRITE); });
    } catch (const std::system_error&) {
    }
  }

  /// The slab started last (empty if none), faulted in or not yet: the
  /// kernel takes faults from both threads, so neither waits for the other.
  Slab take() {
    Slab s = slab_;
    slab_ = {};
    return s;
  }

  void wait() {
    if (worker_.joinable()) worker_.join();
  }

 private:
  Slab slab_;
  std::thread worker_;
};

Arena::Arena() = default;

Arena::~Arena() {
  if (prefault_) {
    prefault_->wait();
    if (Slab unused = prefault_->take(); unused.data) munmap(unused.data, unused.size);
  }
  for (const Slab& s : slabs_) {
    if (s.size >= kLargeSlab) munmap(s.data, s.size);
    else delete[] s.data;
  }
}

void Arena::prefaultNextSlab() {
  if (!prefault_) prefault_ = std::make_unique<Prefault>();
  size_t size = roundToLargeSlab(slabSize_);
  prefault_->start({mapSlab(size), size});
}

void Arena::grow(size_t atLeast) {
  if (end_ != slabEnd_) {  // the middle of a large slab
    end_ = slabEnd_;
    prefaultNextSlab();
    if (static_cast<size_t>(end_ - cur_) >= atLeast) return;
  }
  size_t size = slabSize_;
  if (slabSize_ < kMaxSlab) slabSize_ *= 2;
  if (size < atLeast) size = atLeast;
  Slab slab;
  if (size >= kLargeSlab) {
    size = roundToLargeSlab(size);
    if (prefault_) slab = prefault_->take();
    if (slab.size < size) {  // none ready, or too small for this request
      if (slab.data) {
        prefault_->wait();
        munmap(slab.data, slab.size);
      }
      slab = {mapSlab(size), size};
    }
  } else {
    slab = {new char[size], size};
  }
  slabs_.push_back(slab);
  cur_ = slab.data;
  slabEnd_ = cur_ + slab.size;
  end_ = slab.size >= kLargeSlab ? cur_ + slab.size / 2 : slabEnd_;
}

}  // namespace pir::core
