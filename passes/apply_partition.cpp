//===- apply_partition.cpp - insert dist_op.reshard where attrs differ ----===//
//
// `apply-partition` (Paddle's apply_partition_pass, pir_pass.py). Ops are
// walked in order, the ops of an op's regions before the op itself. For an
// op with op_dist_attr (combine and split skipped):
//   1. in-place pairs whose input differs: reshard in, retype the result,
//      reshard it back and `assign_out_` it into the input after the op;
//   2. operands whose value differs from the operand attr: a reshard right
//      before the op (from the input of a previous same-rank reshard, which
//      is erased once unused); tensor lists element by element, with a new
//      builtin.combine;
//   3. results whose type differs from the result attr: retype, reshard
//      back right after the op, move the other uses to it.
// A cross-mesh reshard in a dims_maping-era program, whose operand mesh that
// era cannot spell, may exist until lower-reshard replaces it: only printing
// one is an error (core::checkPrintable).
// With `share=true`, consumers needing one value in one attr share one
// reshard, hoisted before the earliest of them in their innermost common
// block (Paddle makes one per consumer).
//
//===----------------------------------------------------------------------===//
#include <spdlog/spdlog.h>

#include <map>
#include <set>
#include <unordered_set>

#include "core/context.h"
#include "core/op_table.h"
#include "core/prefetch.h"
#include "core/verifier.h"
#include "passes/pass_registry.h"
#include "passes/reshard_builder.h"

namespace pir::passes {

namespace {

using namespace pir::core;

const TensorDistAttr* distOf(const Value* v) { return v ? distAttrOf(v->type()) : nullptr; }

/// The statistic a reshard from `src` to `dst` counts under, by the kind
/// of each end (partial, shard, replicated).
std::string_view transitionStatistic(const TensorDistAttr* src, const TensorDistAttr* dst) {
  static constexpr std::string_view kNames[3][3] = {
      {"reshard(s) inserted: P→P", "reshard(s) inserted: P→S", "reshard(s) inserted: P→R"},
      {"reshard(s) inserted: S→P", "reshard(s) inserted: S→S", "reshard(s) inserted: S→R"},
      {"reshard(s) inserted: R→P", "reshard(s) inserted: R→S", "reshard(s) inserted: R→R"}};
  auto kind = [](const TensorDistAttr* a) { return a->isPartial() ? 0 : a->isShard() ? 1 : 2; };
  return kNames[kind(src)][kind(dst)];
}

/// The block that owns `v` (where it is defined).
Block* definingBlock(const Value* v) {
  if (Operation* def = v->definingOp()) return def->parentBlock();
  return v->ownerBlock();
}

bool blockEncloses(const Block* outer, const Block* inner) {
  for (const Block* b = inner; b; b = b->parentOp() ? b->parentOp()->parentBlock() : nullptr)
    if (b == outer) return true;
  return false;
}

/// The op of `block` that is or contains `op`.
Operation* ancestorIn(Operation* op, const Block* block) {
  for (Operation* o = op; o; o = o->parentOp())
    if (o->parentBlock() == block) return o;
  return nullptr;
}

/// The innermost block enclosing both ops.
Block* commonBlock(const Operation* a, const Operation* b) {
  std::set<const Block*> chain;
  for (const Block* x = a->parentBlock(); x; x = x->parentOp() ? x->parentOp()->parentBlock() : nullptr)
    chain.insert(x);
  for (Block* y = b->parentBlock(); y; y = y->parentOp() ? y->parentOp()->parentBlock() : nullptr)
    if (chain.count(y)) return y;
  return nullptr;
}

class ApplyPartitionPass : public ProgramPass {
 public:
  std::string_view name() const override { return "apply-partition"; }
  std::string_view description() const override {
    return "insert dist_op.reshard wherever a value's dist attr differs from what its consumer expects";
  }
  bool verifiesDistAfter() const override { return true; }

  core::Status runOnProgram(NamedProgram& named, DiagnosticEngine& diag) override {
    Program& program = *named.program;
    program_ = &program;
    diag_ = &diag;
    factory_ = std::make_unique<DistOpFactory>(program);
    shared_.clear();
    backReshards_.clear();
    failed_ = false;
    inserted_ = erasedInserted_ = 0;
    walkBlock(program.body());
    // Reshards back from a retyped result may be erased again when their
    // reader reshards from their input: say how many of those made stay.
    if (inserted_) stats_.add("reshard(s) left of those inserted", inserted_ - erasedInserted_);
    if (failed_) return core::Status::error("apply-partition could not complete");
    return core::Status::ok();
  }

 private:
  Context& ctx() { return program_->context(); }

