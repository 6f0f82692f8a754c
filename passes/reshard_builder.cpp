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

void sortAttributes(std::span<NamedAttr> attrs) {
  for (size_t i = 1; i < attrs.size(); ++i)
    for (size_t j = i; j > 0 && attrs[j].key < attrs[j - 1].key; --j) std::swap(attrs[j], attrs[j - 1]);
}

DistOpFactory::DistOpFactory(Program& program)
    : program_(program),
      ctx_(program.context()),
      opDistAttrKey_(ctx_.intern("op_dist_attr")),
      opRoleKey_(ctx_.intern("op_role")),
      chunkIdKey_(ctx_.intern("chunk_id")) {}

const Attribute* DistOpFactory::intAttr(std::string_view tag, int64_t value) {
  return ctx_.numberAttr(program_.style().taggedNumbers ? tag : std::string_view(), std::to_string(value));
}

void DistOpFactory::appendRoleAndChunk(std::vector<NamedAttr>& attrs, const Operation* like) {
  NamedAttr found[2];
  size_t n = roleAndChunk(like, found);
  attrs.insert(attrs.end(), found, found + n);
}

size_t DistOpFactory::roleAndChunk(const Operation* like, NamedAttr* out) {
  if (!like) return 0;
  size_t n = 0;
  if (auto* role = like->attrOf<NumberAttr>(opRoleKey_)) {
    auto known = std::find_if(roles_.begin(), roles_.end(), [&](const auto& r) { return r.first == role; });
    if (known == roles_.end()) {
      auto v = role->asInt();
      roles_.emplace_back(role, v ? intAttr("Int32", *v) : nullptr);
      known = roles_.end() - 1;
    }
    if (known->second) out[n++] = {opRoleKey_, known->second};
  }
  if (const Attribute* chunk = like->attr(chunkIdKey_)) out[n++] = {chunkIdKey_, chunk};
  return n;
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
  NamedAttr attrs[3];
  attrs[0] = {opDistAttrKey_, opDistAttr(reshardMesh(ctx_, src->mesh(), dst->mesh()), operands, results, like)};
  size_t n = 1 + roleAndChunk(like, attrs + 1);
  sortAttributes(std::span(attrs, n));
  Value* in[] = {input};
  const Type* out[] = {withDistAttr(ctx_, input->type(), dst)};
  return builder.create("dist_op.reshard", in, out, std::span<const NamedAttr>(attrs, n));
}

}  // namespace pir::passes
