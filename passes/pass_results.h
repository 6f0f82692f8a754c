//===- pass_results.h - what passes leave beside their programs --*- C++ -*-===//
//
// As MLIR's analyses: results keyed by their type, held by the pass manager
// that runs the passes. split-ranks leaves its RankLayout (what ranks.yaml
// says), pipeline-split its PipelineSplitResult (programs.yaml's schedule
// keys); a caller seeds what nested passes read (split-ranks hands each
// rank's pipeline the RingTable and the planned ProcessGroupTable). A later
// pass or the caller asks by type; a value is shared, never copied.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <typeindex>
#include <utility>

namespace pir::passes {

class PassResults {
 public:
  PassResults() = default;
  PassResults(const PassResults& other) : byType_(other.snapshot()) {}
  PassResults& operator=(const PassResults& other) {
    auto copy = other.snapshot();
    std::lock_guard<std::mutex> lock(mutex_);
    byType_ = std::move(copy);
    return *this;
  }

  /// Sets (or replaces) the result of type T. Safe from several threads.
  template <class T>
  void set(T value) {
    share<T>(std::make_shared<const T>(std::move(value)));
  }
  template <class T>
  void share(std::shared_ptr<const T> value) {
    std::lock_guard<std::mutex> lock(mutex_);
    byType_[std::type_index(typeid(T))] = std::move(value);
  }
  /// The result of type T, or null.
  template <class T>
  const T* get() const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = byType_.find(std::type_index(typeid(T)));
    return it == byType_.end() ? nullptr : static_cast<const T*>(it->second.get());
  }

 private:
  std::map<std::type_index, std::shared_ptr<const void>> snapshot() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return byType_;
  }
  mutable std::mutex mutex_;
  std::map<std::type_index, std::shared_ptr<const void>> byType_;
};

}  // namespace pir::passes
