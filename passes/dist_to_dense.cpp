//===- dist_to_dense.cpp - one rank's dense types --------------------------===//
//
// `dist-to-dense{rank=R}` (Paddle's dist_to_dense_pass, dist_to_dense_pass.cc),
// in every block, not only the top one:
//   - every dist type (of a result, block argument or kwarg; a vec's
//     elements one by one) becomes the dense type of rank R's piece. The
//     shape is the rank's real one (core::localShape: an uneven last piece is
//     shorter, where Paddle prints ceil(D/n) on every rank and trusts the
//     runtime); -1 stays -1. A value on a mesh without R (none is left after
//     partition-rank) gets Paddle's uniform ceil shape;
//   - `pd_op.data`'s `shape` becomes the local dims, and the
//     `pd_op.full_int_array` feeding a dist `pd_op.reshape` its `value` (as
//     Int64s), copied first when another op reads it too (Paddle rewrites
//     the shared op, changing its other readers);
//   - an `embedding` (and its grad) on a vocab-sharded weight becomes the
//     rank's `c_embedding` (`c_embedding_grad`) with its `start_index`
//     (passes/vocab_parallel_embedding.h);
//   - `op_dist_attr` goes; its chunk id, when it printed one, stays as a
//     separate `chunk_id:(Int64)N` (the pipeline split reads it).
// Then no dist type or dist attribute may remain: an internal error if one
// does. A `dist_op.reshard` left over (never lowered) is a located error.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/attr_list_builder.h"
#include "core/context.h"
#include "core/mesh_math.h"
#include "core/op_table.h"
#include "core/pointer_map.h"
#include "passes/pass_registry.h"
#include "passes/rank_pass.h"
#include "passes/vocab_parallel_embedding.h"

namespace pir::passes {

namespace {

using namespace pir::core;

bool isDistType(const Type* t) {
  if (!t) return false;
  if (t->isa<DistTensorType>()) return true;
  if (auto* v = t->dynCast<VectorType>()) return std::any_of(v->elements().begin(), v->elements().end(), isDistType);
  return false;
}

bool isDistAttrKind(const Attribute* a) {
  if (!a) return false;
  return a->isa<OpDistAttr>() || a->isa<TensorDistAttr>() || a->isa<ProcessMesh>() || a->isa<PlacementsAttr>();
}

/// What of `op` is still distributed, or nothing: a result, else an
/// attribute (`results`, `attrs`: whether to look at them).
std::string distLeftIn(const Operation& op, bool results, bool attrs) {
  for (uint32_t i = 0; results && i < op.numResults(); ++i)
    if (isDistType(op.result(i)->type())) return "a result of '" + std::string(op.name()) + "'";
  if (attrs)
    for (const NamedAttr& a : op.attributes())
      if (isDistAttrKind(a.value)) return "attribute '" + std::string(a.key) + "' of '" + std::string(op.name()) + "'";
  return {};
}

class DistToDensePass : public RankProgramPass {
 public:
  DistToDensePass() : RankProgramPass("the global rank whose local types are taken (-1: the program's own rank)") {}
  std::string_view name() const override { return "dist-to-dense"; }
  std::string_view description() const override {
    return "give every value rank R's dense local type, localize data shapes and reshape targets, drop "
           "op_dist_attr keeping its chunk_id (Paddle's dist_to_dense_pass, with real uneven shapes)";
  }

 private:
  Status runForRank(NamedProgram& named) override {
    program_ = named.program.get();
    types_.clear();
    lists_.clear();
    localized_.clear();
    ops_ = OpInfoCache();  // keyed by this program's interned names
    dataShape_ = program_->context().intern("shape");
    value_ = program_->context().intern("value");
    chunkId_ = program_->context().intern("chunk_id");
    opDistAttr_ = program_->context().intern("op_dist_attr");
    int embeddings = localizeVocabParallelEmbeddings(
        *program_, rank(), [&](const Operation& op, std::string message) { report(op, std::move(message)); });
    for (int i = 0; i < embeddings; ++i) stats_.add("vocab-parallel embeddings made c_embedding");
    distAttrsRemoved_ = 0;
    left_.clear();
    madeDist_ = false;
    convertBlock(program_->body());
    if (distAttrsRemoved_ > 1) stats_.add("op_dist_attr removed", distAttrsRemoved_ - 1);
    if (failed()) return Status::ok();  // reported: the pass fails
    if (!left_.empty()) return Status::internal("dist-to-dense left a dist type or attribute: " + left_);
    return Status::ok();
  }

