//===- program_splitter.cpp -----------------------------------------------===//
//
// Linear in the program: every value the splitter tracks (top-level results
// and the program's kwargs) gets a dense index in Value::passIndex, and all
// bookkeeping lives in vectors under it; a backward job can import hundreds
// of thousands of activations, and per-value hash maps miss the cache there.
//
//===----------------------------------------------------------------------===//
#include "passes/program_splitter.h"

#include <algorithm>
#include <memory>
#include <unordered_map>
#include <unordered_set>

#include "core/arena.h"
#include "core/clone.h"
#include "core/context.h"
#include "core/huge_pages.h"
#include "core/prefetch.h"
#include "core/verifier.h"
#include "passes/reshard_builder.h"
#include "passes/value_naming.h"

namespace pir::passes {

namespace {

using namespace pir::core;

constexpr uint32_t kNone = UINT32_MAX;

/// A value read by a job that does not make it.
struct Crossing {
  std::string_view name;  // its kwarg name in the jobs that read it (interned once all
                          // reads are collected; till then a new one is in newNames_)
  const Value* value;
  const StringAttr* newName = nullptr;  // output_name of the shadow_output to add, if any
  BlockArgument* firstKwarg = nullptr;  // the kwarg standing for it in `firstJob`,
  int32_t firstJob = -1;                // usually the only job importing it
  uint32_t moreImports = kNone;         // into imports_, linked by `next`
  uint8_t exportedBy = 0;               // kByHome | kByCopyJob
};
constexpr uint8_t kByHome = 1, kByCopyJob = 2;

/// What the splitter knows of a value it tracks, under passIndex - 1: one
/// entry, so a read from far away costs one cache miss here, not three.
struct Tracked {
  int32_t producer;           // index among the program's ops, or -1 for its kwargs
  int32_t home;               // the producer's job
  uint32_t crossing = kNone;  // into crossings_
  int32_t lastReader = -1;    // the job that read it last, to skip repeats
};

/// A read of a crossing value by a job, sortable by job and name mostly
/// without touching the name: its first 16 bytes, big-endian and
/// zero-padded, compare as the name does. The name itself is the
/// crossing's (24 bytes a read, not 40: a million of them are sorted).
struct Read {
  int32_t job;
  uint32_t crossing;
  uint64_t prefix[2];

  Read(int j, std::string_view n, uint32_t c) : job(j), crossing(c), prefix{load(n, 0), load(n, 8)} {}
  static uint64_t load(std::string_view s, size_t at) {
    uint64_t k = 0;
    for (size_t i = 0; i < 8; ++i) k = k << 8 | (at + i < s.size() ? static_cast<unsigned char>(s[at + i]) : 0);
    return k;
  }
  bool operator==(const Read& o) const { return job == o.job && crossing == o.crossing; }
};

/// An operand, in its op's home job, reading a crossing value.
struct Rewire {
  OpOperand* operand;
  uint32_t crossing;
  int32_t job;
};

/// A kwarg standing for a crossing value in one more job.
struct Import {
  int job;
  BlockArgument* kwarg;
  uint32_t next;
};

class Splitter {
 public:
  Splitter(Program& program, const std::vector<Operation*>& ops, const SplitPlan& plan, DiagnosticEngine& diag,
           PassStatistics& stats)
      : program_(program), ops_(ops), plan_(plan), diag_(diag), stats_(stats), factory_(program) {}