  void walkBlock(Block& block) {
    // Each operand's value, defined anywhere before, is read for its type.
    OperandPrefetcher prefetcher(block);
    for (Operation* op = block.front(); op;) {
      Operation* next = op->nextOp();  // ops inserted after `op` are not revisited
      prefetcher.next();
      processOp(*op);
      op = next;
    }
  }

  void processOp(Operation& op) {
    for (uint32_t r = 0; r < op.numRegions(); ++r)
      for (Block* b : op.region(r).blocks()) walkBlock(*b);
    const OpDistAttr* od = op.distAttr();
    if (!od || op.name() == "builtin.combine" || op.name() == "builtin.split") return;
    if (op.name() == "dist_op.shard_tensor") return shardFromReplicated(op);
    processInplace(op, od);
    for (uint32_t i = 0; i < op.numOperands() && i < od->operands().size(); ++i)
      processOperand(op, i, od->operands()[i]);
    for (uint32_t i = 0; i < op.numResults() && i < od->results().size(); ++i) processResult(op, i, od->resultDist(i));
  }

  /// `dist_op.shard_tensor` of a dense value (every rank holds all of it)
  /// into a sharded or partial one: the shard_tensor is made to give the
  /// replicated value, and a reshard after it gives what it gave, so that
  /// lowering cuts each rank's piece (R->S slices, R->P keeps the value on
  /// one rank). Paddle's executor slices in the op itself.
  void shardFromReplicated(Operation& op) {
    const TensorDistAttr* dst = op.numResults() == 1 ? distOf(op.result(0)) : nullptr;
    if (!dst || dst->isReplicated() || op.numOperands() != 1 || distOf(op.operandValue(0))) return;
    std::vector<int64_t> none(dst->dimsMapping().size(), -1);
    const TensorDistAttr* whole = ctx().tensorDistAttr(dst->mesh(), none);
    const OpDistAttr* od = op.distAttr();
    const Attribute* results[] = {whole};
    op.setAttr(ctx(), factory_->opDistAttrKey().str(),
               ctx().opDistAttr(od->mesh(), od->operands(), results, od->chunkId(), od->hasChunkId()));
    op.result(0)->setType(withDistAttr(ctx(), op.result(0)->type(), whole));
    Builder builder(ctx());
    builder.setInsertionPointAfter(&op);
    Value* made = op.result(0);
    Operation* r = makeReshard(builder, made, dst, op);
    for (OpOperand* use = made->firstUse(); use;) {
      OpOperand* next = use->nextUse();
      if (use->owner() != r) use->set(r->result(0));
      use = next;
    }
    stats_.add("shard_tensor(s) of a dense value resharded from replicated");
  }

  /// Creates `reshard(input) -> dst` at `builder`'s point, counting it.
  Operation* makeReshard(Builder& builder, Value* input, const TensorDistAttr* dst, const Operation& like) {
    const TensorDistAttr* src = distOf(input);
    ++inserted_;
    if (src->mesh() != dst->mesh())
      stats_.add("reshard(s) inserted: cross-mesh");
    else
      stats_.add(transitionStatistic(src, dst));
    return factory_->reshard(builder, input, dst, &like);
  }

  /// The value `op` should read instead of `prev` to see `dst` (Paddle's
  /// reshard_single_value), creating a reshard before `op` if needed.
  Value* reshardSingle(Operation& op, Value* prev, const TensorDistAttr* dst) {
    const TensorDistAttr* src = distOf(prev);
    if (!src || sameDistAttr(src, dst)) return prev;
    Value* base = prev;
    Operation* def = prev->definingOp();
    if (def && def->name() == "dist_op.reshard" && def->numOperands() == 1) {
      const TensorDistAttr* in = distOf(def->operandValue(0));
      // Start from the previous reshard's input, unless that reshard went
      // from a global mesh to a sub-mesh (different mesh ranks).
      if (in && in->mesh()->ndim() == src->mesh()->ndim()) {
        if (sameDistAttr(in, dst)) return def->operandValue(0);
        base = def->operandValue(0);
      }
    }
    if (share_) return sharedReshard(op, base, dst);
    Builder b(ctx());
    b.setInsertionPoint(&op);
    return makeReshard(b, base, dst, op)->result(0);
  }

  /// share=true: reuse a reshard of `base` to `dst`, hoisting it before the
  /// ancestor of its first consumer in the innermost block enclosing both.
  Value* sharedReshard(Operation& op, Value* base, const TensorDistAttr* dst) {
    auto key = std::make_pair(base, dst->canonical());
    auto it = shared_.find(key);
    if (it != shared_.end()) {
      Operation* r = it->second;
      Block* target = commonBlock(r, &op);
      if (target && blockEncloses(definingBlock(base), target)) {
        if (r->parentBlock() != target) {
          Operation* anchor = ancestorIn(r, target);
          r->parentBlock()->remove(r);
          target->insertBefore(anchor, r);
          stats_.add("shared reshard(s) hoisted");
        }
        stats_.add("reshard(s) shared");
        return r->result(0);
      }
    }
    Builder b(ctx());
    b.setInsertionPoint(&op);
    Operation* r = makeReshard(b, base, dst, op);
    shared_[key] = r;
    return r->result(0);
  }

