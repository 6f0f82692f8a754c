//===- program_splitter.cpp -----------------------------------------------===//
#include "passes/program_splitter.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "core/clone.h"
#include "core/context.h"
#include "core/verifier.h"
#include "passes/reshard_builder.h"

namespace pir::passes {

namespace {

using namespace pir::core;

struct Export {
  std::string name;
  bool needsShadowOutput;
};

class Splitter {
 public:
  Splitter(Program& program, const std::vector<Operation*>& ops, const SplitPlan& plan, DiagnosticEngine& diag,
           PassStatistics& stats)
      : program_(program), ops_(ops), plan_(plan), diag_(diag), stats_(stats), factory_(program) {
    index_.reserve(ops.size());
    for (size_t i = 0; i < ops.size(); ++i) index_[ops[i]] = i;
  }

  Status run(ProgramSet& out) {
    size_t n = plan_.jobs.size();
    imports_.assign(n, {});
    exports_.assign(n, {});
    for (size_t i = 0; i < ops_.size(); ++i)
      for (int job : plan_.homes[i])
        if (Status s = collectReads(*ops_[i], i, job); !s) return s;
    std::vector<ValueMapping> maps(n);
    for (size_t j = 0; j < n; ++j) out.programs.push_back({plan_.jobs[j], makeProgram(static_cast<int>(j), maps[j])});
    // Copies first, while every op still reads what it read in the input;
    // then each op moves into the job that makes it (no copy, so splitting
    // costs no more memory than the input's IR).
    for (size_t i = 0; i < ops_.size(); ++i)
      for (size_t h = 1; h < plan_.homes[i].size(); ++h) {
        int job = plan_.homes[i][h];
        Operation* copy = cloneOperation(ctx(), *ops_[i], maps[job], [&](const Value*) -> Value* {
          unresolved_ = true;  // collectReads records every read from another job
          return nullptr;
        });
        place(*out.programs[job].program, job, i, copy);
      }
    for (size_t i = 0; i < ops_.size(); ++i) {
      int job = plan_.homes[i][0];
      program_.body().remove(ops_[i]);
      rewireReads(*ops_[i], maps[job]);
      place(*out.programs[job].program, job, i, ops_[i]);
    }
    if (kwargs) stats_.add("kwargs added", kwargs);
    if (unresolved_) return Status::error("internal error: a value crossing jobs was not handed over");
    return Status::ok();
  }

 private:
  Context& ctx() { return program_.context(); }

  /// The top-level op (index) defining `v`, or -1 for kwargs and arguments.
  long producerOf(const Value* v) const {
    const Operation* def = v->definingOp();
    auto it = def ? index_.find(def) : index_.end();
    return it == index_.end() ? -1 : static_cast<long>(it->second);
  }

  bool inJob(size_t op, int job) const {
    const auto& h = plan_.homes[op];
    return std::find(h.begin(), h.end(), job) != h.end();
  }

  /// Records what `ops_[i]` (and the ops nested in it) read from other jobs.
  Status collectReads(const Operation& top, size_t i, int job) {
    Status status;
    auto visit = [&](const Operation& op) {
      for (uint32_t k = 0; k < op.numOperands() && status.isOk(); ++k) {
        const Value* v = op.operandValue(k);
        if (!v) continue;
        long p = producerOf(v);
        if (p == static_cast<long>(i)) continue;
        if (p < 0) {
          // The program's own kwargs are read by name wherever they are used;
          // a positional argument of the program has no name to hand over.
          if (v->ownerBlock() == &program_.body()) {
            if (v->kind() == ValueKind::Kwarg) {
              imports_[job].try_emplace(v, static_cast<const BlockArgument*>(v)->name());
            } else {
              diag_.error(reportLocation(&op), "op '" + std::string(op.name()) +
                                                   "' reads a positional argument of the program, which cannot be "
                                                   "handed over between jobs");
              status = Status::error("positional program argument");
            }
          }
          continue;
        }
        if (inJob(static_cast<size_t>(p), job)) continue;
        status = addRead(v, static_cast<size_t>(p), job, top);
      }
    };
    visit(top);
    for (uint32_t r = 0; r < top.numRegions(); ++r)
      for (const Block* b : top.region(r).blocks()) walk(*b, visit);
    return status;
  }

  Status addRead(const Value* v, size_t producer, int job, const Operation& reader) {
    const auto& homes = plan_.homes[producer];
    bool readsOriginals = std::find(plan_.copyReaders.begin(), plan_.copyReaders.end(), job) != plan_.copyReaders.end();
    int source = -1;
    for (int h : homes)
      if (!(readsOriginals && h == plan_.copyJob) && h < job) {
        source = h;
        break;
      }
    if (source < 0) {
      diag_.error(reportLocation(&reader), "op '" + std::string(reader.name()) + "' in job '" + plan_.jobs[job] +
                                               "' reads a value made by op '" + std::string(ops_[producer]->name()) +
                                               "' in the later job '" + plan_.jobs[homes[0]] + "'");
      return Status::error("a job reads a value made by a later job");
    }
    auto [named, fresh] = names_.try_emplace(v);
    if (fresh) named->second = exportOf(v, producer);
    const Export& e = named->second;
    imports_[job].try_emplace(v, e.name);
    exports_[source][v] = e;
    // A job of copies exports too what jobs outside its originals' readers read.
    if (plan_.copyJob >= 0 && !readsOriginals && job > plan_.copyJob &&
        std::find(homes.begin(), homes.end(), plan_.copyJob) != homes.end())
      exports_[plan_.copyJob][v] = e;
    return Status::ok();
  }

