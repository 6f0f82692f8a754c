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
  // Every op the op table says communicates (core::Communication, also what
  // the static communication check follows) gets its kernel here.
  for (const core::OpInfo& info : core::opTable()) {
    using core::Communication;
    switch (info.comm) {
      case Communication::None:
        break;
      case Communication::Send:
        r.add(info.name, send, kAllDtypes);
        break;
      case Communication::Recv:
        r.add(info.name, recv, kAllDtypes);
        break;
      case Communication::AllReduce:
        r.add(info.name, allReduce, kAllDtypes);
        break;
      case Communication::AllReduceSum:
        r.add(info.name, allReduceSum, kAllDtypes);
        break;
      case Communication::AllGather:
        r.add(info.name, allGather, kAllDtypes);
        break;
      case Communication::ReduceScatter:
        r.add(info.name, reduceScatter, kAllDtypes);
        break;
      case Communication::AllToAll:
        r.add(info.name, allToAll, kAllDtypes);
        break;
      case Communication::Broadcast:
        r.add(info.name, broadcast, kAllDtypes);
        break;
    }
  }
}

}  // namespace pir::runtime
