//===- segmented_list.h - a list that grows without copying -----*- C++ -*-===//
//
// A chunk read on a thread can defer a hundred thousand operands (the
// backward half of a training program reads the forward's values). In a
// std::vector each doubling copied them and touched twice the pages: 40% of
// a threaded 1M-op read's page faults. Segments of a fixed size are touched
// once and never move.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <vector>

namespace pir::parser {

template <class T, size_t kSegment = 8192>
class SegmentedList {
 public:
  void push_back(const T& v) {
    if (size_ % kSegment == 0 && size_ / kSegment == segments_.size()) {
      segments_.emplace_back();
      segments_.back().reserve(kSegment);
    }
    segments_[size_ / kSegment].push_back(v);
    ++size_;
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  /// The elements in order, a segment at a time: `for (auto& s : l.segments()) for (T& v : s)`.
  std::vector<std::vector<T>>& segments() { return segments_; }
  const std::vector<std::vector<T>>& segments() const { return segments_; }

 private:
  std::vector<std::vector<T>> segments_;
  size_t size_ = 0;
};

}  // namespace pir::parser
