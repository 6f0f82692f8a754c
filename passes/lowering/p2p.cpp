//===- p2p.cpp - SameStatus and the general path's copy -------------------===//
//
// Paddle's same_status_reshard_func.py: the i-th rank of the source mesh
// sends to the i-th of the destination (`send_v2` on ring [s,d], peer 1;
// `recv_v2` on the same ring, peer 0, with the receiver's local shape). A
// rank in both meshes runs its send and its receive (Paddle stops at the
// first pair naming the rank, W1: `[0,1] -> [1,0]` left rank 0 with a fake
// reshard); a rank paired with itself keeps its value (share_data_); a rank
// in neither gets a fake reshard.
//
// The general path's copy moves a replicated value to the ranks of another
// mesh that lack it, each from a source rank, round robin.
//
// global_to_sub_mesh_func.py: a replicated value whose only use is the
// reshard is retyped in place (its producer's op_dist_attr too), any other
// is share_data_ on the source mesh. sub_to_global_mesh_func.py: the source
// ranks share_data_, the others make zeros on the mesh of the ranks that
// lack it, then all broadcast on the destination's sorted ranks from the
// source's first rank, whose position in that ring is the root (Paddle
// passes the global id, right only when the ring is [0..n), W6).
//
//===----------------------------------------------------------------------===//
#include "core/context.h"
#include "core/mesh_math.h"
#include "core/operation.h"
#include "passes/lowering/emitter.h"

namespace pir::passes::lowering {

using namespace pir::core;

void Emitter::sendTo(Value* x, const TensorDistAttr* from, const ProcessGroup& g, int64_t dst) {
  const Attribute* operands[] = {from};
  AttrListBuilder a = attrs(opDist(from->mesh(), operands, {}, chunk()), 0);
  a.setBool("dynamic_shape", false);
  a.setInt32("peer", static_cast<int32_t>(g.localRank(dst).value_or(1)));
  a.setInt32("ring_id", static_cast<int32_t>(g.ringId));
  a.setBool("use_calc_stream", true);
  Value* in[] = {x};
  create("pd_op.send_v2", in, {}, a);
}

Value* Emitter::recvFrom(std::span<const int64_t> dims, const TensorDistAttr* to, const ProcessGroup& g, int64_t src) {
  std::vector<int64_t> local = localDims(dims, to);
  std::vector<int32_t> shape(local.begin(), local.end());
  const Attribute* results[] = {to};
  AttrListBuilder a = attrs(opDist(to->mesh(), {}, results, recvChunk()), 1);
  a.setDataType("dtype", dtypeOf(reshard_.operandValue(0)));
  a.setBool("dynamic_shape", false);
  a.setInt32Array("out_shape", shape);
  a.setInt32("peer", static_cast<int32_t>(g.localRank(src).value_or(0)));
  a.setInt32("ring_id", static_cast<int32_t>(g.ringId));
  a.setBool("use_calc_stream", true);
  const Type* t[] = {distType(dims, to)};
  return create("pd_op.recv_v2", {}, t, a)->result(0);
}

Value* Emitter::sameStatus(const Step& step, Value* cur) {
  auto s = step.from->mesh()->processIds();
  auto d = step.to->mesh()->processIds();
  size_t n = std::min(s.size(), d.size());
  for (size_t i = 0; i < n; ++i)
    if (s[i] == rank() && d[i] != rank()) {
      int64_t pair[] = {s[i], d[i]};
      sendTo(cur, step.from, ring(pair), d[i]);
    }
  for (size_t i = 0; i < n; ++i) {
    if (d[i] != rank()) continue;
    if (s[i] == rank()) return share(cur, step.to);
    int64_t pair[] = {s[i], d[i]};
    return recvFrom(dimsOf(cur), step.to, ring(pair), s[i]);
  }
  return fake(cur, step.to);
}

Value* Emitter::broadcast(const Step& step, Value* cur) {
  const ProcessMesh& src = *step.from->mesh();
  const ProcessMesh& dst = *step.to->mesh();
  std::vector<int64_t> receivers = broadcastReceivers(src, dst);
  bool inSrc = meshIndexOf(src, rank()).has_value();
  bool inDst = meshIndexOf(dst, rank()).has_value();
  for (size_t i = 0; i < receivers.size(); ++i) {
    int64_t sender = broadcastSender(src, i);
    int64_t pair[] = {sender, receivers[i]};
    if (sender == rank()) sendTo(cur, step.from, ring(pair), receivers[i]);
    if (receivers[i] == rank()) return recvFrom(dimsOf(cur), step.to, ring(pair), sender);
  }
  if (inSrc && inDst) return share(cur, step.to);
  return fake(cur, step.to);
}

Value* Emitter::globalToSub(const Step& step, Value* cur) {
  const Type* type = distType(dimsOf(cur), step.to);
  Operation* def = cur->definingOp();
  if (!cur->hasOneUse() || cur->firstUse()->owner() != &reshard_) return share(cur, step.to, step.from->mesh());
  cur->setType(type);
  if (const OpDistAttr* od = def ? def->distAttr() : nullptr; od && cur->index() < od->results().size()) {
    std::vector<const Attribute*> results(od->results().begin(), od->results().end());
    results[cur->index()] = step.to;
    def->setAttr(ctx(), "op_dist_attr",
                 ctx().opDistAttr(od->mesh(), od->operands(), results, od->chunkId(), od->hasChunkId()));
  }
  return cur;
}

Value* Emitter::subToGlobal(const Step& step, Value* cur) {
  const ProcessMesh& src = *step.from->mesh();
  const ProcessMesh& dst = *step.to->mesh();
  std::vector<int64_t> dims = dimsOf(cur);
  Value* tmp;
  if (meshIndexOf(src, rank())) {
    tmp = share(cur, step.from);
  } else {
    std::vector<int64_t> others = broadcastReceivers(src, dst);
    int64_t shape[] = {static_cast<int64_t>(others.size())};
    const ProcessMesh* mesh = ctx().processMesh(shape, others);
    const TensorDistAttr* attr = ctx().tensorDistAttr(mesh, step.to->dimsMapping(), step.to->partial());
    const Attribute* results[] = {attr};
    tmp = fill(dims, dims, attr, opDist(mesh, {}, results, chunk()), 0.0f);
  }
  const ProcessGroup& g = sortedRing(&dst);
  int64_t root = src.processIds().empty() ? 0 : g.localRank(src.processIds()[0]).value_or(0);
  // Paddle lists the source's attr; the zeros a rank lacking the value
  // broadcasts into are on the mesh of those ranks.
  const Attribute* operands[] = {distAttrOf(tmp->type())};
  const Attribute* results[] = {step.to};
  AttrListBuilder a = attrs(opDist(&dst, operands, results, chunk()), 1);
  a.setInt32("ring_id", static_cast<int32_t>(g.ringId));
  a.setInt32("root", static_cast<int32_t>(root));
  Value* in[] = {tmp};
  const Type* t[] = {distType(dims, step.to)};
  return create("pd_op.broadcast", in, t, a)->result(0);
}

}  // namespace pir::passes::lowering