  void processOperand(Operation& op, uint32_t i, const Attribute* entry) {
    Value* prev = op.operandValue(i);
    if (!prev || entry->isa<NullAttr>()) return;
    Value* next = nullptr;
    if (auto* list = entry->dynCast<ArrayAttr>())
      next = reshardList(op, prev, list);
    else if (auto* dst = entry->dynCast<TensorDistAttr>())
      next = reshardSingle(op, prev, dst);
    if (!next || next == prev) return;
    op.operand(i).set(next);
    // An old reshard or combine nothing reads any more goes away.
    Operation* def = prev->definingOp();
    if (def && def->numResults() == 1 && prev->useEmpty() &&
        (def->name() == "dist_op.reshard" || def->name() == "builtin.combine")) {
      if (def->name() == "dist_op.reshard") {
        stats_.add("reshard(s) erased again (the reader takes their input instead)");
        erasedInserted_ += backReshards_.erase(def);
      }
      def->erase();
    }
  }

  /// A tensor list from builtin.combine: each element resharded, a new
  /// combine built right before `op` (null when nothing changes).
  Value* reshardList(Operation& op, Value* prev, const ArrayAttr* list) {
    Operation* combine = prev->definingOp();
    if (!combine || combine->name() != "builtin.combine" || combine->numOperands() != list->size()) {
      stats_.add("tensor list(s) skipped (not from a matching builtin.combine)");
      return nullptr;
    }
    std::vector<Value*> elems;
    bool changed = false;
    for (uint32_t j = 0; j < combine->numOperands(); ++j) {
      Value* e = combine->operandValue(j);
      auto* want = list->elements()[j]->dynCast<TensorDistAttr>();
      Value* r = e && want ? reshardSingle(op, e, want) : e;
      changed = changed || r != e;
      elems.push_back(r);
    }
    if (!changed) return nullptr;
    std::vector<const Type*> types;
    std::vector<const Attribute*> elemAttrs;
    for (Value* e : elems) {
      types.push_back(e ? e->type() : nullptr);
      const TensorDistAttr* a = distOf(e);
      elemAttrs.push_back(a ? static_cast<const Attribute*>(a) : ctx().nullAttr());
    }
    AttrListBuilder attrs = factory_->attrs();
    for (const NamedAttr& a : combine->attributes()) {
      if (a.key == "op_role" || a.key == "chunk_id") continue;
      if (a.key == "op_dist_attr") {
        const Attribute* resultList[] = {ctx().arrayAttr(elemAttrs)};
        attrs.set({a.key, factory_->opDistAttr(combine->distAttr()->mesh(), elemAttrs, resultList, &op)});
      } else {
        attrs.set(a);
      }
    }
    factory_->setRoleAndChunk(attrs, &op);
    Builder b(ctx());
    b.setInsertionPoint(&op);
    const Type* resultTypes[] = {ctx().vectorType(types)};
    stats_.add("tensor list(s) rebuilt");
    return b.create("builtin.combine", elems, resultTypes, attrs.attrs())->result(0);
  }

  void processResult(Operation& op, uint32_t i, const TensorDistAttr* attr) {
    Value* v = op.result(i);
    const TensorDistAttr* old = distOf(v);
    if (!attr || !old || sameDistAttr(old, attr)) return;
    v->setType(withDistAttr(ctx(), v->type(), attr));
    Builder b(ctx());
    b.setInsertionPointAfter(&op);
    Operation* back = makeReshard(b, v, old, op);
    backReshards_.insert(back);
    v->replaceAllUsesWith(back->result(0));
    back->operand(0).set(v);
    op.setAttr(ctx(), "replace_all_uses_with_reshard_var", ctx().boolAttr(true));
    reshardYields(op, i, attr);
  }

  /// A `pd_op.if` whose result `i` was retyped to `attr`: each branch
  /// yields the value in that attr, through a reshard before its yield.
  void reshardYields(Operation& op, uint32_t i, const TensorDistAttr* attr) {
    if (!op.numRegions()) return;
    const OpInfo* info = lookupOp(op);
    if (!info || info->regionSyntax != RegionSyntax::IfElse) return;
    for (uint32_t r = 0; r < op.numRegions(); ++r)
      for (Block* b : op.region(r).blocks()) {
        Operation* yield = b->back();
        if (!yield || yield->name() != "cf.yield" || i >= yield->numOperands()) continue;
        Value* y = yield->operandValue(i);
        const TensorDistAttr* have = distOf(y);
        if (!have || sameDistAttr(have, attr)) continue;
        Builder builder(ctx());
        builder.setInsertionPoint(yield);
        yield->operand(i).set(makeReshard(builder, y, attr, op)->result(0));
        stats_.add("branch result(s) resharded before their yield");
      }
  }

