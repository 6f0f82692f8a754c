//===- fusion_rules.cpp - what the plan's fusion rules ask of ops ----------===//
#include "runtime/fusion_rules.h"

#include "core/op_table.h"

namespace pir::runtime {

bool runsAs(const core::Operation* op, std::string_view name) {
  const core::OpInfo* info = op ? core::lookupRunOp(*op) : nullptr;
  return info && info->name == name;
}

bool writesInPlace(const core::Operation& user, uint32_t index) {
  const core::OpInfo* info = core::lookupRunOp(user);
  if (!info) return false;
  for (const core::InplacePair& p : info->inplacePairs(user.numOperands()))
    if (p.operand == index) return true;
  return false;
}

}  // namespace pir::runtime
