//===- reshard_builder.cpp ------------------------------------------------===//
#include "passes/reshard_builder.h"

#include <algorithm>
#include <string>

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

void sortAttributes(std::vector<NamedAttr>& attrs) {
  std::stable_sort(attrs.begin(), attrs.end(), [](const NamedAttr& a, const NamedAttr& b) { return a.key < b.key; });
}

const Attribute* DistOpFactory::intAttr(std::string_view tag, int64_t value) {
  return ctx_.numberAttr(program_.style().taggedNumbers ? tag : std::string_view(), std::to_string(value));
}

void DistOpFactory::appendRoleAndChunk(std::vector<NamedAttr>& attrs, const Operation* like) {
  if (!like) return;
  if (auto* role = like->attrOf<NumberAttr>("op_role")) {
    auto known = std::find_if(roles_.begin(), roles_.end(), [&](const auto& r) { return r.first == role; });
    if (known == roles_.end()) {
      auto v = role->asInt();
      roles_.emplace_back(role, v ? intAttr("Int32", *v) : nullptr);
      known = roles_.end() - 1;
    }
    if (known->second) attrs.push_back({ctx_.intern("op_role"), known->second});
  }
  if (const Attribute* chunk = like->attr("chunk_id")) attrs.push_back({ctx_.intern("chunk_id"), chunk});
}

const OpDistAttr* DistOpFactory::opDistAttr(const ProcessMesh* mesh, std::span<const Attribute* const> operands,
                                            std::span<const Attribute* const> results, const Operation* like) {
  int64_t chunk = -1;
  if (const OpDistAttr* od = like ? like->distAttr() : nullptr; od && od->hasChunkId()) chunk = od->chunkId();
  return ctx_.opDistAttr(mesh, operands, results, chunk, program_.style().opDistChunkId);
}

Operation* DistOpFactory::reshard(Builder& builder, Value* input, const TensorDistAttr* dst, const Operation* like) {
  const TensorDistAttr* src = input->type()->dynCast<DistTensorType>()->distAttr();
  const Attribute* operands[] = {src};
  const Attribute* results[] = {dst};
  std::vector<NamedAttr> attrs;
  attrs.push_back({ctx_.intern("op_dist_attr"),
                   opDistAttr(reshardMesh(ctx_, src->mesh(), dst->mesh()), operands, results, like)});
  appendRoleAndChunk(attrs, like);
  sortAttributes(attrs);
  Value* in[] = {input};
  const Type* out[] = {withDistAttr(ctx_, input->type(), dst)};
  return builder.create("dist_op.reshard", in, out, attrs);
}

}  // namespace pir::passes
