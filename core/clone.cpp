//===- clone.cpp ----------------------------------------------------------===//
#include "core/clone.h"

#include <vector>

#include "core/context.h"

namespace pir::core {

namespace {
Value* mapValue(const Value* v, ValueMapping& map, const MissingValueFn& missing) {
  if (!v) return nullptr;
  auto it = map.find(v);
  if (it != map.end()) return it->second;
  return missing ? missing(v) : const_cast<Value*>(v);
}

void cloneBlockInto(Context& ctx, const Block& from, Block& to, ValueMapping& map, const MissingValueFn& missing) {
  for (const BlockArgument* a : from.arguments()) {
    BlockArgument* copy = to.addArgument(ctx, a->type());
    copy->setAttributes(ctx.arena(), a->attributes());
    map[a] = copy;
  }
  for (const BlockArgument* k : from.kwargs()) {
    BlockArgument* copy = to.addInternedKwarg(ctx, k->name(), k->type());
    copy->setAttributes(ctx.arena(), k->attributes());
    map[k] = copy;
  }
  for (const Operation& op : from) to.pushBack(cloneOperation(ctx, op, map, missing));
}
}  // namespace

Operation* cloneOperation(Context& ctx, const Operation& op, ValueMapping& map, const MissingValueFn& missing) {
  std::vector<Value*> operands;
  for (uint32_t i = 0; i < op.numOperands(); ++i) operands.push_back(mapValue(op.operandValue(i), map, missing));
  std::vector<const Type*> types;
  for (uint32_t i = 0; i < op.numResults(); ++i) types.push_back(op.result(i)->type());
  Operation* copy = Operation::create(ctx, op.name(), operands, types, op.attributes());
  copy->setDebugId(op.debugId());
  copy->setLocation(op.location());
  if (!op.operandKeywords().empty()) copy->setOperandKeywords(ctx.arena(), op.operandKeywords());
  for (uint32_t i = 0; i < op.numResults(); ++i) map[op.result(i)] = copy->result(i);
  for (uint32_t r = 0; r < op.numRegions(); ++r) {
    Region& region = copy->addRegion(ctx);
    for (const Block* b : op.region(r).blocks()) cloneBlockInto(ctx, *b, *region.addBlock(ctx), map, missing);
  }
  return copy;
}

}  // namespace pir::core
