//===- clone.cpp - copies of ops, and of programs into another context ----===//
#include "core/clone.h"

#include <vector>

#include "core/context.h"

namespace pir::core {

namespace {
Value* mapValue(const Value* v, ValueMapping& map, const MissingValueFn& missing) {
  if (!v) return nullptr;
  auto it = map.find(v);
  if (it != map.end()) return it->second;
  return missing ? missing(v) : const_cast<Value*>(v);
}

void cloneBlockInto(Context& ctx, const Block& from, Block& to, ValueMapping& map, const MissingValueFn& missing) {
  for (const BlockArgument* a : from.arguments()) {
    BlockArgument* copy = to.addArgument(ctx, a->type());
    copy->setAttributes(ctx.arena(), a->attributes());
    map[a] = copy;
  }
  for (const BlockArgument* k : from.kwargs()) {
    BlockArgument* copy = to.addInternedKwarg(ctx, k->name(), k->type());
    copy->setAttributes(ctx.arena(), k->attributes());
    map[k] = copy;
  }
  for (const Operation& op : from) to.pushBack(cloneOperation(ctx, op, map, missing));
}
}  // namespace

Operation* cloneOperation(Context& ctx, const Operation& op, ValueMapping& map, const MissingValueFn& missing) {
  std::vector<Value*> operands;
  for (uint32_t i = 0; i < op.numOperands(); ++i) operands.push_back(mapValue(op.operandValue(i), map, missing));
  std::vector<const Type*> types;
  for (uint32_t i = 0; i < op.numResults(); ++i) types.push_back(op.result(i)->type());
  Operation* copy = Operation::create(ctx, op.name(), operands, types, op.attributes());
  copy->setDebugId(op.debugId());
  copy->setLocation(op.location());
  if (!op.operandKeywords().empty()) copy->setOperandKeywords(ctx.arena(), op.operandKeywords());
  for (uint32_t i = 0; i < op.numResults(); ++i) map[op.result(i)] = copy->result(i);
  for (uint32_t r = 0; r < op.numRegions(); ++r) {
    Region& region = copy->addRegion(ctx);
    for (const Block* b : op.region(r).blocks()) cloneBlockInto(ctx, *b, *region.addBlock(ctx), map, missing);
  }
  return copy;
}

}  // namespace pir::core

//===----------------------------------------------------------------------===//
// Between contexts
//===----------------------------------------------------------------------===//

