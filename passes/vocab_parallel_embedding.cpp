//===- vocab_parallel_embedding.cpp - embedding on a vocab shard ----------===//
#include "passes/vocab_parallel_embedding.h"

#include <vector>

#include "core/attr_access.h"
#include "core/attr_list_builder.h"
#include "core/context.h"
#include "core/mesh_math.h"
#include "core/operation.h"

namespace pir::passes {

using namespace pir::core;

namespace {

/// The first row of the table that `rank` holds, and the table's rows; nullopt when `op`'s weight (operand 1) is
/// not sharded on its rows or the rank holds none.
struct Shard {
  int64_t start = 0;
  int64_t vocab = 0;
};

std::optional<Shard> vocabShard(const Operation& op, int64_t rank) {
  const OpDistAttr* od = op.distAttr();
  const TensorDistAttr* w = od ? od->operandDist(1) : nullptr;
  if (!w || w->dimsMapping().empty() || w->dimsMapping()[0] < 0 || op.numOperands() < 2 || !op.operandValue(1))
    return std::nullopt;
  auto* type = op.operandValue(1)->type() ? op.operandValue(1)->type()->dynCast<DistTensorType>() : nullptr;
  auto coord = meshCoordinate(*w->mesh(), rank);
  size_t m = size_t(w->dimsMapping()[0]);
  if (!type || type->dims().empty() || !coord || m >= coord->size()) return std::nullopt;
  int64_t vocab = type->dims()[0];
  return Shard{shardPiece(vocab, w->mesh()->shape()[m], (*coord)[m]).begin, vocab};
}

}  // namespace

int localizeVocabParallelEmbeddings(Program& program, int64_t rank,
                                    const std::function<void(const Operation&, std::string)>& report) {
  Context& ctx = program.context();
  // A walk of every rank's program costs 3% of split-ranks at 1M ops:
  // skipped when no op can have either name.
  if (!ctx.hasInterned("pd_op.embedding") && !ctx.hasInterned("pd_op.embedding_grad")) return 0;
  std::vector<Operation*> found;
  walk(program.body(), [&](Operation& op) {
    if (op.name() == "pd_op.embedding" || op.name() == "pd_op.embedding_grad") found.push_back(&op);
  });
  AttrSpeller spell(program);
  int count = 0;
  for (Operation* op : found) {
    auto shard = vocabShard(*op, rank);
    if (!shard) continue;
    bool grad = op->name() == "pd_op.embedding_grad";
    if (auto pad = getInt64(op->attr("padding_idx")); pad && *pad >= 0) {
      report(*op, "an embedding on a vocab-sharded weight with padding_idx " + std::to_string(*pad) +
                      " has no per-rank form (c_embedding takes none)");
      continue;
    }
    // embedding(x, weight, ..) -> c_embedding(weight, x); embedding_grad(x, weight, out_grad) ->
    // c_embedding_grad(weight, x, out_grad)
    std::vector<Value*> operands = {op->operandValue(1), op->operandValue(0)};
    if (grad) operands.push_back(op->operandValue(2));
    std::vector<NamedAttr> attrs;
    for (const NamedAttr& a : op->attributes())
      if (a.key != "padding_idx" && a.key != "sparse" && a.key != "op_dist_attr") attrs.push_back(a);
    if (const OpDistAttr* od = op->distAttr()) {  // the operand entries swapped with their operands
      std::vector<const Attribute*> ins(od->operands().begin(), od->operands().end());
      if (ins.size() >= 2) std::swap(ins[0], ins[1]);
      std::vector<const Attribute*> outs(od->results().begin(), od->results().end());
      attrs.push_back(
          {ctx.intern("op_dist_attr"), ctx.opDistAttr(od->mesh(), ins, outs, od->chunkId(), od->hasChunkId())});
    }
    attrs.push_back({ctx.intern("start_index"), spell.int64(shard->start)});
    if (!grad) attrs.push_back({ctx.intern("vocab_size"), spell.int64(shard->vocab)});
    std::sort(attrs.begin(), attrs.end(), [](const NamedAttr& a, const NamedAttr& b) { return a.key < b.key; });
    std::vector<const Type*> types;
    for (uint32_t i = 0; i < op->numResults(); ++i) types.push_back(op->result(i)->type());
    Operation* c = Operation::create(ctx, grad ? "pd_op.c_embedding_grad" : "pd_op.c_embedding", operands, types,
                                     ctx.attrList(attrs));
    op->parentBlock()->insertBefore(op, c);
    for (uint32_t i = 0; i < op->numResults(); ++i) op->result(i)->replaceAllUsesWith(c->result(i));
    op->erase();
    ++count;
  }
  return count;
}

}  // namespace pir::passes
