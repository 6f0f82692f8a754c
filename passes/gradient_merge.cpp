//===- gradient_merge.cpp - accumulate gradients over micro-batches -------===//
//
// `gradient-merge{k=N avg=BOOL}` (Paddle's auto_parallel_gradient_merge on
// PIR, `_pir_append_gradient_merge_backward_op` and `_pir_append_scale_op`).
// For each optimizer op (sgd_, adam_, adamw_, lamb_, momentum_: an op table
// entry with a `param` and a `grad` operand) at the top level:
//
//   - the gradient is its grad operand, walked back through the one-operand
//     linear ops that only carry it there (a reshard, an all_reduce): Paddle's
//     _move_used_grad_op moves those to the optimizer, so they run once per
//     step on the merged value; they take the optimizer op's op_role;
//   - a kwarg `<param>@GRAD@MERGE` of the gradient's type, persistable, is
//     the buffer (Paddle's `add_kwarg`); right after the gradient's producer
//     `pd_op.add_(buffer, grad) {grad_merge_add:true}` accumulates it, with
//     the producer's op_role and chunk;
//   - the optimizer side reads the buffer instead of the gradient (every
//     op_role 2 use of the gradient, as Paddle's replace_grad_users_with);
//   - with avg, `pd_op.scale_(buffer, full(1/k)) {bias:0,
//     bias_after_scale:false}` before the optimizer op feeds it;
//   - at the end of the program `pd_op.set_value_with_tensor_(buffer,
//     full(0), [], [], []) {axes:[], decrease_axes:[], none_axes:[]}` zeroes
//     the buffer for the next step.
//
// New optimizer-side ops carry the optimizer op's op_role and chunk; in a
// distributed program every new op gets an op_dist_attr from its values'
// types (constants replicated on the mesh).
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/context.h"
#include "core/op_table.h"
#include "core/verifier.h"
#include "parser/lexer.h"
#include "passes/manifest.h"
#include "passes/op_roles.h"
#include "passes/pass_registry.h"
#include "passes/reshard_builder.h"
#include "passes/value_naming.h"

namespace pir::passes {

namespace {

using namespace pir::core;

/// Whether the merge may look through `op`, the producer of `v`, to its
/// operand: one operand, one result used once (so the op serves only the
/// optimizer), linear in it, dtype kept, not forward, at the top level.
bool carriesGradient(const Operation* op, const Value* v, const Block& body) {
  if (!op || op->parentBlock() != &body || op->numOperands() != 1 || op->numResults() != 1) return false;
  if (!op->operandValue(0) || opRole(*op) == kRoleForward) return false;
  if (!v->firstUse() || v->firstUse()->nextUse()) return false;
  if (linearityOf(*op, 0) != Linearity::Linear) return false;
  auto in = tensorShape(op->operandValue(0)->type()), out = tensorShape(v->type());
  return in && out && in->dtype == out->dtype;
}

/// One parameter gradient to merge.
struct Merge {
  Operation* optimizer;
  uint32_t gradIndex;
  Value* grad;                  // as the backward computes it
  std::vector<Operation*> via;  // producers between grad and the optimizer, nearest the optimizer first
  std::string name;             // of the buffer
};

class GradientMergePass : public ProgramPass {
 public:
  std::string_view name() const override { return "gradient-merge"; }
  std::string_view description() const override {
    return "accumulate each parameter gradient over k micro-batches in a persistable <param>@GRAD@MERGE kwarg "
           "(add_ in the backward), feed it to the optimizer (scaled by 1/k with avg) and zero it after";
  }

  core::Status runOnProgram(NamedProgram& named, DiagnosticEngine& diag) override {
    Program& program = *named.program;
    program_ = &program;
    factory_ = std::make_unique<DistOpFactory>(program);
    std::vector<Merge> merges;
    if (Status s = collect(program, merges, diag, named.rank >= 0); !s) return s;
    for (Merge& m : merges) merge(program, m);
    stats_.add("merge buffer(s) added", static_cast<int64_t>(merges.size()));
    publish(GradientMergeResult{static_cast<int>(k_)});  // programs.yaml's gradient_merge_k
    return Status::ok();
  }