namespace pir::core {

ContextImporter::ContextImporter(Context& dst, const Context* source)
    : dst_(dst), shared_(source && dst.readsFrom(source)) {}

const Type* ContextImporter::type(const Type* t) {
  if (!t || shared_) return t;
  if (const Type** found = types_.find(t)) return *found;
  const Type* made = importType(t);  // recurses: insert after
  types_[t] = made;
  return made;
}

const Attribute* ContextImporter::attribute(const Attribute* a) {
  if (!a || shared_) return a;
  if (const Attribute** found = attrs_.find(a)) return *found;
  const Attribute* made = importAttribute(a);  // recurses: insert after
  attrs_[a] = made;
  return made;
}

std::string_view ContextImporter::string(std::string_view s) { return dst_.intern(s); }

std::string_view ContextImporter::internedString(std::string_view s) {
  if (shared_) return s;
  if (s.empty()) return dst_.intern(s);  // no address to key it by
  auto [entry, fresh] = strings_.tryEmplace(s.data());
  if (!fresh && entry->sourceSize == s.size()) return entry->copy;
  *entry = {s.size(), dst_.intern(s)};
  return entry->copy;
}

std::vector<NamedAttr> ContextImporter::namedAttrs(std::span<const NamedAttr> attrs) {
  std::vector<NamedAttr> out;
  out.reserve(attrs.size());
  for (const NamedAttr& a : attrs) out.push_back({internedString(a.key), attribute(a.value)});
  return out;
}

std::span<const NamedAttr> ContextImporter::attrList(std::span<const NamedAttr> attrs) {
  if (attrs.empty() || shared_) return attrs;
  // Most ops share their list with others (Context::attrList): by address.
  if (const std::span<const NamedAttr>* found = lists_.find(attrs.data()); found && found->size() == attrs.size())
    return *found;
  scratch_.clear();
  for (const NamedAttr& a : attrs) scratch_.push_back({internedString(a.key), attribute(a.value)});
  std::span<const NamedAttr> imported = dst_.attrList(scratch_);
  lists_[attrs.data()] = imported;
  return imported;
}

// Every kind is spelled out (no default): a new kind is a -Wswitch warning here.
const Type* ContextImporter::importType(const Type* t) {
  switch (t->kind()) {
    case TypeKind::Scalar:
      return dst_.scalarType(t->dynCast<ScalarType>()->dtype());
    case TypeKind::DenseTensor: {
      auto* d = t->dynCast<DenseTensorType>();
      return dst_.denseTensorType(d->spelling(), d->dtype(), d->dims());
    }
    case TypeKind::DistTensor: {
      auto* d = t->dynCast<DistTensorType>();
      auto* dist = static_cast<const TensorDistAttr*>(attribute(d->distAttr()));
      return dst_.distTensorType(d->dtype(), d->dims(), dist);
    }
    case TypeKind::Vector: {
      std::vector<const Type*> elems;
      for (const Type* e : t->dynCast<VectorType>()->elements()) elems.push_back(type(e));
      return dst_.vectorType(elems);
    }
    case TypeKind::Null:
      return dst_.nullType();
    case TypeKind::Opaque:
      return dst_.opaqueType(t->dynCast<OpaqueType>()->text());
  }
  return nullptr;
}

const Attribute* ContextImporter::importAttribute(const Attribute* a) {
  auto all = [&](std::span<const Attribute* const> in) {
    std::vector<const Attribute*> out;
    out.reserve(in.size());
    for (const Attribute* e : in) out.push_back(attribute(e));
    return out;
  };
  switch (a->kind()) {
    case AttrKind::Bool:
      return dst_.boolAttr(a->dynCast<BoolAttr>()->value());
    case AttrKind::String:
      return dst_.stringAttr(a->dynCast<StringAttr>()->raw());
    case AttrKind::Number: {
      auto* n = a->dynCast<NumberAttr>();
      return dst_.numberAttr(n->tag(), n->text());
    }
    case AttrKind::Array: {
      auto* arr = a->dynCast<ArrayAttr>();
      return dst_.arrayAttr(all(arr->elements()), arr->hasArrayPrefix());
    }
    case AttrKind::Tagged: {
      auto* t = a->dynCast<TaggedAttr>();
      return dst_.taggedAttr(t->tag(), attribute(t->inner()));
    }
    case AttrKind::Symbol:
      return dst_.symbolAttr(a->dynCast<SymbolAttr>()->text());
    case AttrKind::Opaque:
      return dst_.opaqueAttr(a->dynCast<OpaqueAttr>()->text());
    case AttrKind::Null:
      return dst_.nullAttr(a->dynCast<NullAttr>()->spelledNull());
    case AttrKind::TypeRef:
      return dst_.typeAttr(type(a->dynCast<TypeAttr>()->type()));
    case AttrKind::ProcessMesh: {
      auto* m = a->dynCast<ProcessMesh>();
      return dst_.processMesh(m->shape(), m->processIds(), m->dimNames());
    }
    case AttrKind::Placements:
      return dst_.placementsAttr(a->dynCast<PlacementsAttr>()->placements());
    case AttrKind::TensorDist: {
      auto* t = a->dynCast<TensorDistAttr>();
      auto* mesh = static_cast<const ProcessMesh*>(attribute(t->mesh()));
      auto* placements = static_cast<const PlacementsAttr*>(attribute(t->placements()));
      return dst_.tensorDistAttr(mesh, t->dimsMapping(), t->partial(), placements);
    }
    case AttrKind::OpDist: {
      auto* od = a->dynCast<OpDistAttr>();
      auto* mesh = static_cast<const ProcessMesh*>(attribute(od->mesh()));
      return dst_.opDistAttr(mesh, all(od->operands()), all(od->results()), od->chunkId(), od->hasChunkId());
    }
  }
  return nullptr;
}

CloneSource::CloneSource(const Program& program) : program_(program) {
  number(program.body());
  usesInWalkOrder_ = operandsDefinedBefore_ && useListsRunBackwards();
}

bool CloneSource::useListsRunBackwards() const {
  for (const Value* v : values_) {
    uint64_t after = ~uint64_t{0};  // the (op, operand) of the use before in the list
    for (const OpOperand* u = v->firstUse(); u; u = u->nextUse()) {
      const Operation* owner = u->owner();
      uint32_t at = owner->passIndex();
      if (at >= ops_.size() || ops_[at] != owner) return false;  // a use outside the program
      uint64_t here = (uint64_t{at} << 32) | u->index();
      if (here >= after) return false;
      after = here;
    }
  }
  return true;
}

void CloneSource::number(const Block& block) {
  auto add = [&](const Value* v) {
    v->passIndex = static_cast<uint32_t>(values_.size());
    values_.push_back(v);
  };
  for (const BlockArgument* a : block.arguments()) add(a);
  for (const BlockArgument* k : block.kwargs()) add(k);
  for (const Operation& op : block) {
    op.setPassIndex(static_cast<uint32_t>(ops_.size()));
    ops_.push_back(&op);
    for (uint32_t i = 0; i < op.numOperands(); ++i) {
      const Value* v = op.operandValue(i);
      bool before = !v || (v->passIndex < values_.size() && values_[v->passIndex] == v);  // or a null
      operandsDefinedBefore_ = operandsDefinedBefore_ && before;
      operandValues_.push_back(v && before ? v->passIndex : kNoValue);
    }
    for (uint32_t i = 0; i < op.numResults(); ++i) add(op.result(i));
    for (uint32_t r = 0; r < op.numRegions(); ++r)
      for (const Block* b : op.region(r).blocks()) number(*b);
  }
}

namespace {

/// Copies a program in two walks: ops first (operands left null), then the
/// use lists, value by value in the source's order. Source values and ops
/// map to their copies by their CloneSource index.
class ProgramCloner {
 public:
  ProgramCloner(const CloneSource& src, Context& dst)
      : src_(src),
        dst_(dst),
        import_(dst, &src.program().context()),
        values_(src.values().size()),
        ops_(src.ops().size()) {}