  Status run(ProgramSet& out) {
    number();
    // Reserved, not touched: growing by copies would fault in twice the pages.
    reserveOnHugePages(crossings_, tracked_.size());
    reserveOnHugePages(reads_, tracked_.size());
    reserveOnHugePages(rewires_, tracked_.size());
    if (Status s = collectAllReads(); !s) return s;
    if (Status s = checkClaims(); !s) return s;
    if (Status s = internNewNames(); !s) return s;
    std::sort(reads_.begin(), reads_.end(), [&](const Read& a, const Read& b) {
      if (a.job != b.job) return a.job < b.job;
      if (a.prefix[0] != b.prefix[0]) return a.prefix[0] < b.prefix[0];
      if (a.prefix[1] != b.prefix[1]) return a.prefix[1] < b.prefix[1];
      std::string_view an = crossings_[a.crossing].name, bn = crossings_[b.crossing].name;
      if (an.data() != bn.data() && an != bn) return an < bn;  // interned: same address, same name
      return a.crossing < b.crossing;
    });
    reads_.erase(std::unique(reads_.begin(), reads_.end()), reads_.end());
    // Room for every kwarg past a value's first: growing by copies faults
    // in fresh pages at each step.
    reserveOnHugePages(imports_, reads_.size());
    size_t next = 0;  // into reads_, which holds job 0's reads first
    for (size_t j = 0; j < plan_.jobs.size(); ++j) {
      out.programs.push_back({plan_.jobs[j], std::make_unique<Program>(ctx())});
      if (Status s = addImports(*out.programs.back().program, static_cast<int>(j), next); !s) return s;
    }
    std::vector<Read>().swap(reads_);
    // Copies first, while every op still reads what it read in the input;
    // then the operands reading other jobs' values are pointed at kwargs,
    // and each op moves into the job that makes it (no copy, so splitting
    // costs no more memory than the input's IR).
    for (size_t i = 0; i < ops_.size(); ++i)
      if (isCopied(i)) {
        Operation* copy = cloneOperation(ctx(), *ops_[i], copyMap_, [&](const Value*) -> Value* {
          unresolved_ = true;  // collectReads records every read from another job
          return nullptr;
        });
        place(*out.programs[plan_.copyJob].program, plan_.copyJob, i, copy);
      }
    for (const Rewire& r : rewires_) {
      BlockArgument* kw = importOf(r.crossing, r.job);
      unresolved_ |= kw == nullptr;
      r.operand->set(kw);
    }
    for (size_t i = 0; i < ops_.size(); ++i) {
      int job = plan_.home[i];
      program_.body().remove(ops_[i]);
      place(*out.programs[job].program, job, i, ops_[i]);
    }
    if (shadowOutputs_) stats_.add("shadow_outputs inserted", shadowOutputs_);
    if (kwargs_) stats_.add("kwargs added", kwargs_);
    if (unresolved_) return Status::error("internal error: a value crossing jobs was not handed over");
    return Status::ok();
  }

 private:
  Context& ctx() { return program_.context(); }

  bool isCopied(size_t op) const { return plan_.copyJob >= 0 && plan_.copied[op]; }

  /// Gives the program's kwargs and top-level results indices 1.. in
  /// passIndex and clears it on every other value.
  void number() {
    Block& body = program_.body();
    auto track = [&](const Value* v, int32_t producer) {
      v->passIndex = static_cast<uint32_t>(tracked_.size()) + 1;
      tracked_.push_back({producer, producer < 0 ? -1 : plan_.home[static_cast<size_t>(producer)]});
    };
    for (const BlockArgument* a : body.arguments()) a->passIndex = 0;
    reserveOnHugePages(tracked_, body.kwargs().size() + 2 * ops_.size());
    for (const BlockArgument* k : body.kwargs()) track(k, -1);
    for (size_t i = 0; i < ops_.size(); ++i) {
      if (i + 16 < ops_.size()) prefetchOp(ops_[i + 16]);  // ops are far apart at a million
      if (i + 8 < ops_.size() && ops_[i + 8]->numResults()) prefetch(ops_[i + 8]->result(0));
      const Operation& top = *ops_[i];
      for (uint32_t r = 0; r < top.numResults(); ++r) track(top.result(r), static_cast<int32_t>(i));
      if (top.name() == "builtin.shadow_output") noteExport(top, static_cast<int64_t>(i));
      for (uint32_t r = 0; r < top.numRegions(); ++r)
        for (const Block* b : top.region(r).blocks()) {
          clearArguments(*b);
          walk(*b, [&](const Operation& op) {
            if (op.name() == "builtin.shadow_output") noteExport(op, -1);
            for (uint32_t k = 0; k < op.numResults(); ++k) op.result(k)->passIndex = 0;
            for (uint32_t k = 0; k < op.numRegions(); ++k)
              for (const Block* nb : op.region(k).blocks()) clearArguments(*nb);
          });
        }
    }
  }

