//===- backward_kind.cpp --------------------------------------------------===//
#include "passes/backward_kind.h"

#include <array>
#include <string_view>
#include <unordered_map>

#include "core/op_table.h"
#include "passes/op_roles.h"

namespace pir::passes {

namespace {

using namespace pir::core;

bool hasMark(const Operation& op) { return op.attr("grad_merge_add") != nullptr; }

/// Paddle's _pir_get_backward_op_type, walked in reverse.
std::vector<BackwardKind> byMarks(const std::vector<Operation*>& ops, const std::vector<int64_t>& roles) {
  static constexpr std::array<std::string_view, 8> kWindow = {
      "pd_op.full_int_array", "pd_op.reshape",        "pd_op.full_int_array", "pd_op.reshape",
      "pd_op.matmul",         "pd_op.full_int_array", "pd_op.reshape",        "pd_op.add_"};
  std::vector<BackwardKind> kinds(ops.size(), BackwardKind::B);
  size_t pendingW = 0;  // ops of a matched 8-op window still to mark W
  for (size_t i = ops.size(); i-- > 0;) {
    if (roles[i] != kRoleBackward) continue;
    const Operation& op = *ops[i];
    if (pendingW > 0) {
      --pendingW;
      kinds[i] = BackwardKind::W;
      continue;
    }
    if (op.numResults() == 0) continue;  // B
    // The 8 ops ending here match the rank-3 split of matmul_grad feeding a
    // marked add_. (Paddle compares ops[i - k] with pattern[k], i.e. the
    // pattern reversed, so its check never matches; this is the intent.)
    bool window = hasMark(op) && i >= 7;
    for (size_t k = 0; window && k < 8; ++k) window = ops[i - k]->name() == kWindow[7 - k];
    if (window) {
      kinds[i] = BackwardKind::W;
      pendingW = 7;
      continue;
    }
    if (hasMark(op)) {
      kinds[i] = BackwardKind::W;
      continue;
    }
    bool allMarked = true;
    for (uint32_t r = 0; r < op.numResults() && allMarked; ++r) {
      bool used = false;
      for (OpOperand* u = op.result(r)->firstUse(); u && !used; u = u->nextUse()) used = hasMark(*u->owner());
      allMarked = used;
    }
    kinds[i] = allMarked ? BackwardKind::W : BackwardKind::B;
  }
  return kinds;
}

/// Which operand of an optimizer op is the gradient: its operand `grad` in
/// Paddle's signature (-1: any, for an op without one).
int gradientOperand(const Operation& op) {
  const OpInfo* info = lookupOp(op);
  return info ? info->operandIndex("grad") : -1;
}

bool passesGradientThrough(const Operation& op) {
  const OpInfo* info = lookupOp(op);
  return info && info->has(kPassesGradient);
}

std::vector<BackwardKind> byDataFlow(const std::vector<Operation*>& ops, const std::vector<int64_t>& roles) {
  std::unordered_map<const Operation*, size_t> index;
  for (size_t i = 0; i < ops.size(); ++i) index[ops[i]] = i;
  // onWay[i]: every result of ops[i] is used, and only on the way to a
  // parameter gradient. Users come later, so a reverse walk sees them first.
  std::vector<char> onWay(ops.size(), 0);
  std::vector<BackwardKind> kinds(ops.size(), BackwardKind::B);
  auto topLevel = [&](const Operation* op) -> long {
    for (const Operation* o = op; o; o = o->parentOp())
      if (auto it = index.find(o); it != index.end()) return static_cast<long>(it->second);
    return -1;
  };
  for (size_t i = ops.size(); i-- > 0;) {
    const Operation& op = *ops[i];
    bool ok = op.numResults() > 0;
    for (uint32_t r = 0; r < op.numResults() && ok; ++r) {
      const OpOperand* use = op.result(r)->firstUse();
      ok = use != nullptr;
      for (; use && ok; use = use->nextUse()) {
        long c = topLevel(use->owner());
        if (c < 0) return kinds;
        const Operation& user = *ops[static_cast<size_t>(c)];
        int grad = gradientOperand(user);
        bool toOptimizer = roles[static_cast<size_t>(c)] == kRoleOptimize &&
                           (grad < 0 || (use->owner() == &user && static_cast<int>(use->index()) == grad));
        bool throughW = kinds[static_cast<size_t>(c)] == BackwardKind::W;
        bool throughPass = passesGradientThrough(user) && onWay[static_cast<size_t>(c)];
        ok = toOptimizer || throughW || throughPass;
      }
    }
    onWay[i] = ok;
    if (ok && roles[i] == kRoleBackward) kinds[i] = BackwardKind::W;
  }
  return kinds;
}

}  // namespace

std::vector<BackwardKind> classifyBackward(const std::vector<Operation*>& ops, const std::vector<int64_t>& roles) {
  for (const Operation* op : ops)
    if (hasMark(*op)) return byMarks(ops, roles);
  return byDataFlow(ops, roles);
}

}  // namespace pir::passes
