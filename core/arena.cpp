//===- arena.cpp - slabs for the bump allocator ---------------------------===//
#include "core/arena.h"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

#include "core/huge_pages.h"
#include "core/threads.h"

namespace pir::core {

namespace {

constexpr uintptr_t kPage = 4096;
constexpr size_t kLargeSlab = kHugePage;
// Large slabs stop doubling here.
constexpr size_t kMaxSlab = size_t{16} << 20;
// The helper keeps one slab ready per this much the arena holds, from one
// up to kMaxSlabsAhead: what it faults in and the program never uses is at
// most a quarter of the arena, or one slab, and never over 64 MB.
constexpr size_t kUsedPerSlabAhead = size_t{64} << 20;
constexpr size_t kMaxSlabsAhead = 4;

size_t roundToLargeSlab(size_t n) { return (n + kLargeSlab - 1) & ~(kLargeSlab - 1); }

// Large slabs come straight from mmap and ask for transparent huge pages:
// a big program touches hundreds of MB of IR once, and faulting it in 4 KiB
// pages costs more than building it.
char* tryMapSlab(size_t size) { return static_cast<char*>(mapHugePages(size)); }

char* mapSlab(size_t size) {
  if (char* p = tryMapSlab(size)) return p;
  throw std::bad_alloc();
}

}  // namespace

// The kernel zeroes each page on first touch, and on a VM that can cost more
// than the parsing that fills it. So a helper thread keeps the next slabs
// faulted in (MADV_POPULATE_WRITE, which writes nothing) while the arena
// fills. It works ahead by whole slabs, so a burst of allocation (a pass
// creating half a million ops) finds memory ready that was faulted in while
// the program did other work. With enough slabs ready, it faults in the
// tables registered by TableFaulting, a little ahead of the loops filling
// them. Without threads or that madvise (Linux < 5.14), pages fault on
// first use.
class Arena::Prefault {
 public:
  Prefault(size_t slabSize, size_t ahead) : slabSize_(slabSize), ahead_(ahead) {
    worker_ = startHelperThread([this] { run(); });
  }

  ~Prefault() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
      filling_.store(nullptr, std::memory_order_relaxed);
    }
    wake_.notify_one();
    if (worker_.joinable()) worker_.join();
    for (const Slab& s : ready_) munmap(s.data, s.size);
  }

  /// The oldest ready slab if it holds `size` bytes (it may still be being
  /// faulted in: the kernel takes faults from both threads, and the helper
  /// leaves it within 2 MiB), else none. Asks for `ahead` slabs of
  /// `slabSize` to be kept ready from now on.
  Slab take(size_t size, size_t slabSize, size_t ahead) {
    Slab s;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      slabSize_ = slabSize;
      ahead_ = ahead;
      if (!ready_.empty() && ready_.front().size >= size) {
        s = ready_.front();
        ready_.pop_front();
        if (filling_.load(std::memory_order_relaxed) == s.data) filling_.store(nullptr, std::memory_order_relaxed);
      }
    }
    wake_.notify_one();
    return s;
  }

  size_t addTable(uintptr_t begin, uintptr_t end, size_t ahead) {
    std::lock_guard<std::mutex> lock(mutex_);
    Table t{begin, end, begin, begin, ahead, true};
    for (size_t id = 0; id < tables_.size(); ++id)
      if (!tables_[id].live) {
        tables_[id] = t;
        return id;
      }
    tables_.push_back(t);
    return tables_.size() - 1;
  }

  void advanceTable(size_t id, size_t usedBytes) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      tables_[id].used = tables_[id].begin + usedBytes;
    }
    wake_.notify_one();
  }

  /// The helper may still be faulting in the table's last chunk: harmless,
  /// as populating writes nothing, even where the table was freed.
  void removeTable(size_t id) {
    std::lock_guard<std::mutex> lock(mutex_);
    tables_[id].live = false;
  }

 private:
  struct Table {
    uintptr_t begin, end;  // page-aligned part of the table
    uintptr_t done;        // faulted in up to here
    uintptr_t used;        // filled up to here, as last reported
    size_t ahead;
    bool live;
  };

  void run() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (true) {
      Table* table = nullptr;
      wake_.wait(lock, [&] { return stopping_ || ready_.size() < ahead_ || (table = tableBehind()); });
      if (stopping_) return;
      if (ready_.size() < ahead_) {
        size_t size = slabSize_;
        lock.unlock();
        Slab s{tryMapSlab(size), size};
        lock.lock();
        if (!s.data) return;  // out of address space: the arena maps its own
        ready_.push_back(s);
        if (stopping_) return;  // the destructor unmaps it
        filling_.store(s.data, std::memory_order_relaxed);
        lock.unlock();
        bool populated = fill(s);
        lock.lock();
        if (!populated) return;  // no MADV_POPULATE_WRITE: nothing to gain
      } else {
        // Up to the next huge page boundary, so later chunks stay aligned.
        uintptr_t from = table->done;
        uintptr_t to = std::min(target(*table), (from + kHugePage) & ~(kHugePage - 1));
        table->done = to;  // `table` may be gone once the lock is released
        lock.unlock();
        madvise(reinterpret_cast<void*>(from), to - from, MADV_POPULATE_WRITE);  // on failure, faults on use
        lock.lock();
      }
    }
  }

  static uintptr_t target(const Table& t) { return std::min(t.end, (t.used + t.ahead) & ~(kPage - 1)); }
  Table* tableBehind() {
    for (Table& t : tables_)
      if (t.live && t.done < target(t)) return &t;
    return nullptr;
  }

  /// Faults `s` in a huge page at a time, stopping early once the arena
  /// has taken it. False when the kernel has no MADV_POPULATE_WRITE.
  bool fill(Slab s) {
    for (size_t at = 0; at < s.size; at += kHugePage) {
      if (filling_.load(std::memory_order_relaxed) != s.data) return true;
      if (madvise(s.data + at, std::min(kHugePage, s.size - at), MADV_POPULATE_WRITE) != 0) return errno != EINVAL;
    }
    return true;
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Slab> ready_;  // oldest first; the newest may be filling
  size_t slabSize_;
  size_t ahead_;
  bool stopping_ = false;
  std::atomic<char*> filling_{nullptr};  // the slab the helper is faulting in
  std::vector<Table> tables_;            // by id; not live once removed
  std::thread worker_;                   // last: starts after the fields it reads
};