  void processInplace(Operation& op, const OpDistAttr* od) {
    const OpInfo* info = lookupOp(op);
    auto pairs = info ? info->inplacePairs(op.numOperands()) : std::span<const InplacePair>();
    bool known = info && info->writesInPlace();
    if (!known && op.name().ends_with("_") && warned_.insert(std::string(op.name())).second)
      spdlog::warn("apply-partition: '{}' ends in '_' but is not in the in-place table; treated as an ordinary op",
                   op.name());
    for (const InplacePair& pair : pairs) {
      if (pair.operand >= op.numOperands() || pair.result >= op.numResults()) continue;
      const TensorDistAttr* want = od->operandDist(pair.operand);
      Value* prev = op.operandValue(pair.operand);
      const TensorDistAttr* prevAttr = distOf(prev);
      const TensorDistAttr* resultAttr = od->resultDist(pair.result);
      if (!want || !prevAttr || !resultAttr || sameDistAttr(prevAttr, want)) continue;
      if (!sameDistAttr(want, resultAttr)) {
        diag_->error(reportLocation(&op), "in-place op '" + std::string(op.name()) + "' has operand(" +
                                              std::to_string(pair.operand) + ") and result(" +
                                              std::to_string(pair.result) + ") dist attrs that differ");
        failed_ = true;
        return;
      }
      rewriteInplace(op, pair, prev, want);
    }
  }

  /// Paddle's in-place rewrite: reshard the input in, retype the result,
  /// reshard it back and assign it into the old input after the op.
  void rewriteInplace(Operation& op, const InplacePair& pair, Value* prev, const TensorDistAttr* want) {
    const TensorDistAttr* prevAttr = distOf(prev);
    Builder before(ctx());
    before.setInsertionPoint(&op);
    op.operand(pair.operand).set(makeReshard(before, prev, want, op)->result(0));

    Value* result = op.result(pair.result);
    const TensorDistAttr* old = distOf(result);
    if (old) result->setType(withDistAttr(ctx(), result->type(), want));
    Builder after(ctx());
    after.setInsertionPointAfter(&op);
    Operation* back = makeReshard(after, result, prevAttr, op);
    backReshards_.insert(back);
    after.setInsertionPointAfter(back);
    Operation* assign = makeAssignOut(after, back->result(0), prev, op);
    stats_.add("in-place value(s) resharded");
    if (!old || sameDistAttr(old, want)) return;
    Operation* back2 = back;
    if (!sameDistAttr(old, prevAttr)) {
      after.setInsertionPointAfter(assign);
      back2 = makeReshard(after, result, old, op);
      backReshards_.insert(back2);
    }
    // Later uses expected the result's old attr: they read the reshard that
    // produces it (Paddle moves them to the first one, leaving the second
    // unused, and so hands them the input's attr instead).
    result->replaceAllUsesWith(back2->result(0));
    back->operand(0).set(result);
    back2->operand(0).set(result);
  }

  Operation* makeAssignOut(Builder& b, Value* x, Value* output, const Operation& like) {
    const TensorDistAttr* a = distOf(output);
    const Attribute* operands[] = {distOf(x), a};
    const Attribute* results[] = {a};
    AttrListBuilder attrs = factory_->attrs();
    attrs.set(factory_->opDistAttrKey(), factory_->opDistAttr(a->mesh(), operands, results, &like));
    factory_->setRoleAndChunk(attrs, &like);
    Value* in[] = {x, output};
    const Type* out[] = {output->type()};
    return b.create("pd_op.assign_out_", in, out, attrs.attrs());
  }

  Option<bool> share_{this, "share", "consumers needing one value in one attr share one reshard", false};
  Program* program_ = nullptr;
  DiagnosticEngine* diag_ = nullptr;
  std::unique_ptr<DistOpFactory> factory_;
  std::map<std::pair<Value*, const TensorDistAttr*>, Operation*> shared_;
  std::set<std::string> warned_;
  std::unordered_set<const Operation*> backReshards_;  // made after an op, may be erased later
  int64_t inserted_ = 0, erasedInserted_ = 0;
  bool failed_ = false;
};

}  // namespace

void registerApplyPartitionPass() { registerPass<ApplyPartitionPass>(); }

}  // namespace pir::passes