 private:
  Context& ctx() { return program_->context(); }

  /// `rankProgram`: one rank's program (split-ranks'), which may hold no
  /// optimizer when its stage owns no parameter (tied weights kept on
  /// another stage): left unchanged.
  Status collect(Program& program, std::vector<Merge>& merges, DiagnosticEngine& diag, bool rankProgram) {
    Block& body = program.body();
    std::unordered_set<std::string> names;
    for (const BlockArgument* k : body.kwargs()) names.insert(std::string(k->name()));
    for (Operation& op : body) {
      OptimizerOperands o = optimizerOperands(op);
      if (!o.optimizer) continue;
      Merge m{&op, static_cast<uint32_t>(o.grad), nullptr, {}, {}};
      Value* v = o.grad >= 0 ? op.operandValue(m.gradIndex) : nullptr;  // -1: the op is short of it
      if (!v) {
        diag.error(reportLocation(&op), "optimizer op '" + std::string(op.name()) +
                                            "' has no gradient operand: nothing to merge for its parameter");
        return Status::error("no gradient");
      }
      while (carriesGradient(v->definingOp(), v, body)) {
        m.via.push_back(v->definingOp());
        v = v->definingOp()->operandValue(0);
      }
      m.grad = v;
      if (!tensorShape(v->type())) {
        diag.error(reportLocation(&op),
                   "the gradient of optimizer op '" + std::string(op.name()) + "' is no tensor: it cannot be merged");
        return Status::error("no tensor gradient");
      }
      std::string param = o.param >= 0 ? scopeName(op.operandValue(uint32_t(o.param))) : std::string();
      if (param.empty()) {
        diag.error(reportLocation(&op), "the parameter of optimizer op '" + std::string(op.name()) +
                                            "' has no name (no builtin.parameter, pd_op.data or kwarg): its merge "
                                            "buffer cannot be named");
        return Status::error("unnamed parameter");
      }
      // The buffer is a kwarg, printed `%kwarg_NAME`: a name with other bytes
      // would not read back (found by fuzz_passes).
      if (!std::all_of(param.begin(), param.end(), parser::isValueIdChar)) {
        diag.error(reportLocation(&op), "the parameter '" + param + "' of optimizer op '" + std::string(op.name()) +
                                            "' cannot name a kwarg (letters, digits, '_', '.' and '@' only): its "
                                            "merge buffer cannot be named");
        return Status::error("parameter name");
      }
      m.name = mergeBufferName(param);
      if (!names.insert(m.name).second) {
        diag.error(reportLocation(&op), "the merge buffer '" + m.name + "' of optimizer op '" + std::string(op.name()) +
                                            "' exists already (a kwarg of the program, or a second optimizer op of "
                                            "the parameter; gradient-merge runs once)");
        return Status::error("buffer exists");
      }
      merges.push_back(std::move(m));
    }
    size_t unoptimized = countUnoptimized(body, merges);
    if (merges.empty() && rankProgram && unoptimized == 0) {
      stats_.add("rank program(s) without an optimizer or parameter, left unchanged");
      return Status::ok();
    }
    if (merges.empty()) {
      // About the whole program: no op is at fault.
      diag.error(program.location(),
                 "gradient-merge: the program has no optimizer op (sgd_, adam_, adamw_, lamb_, momentum_), so no "
                 "parameter gradient to merge");
      return Status::error("no optimizer op");
    }
    return Status::ok();
  }

