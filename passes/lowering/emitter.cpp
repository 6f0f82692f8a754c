//===- emitter.cpp - building blocks of the lowered ops -------------------===//
#include "passes/lowering/emitter.h"

#include <algorithm>

#include "core/attr_access.h"
#include "core/context.h"
#include "core/mesh_math.h"
#include "core/op_table.h"
#include "core/operation.h"

namespace pir::passes::lowering {

using namespace pir::core;

namespace {

/// The chunk id of `op`'s op_dist_attr, or -1.
int64_t chunkOf(const Operation* op) {
  const OpDistAttr* od = op ? op->distAttr() : nullptr;
  return od ? od->chunkId() : -1;
}

/// Paddle's find_var_used_op_chunk_id: the chunk of the first user of `v`
/// that has one, looking through builtin.combine / split to their users.
int64_t usersChunk(const Value* v, int depth = 0) {
  for (OpOperand* u = v->firstUse(); u; u = u->nextUse()) {
    Operation* user = u->owner();
    const OpInfo* info = lookupOp(*user);
    if (info && info->has(kPacksVec) && depth < 4) {
      for (uint32_t r = 0; r < user->numResults(); ++r)
        if (int64_t c = usersChunk(user->result(r), depth + 1); c >= 0) return c;
      continue;
    }
    if (int64_t c = chunkOf(user); c >= 0) return c;
  }
  return -1;
}

}  // namespace

Emitter::Emitter(Program& program, DistOpFactory& factory, const ProcessGroupTable& rings, ConstantMemo& constants,
                 int64_t rank, Operation& reshard)
    : program_(program),
      ctx_(program.context()),
      factory_(factory),
      rings_(rings),
      constants_(constants),
      rank_(rank),
      reshard_(reshard),
      builder_(program.context()) {
  builder_.setInsertionPoint(&reshard);
  Value* src = reshard.operandValue(0);
  Operation* def = src->definingOp();
  chunk_ = chunkOf(def);
  recvChunk_ = usersChunk(reshard.result(0));
  if (const auto* sg = def ? def->attrOf<ArrayAttr>("stop_gradient") : nullptr; sg && src->index() < sg->size())
    sg_ = sg->elements()[src->index()];
}

Value* Emitter::emit(const Step& step, Value* cur) {
  switch (step.kind) {
    case StepKind::PToR:
      return pToR(step, cur);
    case StepKind::PToS:
      return pToS(step, cur);
    case StepKind::SToR:
      return sToR(step, cur);
    case StepKind::RToS:
      return rToS(step, cur);
    case StepKind::RToP:
      return rToP(step, cur);
    case StepKind::SToS:
      return sToS(step, cur);
    case StepKind::SameStatus:
      return sameStatus(step, cur);
    case StepKind::Broadcast:
      return broadcast(step, cur);
    case StepKind::GlobalToSub:
      return globalToSub(step, cur);
    case StepKind::SubToGlobal:
      return subToGlobal(step, cur);
    case StepKind::AllReduceFlat:
      return allReduceFlat(step, cur);
    case StepKind::AllToAll:
      return allToAll(step, cur);
    case StepKind::Move:
      return move(step, cur);
  }
  return cur;
}

const ProcessMesh* Emitter::stepMesh(const Step& step) {
  const ProcessMesh* mesh = step.from->mesh();
  if (mesh->ndim() <= 1) return mesh;
  return subMesh1D(ctx_, *mesh, static_cast<size_t>(step.meshDim), rank_);
}

const TensorDistAttr* Emitter::oneDim(const ProcessMesh* mesh, size_t rank, int64_t axis, bool partial,
                                      ReduceType reduce) {
  std::vector<int64_t> map(rank, -1);
  if (axis >= 0 && static_cast<size_t>(axis) < rank) map[axis] = 0;
  PartialEntry p[] = {{0, reduce}};
  return ctx_.tensorDistAttr(mesh, map, partial ? std::span<const PartialEntry>(p) : std::span<const PartialEntry>());
}

const ProcessGroup& Emitter::ring(std::span<const int64_t> ranks) {
  // planRings made every ring a step asks for; the table is the program's
  // and shared by all ranks, so nothing is created here in practice.
  return const_cast<ProcessGroupTable&>(rings_).getOrCreate(ranks);
}

const ProcessGroup& Emitter::sortedRing(const ProcessMesh* mesh) {
  std::vector<int64_t> ids(mesh->processIds().begin(), mesh->processIds().end());
  std::sort(ids.begin(), ids.end());
  return ring(ids);
}

const ProcessGroup& Emitter::meshRing(const ProcessMesh* mesh) { return ring(mesh->processIds()); }

std::vector<int64_t> Emitter::dimsOf(const Value* v) {
  auto s = tensorShape(v->type());
  return s ? std::vector<int64_t>(s->dims.begin(), s->dims.end()) : std::vector<int64_t>();
}

DataType Emitter::dtypeOf(const Value* v) {
  auto s = tensorShape(v->type());
  return s ? s->dtype : DataType::Undefined;
}

const Type* Emitter::distType(std::span<const int64_t> dims, const TensorDistAttr* attr, DataType dtype) {
  if (dtype == DataType::Undefined) dtype = dtypeOf(reshard_.operandValue(0));
  return ctx_.distTensorType(dtype, dims, attr);
}

const OpDistAttr* Emitter::opDist(const ProcessMesh* mesh, std::span<const Attribute* const> operands,
                                  std::span<const Attribute* const> results, int64_t chunk) {
  return ctx_.opDistAttr(mesh, operands, results, chunk, program_.style().opDistChunkId);
}

AttrListBuilder Emitter::attrs(const OpDistAttr* od, uint32_t numResults, bool constant) {
  AttrListBuilder a = factory_.attrs();
  if (od) a.set(factory_.opDistAttrKey(), od);
  factory_.setRoleAndChunk(a, &reshard_);
  const Attribute* sg = constant ? ctx_.boolAttr(true) : sg_;
  if (sg && numResults > 0) {
    std::vector<const Attribute*> all(numResults, sg);
    a.set("stop_gradient", ctx_.arrayAttr(all));
  }
  return a;
}

Operation* Emitter::create(std::string_view name, std::span<Value* const> operands,
                           std::span<const Type* const> results, const AttrListBuilder& attrs) {
  return builder_.create(name, operands, results, attrs.attrs());
}

template <class Build>
Value* Emitter::constant(ConstantMemo::Key key, Build&& build) {
  auto [role, chunkAttr] = factory_.roleAndChunkOf(reshard_);
  key.role = role;
  key.chunkAttr = chunkAttr;
  key.chunk = chunk_;
  if (const ConstantMemo::Made* made = constants_.find(key)) {
    const Type* t[] = {made->type};
    return builder_.createInterned(made->name, {}, t, made->attrs)->result(0);
  }
  Operation* op = build();
  constants_.add(std::move(key), {op->name(), op->attributes(), op->result(0)->type()});
  return op->result(0);
}

Value* Emitter::fullAxis(int64_t axis, const ProcessMesh* mesh) {
  return constant({mesh, nullptr, nullptr, -1, false, {axis}}, [&] {
    int64_t one[] = {1};
    const TensorDistAttr* attr = oneDim(mesh, 1, -1, false);
    const Attribute* results[] = {attr};
    AttrListBuilder a = attrs(opDist(mesh, {}, results, chunk_), 1, true);
    a.setDataType("dtype", DataType::I32).setPlace("place", Place{"cpu"}).setIntArray("shape", one);
    a.setFloat("value", static_cast<float>(axis));
    const Type* t[] = {distType(one, attr, DataType::I32)};
    return create("pd_op.full", {}, t, a);
  });
}

Value* Emitter::fullIntArray(std::span<const int64_t> values, const ProcessMesh* mesh) {
  return constant({mesh, nullptr, nullptr, -1, true, {values.begin(), values.end()}}, [&] {
    int64_t n[] = {static_cast<int64_t>(values.size())};
    const TensorDistAttr* attr = oneDim(mesh, 1, -1, false);
    const Attribute* results[] = {attr};
    AttrListBuilder a = attrs(opDist(mesh, {}, results, chunk_), 1, true);
    a.setDataType("dtype", DataType::I64).setPlace("place", Place{"cpu"}).setInt64Array("value", values);
    const Type* t[] = {distType(n, attr, DataType::I64)};
    return create("pd_op.full_int_array", {}, t, a);
  });
}

Value* Emitter::fill(std::span<const int64_t> localDims, std::span<const int64_t> typeDims, const TensorDistAttr* attr,
                     const OpDistAttr* od, float value) {
  AttrListBuilder a = attrs(od, 1, true);
  DataType dtype = dtypeOf(reshard_.operandValue(0));
  a.setDataType("dtype", dtype).setPlace("place", Place{"undefined", 0}).setIntArray("shape", localDims);
  a.setFloat("value", value);
  const Type* t[] = {distType(typeDims, attr)};
  return create("pd_op.full", {}, t, a)->result(0);
}

Value* Emitter::combine(std::span<Value* const> values, const ProcessMesh* mesh) {
  std::vector<const Type*> types;
  std::vector<const Attribute*> elems;
  for (Value* v : values) {
    types.push_back(v->type());
    const TensorDistAttr* d = distAttrOf(v->type());
    elems.push_back(d ? static_cast<const Attribute*>(d) : ctx_.nullAttr());
  }
  const Attribute* results[] = {ctx_.arrayAttr(elems)};
  AttrListBuilder a = attrs(opDist(mesh, elems, results, chunk_), 0);
  const Type* t[] = {ctx_.vectorType(types)};
  return create("builtin.combine", values, t, a)->result(0);
}

std::vector<Value*> Emitter::unpack(Value* vec, const ProcessMesh* mesh) {
  auto* vt = vec->type()->dynCast<VectorType>();
  std::vector<const Attribute*> elems;
  for (const Type* e : vt->elements()) {
    const TensorDistAttr* d = distAttrOf(e);
    elems.push_back(d ? static_cast<const Attribute*>(d) : ctx_.nullAttr());
  }
  const Attribute* operands[] = {ctx_.arrayAttr(elems)};
  AttrListBuilder a = attrs(opDist(mesh, operands, elems, chunk_), 0);
  Value* in[] = {vec};
  Operation* op = create("builtin.split", in, vt->elements(), a);
  std::vector<Value*> out;
  for (uint32_t i = 0; i < op->numResults(); ++i) out.push_back(op->result(i));
  return out;
}

Value* Emitter::concat(Value* vec, int64_t axis, std::span<const int64_t> dims, const TensorDistAttr* attr,
                       const OpDistAttr* od) {
  Value* ax = fullAxis(axis, od->mesh());
  AttrListBuilder a = attrs(od, 1);
  Value* in[] = {vec, ax};
  const Type* t[] = {distType(dims, attr)};
  return create("pd_op.concat", in, t, a)->result(0);
}

Value* Emitter::concatList(std::span<Value* const> parts, int64_t axis, std::span<const int64_t> dims,
                           const TensorDistAttr* attr, const OpDistAttr* od) {
  Value* ax = fullAxis(axis, od->mesh());
  Value* vec = combine(parts, od->mesh());
  AttrListBuilder a = attrs(od, 1);
  Value* in[] = {vec, ax};
  const Type* t[] = {distType(dims, attr)};
  return create("pd_op.concat", in, t, a)->result(0);
}

std::vector<int64_t> Emitter::localDims(std::span<const int64_t> dims, const TensorDistAttr* attr) {
  if (auto local = localShape(dims, *attr, rank_)) return *local;
  if (auto uniform = uniformLocalShape(dims, *attr)) return *uniform;
  return std::vector<int64_t>(dims.begin(), dims.end());
}

const TensorDistAttr* Emitter::ownAttr(size_t n) {
  int64_t shape[] = {1}, ids[] = {rank_};
  std::vector<int64_t> map(n, -1);
  return ctx_.tensorDistAttr(ctx_.processMesh(shape, ids), map);
}

const Type* Emitter::localType(std::span<const int64_t> dims, const TensorDistAttr* attr,
                               std::span<const int64_t> real) {
  std::optional<std::vector<int64_t>> local = localShape(dims, *attr, rank_);
  if (!local || std::equal(local->begin(), local->end(), real.begin(), real.end())) return distType(dims, attr);
  return distType(real, ownAttr(real.size()));
}

Value* Emitter::fake(Value* cur, const TensorDistAttr* to) {
  return factory_.reshard(builder_, cur, to, &reshard_)->result(0);
}

Value* Emitter::share(Value* cur, const TensorDistAttr* to, const ProcessMesh* mesh) {
  const Attribute* operands[] = {distAttrOf(cur->type())};
  const Attribute* results[] = {to};
  AttrListBuilder a = attrs(opDist(mesh ? mesh : to->mesh(), operands, results, chunk_), 1);
  Value* in[] = {cur};
  const Type* t[] = {distType(dimsOf(cur), to)};
  return create("pd_op.share_data_", in, t, a)->result(0);
}

}  // namespace pir::passes::lowering