Arena::TableFaulting::TableFaulting(Arena& arena, const void* data, size_t bytes, size_t ahead) {
  auto p = reinterpret_cast<uintptr_t>(data);
  uintptr_t begin = (p + kPage - 1) & ~(kPage - 1);
  uintptr_t end = std::max(begin, (p + bytes) & ~(kPage - 1));
  if (end - begin < kMinTableBytes) return;  // a small table costs more to hand over than its faults
  if (!arena.prefault_) arena.prefault_ = std::make_unique<Prefault>(roundToLargeSlab(arena.slabSize_), 0);
  helper_ = arena.prefault_.get();
  id_ = helper_->addTable(begin, end, ahead);
}

Arena::TableFaulting::~TableFaulting() {
  if (helper_) helper_->removeTable(id_);
}

void Arena::TableFaulting::advance(size_t usedBytes) {
  if (helper_) helper_->advanceTable(id_, usedBytes);
}

Arena::Arena() = default;

Arena::Arena(std::shared_ptr<SlabPool> pool) : pool_(std::move(pool)) {}

Arena::~Arena() {
  prefault_.reset();
  for (const Slab& s : slabs_) {
    if (s.size < kLargeSlab)
      delete[] s.data;
    else if (pool_)
      pool_->give({s.data, s.size});
    else
      munmap(s.data, s.size);
  }
}

SlabPool::~SlabPool() {
  for (const Slab& s : slabs_) munmap(s.data, s.size);
}

size_t SlabPool::bytesHeld() {
  std::lock_guard<std::mutex> lock(mutex_);
  size_t n = 0;
  for (const Slab& s : slabs_) n += s.size;
  return n;
}

SlabPool::Slab SlabPool::take(size_t size) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (size_t i = slabs_.size(); i-- > 0;)
    if (slabs_[i].size >= size) {
      Slab s = slabs_[i];
      slabs_.erase(slabs_.begin() + static_cast<std::ptrdiff_t>(i));
      return s;
    }
  return {};
}

void SlabPool::give(Slab slab) {
  std::lock_guard<std::mutex> lock(mutex_);
  slabs_.push_back(slab);
}

void Arena::grow(size_t atLeast) {
  size_t size = slabSize_;
  if (slabSize_ < kMaxSlab) slabSize_ *= 2;
  if (size < atLeast) size = atLeast;
  Slab slab;
  if (size >= kLargeSlab && pool_) {
    // A pooled slab of any size that holds the ask (later asks go on
    // doubling); without one, a new slab faults in on use.
    SlabPool::Slab pooled = pool_->take(atLeast);
    size = roundToLargeSlab(size);
    slab = pooled.data ? Slab{pooled.data, pooled.size} : Slab{mapSlab(size), size};
  } else if (size >= kLargeSlab) {
    size = roundToLargeSlab(size);
    size_t ahead = std::clamp<size_t>(bytesUsed_ / kUsedPerSlabAhead, 1, kMaxSlabsAhead);
    if (prefault_)
      slab = prefault_->take(size, slabSize_, ahead);
    else
      prefault_ = std::make_unique<Prefault>(slabSize_, ahead);
    if (!slab.data) slab = {mapSlab(size), size};
  } else {
    slab = {new char[size], size};
  }
  slabs_.push_back(slab);
  cur_ = slab.data;
  end_ = cur_ + slab.size;
}

}  // namespace pir::core