  Context& ctx() { return program_->context(); }

  // What is left distributed is looked for as each op is converted, while
  // it is in cache (a walk of its own after the pass missed on every op):
  // the first found, in program order, is an internal error.
  void convertBlock(Block& block) {
    for (BlockArgument* a : block.arguments()) {
      a->setType(local(a->type()));
      if (left_.empty() && isDistType(a->type())) left_ = "a block argument";
    }
    for (BlockArgument* k : block.kwargs()) {
      k->setType(local(k->type()));
      if (left_.empty() && isDistType(k->type())) left_ = "kwarg '" + std::string(k->name()) + "'";
    }
    for (Operation* op = block.front(); op && !failed();) {
      Operation* next = op->nextOp();  // a copied full_int_array goes before `op`, never after
      convertOp(*op);
      for (uint32_t r = 0; r < op->numRegions(); ++r)
        for (Block* b : op->region(r).blocks()) convertBlock(*b);
      op = next;
    }
  }

  bool readsData(const Operation& op) {
    const OpInfo* info = ops_.lookup(op);
    return info && info->scope == ScopeAccess::ReadsData;
  }

  void convertOp(Operation& op) {
    if (op.name() == "dist_op.reshard") {
      report(op, "dist_op.reshard on rank " + std::to_string(rank()) +
                     " has no dense form; run lower-reshard and partition-rank first");
      return;
    }
    bool wasDist = op.numResults() > 0 && op.result(0)->type() && op.result(0)->type()->isa<DistTensorType>();
    for (uint32_t i = 0; i < op.numResults(); ++i) op.result(i)->setType(local(op.result(i)->type()));
    if (wasDist && op.numOperands() == 0 && readsData(op)) {
      if (auto shape = tensorShape(op.result(0)->type()))
        op.setAttr(ctx(), dataShape_, spellerLike(op.attr(dataShape_)).intArray(shape->dims));
    } else if (wasDist && op.name() == "pd_op.reshape" && op.numOperands() >= 2) {
      localizeReshape(op);
    }
    // A list made by dropDistAttr was looked at when it was made, and a
    // result's type when local() made it.
    bool attrsChecked = op.distAttr() && dropDistAttr(op);
    if (left_.empty() && (madeDist_ || !attrsChecked)) left_ = distLeftIn(op, madeDist_, !attrsChecked);
  }

  /// The dense type of rank R's piece of `t` (`t` itself when it holds no dist type).
  const Type* local(const Type* t) {
    if (!isDistType(t)) return t;
    if (const Type** found = types_.find(t)) return *found;
    const Type* out = t;
    if (auto* d = t->dynCast<DistTensorType>()) {
      auto dims = localShape(d->dims(), *d->distAttr(), rank());
      if (!dims) dims = uniformLocalShape(d->dims(), *d->distAttr());
      if (!dims) dims.emplace(d->dims().begin(), d->dims().end());  // the verifier rejects such a mapping
      out = ctx().denseTensorType(program_->style().tensorSpelling, d->dtype(), *dims);
    } else if (auto* v = t->dynCast<VectorType>()) {
      std::vector<const Type*> elems;
      for (const Type* e : v->elements()) elems.push_back(local(e));
      out = ctx().vectorType(elems);
    }
    if (isDistType(out)) madeDist_ = true;  // never, by the above: the ops' results are then looked at
    types_[t] = out;
    return out;
  }

  /// A speller that spells as `old` does (tagged or bare), or as the
  /// program does when there is no `old`: a rewritten value reads like the
  /// one it replaces.
  AttrSpeller spellerLike(const Attribute* old) {
    PrintStyle style = program_->style();
    if (auto* arr = old ? old->dynCast<ArrayAttr>() : nullptr; arr && arr->size()) old = arr->elements()[0];
    if (old && old->isa<TaggedAttr>()) style.taggedNumbers = true;
    if (auto* n = old ? old->dynCast<NumberAttr>() : nullptr) style.taggedNumbers = !n->tag().empty();
    if (old && old->isa<ArrayAttr>()) style.taggedNumbers = false;  // an empty array: `[]` either way
    return AttrSpeller(ctx(), style);
  }

