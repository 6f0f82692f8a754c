//===- comm_ops.cpp - what a job program communicates, read once -----------===//
#include "passes/schedule/comm_ops.h"

#include <algorithm>
#include <optional>

#include "core/attr_access.h"
#include "core/message_key.h"
#include "core/op_table.h"
#include "core/operation.h"

namespace pir::passes::schedule {

namespace {

struct Spelling {
  CommOpKind kind;
  CollectiveKind collective;
  bool sum;  // a c_* spelling (or reduce_scatter): SUM whatever reduce_type says
};

/// How `op` communicates, from its op table entry (core::Communication,
/// the list the runtime's comm kernels are registered from); nullopt: not.
std::optional<Spelling> spellingOf(const core::Operation& op) {
  using core::Communication;
  const core::OpInfo* info = core::lookupOp(op);
  switch (info ? info->comm : Communication::None) {
    case Communication::None:
      return std::nullopt;
    case Communication::Send:
      return Spelling{CommOpKind::Send, CollectiveKind::AllReduce, false};
    case Communication::Recv:
      return Spelling{CommOpKind::Recv, CollectiveKind::AllReduce, false};
    case Communication::AllReduce:
      return Spelling{CommOpKind::Collective, CollectiveKind::AllReduce, false};
    case Communication::AllReduceSum:
      return Spelling{CommOpKind::Collective, CollectiveKind::AllReduce, true};
    case Communication::AllGather:
      return Spelling{CommOpKind::Collective, CollectiveKind::AllGather, false};
    case Communication::ReduceScatter:
      return Spelling{CommOpKind::Collective, CollectiveKind::ReduceScatter, true};
    case Communication::AllToAll:
      return Spelling{CommOpKind::Collective, CollectiveKind::AllToAll, false};
    case Communication::Broadcast:
      return Spelling{CommOpKind::Collective, CollectiveKind::Broadcast, false};
  }
  return std::nullopt;
}

CommType typeOf(const core::Type* type) {
  CommType t;
  auto shape = type ? core::tensorShape(type) : std::nullopt;
  if (!shape) return t;
  t.known = true;
  t.dtype = shape->dtype;
  t.dims.assign(shape->dims.begin(), shape->dims.end());
  return t;
}

/// What a recv_v2 takes: its result type (the runtime's authority), else
/// `dtype` and `out_shape`; any shape with dynamic_shape.
CommType recvType(const core::Operation& op) {
  CommType t = op.numResults() > 0 ? typeOf(op.result(0)->type()) : CommType{};
  if (!t.known) {
    auto dtype = core::getDataType(op, "dtype");
    auto dims = core::getInt64Array(op, "out_shape");
    if (dtype && dims) t = {true, *dtype, *dims, false};
  }
  t.anyShape = t.known && core::getBool(op, "dynamic_shape").value_or(false);
  return t;
}

std::string ranksText(const std::vector<int64_t>& ranks) {
  std::string text;
  for (int64_t r : ranks) text += (text.empty() ? "" : ", ") + std::to_string(r);
  return "[" + text + "]";
}

/// Reads `op` into `out`; an error message when the check cannot place it.
std::string readOp(const core::Operation& op, const Spelling& s, int64_t rank, const core::RingTable& rings,
                   CommOp& out) {
  out.kind = s.kind;
  out.op = &op;
  out.collective = s.collective;
  auto ring = core::getInt64(op, "ring_id");
  if (!ring) return "no ring_id attribute";
  out.ring = *ring;
  const core::ProcessGroup* group = rings.find(*ring);
  if (!group) return "ring " + std::to_string(*ring) + " is not in the ring table (ranks.yaml)";
  if (!group->localRank(rank))
    return "rank " + std::to_string(rank) + " is not in ring " + std::to_string(*ring) + " " + ranksText(group->ranks);
  const int64_t size = int64_t(group->ranks.size());
  if (s.kind != CommOpKind::Collective) {
    auto peer = core::getInt64(op, "peer");
    if (!peer) return "no peer attribute";
    if (*peer < 0 || *peer >= size)
      return "peer " + std::to_string(*peer) + " is no position in ring " + std::to_string(*ring) + " " +
             ranksText(group->ranks);
    out.peer = group->ranks[size_t(*peer)];
    // The ring plan's point-to-point rings are [sender, receiver]: a peer
    // that is the rank itself is a ring whose ranks were reordered.
    if (out.peer == rank)
      return "peer " + std::to_string(*peer) + " in ring " + std::to_string(*ring) + " " + ranksText(group->ranks) +
             " is rank " + std::to_string(rank) + " itself (the ring's ranks are not in the ring plan's order)";
    out.messageIndex = core::messageIndex(op);
    out.type = s.kind == CommOpKind::Recv
                   ? recvType(op)
                   : typeOf(op.numOperands() && op.operandValue(0) ? op.operandValue(0)->type() : nullptr);
    return "";
  }
  out.type = typeOf(op.numOperands() && op.operandValue(0) ? op.operandValue(0)->type() : nullptr);
  if (s.collective == CollectiveKind::AllReduce && !std::is_sorted(group->ranks.begin(), group->ranks.end()))
    return "all_reduce ring " + std::to_string(*ring) + " " + ranksText(group->ranks) +
           " is not ascending, as the ring plan makes an all_reduce's ranks";
  if (s.collective == CollectiveKind::AllReduce && !s.sum) {
    int64_t type = core::getInt64(op, "reduce_type").value_or(0);
    if (type < 0 || type > 4) return "reduce_type " + std::to_string(type) + " is none of 0 SUM .. 4 AVG";
    out.reduce = core::ReduceType(type);
  }
  if (s.collective == CollectiveKind::Broadcast) {
    out.root = core::getInt64(op, "root").value_or(0);
    if (out.root < 0 || out.root >= size)
      return "root " + std::to_string(out.root) + " is no position in ring " + std::to_string(*ring) + " " +
             ranksText(group->ranks);
  }
  return "";
}

/// Where `kwarg` is first read: the earliest op using it.
int64_t firstRead(const core::Value& kwarg) {
  int64_t at = -1;
  for (const core::OpOperand* use = kwarg.firstUse(); use; use = use->nextUse())
    if (int64_t loc = use->owner()->location(); loc >= 0 && (at < 0 || loc < at)) at = loc;
  return at;
}

}  // namespace

std::string_view collectiveKindName(CollectiveKind kind) {
  switch (kind) {
    case CollectiveKind::AllReduce:
      return "all_reduce";
    case CollectiveKind::AllGather:
      return "all_gather";
    case CollectiveKind::ReduceScatter:
      return "reduce_scatter";
    case CollectiveKind::AllToAll:
      return "all_to_all";
    case CollectiveKind::Broadcast:
      return "broadcast";
  }
  return "?";
}

std::string JobSite::name() const {
  std::string text = "rank " + std::to_string(rank);
  return job ? text + ", job " + job->name() : text;
}

bool compatible(const CommType& a, const CommType& b) {
  if (!a.known || !b.known) return true;
  if (a.dtype != b.dtype) return false;
  if (a.anyShape || b.anyShape) return true;
  if (a.dims.size() != b.dims.size()) return false;
  for (size_t i = 0; i < a.dims.size(); ++i)
    if (a.dims[i] >= 0 && b.dims[i] >= 0 && a.dims[i] != b.dims[i]) return false;
  return true;
}

std::string typeText(const CommType& t) {
  if (!t.known) return "?";
  std::string text;
  if (t.anyShape)
    text = "*x";
  else
    for (int64_t d : t.dims) text += (d < 0 ? std::string("?") : std::to_string(d)) + "x";
  return text + std::string(core::dataTypeName(t.dtype));
}

namespace {

core::Diagnostic opError(const CommProgram& program, const core::Operation& op, const std::string& problem) {
  core::Diagnostic d;
  d.offset = op.location();
  d.source = program.source;
  d.message = "rank " + std::to_string(program.rank) + (program.job.empty() ? "" : ", job " + program.job) + ": " +
              std::string(op.name()) + ": " + problem;
  return d;
}

}  // namespace

void checkCommRings(const CommProgram& program, const core::RingTable& rings, std::vector<core::Diagnostic>& errors) {
  core::walk(program.program->body(), [&](const core::Operation& op) {
    std::optional<Spelling> s = spellingOf(op);
    CommOp c;
    if (!s) return;
    if (std::string problem = readOp(op, *s, program.rank, rings, c); !problem.empty())
      errors.push_back(opError(program, op, problem));
  });
}

JobCode indexJob(const CommProgram& program, const core::RingTable& rings, std::vector<core::Diagnostic>& errors) {
  JobCode code;
  code.program = &program;
  const core::Block& body = program.program->body();
  for (const core::BlockArgument* kw : body.kwargs())
    if (!core::isPersistable(*kw)) code.kwargs.push_back({kw->name(), firstRead(*kw)});
  for (const core::Operation& op : body) {
    const core::OpInfo* info = op.numResults() == 0 ? core::lookupOp(op) : nullptr;  // outputs make no value
    if (info && info->scope == core::ScopeAccess::WritesOutput)
      if (auto* name = op.attrOf<core::StringAttr>(info->scopeKey)) code.exports.push_back(name->value());
    std::optional<Spelling> s = spellingOf(op);
    if (!s) continue;
    CommOp c;
    if (std::string problem = readOp(op, *s, program.rank, rings, c); !problem.empty()) {
      errors.push_back(opError(program, op, problem));
      continue;
    }
    code.ops.push_back(std::move(c));
  }
  return code;
}

}  // namespace pir::passes::schedule