  /// A top-level shadow_output in its value's home job (and in the job of
  /// copies, if the value is copied) names that value when it crosses, as
  /// Paddle reuses the name; one elsewhere (a later job, a branch; index
  /// -1 for a nested one) would not export the value where it is made, and
  /// a name other values are written under too may not hold it when read:
  /// such a value gets a new name.
  void noteExport(const Operation& shadow, int64_t index) {
    auto* name = shadow.attrOf<StringAttr>("output_name");
    const Value* v = shadow.numOperands() == 1 ? shadow.operandValue(0) : nullptr;
    if (!name || !v) return;
    auto [writer, fresh] = shadowWriters_.emplace(name->raw().data(), v);
    if (!fresh && writer->second != v) sharedShadowNames_.insert(name->raw().data());
    if (index < 0 || !v->passIndex) return;
    auto i = static_cast<size_t>(index);
    const Tracked& t = tracked_[v->passIndex - 1];
    if (t.producer < 0 || plan_.home[i] != t.home) return;
    if (isCopied(static_cast<size_t>(t.producer)) && !isCopied(i)) return;
    exportedAs_.emplace(v->passIndex - 1, name);  // the first such shadow_output
  }

  /// collectReads() over the program, while the arena's helper faults in
  /// the tables it fills (each at its own pace, as the ops are read).
  Status collectAllReads() {
    constexpr size_t kAhead = size_t{8} << 20;
    Arena& arena = ctx().arena();
    Arena::TableFaulting crossings(arena, crossings_.data(), crossings_.capacity() * sizeof(Crossing), kAhead);
    Arena::TableFaulting reads(arena, reads_.data(), reads_.capacity() * sizeof(Read), kAhead);
    Arena::TableFaulting rewires(arena, rewires_.data(), rewires_.capacity() * sizeof(Rewire), kAhead);
    for (size_t i = 0; i < ops_.size(); ++i) {
      prefetchOperands(i);
      if (i % 1024 == 0) {
        crossings.advance(crossings_.size() * sizeof(Crossing));
        reads.advance(reads_.size() * sizeof(Read));
        rewires.advance(rewires_.size() * sizeof(Rewire));
      }
      if (Status s = collectReads(*ops_[i], i, plan_.home[i]); !s) return s;
      if (isCopied(i))
        if (Status s = collectReads(*ops_[i], i, plan_.copyJob); !s) return s;
    }
    return Status::ok();
  }

  /// Reading operands defined far away misses the cache at every step of
  /// value -> tracking entry -> producer op. The ops are read in order, so
  /// each step is fetched a few ops ahead of the one that needs it.
  void prefetchOperands(size_t i) const {
    auto stage = [&](size_t ahead, auto&& fetch) {
      if (i + ahead < ops_.size())
        for (const OpOperand& o : ops_[i + ahead]->operands())
          if (const Value* v = o.get()) fetch(v);
    };
    // A value's producer is read when the value is first seen crossing.
    auto unnamedProducer = [&](const Value* v) -> int32_t {
      if (!v->passIndex) return -1;
      const Tracked& t = tracked_[v->passIndex - 1];
      return t.crossing == kNone ? t.producer : -1;
    };
    if (i + 32 < ops_.size()) prefetchOp(ops_[i + 32]);
    stage(16, [](const Value* v) { prefetch(v); });
    stage(8, [&](const Value* v) {
      if (v->passIndex) prefetch(&tracked_[v->passIndex - 1]);
    });
    stage(4, [&](const Value* v) {
      if (int32_t p = unnamedProducer(v); p >= 0) prefetch(&ops_[static_cast<size_t>(p)]);
    });
    stage(2, [&](const Value* v) {
      if (int32_t p = unnamedProducer(v); p >= 0) prefetch(ops_[static_cast<size_t>(p)]);
    });
  }

  static void clearArguments(const Block& b) {
    for (const BlockArgument* a : b.arguments()) a->passIndex = 0;
    for (const BlockArgument* a : b.kwargs()) a->passIndex = 0;
  }

