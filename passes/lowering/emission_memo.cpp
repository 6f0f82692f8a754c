//===- emission_memo.cpp --------------------------------------------------===//
#include "passes/lowering/emission_memo.h"

#include <algorithm>
#include <utility>

#include "core/builder.h"
#include "core/hash.h"

namespace pir::passes::lowering {

using namespace pir::core;

size_t EmissionMemo::KeyHash::operator()(const Key& k) const {
  uint64_t h = hashMix(reinterpret_cast<uintptr_t>(k.plan), reinterpret_cast<uintptr_t>(k.source));
  h = hashMix(h, reinterpret_cast<uintptr_t>(k.result));
  h = hashMix(h, reinterpret_cast<uintptr_t>(k.attrs));
  h = hashMix(h, static_cast<uint64_t>(k.chunk) * 31 + static_cast<uint64_t>(k.recvChunk));
  return static_cast<size_t>(hashMix(h, reinterpret_cast<uintptr_t>(k.stopGradient)));
}

bool EmissionMemo::recordable(const ReshardPlan& plan) {
  return std::all_of(plan.steps.begin(), plan.steps.end(), [](const Step& s) {
    switch (s.kind) {
      case StepKind::PToR:
      case StepKind::PToS:
      case StepKind::SToR:
      case StepKind::RToS:
      case StepKind::RToP:
      case StepKind::SToS:
      case StepKind::AllReduceFlat:
        return true;
      default:  // send_v2 / recv_v2, and ops that look at the source value's uses
        return false;
    }
  });
}

Value* EmissionMemo::replay(const Key& key, Context& ctx, Operation& reshard) {
  auto it = records_.find(key);
  if (it == records_.end()) return nullptr;
  const Record& record = it->second;
  Value* in = reshard.operandValue(0);
  Builder builder(ctx);
  builder.setInsertionPoint(&reshard);
  std::vector<Operation*>& made = made_;
  std::vector<Value*>& operands = operands_;
  made.clear();
  auto value = [&](Ref r) -> Value* { return r.op < 0 ? in : made[static_cast<size_t>(r.op)]->result(r.index); };
  for (const Op& op : record.ops) {
    operands.clear();
    for (Ref r : op.operands) operands.push_back(value(r));
    made.push_back(builder.createInterned(op.name, operands, op.results, op.attrs));
  }
  return value(record.out);
}

void EmissionMemo::record(const Key& key, Operation* before, Operation& reshard, Value* out) {
  Record record;
  std::unordered_map<const Value*, Ref> refs{{reshard.operandValue(0), Ref{}}};
  for (Operation* op = before ? before->nextOp() : reshard.parentBlock()->front(); op != &reshard; op = op->nextOp()) {
    if (op->numRegions() > 0) return;
    Op rec{op->name(), op->attributes(), {}, {}};
    for (uint32_t i = 0; i < op->numOperands(); ++i) {
      auto found = refs.find(op->operandValue(i));
      if (found == refs.end()) return;  // a value made elsewhere
      rec.operands.push_back(found->second);
    }
    for (uint32_t r = 0; r < op->numResults(); ++r) {
      rec.results.push_back(op->result(r)->type());
      refs[op->result(r)] = Ref{static_cast<int32_t>(record.ops.size()), r};
    }
    record.ops.push_back(std::move(rec));
  }
  auto found = refs.find(out);
  if (found == refs.end()) return;
  record.out = found->second;
  records_.emplace(key, std::move(record));
}

}  // namespace pir::passes::lowering
