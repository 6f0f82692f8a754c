//===- fold_reshard.cpp - drop identity reshards, merge duplicates --------===//
//
// `fold-reshard` (Paddle's fold_reshard_pass): a dist_op.reshard whose input
// and result types are identical is replaced by its input; reshards of the
// same value to the same type are merged into the first one, where the
// first is in scope at the later one: earlier in the same block or in an
// enclosing one, and not the op whose regions hold the later one.
//
//===----------------------------------------------------------------------===//
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/context.h"
#include "core/operation.h"
#include "passes/pass_registry.h"

namespace pir::passes {

namespace {

using Key = std::pair<const core::Value*, const core::Type*>;

struct KeyHash {
  size_t operator()(const Key& k) const {
    return std::hash<const void*>()(k.first) * 31 + std::hash<const void*>()(k.second);
  }
};

class FoldReshardPass : public ProgramPass {
 public:
  std::string_view name() const override { return "fold-reshard"; }
  std::string_view description() const override {
    return "remove dist_op.reshard ops whose input and result types are identical, and merge reshards "
           "of one value to one type into the first";
  }
  // Removing reshards makes no value's dist attr differ from what its
  // consumer expects: a program before partitioning may stay inconsistent.
  bool verifiesDistAfter() const override { return false; }

  core::Status runOnProgram(core::NamedProgram& program, core::DiagnosticEngine&) override {
    visible_.clear();
    foldBlock(program.program->body());
    return core::Status::ok();
  }

 private:
  /// Folds the ops of `block` in order, each before the ops in its regions.
  /// `visible_` is a scoped table, as in CSE: it holds the reshards whose
  /// result is in scope at the current op. Each block adds its own and takes
  /// them away at its end; an op's entry is added after its regions, where
  /// its result does not exist yet.
  void foldBlock(core::Block& block) {
    std::vector<Key> added;
    for (core::Operation* op = block.front(); op;) {
      core::Operation* next = op->nextOp();
      std::optional<Key> key = foldOp(*op);
      if (key) {
        for (uint32_t r = 0; r < op->numRegions(); ++r)
          for (core::Block* b : op->region(r).blocks()) foldBlock(*b);
        // A key in scope already would have merged this op away.
        if (key->first) {
          visible_.emplace(*key, op);
          added.push_back(*key);
        }
      }
      op = next;
    }
    for (const Key& k : added) visible_.erase(k);
  }

  /// Removes `op` if it is an identity reshard or duplicates one in scope,
  /// and then returns nothing. Otherwise returns the key under which `op`
  /// absorbs later duplicates: a null key when it is no one-operand reshard.
  std::optional<Key> foldOp(core::Operation& op) {
    if (op.name() != "dist_op.reshard" || op.numOperands() != 1 || op.numResults() != 1 || !op.operandValue(0))
      return Key{};
    core::Value* input = op.operandValue(0);
    core::Value* result = op.result(0);
    if (core::typesEqual(input->type(), result->type())) {
      result->replaceAllUsesWith(input);
      op.erase();
      stats_.add("identity reshard(s) removed");
      return std::nullopt;
    }
    Key key{input, result->type()};
    auto it = visible_.find(key);
    if (it == visible_.end()) return key;
    result->replaceAllUsesWith(it->second->result(0));
    op.erase();
    stats_.add("duplicate reshard(s) merged");
    return std::nullopt;
  }

  std::unordered_map<Key, core::Operation*, KeyHash> visible_;
};

}  // namespace

void registerFoldReshardPass() { registerPass<FoldReshardPass>(); }

}  // namespace pir::passes
