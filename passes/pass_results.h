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
#include <vector>

namespace pir::passes {

class PassResults {
 public:
  PassResults() = default;
  PassResults(const PassResults& other) { *this = other; }
  PassResults& operator=(const PassResults& other) {
    if (this == &other) return *this;
    std::scoped_lock lock(mutex_, other.mutex_);
    byType_ = other.byType_;
    forNext_ = other.forNext_;
    forThis_ = other.forThis_;
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
    keep(typeid(T));
    byType_[std::type_index(typeid(T))] = std::move(value);
  }
  /// Sets the result of type T for the next pass to begin only: a fact
  /// about the program as the pass setting it left it, which a pass after
  /// that could have made untrue. beginPass() drops it when the pass after
  /// the next begins, unless it was set again by then. A result of type T
  /// set for all is then the next pass's only.
  template <class T>
  void setForNextPass(T value) {
    set(std::move(value));
    std::lock_guard<std::mutex> lock(mutex_);
    forNext_.emplace_back(typeid(T));
  }
  /// Called by the pass manager as each pass begins: drops what was set
  /// for the pass before it, and shows this one what the last pass set.
  void beginPass() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const std::type_index& t : forThis_) byType_.erase(t);
    forThis_ = std::move(forNext_);
    forNext_.clear();
  }
  /// Called by the pass manager as a run begins: what the last run's
  /// passes set for a next pass was about programs this run need not see.
  void beginRun() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const std::type_index& t : forThis_) byType_.erase(t);
    for (const std::type_index& t : forNext_) byType_.erase(t);
    forThis_.clear();
    forNext_.clear();
  }
  /// The result of type T, or null.
  template <class T>
  const T* get() const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = byType_.find(std::type_index(typeid(T)));
    return it == byType_.end() ? nullptr : static_cast<const T*>(it->second.get());
  }

 private:
  /// A result set again is kept as now set (for all, or the next pass).
  void keep(std::type_index t) {
    std::erase(forThis_, t);
    std::erase(forNext_, t);
  }
  mutable std::mutex mutex_;
  std::map<std::type_index, std::shared_ptr<const void>> byType_;
  std::vector<std::type_index> forNext_;  // set for the pass after the running one
  std::vector<std::type_index> forThis_;  // set for the running one: dropped as the next begins
};

}  // namespace pir::passes
