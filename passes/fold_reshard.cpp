//===- fold_reshard.cpp - drop identity reshards, merge duplicates --------===//
//
// `fold-reshard` (Paddle's fold_reshard_pass): a dist_op.reshard whose input
// and result types are identical is replaced by its input; reshards of the
// same value to the same type are merged into the first one, where the
// first is visible at the later one (same block or an enclosing one).
//
//===----------------------------------------------------------------------===//
#include <unordered_map>

#include "core/context.h"
#include "core/operation.h"
#include "passes/pass_registry.h"

namespace pir::passes {

namespace {

struct KeyHash {
  size_t operator()(const std::pair<const core::Value*, const core::Type*>& k) const {
    return std::hash<const void*>()(k.first) * 31 + std::hash<const void*>()(k.second);
  }
};

bool blockEncloses(const core::Block* outer, const core::Operation* op) {
  for (const core::Block* b = op->parentBlock(); b; b = b->parentOp() ? b->parentOp()->parentBlock() : nullptr)
    if (b == outer) return true;
  return false;
}

class FoldReshardPass : public Pass {
 public:
  std::string_view name() const override { return "fold-reshard"; }
  std::string_view description() const override {
    return "remove dist_op.reshard ops whose input and result types are identical, and merge reshards "
           "of one value to one type into the first";
  }
  bool verifiesDistAfter() const override { return true; }

  core::Status run(core::Program& program, core::DiagnosticEngine&) override {
    std::unordered_map<std::pair<const core::Value*, const core::Type*>, core::Operation*, KeyHash> first;
    core::walk(program.body(), [&](core::Operation& op) {
      if (op.name() != "dist_op.reshard" || op.numOperands() != 1 || op.numResults() != 1) return;
      core::Value* input = op.operandValue(0);
      core::Value* result = op.result(0);
      if (!input) return;
      if (core::typesEqual(input->type(), result->type())) {
        result->replaceAllUsesWith(input);
        op.erase();
        stats_.add("identity reshards removed");
        return;
      }
      auto [it, inserted] = first.try_emplace({input, result->type()}, &op);
      if (inserted) return;
      core::Operation* keep = it->second;
      if (!blockEncloses(keep->parentBlock(), &op)) return;
      result->replaceAllUsesWith(keep->result(0));
      op.erase();
      stats_.add("duplicate reshards merged");
    });
    return core::Status::ok();
  }
};

}  // namespace

void registerFoldReshardPass() {
  PassRegistry::instance().add("fold-reshard", "remove identity reshards and merge duplicates",
                               [] { return std::make_unique<FoldReshardPass>(); });
}

}  // namespace pir::passes