  /// Records what `top` (and the ops nested in it) reads from other jobs
  /// when it runs in `job`, and, in its home job, which operands to point
  /// at the kwargs standing for those values.
  Status collectReads(Operation& top, size_t i, int job) {
    Status status;
    bool home = job == plan_.home[i];
    auto visit = [&](Operation& op) {
      for (uint32_t k = 0; k < op.numOperands() && status.isOk(); ++k) {
        const Value* v = op.operandValue(k);
        if (!v) continue;
        if (v->passIndex == 0) {
          // Defined inside `top`, or a positional argument of the program,
          // which has no name to hand over.
          if (v->ownerBlock() == &program_.body()) {
            diag_.error(reportLocation(&op), "op '" + std::string(op.name()) +
                                                 "' reads a positional argument of the program, which cannot be "
                                                 "handed over between jobs");
            status = Status::error("positional program argument");
          }
          continue;
        }
        Tracked& t = tracked_[v->passIndex - 1];
        if (t.producer == static_cast<int32_t>(i)) continue;
        // A repeat read by the same job needs no new entry (other repeats
        // are dropped when sorted).
        if (t.lastReader != job) {
          if (t.producer < 0) {
            // The program's own kwargs are read by name wherever they are used.
            bool first = t.crossing == kNone;
            Crossing& c = crossing(t, v, [&] { return static_cast<const BlockArgument*>(v)->name(); });
            if (first) claims_.push_back({c.name.data(), t.crossing});
            noteRead(c, t, job);
          } else {
            if (t.home == job || (job == plan_.copyJob && isCopied(static_cast<size_t>(t.producer)))) continue;
            if (status = addRead(v, t, job, top); !status) continue;
          }
        }
        if (home) rewires_.push_back({&op.operand(k), t.crossing, job});
      }
    };
    visit(top);
    for (uint32_t r = 0; r < top.numRegions(); ++r)
      for (Block* b : top.region(r).blocks()) walk(*b, visit);
    return status;
  }

  template <class NameFn>
  Crossing& crossing(Tracked& t, const Value* v, NameFn&& name) {
    if (t.crossing == kNone) {
      t.crossing = static_cast<uint32_t>(crossings_.size());
      crossings_.push_back({name(), v});
    }
    return crossings_[t.crossing];
  }

  Status addRead(const Value* v, Tracked& t, int job, const Operation& reader) {
    auto producer = static_cast<size_t>(t.producer);
    bool readsOriginals = std::find(plan_.copyReaders.begin(), plan_.copyReaders.end(), job) != plan_.copyReaders.end();
    // Where the reader gets it: the home job, else the job of copies.
    int home = t.home;
    int source = -1;
    if (home < job && !(readsOriginals && home == plan_.copyJob))
      source = home;
    else if (isCopied(producer) && !readsOriginals && plan_.copyJob < job)
      source = plan_.copyJob;
    if (source < 0) {
      // Every micro-batch runs its jobs in plan order: no placement of the
      // two ops lets the reader run after the producer.
      Diagnostic& d = diag_.error(
          reportLocation(&reader),
          "op '" + std::string(reader.name()) + "' in job '" + plan_.jobs[job] + "' reads result " +
              std::to_string(v->index()) + " of op '" + std::string(ops_[producer]->name()) +
              "', made in the later job '" + plan_.jobs[home] + "': each micro-batch runs '" + plan_.jobs[job] +
              "' before '" + plan_.jobs[home] + "', so '" + plan_.jobs[job] + "' would wait on '" + plan_.jobs[home] +
              "', which waits on '" + plan_.jobs[job] + "' (their op_role, chunk or B/W kind puts them there)");
      d.notes.push_back(Diagnostic{Severity::Note, reportLocation(ops_[producer]), "the value is made here", {}});
      return Status::error("a job reads a value made by a later job");
    }
    Crossing& c = crossing(t, v, [] { return std::string_view(); });
    if (c.name.empty())
      if (Status s = exportName(c, v, producer); !s) return s;
    noteRead(c, t, job);
    c.exportedBy |= source == home ? kByHome : kByCopyJob;
    // A job of copies exports too what jobs outside its originals' readers read.
    if (plan_.copyJob >= 0 && !readsOriginals && job > plan_.copyJob && isCopied(producer)) c.exportedBy |= kByCopyJob;
    return Status::ok();
  }

  void noteRead(const Crossing& c, Tracked& t, int job) {
    t.lastReader = job;
    reads_.emplace_back(job, c.name, t.crossing);
  }

