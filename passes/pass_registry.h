//===- pass_registry.h - passes known by name -------------------*- C++ -*-===//
//
// Registration is explicit (`registerAllPasses()`), as in mlir-opt: static
// initializers in static libraries are dropped by the linker. The registry
// keeps only factories: a pass's name, description and options are the
// pass's own (pass.h). Register before starting threads that create passes:
// registering writes the registry, creating only reads it.
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

  /// Registers the pass `factory` makes, under the pass's name (once: a
  /// name registered already is left as it is).
  void add(PassFactory factory);
  std::unique_ptr<Pass> create(std::string_view name) const;
  bool contains(std::string_view name) const;

  struct Entry {
    std::string name;  // the pass's name(), kept for lookups
    PassFactory factory;
  };
  /// Registered passes, sorted by name.
  const std::vector<Entry>& entries() const { return entries_; }
  /// "a, b, c": the names, for error messages.
  std::string namesJoined() const;

 private:
  std::vector<Entry> entries_;
};

/// Registers pass `P` (default-constructible).
template <class P>
void registerPass() {
  PassRegistry::instance().add([] { return std::make_unique<P>(); });
}

/// Registers every pass of the project (idempotent).
void registerAllPasses();

/// Registers the passes that exist for tests only (test_passes.cpp):
/// `test-split-ranks` and `test-internal-error`. pir-opt does so when the
/// environment says PIR_OPT_TEST_PASSES=1, as mlir-opt has its test passes;
/// otherwise they are not known, nor listed.
void registerTestPasses();

}  // namespace pir::passes