  /// Trainable parameters no optimizer op updates have no gradient to
  /// merge (Paddle's params_grads leaves them out): counted, not refused.
  /// Returns how many.
  size_t countUnoptimized(const Block& body, const std::vector<Merge>& merges) {
    size_t n = 0;
    std::unordered_set<const Value*> updated;
    for (const Merge& m : merges) updated.insert(m.optimizer->operandValue(optimizerOperands(*m.optimizer).param));
    for (const Operation& op : body) {
      // Cheapest tests first: this walks every op of the program.
      if (op.numOperands() != 0 || op.numResults() != 1) continue;
      auto* trainable = op.attrOf<ArrayAttr>("trainable");
      if (!trainable || trainable->size() == 0 || !getBool(trainable->elements()[0]).value_or(false)) continue;
      const OpInfo* info = lookupOp(op);
      if (!info || info->scope != ScopeAccess::ReadsParameter || updated.count(op.result(0))) continue;
      stats_.add("trainable parameter(s) without an optimizer op, not merged");
      ++n;
    }
    return n;
  }

  void merge(Program& program, Merge& m) {
    Block& body = program.body();
    BlockArgument* buffer = body.addKwarg(ctx(), m.name, m.grad->type());
    NamedAttr persistable[] = {{ctx().intern("persistable"), ctx().boolAttr(true)}};
    buffer->setAttributes(ctx().arena(), persistable);

    // Accumulate right after the gradient is made (Paddle: a = a + b, the
    // buffer first, so add_ writes it in place).
    Builder b(ctx());
    Operation* producer = m.grad->definingOp();
    if (producer)
      b.setInsertionPointAfter(producer);
    else
      b.setInsertionPoint(body.front());
    AttrListBuilder add = factory_->attrs();
    add.setBool("grad_merge_add", true);
    Value* addIns[] = {buffer, m.grad};
    create(b, "pd_op.add_", addIns, {buffer->type()}, add, producer);

    // The optimizer side reads the buffer: the ops carrying the gradient
    // there move to the optimizer, and so does every op_role 2 use.
    const Attribute* role = m.optimizer->attr("op_role");
    for (Operation* op : m.via) {
      if (role) op->setAttr(ctx(), "op_role", role);
      stats_.add("gradient op(s) moved to the optimizer");
    }
    // The use nearest the gradient on its way to the optimizer.
    OpOperand& first = m.via.empty() ? m.optimizer->operand(m.gradIndex) : m.via.back()->operand(0);
    first.set(buffer);
    std::vector<OpOperand*> optimizerUses;
    for (OpOperand* u = m.grad->firstUse(); u; u = u->nextUse())
      if (opRole(*u->owner()) == kRoleOptimize) optimizerUses.push_back(u);
    for (OpOperand* u : optimizerUses) u->set(buffer);

    if (avg_) scaleBeforeOptimizer(m);
    zeroAtEnd(body, m, buffer);
  }

  /// `full(1/k)` and `scale_` on what the optimizer op reads, after its
  /// producer (or just before the optimizer op when it is the buffer).
  void scaleBeforeOptimizer(Merge& m) {
    Value* target = m.optimizer->operandValue(m.gradIndex);
    Builder b(ctx());
    if (Operation* def = target->definingOp())
      b.setInsertionPointAfter(def);
    else
      b.setInsertionPoint(m.optimizer);
    const ProcessMesh* mesh = meshOf(target);
    AttrListBuilder full = constant(DataType::F32, 1.0f / static_cast<float>(k_));
    Value* factor = create(b, "pd_op.full", {}, {tensorType(DataType::F32, 1, mesh)}, full, m.optimizer)->result(0);
    AttrListBuilder scale = factory_->attrs();
    scale.setFloat("bias", 0.0f).setBool("bias_after_scale", false);
    Value* ins[] = {target, factor};
    Value* scaled = create(b, "pd_op.scale_", ins, {target->type()}, scale, m.optimizer)->result(0);
    m.optimizer->operand(m.gradIndex).set(scaled);
  }

