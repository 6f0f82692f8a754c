//===- segmented_list.h - a list that grows without copying -----*- C++ -*-===//
//
// A chunk read on a thread can defer a hundred thousand operands (the
// backward half of a training program reads the forward's values). In a
// std::vector each doubling copied them and touched twice the pages: 40% of
// a threaded 1M-op read's page faults. Segments never move. After a small
// first one, each is a huge page of its own (core::mapHugePages): fixed
// 600 KB segments on 4 KiB pages were still 42% of the faults.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/huge_pages.h"

namespace pir::parser {

template <class T, size_t kFirstSegment = 1024>
class SegmentedList {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

 public:
  /// The elements [begin, end) of one segment.
  class Segment {
   public:
    T* begin() const { return data_; }
    T* end() const { return data_ + size_; }
    size_t size() const { return size_; }

   private:
    friend class SegmentedList;
    T* data_ = nullptr;
    size_t size_ = 0, capacity_ = 0;
    bool mapped_ = false;  // by mapHugePages, else by operator new
  };
  /// Elements in a segment after the first: what one huge page holds.
  static constexpr size_t kMappedSegment = core::kHugePage / sizeof(T);

  SegmentedList() = default;
  SegmentedList(SegmentedList&& other) noexcept { *this = std::move(other); }
  SegmentedList& operator=(SegmentedList&& other) noexcept {
    if (this != &other) {
      release();
      segments_ = std::exchange(other.segments_, {});
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  ~SegmentedList() { release(); }

  void push_back(const T& v) {
    if (segments_.empty() || segments_.back().size_ == segments_.back().capacity_) addSegment();
    Segment& s = segments_.back();
    new (s.data_ + s.size_++) T(v);
    ++size_;
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  /// The last element (it stays where it is as the list grows).
  T& back() { return *(segments_.back().data_ + segments_.back().size_ - 1); }

  /// The elements in order, a segment at a time: `for (auto& s : l.segments()) for (T& v : s)`.
  const std::vector<Segment>& segments() const { return segments_; }

 private:
  void addSegment() {
    Segment s;
    if (segments_.empty()) {
      s.capacity_ = kFirstSegment;
      s.data_ = static_cast<T*>(::operator new(sizeof(T) * kFirstSegment));
    } else {
      s.capacity_ = kMappedSegment;
      s.data_ = static_cast<T*>(core::mapHugePages(core::kHugePage));
      if (!s.data_) throw std::bad_alloc();  // as the arena does when out of address space
      s.mapped_ = true;
    }
    segments_.push_back(s);
  }
  void release() {
    for (const Segment& s : segments_) {
      if (s.mapped_)
        munmap(s.data_, core::kHugePage);
      else
        ::operator delete(s.data_);
    }
    segments_.clear();
    size_ = 0;
  }

  std::vector<Segment> segments_;
  size_t size_ = 0;
};

}  // namespace pir::parser
