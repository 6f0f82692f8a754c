//===- op_roles.cpp -------------------------------------------------------===//
#include "passes/op_roles.h"

#include "core/attr_list_builder.h"
#include "core/context.h"
#include "core/op_table.h"

namespace pir::passes {

using namespace pir::core;

int64_t opRole(const Operation& op) { return getInt64(op, "op_role").value_or(-1); }

size_t completeOpRoles(Program& program) {
  std::vector<Operation*> ops;
  for (Operation& op : program.body()) ops.push_back(&op);
  std::vector<int64_t> roles(ops.size());
  for (size_t i = 0; i < ops.size(); ++i) roles[i] = opRole(*ops[i]);
  int64_t next = -1;
  std::vector<int64_t> completed(roles);
  for (size_t i = ops.size(); i-- > 0;) {
    if (roles[i] != -1)
      next = roles[i];
    else
      completed[i] = next;
  }
  int64_t prev = -1;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (completed[i] == -1) completed[i] = prev;  // a trailing run
    prev = completed[i];
  }
  AttrSpeller spell(program);
  size_t n = 0;
  for (size_t i = 0; i < ops.size(); ++i)
    if (roles[i] == -1 && completed[i] != -1) {
      // setAttr: the other keys keep the order they were read in.
      ops[i]->setAttr(program.context(), "op_role", spell.int32(static_cast<int32_t>(completed[i])));
      ++n;
    }
  return n;
}

int64_t opChunk(const Operation& op) {
  if (auto v = getInt64(op, "chunk_id")) return *v;
  if (const OpDistAttr* od = op.distAttr(); od && od->hasChunkId()) return od->chunkId();
  return -1;
}

int64_t inferChunk(const std::vector<Operation*>& ops, size_t idx) {
  auto chunkAt = [&](size_t i) { return i < ops.size() ? opChunk(*ops[i]) : -1; };
  int64_t prev = idx > 0 ? chunkAt(idx - 1) : -1, next = chunkAt(idx + 1), nextNext = chunkAt(idx + 2);
  if (prev != -1 && prev == next) return prev;
  if (next != -1 && next == nextNext) return next;
  const Operation& op = *ops[idx];
  if (const OpInfo* info = lookupOp(op); info && info->has(kPacksVec)) {
    for (uint32_t r = 0; r < op.numResults(); ++r)
      if (OpOperand* use = op.result(r)->firstUse()) {
        // Paddle's all_used_ops()[0]: the head of the use list, the use added
        // last (for a program as read, its last user in program order).
        const Operation* first = nullptr;
        for (OpOperand* u = use; u; u = u->nextUse())
          for (size_t i = idx + 1; i < ops.size() && !first; ++i)
            if (ops[i]->isAncestorOf(u->owner())) first = ops[i];
        if (first) return opChunk(*first);
      }
  }
  return -1;
}

}  // namespace pir::passes
