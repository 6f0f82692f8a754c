//===- reshard_builder.cpp ------------------------------------------------===//
#include "passes/reshard_builder.h"

#include <algorithm>

#include "core/context.h"

namespace pir::passes {

using namespace pir::core;

const ProcessMesh* reshardMesh(Context& ctx, const ProcessMesh* src, const ProcessMesh* dst) {
  if (src == dst) return src;
  std::vector<int64_t> ids(src->processIds().begin(), src->processIds().end());
  ids.insert(ids.end(), dst->processIds().begin(), dst->processIds().end());
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  int64_t shape[] = {static_cast<int64_t>(ids.size())};
  return ctx.processMesh(shape, ids);
}

const Type* withDistAttr(Context& ctx, const Type* type, const TensorDistAttr* attr) {
  auto shape = tensorShape(type);
  if (!shape) return type;
  return ctx.distTensorType(shape->dtype, shape->dims, attr);
}

DistOpFactory::DistOpFactory(Program& program)
    : program_(program),
      ctx_(program.context()),
      speller_(program),
      opDistAttrKey_(ctx_, "op_dist_attr"),
      opRoleKey_(ctx_, "op_role"),
      chunkIdKey_(ctx_, "chunk_id") {}

void DistOpFactory::setRoleAndChunk(AttrListBuilder& attrs, const Operation* like) {
  if (!like) return;
  if (const Attribute* role = like->attr(opRoleKey_.str()); role && role->isa<NumberAttr>()) {
    auto known = std::find_if(roles_.begin(), roles_.end(), [&](const auto& r) { return r.first == role; });
    if (known == roles_.end()) {
      // A role is an Int32 in Paddle; one outside that range is kept as read.
      auto v = getInt64(role);
      roles_.emplace_back(role, !v                               ? nullptr
                                : *v == static_cast<int32_t>(*v) ? speller_.int32(static_cast<int32_t>(*v))
                                                                 : role);
      known = roles_.end() - 1;
    }
    attrs.set(opRoleKey_, known->second);
  }
  attrs.set(chunkIdKey_, like->attr(chunkIdKey_.str()));
}

const OpDistAttr* DistOpFactory::opDistAttr(const ProcessMesh* mesh, std::span<const Attribute* const> operands,
                                            std::span<const Attribute* const> results, const Operation* like) {
  int64_t chunk = -1;
  if (const OpDistAttr* od = like ? like->distAttr() : nullptr; od && od->hasChunkId()) chunk = od->chunkId();
  return ctx_.opDistAttr(mesh, operands, results, chunk, program_.style().opDistChunkId);
}

Operation* DistOpFactory::reshard(Builder& builder, Value* input, const TensorDistAttr* dst, const Operation* like) {
  const TensorDistAttr* src = distAttrOf(input->type());
  const Attribute* operands[] = {src};
  const Attribute* results[] = {dst};
  AttrListBuilder attrs(speller_);
  attrs.set(opDistAttrKey_, opDistAttr(reshardMesh(ctx_, src->mesh(), dst->mesh()), operands, results, like));
  setRoleAndChunk(attrs, like);
  Value* in[] = {input};
  const Type* out[] = {withDistAttr(ctx_, input->type(), dst)};
  return builder.create("dist_op.reshard", in, out, attrs.attrs());
}

}  // namespace pir::passes