  Export exportOf(const Value* v, size_t producer) const {
    const Operation& def = *ops_[producer];
    if (def.name() == "pd_op.data")
      if (auto* n = def.attrOf<StringAttr>("name")) return {n->value(), false};
    if (def.name() == "builtin.parameter")
      if (auto* n = def.attrOf<StringAttr>("parameter_name")) return {n->value(), false};
    for (OpOperand* u = v->firstUse(); u; u = u->nextUse())
      if (u->owner()->name() == "builtin.shadow_output")
        if (auto* n = u->owner()->attrOf<StringAttr>("output_name")) return {n->value(), false};
    return {"var_" + std::to_string(producer) + "_" + std::string(def.name()) + "_" + std::to_string(v->index()), true};
  }

  /// An empty program for `job` with its kwargs (sorted by name, one per
  /// name); `map` learns what each imported value becomes there.
  std::unique_ptr<Program> makeProgram(int job, ValueMapping& map) {
    auto prog = std::make_unique<Program>(ctx());
    prog->style() = program_.style();
    // Sorting a flat list of views is far cheaper than a tree of strings:
    // a backward job can import hundreds of thousands of activations.
    std::vector<std::pair<std::string_view, const Value*>> byName;
    byName.reserve(imports_[job].size());
    for (const auto& [v, name] : imports_[job]) byName.emplace_back(name, v);
    std::sort(byName.begin(), byName.end());
    BlockArgument* kw = nullptr;
    for (size_t k = 0; k < byName.size(); ++k) {
      if (k == 0 || byName[k].first != byName[k - 1].first) {
        kw = prog->body().addKwarg(ctx(), byName[k].first, byName[k].second->type());
        ++kwargs;
      }
      map[byName[k].second] = kw;
    }
    return prog;
  }

  /// Points what a moved op (and the ops nested in it) reads from other
  /// jobs at this job's kwargs.
  void rewireReads(Operation& op, const ValueMapping& map) {
    auto rewire = [&](Operation& o) {
      for (uint32_t k = 0; k < o.numOperands(); ++k)
        if (auto it = map.find(o.operandValue(k)); it != map.end()) o.operand(k).set(it->second);
    };
    rewire(op);
    for (uint32_t r = 0; r < op.numRegions(); ++r)
      for (Block* b : op.region(r).blocks()) walk(*b, rewire);
  }

  /// Appends `op` (standing for ops_[i]) to `job`'s program, followed by a
  /// shadow_output for each result the job exports under a new name.
  void place(Program& prog, int job, size_t i, Operation* op) {
    prog.body().pushBack(op);
    Builder b(ctx());
    b.setInsertionPointToEnd(prog.body());
    for (uint32_t r = 0; r < ops_[i]->numResults(); ++r) {
      auto it = exports_[job].find(ops_[i]->result(r));
      if (it != exports_[job].end() && it->second.needsShadowOutput)
        shadowOutput(b, *ops_[i], op->result(r), it->second.name);
    }
  }

  void shadowOutput(Builder& b, const Operation& producer, Value* v, const std::string& name) {
    std::vector<NamedAttr> attrs;
    if (const OpDistAttr* od = producer.distAttr()) {
      auto* t = v->type() ? v->type()->dynCast<DistTensorType>() : nullptr;
      const Attribute* operands[] = {t ? static_cast<const Attribute*>(t->distAttr()) : ctx().nullAttr()};
      attrs.push_back({ctx().intern("op_dist_attr"), factory_.opDistAttr(od->mesh(), operands, {}, &producer)});
    }
    factory_.appendRoleAndChunk(attrs, &producer);
    attrs.push_back({ctx().intern("output_name"), ctx().stringAttrFromValue(name)});
    sortAttributes(attrs);
    Value* ins[] = {v};
    b.create("builtin.shadow_output", ins, {}, attrs);
    stats_.add("shadow_outputs inserted");
  }

  Program& program_;
  const std::vector<Operation*>& ops_;
  const SplitPlan& plan_;
  DiagnosticEngine& diag_;
  PassStatistics& stats_;
  DistOpFactory factory_;
  std::unordered_map<const Operation*, size_t> index_;
  // Each crossing value's name, made once; imports_ hold views of these
  // (node-based, so the strings do not move) or of kwarg names.
  std::unordered_map<const Value*, Export> names_;
  std::vector<std::unordered_map<const Value*, std::string_view>> imports_;
  std::vector<std::unordered_map<const Value*, Export>> exports_;
  bool unresolved_ = false;
  int64_t kwargs = 0;
};

}  // namespace

Status splitProgram(Program& program, const std::vector<Operation*>& ops, const SplitPlan& plan, ProgramSet& out,
                    DiagnosticEngine& diag, PassStatistics& stats) {
  return Splitter(program, ops, plan, diag, stats).run(out);
}

}  // namespace pir::passes