  /// The name a crossing value is handed over under: a `pd_op.data`'s
  /// `name`, a `builtin.parameter`'s `parameter_name`, an existing
  /// shadow_output's `output_name`, or a new `var_{idx}_{op}_{result}`.
  /// A given name must read back as a kwarg (`%kwarg_NAME`); in a new one,
  /// bytes of the op name that would not are written as `_`.
  Status exportName(Crossing& c, const Value* v, size_t producer) {
    const Operation& def = *ops_[producer];
    const StringAttr* given = nullptr;
    std::string_view givenBy = nameAttrKey(def);  // a producer is never a shadow_output
    if (!givenBy.empty()) {
      given = def.attrOf<StringAttr>(givenBy);
    } else if (!exportedAs_.empty()) {
      auto it = exportedAs_.find(v->passIndex - 1);
      if (it != exportedAs_.end() && !sharedShadowNames_.count(it->second->raw().data()))
        given = it->second, givenBy = "output_name";
    }
    if (given) {
      // The raw text is interned already (a name with escapes is refused).
      c.name = given->raw();
      if (!isKwargName(c.name)) return unfitGivenName(diag_, def, givenBy, c.name);
      claims_.push_back({c.name.data(), static_cast<uint32_t>(&c - crossings_.data())});
      return Status::ok();
    }
    newValueName(nameBuf_, producer, def.name(), v->index());
    // Interned with the others once all reads are collected.
    c.name = newNames_.keep(nameBuf_);
    newNameOwners_.push_back(static_cast<uint32_t>(&c - crossings_.data()));
    return Status::ok();
  }

  /// Values are handed over by name in one scope: each name must stand
  /// for one value. Of several clashes, the one found first while reading
  /// is reported.
  Status checkClaims() {
    auto [first, second] = firstNameClash(claims_);
    if (second == kNoClash.second) return Status::ok();
    return nameClash(diag_, crossings_[second].name, crossings_[first].value, crossings_[second].value);
  }

  /// A new `var_` name the input already gives a value (a data, parameter,
  /// shadow_output or kwarg name); the first such, as a located error.
  Status checkNewNamesAgainstInput() {
    std::unordered_set<std::string_view> taken = namesGivenIn(program_);
    for (uint32_t owner : newNameOwners_) {
      const Crossing& c = crossings_[owner];
      if (taken.count(c.name)) return newNameTaken(diag_, c.value, c.name);
    }
    return Status::ok();
  }

  /// Interns the names exportName() made, all at once (see
  /// Context::stringAttrs): at a million ops, one by one cost a third of
  /// the pass. A new name must not be one the input gives a value; when
  /// none was interned before, none is, and nothing more is checked.
  Status internNewNames() {
    std::vector<std::string_view> raws;
    raws.reserve(newNameOwners_.size());
    for (uint32_t c : newNameOwners_) raws.push_back(crossings_[c].name);
    std::vector<const StringAttr*> attrs(raws.size());
    size_t fresh = ctx().stringAttrs(raws, attrs);
    for (size_t k = 0; k < attrs.size(); ++k) {
      Crossing& c = crossings_[newNameOwners_[k]];
      c.newName = attrs[k];
      c.name = attrs[k]->raw();
    }
    newNames_ = {};
    if (fresh != raws.size())
      if (Status s = checkNewNamesAgainstInput(); !s) return s;
    std::vector<uint32_t>().swap(newNameOwners_);
    return Status::ok();
  }

  /// Gives `job`'s empty program its kwargs (sorted by name, one per
  /// name: checkClaims() made each name one value's), recorded as the
  /// imports of the values they stand for.
  Status addImports(Program& prog, int job, size_t& next) {
    prog.style() = program_.style();
    BlockArgument* kw = nullptr;
    std::string_view prevName;
    uint32_t prevCrossing = kNone;
    for (size_t first = next; next < reads_.size() && reads_[next].job == job; ++next) {
      // Reads are in name order, their crossings and values anywhere:
      // fetch the crossing 16 reads ahead and its value 8 ahead.
      if (next + 16 < reads_.size()) prefetch(&crossings_[reads_[next + 16].crossing]);
      if (next + 8 < reads_.size()) prefetch(crossings_[reads_[next + 8].crossing].value);
      const Read& read = reads_[next];
      Crossing& c = crossings_[read.crossing];
      // Names are interned: equal text, equal address (and no load of the text).
      if (next == first || c.name.data() != prevName.data()) {
        kw = prog.body().addInternedKwarg(ctx(), c.name, c.value->type());
        // The program's own kwarg keeps its attributes (gradient-merge's
        // buffers stay `persistable`: state for the runner).
        if (c.value->kind() == ValueKind::Kwarg)
          kw->setAttributes(ctx().arena(), static_cast<const BlockArgument*>(c.value)->attributes());
        ++kwargs_;
      } else if (read.crossing != prevCrossing) {
        return Status::error("internal error: two values under one kwarg name '" + std::string(c.name) + "'");
      }
      prevName = c.name;
      prevCrossing = read.crossing;
      if (c.firstJob < 0) {
        c.firstJob = job;
        c.firstKwarg = kw;
      } else {
        imports_.push_back({job, kw, c.moreImports});
        c.moreImports = static_cast<uint32_t>(imports_.size() - 1);
      }
      if (job == plan_.copyJob) copyMap_[c.value] = kw;
    }
    return Status::ok();
  }