  void localizeReshape(Operation& reshape) {
    auto shape = tensorShape(reshape.result(0)->type());
    Value* target = reshape.operandValue(1);
    Operation* full = target ? target->definingOp() : nullptr;
    if (!shape) return;
    if (!full || full->name() != "pd_op.full_int_array") {
      report(reshape,
             "the shape operand of a distributed pd_op.reshape must come from pd_op.full_int_array to be made local");
      return;
    }
    // Reshapes to one shape mostly read full_int_arrays of one list: each
    // (list, local type) is localized once, and its list set again.
    const NamedAttr* global = full->attributes().data();
    Localized* done = global ? localized_.find(global) : nullptr;
    if (done && done->type != reshape.result(0)->type()) done = nullptr;
    const Attribute* local = nullptr;
    if (!done) {
      auto old = getInt64Array(*full, value_);
      if (!old || old->size() != shape->dims.size()) {
        report(*full, "pd_op.full_int_array gives pd_op.reshape " + std::to_string(old ? old->size() : 0) +
                          " dims for a result of " + std::to_string(shape->dims.size()));
        return;
      }
      local = spellerLike(full->attr(value_)).int64Array(shape->dims);
    }
    if (!target->hasOneUse()) {  // others read the global value: this reshape gets its own copy
      const Type* type = target->type();
      Operation* copy =
          Operation::create(ctx(), full->name(), {}, std::span<const Type* const>(&type, 1), full->attributes());
      reshape.parentBlock()->insertBefore(&reshape, copy);
      reshape.operand(1).set(copy->result(0));
      if (left_.empty()) left_ = distLeftIn(*copy, true, true);  // made behind the walk
      full = copy;
      stats_.add("full_int_array ops copied");
    }
    if (done) {
      full->setInternedAttributes(done->list);
    } else {
      full->setAttr(ctx(), value_, local);
      if (global) localized_[global] = Localized{reshape.result(0)->type(), full->attributes()};
    }
    stats_.add("reshape shapes localized");
  }

  /// Drops `op`'s op_dist_attr; true when the list it gets holds no dist
  /// attribute.
  bool dropDistAttr(Operation& op) {
    const NamedAttr* key = op.attributes().data();
    auto [entry, fresh] = lists_.tryEmplace(key);  // an op with an op_dist_attr: a list, so an address
    if (fresh) {
      std::vector<NamedAttr> attrs;
      attrs.reserve(op.attributes().size());  // one key out, at most one in (growing it was 1% of split-ranks)
      const OpDistAttr* od = op.distAttr();
      bool keepChunk = od->hasChunkId() && !op.attr(chunkId_);
      for (const NamedAttr& a : op.attributes())
        if (a.key != opDistAttr_) attrs.push_back(a);
      if (keepChunk) {  // at its bytewise-sorted position among the keys read, as Operation::setAttr puts it
        auto pos = std::find_if(attrs.begin(), attrs.end(), [&](const NamedAttr& a) { return !(a.key < chunkId_); });
        attrs.insert(pos, NamedAttr{chunkId_, AttrSpeller(*program_).int64(od->chunkId())});
      }
      entry->list = ctx().attrList(attrs);
      entry->clean =
          std::none_of(attrs.begin(), attrs.end(), [](const NamedAttr& a) { return isDistAttrKind(a.value); });
    }
    op.setInternedAttributes(entry->list);
    if (distAttrsRemoved_++ == 0) stats_.add("op_dist_attr removed");  // its place among the counters
    return entry->clean;
  }

  Program* program_ = nullptr;
  std::string_view dataShape_, value_, chunkId_, opDistAttr_;
  core::PointerMap<const Type*> types_;
  // An op's attribute list is shared with every op of the same list: each
  // list is rewritten once.
  struct Rewritten {
    std::span<const NamedAttr> list;
    bool clean = false;  // no dist attribute in it
  };
  core::PointerMap<Rewritten> lists_;
  // A full_int_array's list, localized for a reshape of one local type.
  struct Localized {
    const Type* type;
    std::span<const NamedAttr> list;
  };
  core::PointerMap<Localized> localized_;
  OpInfoCache ops_;
  std::string left_;              // the first thing found still distributed
  bool madeDist_ = false;         // local() gave a dist type (a bug): every result is looked at from then on
  int64_t distAttrsRemoved_ = 0;  // added to stats_ first and last: a lookup per op costs 5% of the pass
};

}  // namespace

void registerDistToDensePass() { registerPass<DistToDensePass>(); }

}  // namespace pir::passes