  /// `set_value_with_tensor_(buffer, full(0), [], [], [])` at the end.
  void zeroAtEnd(Block& body, const Merge& m, BlockArgument* buffer) {
    Builder b(ctx());
    b.setInsertionPointToEnd(body);
    const ProcessMesh* mesh = meshOf(buffer);
    DataType dtype = tensorShape(buffer->type())->dtype;
    AttrListBuilder full = constant(dtype, 0.0f);
    Value* zero = create(b, "pd_op.full", {}, {tensorType(dtype, 1, mesh)}, full, m.optimizer)->result(0);
    std::vector<Value*> ins = {buffer, zero};
    for (int i = 0; i < 3; ++i) {  // starts, ends, steps: empty IntArrays
      AttrListBuilder a = factory_->attrs();
      a.setDataType("dtype", DataType::I64).setPlace("place", Place{"cpu"}).setInt64Array("value", {});
      a.set("stop_gradient", stopGradient(true));
      const Type* t = tensorType(DataType::I64, 0, mesh);
      ins.push_back(create(b, "pd_op.full_int_array", {}, {t}, a, m.optimizer)->result(0));
    }
    AttrListBuilder set = factory_->attrs();
    set.setInt64Array("axes", {}).setInt64Array("decrease_axes", {}).setInt64Array("none_axes", {});
    create(b, "pd_op.set_value_with_tensor_", ins, {buffer->type()}, set, m.optimizer);
  }

  /// A `full` of shape [1] holding `value`.
  AttrListBuilder constant(DataType dtype, float value) {
    AttrListBuilder a = factory_->attrs();
    int64_t one[] = {1};
    a.setDataType("dtype", dtype).setPlace("place", Place{"cpu"}).setIntArray("shape", one).setFloat("value", value);
    a.set("stop_gradient", stopGradient(true));
    return a;
  }

  static const ProcessMesh* meshOf(const Value* v) {
    const TensorDistAttr* d = distAttrOf(v->type());
    return d ? d->mesh() : nullptr;
  }

  /// A 1-D tensor of `n` elements: dense in the program's spelling, or
  /// replicated on `mesh`.
  const Type* tensorType(DataType dtype, int64_t n, const ProcessMesh* mesh) {
    int64_t dims[] = {n};
    if (!mesh) return ctx().denseTensorType(program_->style().tensorSpelling, dtype, dims);
    int64_t replicated[] = {-1};
    return ctx().distTensorType(dtype, dims, ctx().tensorDistAttr(mesh, replicated));
  }

  /// `stop_gradient:[v]`, as Paddle gives the ops it builds.
  const Attribute* stopGradient(bool v) {
    const Attribute* sg[] = {ctx().boolAttr(v)};
    return ctx().arrayAttr(sg);
  }

  /// Creates `name` with `attrs` plus `like`'s op_role and chunk, a
  /// `stop_gradient:[false]` unless `attrs` has one and, when a value is
  /// distributed, an op_dist_attr from the values' types.
  Operation* create(Builder& b, std::string_view name, std::span<Value* const> operands,
                    std::initializer_list<const Type*> results, AttrListBuilder& attrs, const Operation* like) {
    factory_->setRoleAndChunk(attrs, like);
    if (!attrs.get("stop_gradient")) attrs.set("stop_gradient", stopGradient(false));
    const ProcessMesh* mesh = nullptr;
    auto distOf = [&](const Type* t) -> const Attribute* {
      const TensorDistAttr* d = distAttrOf(t);
      if (d && !mesh) mesh = d->mesh();
      return d ? static_cast<const Attribute*>(d) : ctx().nullAttr();
    };
    std::vector<const Attribute*> ins, outs;
    for (Value* v : operands) ins.push_back(distOf(v->type()));
    for (const Type* t : results) outs.push_back(distOf(t));
    if (mesh) {
      if (const OpDistAttr* od = like ? like->distAttr() : nullptr) mesh = od->mesh();
      attrs.set(factory_->opDistAttrKey(), factory_->opDistAttr(mesh, ins, outs, like));
    }
    std::vector<const Type*> types(results);
    return b.create(name, operands, types, attrs.attrs());
  }

  Option<int> k_{this, "k", "number of micro-batches whose gradients are merged", 1, 1, 1 << 20};
  Option<bool> avg_{this, "avg", "average the merged gradients (scale_ by 1/k before the optimizer)", true};

  Program* program_ = nullptr;
  std::unique_ptr<DistOpFactory> factory_;
};

}  // namespace

void registerGradientMergePass() { registerPass<GradientMergePass>(); }

}  // namespace pir::passes
