//===- verifier.cpp -------------------------------------------------------===//
#include "core/verifier.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <optional>
#include <unordered_set>

#include "core/context.h"
#include "core/dist_locate.h"
#include "core/op_runs.h"
#include "core/op_signature.h"
#include "core/op_table.h"
#include "core/prefetch.h"
#include "core/printer.h"
#include "core/threads.h"

namespace pir::core {

namespace {

std::string opLabel(const Operation& op) { return "'" + std::string(op.name()) + "'"; }

std::string count(int64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string ints(std::span<const int64_t> v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

int64_t rankOf(const Type* t) {
  if (auto s = tensorShape(t)) return static_cast<int64_t>(s->dims.size());
  return -1;
}

/// How a thread of the threaded verifier sees the marks of the program's
/// own block: an op's results, once verified, carry `firstRun + run` (their
/// passIndex: the op's place in its run), the block's arguments `header`.
struct RunMarks {
  uint32_t firstRun = 0, runs = 0, header = 0;
  uint32_t run = 0;   // this thread's run
  uint32_t opAt = 0;  // the place in it of the op being verified
};

/// An operand whose value no run had marked when it was read: an earlier
/// run another thread had not reached, or no earlier one. Decided once
/// every run is marked.
struct Unsure {
  const Value* value;
  uint32_t run, opAt;
};

class Verifier {
 public:
  Verifier(const Program& program, DiagnosticEngine& diag, const VerifyOptions& options)
      : program_(program), diag_(diag), options_(options), epoch_(program.context().newWalkEpoch()) {
    if (options.printable) printable_.emplace(program);
  }
  /// A thread of the threaded verifier, marking what regions define with `epoch`.
  Verifier(const Program& program, DiagnosticEngine& diag, const VerifyOptions& options, uint32_t epoch,
           const RunMarks& marks)
      : program_(program), diag_(diag), options_(options), epoch_(epoch), threaded_(true), marks_(marks) {
    if (options.printable) printable_.emplace(program);
  }

  // Marks carry this run's epoch, so what the top-level block defined needs
  // no clearing afterwards (regions are cleared as they close).
  void run() {
    verifyBlock(program_.body());
    // What checkPrintable would say, where nothing else is wrong (it ran after the verifier).
    if (printableFailed() && errors_ == 0) {
      ++errors_;
      diag_.error(printable_->status().offset(), printable_->status().message());
    }
  }
  size_t errors() const { return errors_; }
  bool printableFailed() const { return printable_ && !printable_->status().isOk(); }

  /// Threaded: the ops [from, to) of the program's own block, run `run`,
  /// each op's results marked once it is verified.
  void runOps(const Operation* from, const Operation* to, uint32_t run) {
    marks_.run = run;
    marks_.opAt = 0;
    OperandPrefetcher prefetcher(from);  // (its last fetches are the next run's: harmless)
    for (const Operation* op = from; op != to; op = op->nextOp(), ++marks_.opAt) {
      prefetcher.next();
      verifyOp(*op);
      for (uint32_t i = 0; i < op->numResults(); ++i) {
        op->result(i)->passIndex = marks_.opAt;
        mark(op->result(i), marks_.firstRun + run);
      }
    }
  }
  const std::vector<Unsure>& unsure() const { return unsure_; }

 private:
  void error(const Operation& op, std::string message) {
    ++errors_;
    diag_.error(reportLocation(&op), std::move(message));
  }

  // Threads read the marks other threads write as they verify (a run's
  // results, and in a wrong program what a region defines): atomically. A
  // passIndex is read only by its run's thread, and after the join.
  static uint32_t markOf(const Value* v) {
    return std::atomic_ref<uint32_t>(v->visitMark).load(std::memory_order_relaxed);
  }
  void mark(const Value* v, uint32_t m) const {
    if (threaded_)
      std::atomic_ref<uint32_t>(v->visitMark).store(m, std::memory_order_relaxed);
    else
      v->visitMark = m;
  }
  void define(const Value* v) { mark(v, epoch_); }
  bool visible(const Value* v) {
    if (!threaded_) return v->visitMark == epoch_;
    uint32_t m = markOf(v);
    if (m == epoch_ || m == marks_.header) return true;
    // Marked by a run: an earlier one, or an earlier op of this one (only
    // this thread marks this run, and an op's results after the op).
    if (uint32_t run = m - marks_.firstRun; run < marks_.runs)  // (unsigned: below firstRun wraps around)
      return run <= marks_.run;
    unsure_.push_back({v, marks_.run, marks_.opAt});
    return true;  // for now
  }

  void verifyBlock(const Block& block) {
    for (const BlockArgument* a : block.arguments()) define(a);
    for (const BlockArgument* a : block.kwargs()) define(a);
    OperandPrefetcher prefetcher(block);  // the scope check reads each operand's mark
    for (const Operation& op : block) {
      prefetcher.next();
      verifyOp(op);
      for (uint32_t i = 0; i < op.numResults(); ++i) define(op.result(i));
    }
  }

  void verifyOp(const Operation& op) {
    if (printable_) printable_->check(op);
    for (uint32_t i = 0; i < op.numOperands(); ++i) {
      const Value* v = op.operandValue(i);
      if (v && !visible(v)) {
        const Operation* def = v->definingOp();
        std::string why = def && def->isAncestorOf(&op)
                              ? " reads a result of its enclosing op " + opLabel(*def) + ", which exists only after it"
                              : " is not defined before it in this block or an enclosing one";
        Diagnostic& d = diag_.error(reportLocation(&op), "operand " + std::to_string(i) + " of " + opLabel(op) + why);
        ++errors_;
        if (def) d.notes.push_back(Diagnostic{Severity::Note, reportLocation(def), "the value is defined here", {}});
      }
    }
    verifyDistOnce(op);
    // An op's results exist once it has run: later ops see them, its own
    // regions do not.
    for (uint32_t r = 0; r < op.numRegions(); ++r)
      for (const Block* b : op.region(r).blocks()) {
        verifyBlock(*b);
        clearBlock(*b);  // what a region defines is not visible outside it
      }
    if (options_.distConsistency && op.numRegions()) checkYields(op);
  }

  void clearBlock(const Block& block) {
    for (const BlockArgument* a : block.arguments()) mark(a, 0);
    for (const BlockArgument* a : block.kwargs()) mark(a, 0);
    walk(block, [&](const Operation& op) {
      for (uint32_t i = 0; i < op.numResults(); ++i) mark(op.result(i), 0);
      for (uint32_t r = 0; r < op.numRegions(); ++r)
        for (const Block* b : op.region(r).blocks()) {
          for (const BlockArgument* a : b->arguments()) mark(a, 0);
          for (const BlockArgument* a : b->kwargs()) mark(a, 0);
        }
    });
  }

  /// Problems with a mesh on its own, or empty.
  static std::string meshProblem(const ProcessMesh* mesh) {
    int64_t n = 1;
    for (int64_t d : mesh->shape()) {
      if (d <= 0) return "mesh shape has a dimension of size " + std::to_string(d);
      if (n > (int64_t{1} << 40) / d) return "mesh shape is too large";
      n *= d;
    }
    if (n != static_cast<int64_t>(mesh->processIds().size()))
      return "mesh of shape " + ints(mesh->shape()) + " has " +
             count(static_cast<int64_t>(mesh->processIds().size()), "process id", "process ids") +
             ", but its shape holds " + std::to_string(n);
    return {};
  }

  /// A problem with a tensor dist attr, and what part of its text it is in.
  struct Problem {
    std::string message;  // empty: none
    DistPart part = DistPart::Entry;
    int64_t item = -1;
  };

  /// Problems with a tensor dist attr for a tensor of `rank` dims (-1:
  /// unknown), or none.
  static Problem tensorDistProblem(const TensorDistAttr* tda, int64_t rank) {
    if (std::string m = meshProblem(tda->mesh()); !m.empty()) return {m, DistPart::Mesh};
    auto dims = tda->dimsMapping();
    int64_t ndim = static_cast<int64_t>(tda->mesh()->ndim());
    if (rank >= 0 && static_cast<int64_t>(dims.size()) != rank)
      return {"dims_mapping has " + count(static_cast<int64_t>(dims.size()), "entry", "entries") +
                  " for a tensor of rank " + std::to_string(rank),
              DistPart::DimsMapping};
    for (size_t i = 0; i < dims.size(); ++i) {
      int64_t d = dims[i];
      auto item = static_cast<int64_t>(i);
      if (d == -1) continue;
      if (d < 0 || d >= ndim)
        return {"dims_mapping names mesh dim " + std::to_string(d) + ", but the mesh has " + std::to_string(ndim) +
                    " dim(s)",
                DistPart::DimsMapping, item};
      for (size_t j = 0; j < i; ++j)
        if (dims[j] == d)
          return {"dims_mapping uses mesh dim " + std::to_string(d) + " twice", DistPart::DimsMapping, item};
    }
    auto partial = tda->partial();
    for (size_t i = 0; i < partial.size(); ++i) {
      int64_t p = partial[i].meshDim;
      auto item = static_cast<int64_t>(i);
      if (p < 0 || p >= ndim)
        return {
            "partial names mesh dim " + std::to_string(p) + ", but the mesh has " + std::to_string(ndim) + " dim(s)",
            DistPart::Partial, item};
      for (int64_t d : dims)
        if (d == p) return {"mesh dim " + std::to_string(p) + " is both partial and sharded", DistPart::Partial, item};
      for (size_t j = 0; j < i; ++j)
        if (partial[j].meshDim == p)
          return {"partial names mesh dim " + std::to_string(p) + " twice", DistPart::Partial, item};
    }
    return {};
  }

  /// Where to report a problem with the part of `op`'s op_dist_attr that
  /// `ref` names: there, when the op's own text holds it; else at the op.
  int64_t entryLocation(const Operation& op, const DistEntryRef& ref) const {
    if (op.location() >= 0 && diag_.source())
      if (int64_t at = locateDistEntry(diag_.source()->text(), op.location(), ref); at >= 0) return at;
    return reportLocation(&op);
  }

  void entryError(const Operation& op, const DistEntryRef& ref, std::string message) {
    ++errors_;
    Diagnostic& d = diag_.error(entryLocation(op, ref), "in op_dist_attr of " + opLabel(op) + ", " + message);
    if (ref.part != DistPart::Entry) {  // show where the entry (or its list element) starts too, where it fits
      DistEntryRef start = ref;
      start.part = DistPart::Entry;
      d.context = entryLocation(op, start);
    }
  }

  /// Checks one op_dist_attr entry (`kind`(index), element `element` of a
  /// list when >= 0); the label is only spelled when there is a problem.
  void checkEntry(const Operation& op, const Attribute* entry, const Type* type, bool result, size_t index,
                  long element = -1) {
    DistEntryRef ref{result, static_cast<int64_t>(index), element};
    auto where = [&] {
      std::string w = std::string(result ? "result" : "operand") + "(" + std::to_string(index) + ")";
      return element >= 0 ? w + "[" + std::to_string(element) + "]" : w;
    };
    auto* vec = type ? type->dynCast<VectorType>() : nullptr;
    if (auto* tda = entry->dynCast<TensorDistAttr>()) {
      if (vec) {  // Paddle gives a vec[..] value a list of dist attrs
        entryError(op, ref,
                   where() + " is one dist attr, but " + (result ? "result " : "operand ") + std::to_string(index) +
                       " is a vec of " + count(static_cast<int64_t>(vec->elements().size()), "tensor", "tensors"));
        return;
      }
      EntryKey key{tda, rankOf(type)};
      if (soundEntries_.count(key)) return;
      if (Problem p = tensorDistProblem(tda, key.rank); !p.message.empty()) {
        ref.part = p.part;
        ref.item = p.item;
        entryError(op, ref, where() + ": " + p.message);
      } else {
        soundEntries_.insert(key);
      }
    } else if (auto* arr = entry->dynCast<ArrayAttr>()) {
      if (!vec && type && tensorShape(type)) {
        entryError(op, ref,
                   where() + " lists " + std::to_string(arr->size()) + " dist attrs, but " +
                       (result ? "result " : "operand ") + std::to_string(index) + " is one tensor");
        return;
      }
      if (vec && vec->elements().size() != arr->size())
        entryError(op, ref,
                   where() + " lists " + std::to_string(arr->size()) + " dist attrs for " +
                       std::to_string(vec->elements().size()) + " tensors");
      for (size_t i = 0; i < arr->size(); ++i) {
        const Type* et = vec && i < vec->elements().size() ? vec->elements()[i] : nullptr;
        if (element < 0) checkEntry(op, arr->elements()[i], et, result, index, static_cast<long>(i));
      }
    }
  }

  /// Checks each dist tensor type in `t` (itself, or a vec's elements) once per run.
  void checkDistTypes(const Operation& op, const Type* t, const char* what, uint32_t i) {
    if (!t) return;
    if (auto* dt = t->dynCast<DistTensorType>()) {
      if (checkedTypes_.insert(dt).second)
        if (Problem p = tensorDistProblem(dt->distAttr(), static_cast<int64_t>(dt->dims().size())); !p.message.empty())
          error(op, "type of " + std::string(what) + " " + std::to_string(i) + " of " + opLabel(op) + ": " + p.message);
    } else if (auto* vec = t->dynCast<VectorType>()) {
      for (const Type* e : vec->elements()) checkDistTypes(op, e, what, i);
    }
  }

  /// verifyDist, unless an op of the same signature was verified before
  /// and drew no diagnostic: its checks depend on nothing else, and the
  /// caches they fill only make later ops draw fewer.
  void verifyDistOnce(const Operation& op) {
    if (op.numRegions()) return verifyDist(op);
    if (nothingDistributed(op)) return;  // cheaper to see than a signature to look up
    uint64_t h = opSignature(op, true, signature_);
    char* clean = nullptr;
    auto found = clean_.find(signature_, h, clean);
    if (found == SignatureMemo<char>::Found::Hit) return;
    size_t before = diag_.size();
    verifyDist(op);
    if (found == SignatureMemo<char>::Found::Admit && diag_.size() == before) clean_.keep(signature_, h, 1);
  }

  /// Whether verifyDist has nothing to look at in `op`: no value of a dist
  /// or vector type and no op_dist_attr (every op of a dense program, such
  /// as split-ranks' rank programs).
  static bool nothingDistributed(const Operation& op) {
    auto plain = [](const Value* v) {
      const Type* t = v ? v->type() : nullptr;
      return !t || (!t->isa<DistTensorType>() && !t->isa<VectorType>());
    };
    for (uint32_t i = 0; i < op.numResults(); ++i)
      if (!plain(op.result(i))) return false;
    for (uint32_t i = 0; i < op.numOperands(); ++i)
      if (!plain(op.operandValue(i))) return false;
    return !op.distAttr();
  }

  void verifyDist(const Operation& op) {
    for (uint32_t i = 0; i < op.numResults(); ++i) checkDistTypes(op, op.result(i)->type(), "result", i);
    // Block arguments and kwargs have no producer whose result check would
    // see their type: check it where it is used (a kwarg's type is spelled
    // only there).
    for (uint32_t i = 0; i < op.numOperands(); ++i)
      if (const Value* v = op.operandValue(i)) checkDistTypes(op, v->type(), "operand", i);
    const OpDistAttr* od = op.distAttr();
    if (options_.partialReads != CheckLevel::Off) checkPartialReads(op, od);
    if (!od) return;
    if (!soundMeshes_.count(od->mesh())) {
      if (std::string m = meshProblem(od->mesh()); !m.empty()) {
        ++errors_;
        diag_.error(entryLocation(op, DistEntryRef{false, -1, -1, DistPart::Mesh}),
                    "in op_dist_attr of " + opLabel(op) + ": " + m);
      } else
        soundMeshes_.insert(od->mesh());
    }
    if (od->operands().size() > op.numOperands())
      error(op, "op_dist_attr of " + opLabel(op) + " has " + std::to_string(od->operands().size()) +
                    " operand entries, but the op has " + std::to_string(op.numOperands()) + " operand(s)");
    if (od->results().size() > op.numResults())
      error(op, "op_dist_attr of " + opLabel(op) + " has " + std::to_string(od->results().size()) +
                    " result entries, but the op has " + std::to_string(op.numResults()) + " result(s)");
    for (size_t i = 0; i < od->operands().size(); ++i) {
      const Value* v = i < op.numOperands() ? op.operandValue(static_cast<uint32_t>(i)) : nullptr;
      checkEntry(op, od->operands()[i], v ? v->type() : nullptr, false, i);
      if (options_.distConsistency && v) checkConsistency(op, od->operands()[i], v->type(), i);
    }
    for (size_t i = 0; i < od->results().size(); ++i) {
      const Value* v = i < op.numResults() ? op.result(static_cast<uint32_t>(i)) : nullptr;
      checkEntry(op, od->results()[i], v ? v->type() : nullptr, true, i);
    }
  }

  /// An op lower-reshard made for one 1-D function of an N-D reshard: it
  /// reads a value of the N-D mesh through a 1-D sub-mesh of it (Paddle's
  /// get_1D_sub_process_mesh), which --verify-dist does not hold against it.
  static bool loweredOnSubMesh(const TensorDistAttr* want, const TensorDistAttr* have) {
    const ProcessMesh* sub = want->mesh();
    const ProcessMesh* mesh = have->mesh();
    if (!sub || !mesh || sub == mesh || sub->ndim() != 1 || mesh->ndim() < 2) return false;
    auto ids = mesh->processIds();
    for (int64_t r : sub->processIds())
      if (std::find(ids.begin(), ids.end(), r) == ids.end()) return false;
    return true;
  }

  /// Each operand without an entry (none, or null) whose value, or an
  /// element of it, is partial where the op is not linear in it: no reshard
  /// will be asked for, and the op would compute on partial sums.
  void checkPartialReads(const Operation& op, const OpDistAttr* od) {
    for (uint32_t i = 0; i < op.numOperands(); ++i) {
      const Value* v = op.operandValue(i);
      if (!v || !v->type()) continue;
      const Attribute* entry = od && i < od->operands().size() ? od->operands()[i] : nullptr;
      if (entry && entry->isa<NullAttr>()) entry = nullptr;
      if (auto* vec = v->type()->dynCast<VectorType>()) {
        auto* list = entry ? entry->dynCast<ArrayAttr>() : nullptr;
        if (entry && !list) continue;  // the entry's shape is reported on its own
        for (size_t k = 0; k < vec->elements().size(); ++k) {
          const Attribute* e = list && k < list->size() ? list->elements()[k] : nullptr;
          if (!e || e->isa<NullAttr>()) partialRead(op, i, vec->elements()[k], static_cast<long>(k));
        }
      } else if (!entry) {
        partialRead(op, i, v->type(), -1);
      }
    }
  }

  void partialRead(const Operation& op, uint32_t i, const Type* t, long element) {
    const TensorDistAttr* a = distAttrOf(t);
    if (!a || !a->isPartial() || linearityOf(op, i) != Linearity::NotLinear) return;
    bool error = options_.partialReads == CheckLevel::Error;
    errors_ += error;
    std::string what = "operand " + std::to_string(i) + (element >= 0 ? "[" + std::to_string(element) + "]" : "");
    int64_t at = op.location() >= 0 && diag_.source() ? locateOperand(diag_.source()->text(), op.location(), i) : -1;
    diag_.add(Diagnostic{error ? Severity::Error : Severity::Warning,
                         at >= 0 ? at : reportLocation(&op),
                         what + " of " + opLabel(op) +
                             " is partial, but the op is not linear in it and no op_dist_attr entry asks for a "
                             "reshard: it would compute on partial values",
                         {}});
  }

  /// --verify-dist: each branch of a `pd_op.if` yields values of the types
  /// of the if's results (apply-partition retypes a result to its attr).
  void checkYields(const Operation& op) {
    const OpInfo* info = lookupOp(op);
    if (!info || info->regionSyntax != RegionSyntax::IfElse) return;
    for (uint32_t r = 0; r < op.numRegions(); ++r)
      for (const Block* b : op.region(r).blocks()) {
        const Operation* y = b->back();
        if (!y || y->name() != "cf.yield") continue;
        for (uint32_t i = 0; i < y->numOperands() && i < op.numResults(); ++i) {
          const Value* v = y->operandValue(i);
          if (!v || typesEqual(v->type(), op.result(i)->type())) continue;
          PrintStyle full;
          int64_t at =
              y->location() >= 0 && diag_.source() ? locateOperand(diag_.source()->text(), y->location(), i) : -1;
          ++errors_;
          diag_.error(at >= 0 ? at : reportLocation(y), "operand " + std::to_string(i) + " of 'cf.yield' has type " +
                                                            typeToString(v->type(), full) + ", but result " +
                                                            std::to_string(i) + " of " + opLabel(op) + " is " +
                                                            typeToString(op.result(i)->type(), full));
        }
      }
  }

  /// --verify-dist: the operand's value carries the attr its consumer
  /// expects (element by element for a tensor list, named `[element]`).
  void checkConsistency(const Operation& op, const Attribute* entry, const Type* type, size_t i, long element = -1) {
    auto* want = entry->dynCast<TensorDistAttr>();
    const TensorDistAttr* have = distAttrOf(type);
    if (want && have && !sameDistAttr(want, have) && !loweredOnSubMesh(want, have)) {
      PrintStyle full;  // meshes may differ: print them whatever the era
      std::string what = "operand " + std::to_string(i) + (element >= 0 ? "[" + std::to_string(element) + "]" : "");
      error(op, what + " of " + opLabel(op) + " is distributed as {" + attributeToString(have, full) +
                    "} but the op expects {" + attributeToString(want, full) + "}");
    }
    auto* list = entry->dynCast<ArrayAttr>();
    auto* vec = type ? type->dynCast<VectorType>() : nullptr;
    if (list && vec)
      for (size_t k = 0; k < list->size() && k < vec->elements().size(); ++k)
        checkConsistency(op, list->elements()[k], vec->elements()[k], i, static_cast<long>(k));
  }

  const Program& program_;
  DiagnosticEngine& diag_;
  const VerifyOptions& options_;
  uint32_t epoch_;
  bool threaded_ = false;
  RunMarks marks_;
  std::vector<Unsure> unsure_;
  std::optional<PrintableCheck> printable_;  // options_.printable
  size_t errors_ = 0;
  std::unordered_set<const DistTensorType*> checkedTypes_;
  // Dist attrs (with the rank they were checked for) and meshes found sound:
  // a program repeats a few hundred of them over all its ops.
  struct EntryKey {
    const TensorDistAttr* tda;
    int64_t rank;
    bool operator==(const EntryKey&) const = default;
  };
  struct EntryKeyHash {
    size_t operator()(const EntryKey& k) const {
      return std::hash<const void*>()(k.tda) ^ static_cast<size_t>(k.rank) * 0x9e3779b97f4a7c15ull;
    }
  };
  std::unordered_set<EntryKey, EntryKeyHash> soundEntries_;
  std::unordered_set<const ProcessMesh*> soundMeshes_;
  SignatureMemo<char> clean_;  // op signatures verifyDist found nothing in
  OpSignatureKey signature_;
};

}  // namespace

int64_t reportLocation(const Operation* op) {
  for (const Operation* o = op; o; o = o->parentOp()) {
    for (const Operation* p = o; p; p = p->prevOp())
      if (p->location() >= 0) return p->location();
  }
  return -1;
}

size_t verifyProgram(const Program& program, DiagnosticEngine& diag, const VerifyOptions& options) {
  Verifier v(program, diag, options);
  v.run();
  return v.errors();
}

size_t verifyProgram(const Program& program, DiagnosticEngine& diag, const VerifyOptions& options, unsigned threads,
                     size_t minOpsPerThread) {
  const Block& body = program.body();  // (below minOpsPerThread, threads cost more than they save)
  threads = static_cast<unsigned>(std::min<size_t>(threads, body.numOps() / std::max<size_t>(minOpsPerThread, 1)));
  if (threads <= 1) return verifyProgram(program, diag, options);
  std::vector<const Operation*> starts = program.bodyLandmarks().runs(body, threads * 4);
  auto runs = static_cast<uint32_t>(starts.size() - 1);
  // Marks: one per run for its ops' results, one per thread for what
  // regions define, one for the block's arguments.
  uint32_t first = program.context().newWalkEpochs(runs + threads + 1);
  RunMarks marks{first, runs, first + runs + threads};
  for (const BlockArgument* a : body.arguments()) a->visitMark = marks.header;
  for (const BlockArgument* a : body.kwargs()) a->visitMark = marks.header;
  std::vector<DiagnosticEngine> found(threads, DiagnosticEngine(diag.source()));
  std::vector<std::unique_ptr<Verifier>> verifiers(threads);
  forEachRunOnThreads(threads, runs, [&](unsigned t) {
    verifiers[t] = std::make_unique<Verifier>(program, found[t], options, first + runs + t, marks);
    return [&, t](uint32_t r) { verifiers[t]->runOps(starts[r], starts[r + 1], r); };
  });
  // Every run is marked now: an unsure operand's value is visible if an
  // earlier run's op, or an earlier op of its run, defines it.
  for (const std::unique_ptr<Verifier>& v : verifiers)
    for (const Unsure& u : v->unsure()) {
      uint32_t run = u.value->visitMark - first;
      if (run >= runs || run > u.run || (run == u.run && u.value->passIndex >= u.opAt))
        return verifyProgram(program, diag, options);
    }
  for (unsigned t = 0; t < threads; ++t)
    if (found[t].size() || verifiers[t]->printableFailed())
      return verifyProgram(program, diag, options);  // what one thread says, in its order
  return 0;
}

}  // namespace pir::core