  /// The copy of each source op, by the source op's index (after run()).
  std::vector<Operation*> takeCopies() { return std::move(ops_); }

  std::unique_ptr<Program> run() {
    const Program& from = src_.program();
    auto out = std::make_unique<Program>(dst_);
    out->style() = from.style();
    out->style().tensorSpelling = import_.string(from.style().tensorSpelling);
    copyBlock(from.body(), out->body());
    if (!src_.usesInWalkOrder()) linkUses();
    return out;
  }

 private:
  void copyBlock(const Block& from, Block& to) {
    for (const BlockArgument* a : from.arguments()) {
      BlockArgument* copy = to.addArgument(dst_, import_.type(a->type()));
      copy->setAttributes(dst_.arena(), import_.namedAttrs(a->attributes()));
      values_[a->passIndex] = copy;
    }
    for (const BlockArgument* k : from.kwargs()) {
      BlockArgument* copy = to.addKwarg(dst_, k->name(), import_.type(k->type()));
      copy->setAttributes(dst_.arena(), import_.namedAttrs(k->attributes()));
      values_[k->passIndex] = copy;
    }
    for (const Operation& op : from) to.pushBack(copyOp(op));
  }

  Operation* copyOp(const Operation& op) {
    types_.clear();
    for (uint32_t i = 0; i < op.numResults(); ++i) types_.push_back(import_.type(op.result(i)->type()));
    // Operands set here (each use put at the head of its list) rebuild the
    // lists of a source whose uses run in walk order; else linkUses does.
    // Their values by index, from the source's flat list: reading each
    // value's index from the value itself missed the cache on most operands.
    operands_.clear();
    std::span<const uint32_t> indices = src_.operandValues().subspan(nextOperand_, op.numOperands());
    nextOperand_ += op.numOperands();
    for (uint32_t v : indices)
      operands_.push_back(src_.usesInWalkOrder() && v != CloneSource::kNoValue ? values_[v] : nullptr);
    Operation* copy = Operation::createInterned(dst_, import_.internedString(op.name()), operands_, types_,
                                                import_.attrList(op.attributes()));
    copy->setDebugId(op.debugId());
    copy->setLocation(op.location());
    if (!op.operandKeywords().empty()) {
      std::vector<std::string_view> keywords;
      for (std::string_view k : op.operandKeywords()) keywords.push_back(import_.string(k));
      copy->setOperandKeywords(dst_.arena(), keywords);
    }
    ops_[op.passIndex()] = copy;
    for (uint32_t i = 0; i < op.numResults(); ++i) values_[op.result(i)->passIndex] = copy->result(i);
    for (uint32_t r = 0; r < op.numRegions(); ++r) {
      Region& region = copy->addRegion(dst_);
      for (const Block* b : op.region(r).blocks()) copyBlock(*b, *region.addBlock(dst_));
    }
    return copy;
  }

  // A use is linked at the head of its value's list: setting the copies'
  // operands from the last use to the first rebuilds each list in order.
  // Uses by ops outside the program are left out.
  void linkUses() {
    std::span<const Value* const> from = src_.values();
    std::span<const Operation* const> srcOps = src_.ops();
    std::vector<const OpOperand*> uses;
    for (size_t v = 0; v < from.size(); ++v) {
      uses.clear();
      for (const OpOperand* u = from[v]->firstUse(); u; u = u->nextUse()) uses.push_back(u);
      for (size_t i = uses.size(); i-- > 0;) {
        const Operation* owner = uses[i]->owner();
        uint32_t at = owner->passIndex();
        if (at < srcOps.size() && srcOps[at] == owner) ops_[at]->operand(uses[i]->index()).set(values_[v]);
      }
    }
  }

  const CloneSource& src_;
  Context& dst_;
  ContextImporter import_;
  std::vector<Value*> values_;   // by the source value's index
  std::vector<Operation*> ops_;  // by the source op's index
  size_t nextOperand_ = 0;       // the next op's first entry in src_.operandValues()
  std::vector<const Type*> types_;
  std::vector<Value*> operands_;  // copyOp's, reused
};

}  // namespace

std::unique_ptr<Program> cloneProgram(const CloneSource& src, Context& dst) { return ProgramCloner(src, dst).run(); }

std::unique_ptr<Program> cloneProgram(const CloneSource& src, Context& dst, std::vector<Operation*>& copies) {
  ProgramCloner cloner(src, dst);
  std::unique_ptr<Program> out = cloner.run();
  copies = cloner.takeCopies();
  return out;
}

std::unique_ptr<Program> cloneProgram(const Program& src, Context& dst) { return cloneProgram(CloneSource(src), dst); }

}  // namespace pir::core
