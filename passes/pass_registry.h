//===- pass_registry.h - passes known by name -------------------*- C++ -*-===//
//
// Registration is explicit (`registerAllPasses()`), as in mlir-opt: static
// initializers in static libraries are dropped by the linker.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "passes/pass.h"

namespace pir::passes {

using PassFactory = std::function<std::unique_ptr<Pass>()>;

class PassRegistry {
 public:
  static PassRegistry& instance();

  void add(std::string name, std::string description, PassFactory factory);
  std::unique_ptr<Pass> create(std::string_view name) const;
  bool contains(std::string_view name) const;

  struct Entry {
    std::string name;
    std::string description;
    PassFactory factory;
  };
  /// Registered passes, sorted by name.
  const std::vector<Entry>& entries() const { return entries_; }
  /// "a, b, c": the names, for error messages.
  std::string namesJoined() const;

 private:
  std::vector<Entry> entries_;
};

/// Registers every pass of the project (idempotent).
void registerAllPasses();

}  // namespace pir::passes
