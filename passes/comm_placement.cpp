//===- comm_placement.cpp -------------------------------------------------===//
#include "passes/comm_placement.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "core/attr_access.h"
#include "core/attr_list_builder.h"
#include "core/message_key.h"
#include "core/op_table.h"

namespace pir::passes {

namespace {

using namespace pir::core;

bool isReshardStep(const Operation& op) {
  const OpInfo* info = lookupOp(op);
  return info && info->has(kReshardStep) && op.numRegions() == 0;
}

/// The position among `ops` of the top-level op holding `op` (itself, or
/// the op whose region it is in); SIZE_MAX when outside the program.
size_t topLevelIndex(const Operation* op, const Block& body) {
  while (op && op->parentBlock() != &body) op = op->parentOp();
  return op ? op->passIndex() : SIZE_MAX;
}

/// Calls f(user index) for every use of op's results; false when a use is
/// not in the program's body directly (nested in a region).
template <class F>
bool forEachUser(const Operation& op, const Block& body, F&& f) {
  bool direct = true;
  for (uint32_t r = 0; r < op.numResults(); ++r)
    for (const OpOperand* u = op.result(r)->firstUse(); u; u = u->nextUse()) {
      direct &= u->owner()->parentBlock() == &body;
      f(topLevelIndex(u->owner(), body));
    }
  return direct;
}

/// The positions of the top-level ops making op's operands.
template <class F>
void forEachProducer(const Operation& op, const Block& body, F&& f) {
  for (uint32_t k = 0; k < op.numOperands(); ++k) {
    const Value* v = op.operandValue(k);
    const Operation* def = v ? v->definingOp() : nullptr;
    if (def && def->parentBlock() == &body) f(static_cast<size_t>(def->passIndex()));
  }
}

}  // namespace

size_t placeReshardSteps(const std::vector<Operation*>& ops, const StepJobs& jobs, SplitPlan& plan) {
  if (ops.empty()) return 0;
  const Block& body = *ops[0]->parentBlock();
  const size_t n = ops.size();
  enum Side : uint8_t { None, Source, Destination, Constant };
  std::vector<Side> side(n, None);
  std::vector<uint8_t> step(n);
  for (size_t i = 0; i < n; ++i) step[i] = isReshardStep(*ops[i]);
  // Source steps, from the sends back.
  for (size_t i = n; i-- > 0;) {
    if (!step[i]) continue;
    if (ops[i]->name() == "pd_op.send_v2") {
      side[i] = Source;
      continue;
    }
    bool any = false, all = true;
    all &= forEachUser(*ops[i], body, [&](size_t u) {
      any = true;
      all &= u < n && side[u] == Source;
    });
    if (any && all) side[i] = Source;
  }
  // Destination steps, from the receives on; constants they alone use.
  for (size_t i = 0; i < n; ++i) {
    if (!step[i] || side[i] == Source) continue;
    if (ops[i]->name() == "pd_op.recv_v2") {
      side[i] = Destination;
      continue;
    }
    if (ops[i]->numOperands() == 0) {
      side[i] = Constant;
      continue;
    }
    bool received = false, only = true;
    for (uint32_t k = 0; k < ops[i]->numOperands(); ++k) {
      const Value* v = ops[i]->operandValue(k);
      const Operation* def = v ? v->definingOp() : nullptr;
      if (!v) continue;
      if (!def || def->parentBlock() != &body) {
        only = false;
        continue;
      }
      Side s = side[def->passIndex()];
      received |= s == Destination;
      only &= s == Destination || s == Constant;
    }
    if (received && only) side[i] = Destination;
  }
  for (size_t i = 0; i < n; ++i) {
    if (side[i] != Constant) continue;
    bool any = false, all = true;
    all &= forEachUser(*ops[i], body, [&](size_t u) {
      any = true;
      all &= u < n && side[u] == Destination;
    });
    side[i] = any && all ? Destination : None;
  }
  size_t moved = 0;
  auto move = [&](size_t i, int job) {
    if (job < 0 || job == plan.home[i]) return;
    plan.home[i] = job;
    ++moved;
  };
  // As late as the data is needed: readers are placed before their operands.
  for (size_t i = n; i-- > 0;) {
    if (side[i] != Destination) continue;
    int first = -1;
    forEachUser(*ops[i], body, [&](size_t u) {
      if (u < n) first = first < 0 ? plan.home[u] : std::min(first, plan.home[u]);
    });
    if (first < 0) continue;
    move(i, ops[i]->name() == "pd_op.recv_v2" ? jobs.recvJob[size_t(first)] : first);
  }
  // As soon as the data is there: producers are placed before their readers.
  for (size_t i = 0; i < n; ++i) {
    if (side[i] != Source) continue;
    int last = -1;
    forEachProducer(*ops[i], body, [&](size_t p) { last = std::max(last, plan.home[p]); });
    if (last < 0) continue;
    move(i, ops[i]->name() == "pd_op.send_v2" ? jobs.sendJob[size_t(last)] : last);
  }
  if (plan.copyJob >= 0)
    for (size_t i = 0; i < n; ++i)
      plan.copied[i] =
          std::find(plan.copyReaders.begin(), plan.copyReaders.end(), plan.home[i]) != plan.copyReaders.end();
  return moved;
}

size_t writeMessageIndices(Program& program, const std::vector<Operation*>& ops) {
  AttrSpeller spell(program);
  // (send?, ring_id, peer) -> messages so far
  std::map<std::tuple<bool, int64_t, int64_t>, int64_t> next;
  size_t written = 0;
  for (Operation* op : ops) {
    bool send = op->name() == "pd_op.send_v2";
    if (!send && op->name() != "pd_op.recv_v2") continue;
    auto ring = getInt64(*op, "ring_id");
    auto peer = getInt64(*op, "peer");
    if (!ring || !peer) continue;  // the runtime reports it, located
    int64_t index = next[{send, *ring, *peer}]++;
    op->setAttr(program.context(), kMessageIndexAttr, spell.int64(index));
    ++written;
  }
  return written;
}

}  // namespace pir::passes
