//===- comm.cpp - collectives and send/recv kernels -----------------------===//
//
// Each kernel reads the ring and the positions from its attributes and calls
// the rank's Communicator (runtime/comm/communicator.h); the c_* spellings of
// older dumps are the same collectives with a SUM.
//
//===----------------------------------------------------------------------===//
#include "runtime/comm/communicator.h"
#include "runtime/kernels/kernel_util.h"

namespace pir::runtime {
namespace {

using core::Status;

core::Result<int64_t> ringOf(const KernelContext& ctx) {
  if (!ctx.comm) return Status::error("no communicator (a collective in a run without ranks)");
  auto ring = core::getInt64(ctx.op, "ring_id");
  if (!ring) return Status::error("no ring_id attribute");
  return *ring;
}

Status allReduceAs(KernelContext& ctx, ReduceType op) {
  auto ring = ringOf(ctx);
  if (!ring) return ring.takeStatus();
  return ctx.comm->allReduce(*ring, ctx.in(0), ctx.out(0), op);
}

Status allReduce(KernelContext& ctx) {
  int64_t type = core::getInt64(ctx.op, "reduce_type").value_or(0);
  if (type < 0 || type > 4) return Status::error("reduce_type " + std::to_string(type) + " is none of 0 SUM .. 4 AVG");
  return allReduceAs(ctx, ReduceType(type));
}

Status allReduceSum(KernelContext& ctx) { return allReduceAs(ctx, ReduceType::Sum); }

Status allGather(KernelContext& ctx) {
  auto ring = ringOf(ctx);
  if (!ring) return ring.takeStatus();
  return ctx.comm->allGather(*ring, ctx.in(0), ctx.out(0));
}

Status reduceScatter(KernelContext& ctx) {
  auto ring = ringOf(ctx);
  if (!ring) return ring.takeStatus();
  return ctx.comm->reduceScatter(*ring, ctx.in(0), ctx.out(0), ReduceType::Sum);
}

Status allToAll(KernelContext& ctx) {
  auto ring = ringOf(ctx);
  if (!ring) return ring.takeStatus();
  return ctx.comm->allToAll(*ring, ctx.in(0), ctx.out(0));
}

Status broadcast(KernelContext& ctx) {
  auto ring = ringOf(ctx);
  if (!ring) return ring.takeStatus();
  return ctx.comm->broadcast(*ring, core::getInt64(ctx.op, "root").value_or(0), ctx.in(0), ctx.out(0));
}

Status send(KernelContext& ctx) {
  auto ring = ringOf(ctx);
  if (!ring) return ring.takeStatus();
  auto peer = core::getInt64(ctx.op, "peer");
  if (!peer) return Status::error("no peer attribute");
  return ctx.comm->send(*ring, *peer, ctx.in(0), ctx.comm->messageKey(core::messageIndex(ctx.op)));
}

Status recv(KernelContext& ctx) {
  auto ring = ringOf(ctx);
  if (!ring) return ring.takeStatus();
  auto peer = core::getInt64(ctx.op, "peer");
  if (!peer) return Status::error("no peer attribute");
  // The result type is the authority on the shape (dist_to_dense leaves
  // out_shape as the lowering wrote it); a dynamic one takes what comes.
  Tensor out;
  if (auto dims = staticResultDims(ctx.op, 0); dims && !core::getBool(ctx.op, "dynamic_shape").value_or(false)) {
    auto shape = core::tensorShape(ctx.op.result(0)->type());
    out = Tensor::allocate(shape->dtype, *dims);
  }
  if (Status s = ctx.comm->recv(*ring, *peer, out, ctx.comm->messageKey(core::messageIndex(ctx.op))); !s) return s;
  ctx.setOut(0, std::move(out));
  return Status::ok();
}

}  // namespace

void registerCommKernels(KernelRegistry& r) {
  r.add("pd_op.all_reduce", allReduce);
  r.add("pd_op.all_reduce_", allReduce);
  r.add("pd_op.c_allreduce_sum", allReduceSum);
  r.add("pd_op.c_allreduce_sum_", allReduceSum);
  r.add("pd_op.all_gather", allGather);
  r.add("pd_op.c_allgather", allGather);
  r.add("pd_op.reduce_scatter", reduceScatter);
  r.add("pd_op.c_reducescatter", reduceScatter);
  r.add("pd_op.all_to_all", allToAll);
  r.add("pd_op.broadcast", broadcast);
  r.add("pd_op.send_v2", send);
  r.add("pd_op.recv_v2", recv);
}

}  // namespace pir::runtime
