//===- serialize_dist.cpp - a distributed program's serial meaning --------===//
//
// `drop-dist`: what a distributed program computes on one rank, the meaning
// `pir-run --check` compares a split run with. Every dist tensor type becomes
// the dense type of its global shape (vec types element by element, block
// arguments and kwargs too), every dist_op.reshard is the identity (its uses
// take its operand) and every op_dist_attr goes. Nothing else changes:
// before lowering, shapes in attributes (pd_op.data's, full_int_array's) are
// global already.
//
//===----------------------------------------------------------------------===//
#include <unordered_map>

#include "core/context.h"
#include "core/operation.h"
#include "passes/pass_registry.h"

namespace pir::passes {

namespace {

using core::Type;

class DropDistPass : public ProgramPass {
 public:
  std::string_view name() const override { return "drop-dist"; }
  std::string_view description() const override {
    return "the serial meaning of a distributed program: dist types become their global dense types, reshards "
           "the identity, op_dist_attr is dropped (what pir-run --check compares with)";
  }

  core::Status runOnProgram(core::NamedProgram& program, core::DiagnosticEngine&) override {
    program_ = program.program.get();
    types_.clear();
    dropBlock(program_->body());
    return core::Status::ok();
  }

 private:
  core::Context& ctx() { return program_->context(); }

  const Type* global(const Type* t) {
    if (!t) return t;
    auto [it, fresh] = types_.try_emplace(t, t);
    if (!fresh) return it->second;
    const Type* out = t;
    if (auto* d = t->dynCast<core::DistTensorType>()) {
      out = ctx().denseTensorType(program_->style().tensorSpelling, d->dtype(), d->dims());
    } else if (auto* v = t->dynCast<core::VectorType>()) {
      std::vector<const Type*> elems;
      bool changed = false;
      for (const Type* e : v->elements()) {
        elems.push_back(global(e));
        changed |= elems.back() != e;
      }
      if (changed) out = ctx().vectorType(elems);
    }
    types_[t] = out;
    return out;
  }

  void dropBlock(core::Block& block) {
    for (core::BlockArgument* a : block.arguments()) a->setType(global(a->type()));
    for (core::BlockArgument* a : block.kwargs()) a->setType(global(a->type()));
    for (core::Operation* op = block.front(); op;) {
      core::Operation* next = op->nextOp();
      if (op->name() == "dist_op.reshard" && op->numOperands() == 1 && op->numResults() == 1 && op->operandValue(0)) {
        op->result(0)->replaceAllUsesWith(op->operandValue(0));
        op->erase();
        stats_.add("reshards removed");
        op = next;
        continue;
      }
      for (uint32_t i = 0; i < op->numResults(); ++i) op->result(i)->setType(global(op->result(i)->type()));
      if (op->distAttr()) {
        op->removeAttr(ctx(), "op_dist_attr");
        stats_.add("op_dist_attr dropped");
      }
      for (uint32_t r = 0; r < op->numRegions(); ++r)
        for (core::Block* b : op->region(r).blocks()) dropBlock(*b);
      op = next;
    }
  }

  core::Program* program_ = nullptr;
  std::unordered_map<const Type*, const Type*> types_;
};

}  // namespace

void registerDropDistPass() { registerPass<DropDistPass>(); }

}  // namespace pir::passes