  /// The kwarg standing for crossing `c` in `job`, or null when `job` does
  /// not import it.
  BlockArgument* importOf(uint32_t c, int job) const {
    if (crossings_[c].firstJob == job) return crossings_[c].firstKwarg;
    for (uint32_t e = crossings_[c].moreImports; e != kNone; e = imports_[e].next)
      if (imports_[e].job == job) return imports_[e].kwarg;
    return nullptr;
  }

  /// Appends `op` (standing for ops_[i]) to `job`'s program, followed by a
  /// shadow_output for each result the job exports under a new name.
  void place(Program& prog, int job, size_t i, Operation* op) {
    prog.body().pushBack(op);
    for (uint32_t r = 0; r < ops_[i]->numResults(); ++r) {
      uint32_t c = tracked_[ops_[i]->result(r)->passIndex - 1].crossing;
      if (c == kNone || !crossings_[c].newName) continue;
      uint8_t by = crossings_[c].exportedBy;
      if ((job == plan_.home[i] && (by & kByHome)) || (job == plan_.copyJob && (by & kByCopyJob)))
        shadowOutput(prog, *ops_[i], op->result(r), crossings_[c].newName);
    }
  }

  void shadowOutput(Program& prog, const Operation& producer, Value* v, const StringAttr* name) {
    AttrListBuilder attrs = factory_.attrs();
    if (const OpDistAttr* od = producer.distAttr()) {
      const TensorDistAttr* d = distAttrOf(v->type());
      const Attribute* operands[] = {d ? static_cast<const Attribute*>(d) : ctx().nullAttr()};
      attrs.set(factory_.opDistAttrKey(), factory_.opDistAttr(od->mesh(), operands, {}, &producer));
    }
    factory_.setRoleAndChunk(attrs, &producer);
    attrs.set(kOutputName_, name);
    Value* ins[] = {v};
    Builder b(ctx());
    b.setInsertionPointToEnd(prog.body());
    // Its output_name is the one this value is exported under: no other op
    // has this list (and a twin would still print the same).
    attrs.applyOwn(*b.create("builtin.shadow_output", ins, {}, {}));
    ++shadowOutputs_;
  }

  Program& program_;
  const std::vector<Operation*>& ops_;
  const SplitPlan& plan_;
  DiagnosticEngine& diag_;
  PassStatistics& stats_;
  DistOpFactory factory_;
  std::vector<Tracked> tracked_;  // under passIndex - 1
  std::vector<Crossing> crossings_;
  std::vector<Import> imports_;
  std::vector<Rewire> rewires_;
  // What each job reads from elsewhere, repeats included until sorted.
  std::vector<Read> reads_;
  ValueMapping copyMap_;  // the job of copies: imports, then copied results
  std::string nameBuf_;
  NameStore newNames_;                                           // names made for crossings, until interned
  std::vector<uint32_t> newNameOwners_;                          // their crossings, in order
  std::unordered_map<uint32_t, const StringAttr*> exportedAs_;   // tracked index -> a shadow_output's name
  std::unordered_map<const char*, const Value*> shadowWriters_;  // output_name (interned) -> a value written
  std::unordered_set<const char*> sharedShadowNames_;            // output_names two values are written under
  std::vector<std::pair<const char*, uint32_t>> claims_;         // given crossing names and their crossings
  AttrKey kOutputName_{ctx(), "output_name"};
  bool unresolved_ = false;
  int64_t kwargs_ = 0;
  int64_t shadowOutputs_ = 0;
};

}  // namespace

Status splitProgram(Program& program, const std::vector<Operation*>& ops, const SplitPlan& plan, ProgramSet& out,
                    DiagnosticEngine& diag, PassStatistics& stats) {
  return Splitter(program, ops, plan, diag, stats).run(out);
}

}  // namespace pir::passes
