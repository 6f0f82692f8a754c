//===- session.cpp - the one run model: ranks, jobs, micro-batches --------===//
#include "runtime/runner/session.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <set>

#include "core/op_table.h"
#include "core/program.h"
#include "core/types.h"
#include "passes/value_naming.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/runner/blob.h"
#include "runtime/runner/layout.h"
#include "runtime/runner/phase_timer.h"

namespace pir::runtime::runner {

using core::Status;
namespace sched = passes::schedule;

JobPlan* RankSession::job(std::string_view type) {
  for (auto& j : jobs)
    if (j.type == type) return &j;
  return nullptr;
}

RankSession& Session::rankOf(int64_t rank, int stage) {
  if (RankSession* r = find(rank)) return *r;
  RankSession& r = ranks.emplace_back();
  r.rank = rank;
  r.stage = stage;
  return r;
}

RankSession* Session::find(int64_t rank) {
  for (auto& r : ranks)
    if (r.rank == rank) return &r;
  return nullptr;
}

Status addPlan(Session& session, const core::NamedProgram& np, const core::SourceFile* source,
               const std::string& where) {
  auto compiled = [&] {
    PhaseTimer timer("compile");
    return Executor::compile(*np.program, kernelRegistry(), session.compile);
  }();
  if (!compiled) return compiled.status().prefixed(where).in(source);
  std::string type = session.pipelined ? np.job : sched::Job{}.type();
  RankSession& r = session.rankOf(np.rank < 0 ? 0 : np.rank, session.pipelined ? np.stage : 0);
  if (r.job(type)) {
    if (!session.pipelined) return Status::error("two programs for rank " + std::to_string(r.rank));
    return Status::error("two programs for job " + type + " of rank " + std::to_string(r.rank));
  }
  r.jobs.push_back({type, std::move(compiled.value()), source});
  return Status::ok();
}

sched::Schedule plainSchedule() {
  sched::Schedule s;
  s.stages = 1;
  s.microBatches = 1;
  s.stageJobs = {{sched::Job{}}};
  return s;
}

int assignStages(Session& session) {
  bool known = false;
  for (auto& r : session.ranks) known |= r.stage >= 0;
  if (!known && session.layout) {
    // The layout's stages (passes::rankStages, the one algorithm).
    const passes::RankLayout& layout = *session.layout;
    for (auto& r : session.ranks)
      for (size_t i = 0; i < layout.ranks.size() && i < layout.stages.size(); ++i)
        if (layout.ranks[i] == r.rank) r.stage = int(layout.stages[i]);
  }
  int most = -1;
  for (auto& r : session.ranks) most = std::max(most, r.stage);
  if (most < 0)
    for (auto& r : session.ranks) r.stage = 0;
  return std::max(most, 0) + 1;
}

namespace {

/// Whether a job of `rank` makes `name` (a kwarg handed over between jobs).
bool madeByAJob(const RankSession& rank, const std::string& name) {
  for (const JobPlan& j : rank.jobs)
    for (const std::string& out : j.executor->outputNames())
      if (out == name) return true;
  return false;
}

/// A rank's piece of `whole`: as the layout says, or all of it (no layout).
Status pieceOf(const passes::LayoutValue* v, const Tensor& whole, int64_t rank, Tensor& piece) {
  if (!v) {
    piece = whole;
    return Status::ok();
  }
  auto p = slicePiece(*v, whole, rank);
  if (!p) return p.status();
  piece = *p;
  return Status::ok();
}

/// One input of a rank to load: at the global shape, into `global` (a
/// value of the layout or a feed), or into the rank's shared scope (state
/// its passes made, a merge buffer).
struct PendingInput {
  ProgramInput in;
  const JobPlan* job;
  const passes::LayoutValue* value;  // null: no layout, or rank-local state
  bool local;
};

Status loadRankInputs(Session& session, const passes::LayoutIndex* index, RankSession& rank, const InputOptions& opts,
                      TensorMap& global) {
  const int64_t n = session.microBatches();
  rank.feeds.assign(size_t(n), {});
  std::set<std::string> seen;
  std::vector<PendingInput> pending;
  for (JobPlan& jp : rank.jobs)
    for (ProgramInput in : jp.executor->inputs()) {
      if (!seen.insert(in.name).second) continue;
      if (in.kind == ProgramInput::Kind::Kwarg && !in.persistable && madeByAJob(rank, in.name)) continue;
      bool param = in.kind == ProgramInput::Kind::Parameter;
      const passes::LayoutValue* v =
          index ? index->find(in.name, param ? passes::LayoutValueKind::Parameter : passes::LayoutValueKind::Data)
                : nullptr;
      if (!v && in.persistable && (index || in.kind == ProgramInput::Kind::Kwarg)) {
        pending.push_back({in, &jp, nullptr, true});
        continue;
      }
      if (!v && index)
        return Status::error("'" + in.name + "' (rank " + std::to_string(rank.rank) + ") is not in ranks.yaml");
      if (v)
        if (Status s = checkProgramReads(*v, in, rank.rank, jp.source); !s) return s;
      if (v) in.shape = v->shape;
      if (!in.isState() && session.pipelined) {
        if (in.shape.empty())
          return Status::error("feed '" + in.name + "' is 0-D: it cannot be cut into micro-batches");
        bool file = !opts.dir.empty() && std::ifstream(opts.dir + "/" + in.name + ".npy").good();
        if (in.shape[0] >= 0) in.shape[0] = file ? -1 : in.shape[0] * n;
      }
      pending.push_back({in, &jp, v, false});
    }
  // Loaded a job's inputs at once, so that every missing file is listed.
  for (const JobPlan& jp : rank.jobs) {
    std::vector<ProgramInput> shared, whole;
    for (const PendingInput& p : pending)
      if (p.job == &jp) (p.local ? shared : whole).push_back(p.in);
    if (Status s = loadInputs(shared, opts, *jp.source, rank.shared); !s) return s;
    if (Status s = loadInputs(whole, opts, *jp.source, global); !s) return s;
  }
  for (const PendingInput& p : pending) {
    if (p.local) continue;
    const ProgramInput& in = p.in;
    const Tensor& whole = global.at(in.name);
    bool feed = !in.isState();
    if (!feed || !session.pipelined) {
      Tensor piece;
      if (Status s = pieceOf(p.value, whole, rank.rank, piece); !s) return s;
      (feed ? rank.feeds[0] : rank.shared)[in.name] = piece;
      continue;
    }
    const int64_t rows = p.value ? p.value->shape[0] : -1;  // one micro-batch's, or -1
    if (whole.dim(0) % n != 0)
      return Status::error("feed '" + in.name + "': dim 0 (" + std::to_string(whole.dim(0)) +
                           ") is not divisible by --micro-batches " + std::to_string(n));
    if (rows >= 0 && whole.dim(0) / n != rows)
      return Status::error("feed '" + in.name + "': dim 0 (" + std::to_string(whole.dim(0)) + ") is not " +
                           std::to_string(n) + " micro-batches of the program's " + std::to_string(rows));
    for (int64_t j = 0; j < n; ++j) {
      Tensor piece;
      if (Status s = pieceOf(p.value, microBatch(whole, j, n), rank.rank, piece); !s) return s;
      rank.feeds[size_t(j)][in.name] = piece;
    }
  }
  return Status::ok();
}

}  // namespace

Status loadSessionInputs(Session& session, const InputOptions& opts, TensorMap& global) {
  PhaseTimer timer("inputs");
  if (Status s = checkInputFolder(opts); !s) return s;
  std::optional<passes::LayoutIndex> index;
  if (session.layout) index.emplace(*session.layout);
  for (RankSession& rank : session.ranks)
    if (Status s = loadRankInputs(session, index ? &*index : nullptr, rank, opts, global); !s) return s;
  return Status::ok();
}

namespace {

/// `name`'s value from every rank that holds it, assembled: through the
/// layout value `v`, or rank 0's own (no layout).
Status assembleValue(const passes::LayoutValue* v, const std::map<int64_t, Tensor>& byRank, Tensor& out) {
  if (!v) {
    if (byRank.empty()) return Status::error("no rank holds the value");
    out = byRank.begin()->second;
    return Status::ok();
  }
  auto value = assemble(*v, byRank);
  if (!value) return value.status();
  out = *value;
  return Status::ok();
}

/// Runs one job of `rank`'s list on its micro-batch's scope.
Status runJob(const Session& session, RankSession& rank, const sched::Job& job, const SessionOptions& opts,
              Communicator& comm) {
  JobPlan* jp = rank.job(job.type());
  std::string where = session.pipelined ? "job " + job.name() + ": " : "";
  if (!jp) return Status::error(where + "rank " + std::to_string(rank.rank) + " has no program for it");
  rank.current = jp->source;
  TensorMap& scope = rank.scopes[size_t(job.microBatch)];
  TensorMap& feeds = rank.feeds[size_t(job.microBatch)];
  TensorMap in, out;
  for (const ProgramInput& i : jp->executor->inputs()) {
    auto it = scope.find(i.name);
    if (it == scope.end() && (it = feeds.find(i.name)) == feeds.end() &&
        (it = rank.shared.find(i.name)) == rank.shared.end())
      return Status::error(where + "'" + i.name + "' was made by no earlier job of micro-batch " +
                               std::to_string(job.microBatch) + " and is no feed, parameter or state",
                           i.op ? i.op->location() : -1);
    in[i.name] = it->second;
  }
  RunStats stats;
  stats.checkFinite = opts.checkFinite;
  if (opts.madeValues) opts.madeValues->clear();  // the last step's are kept
  stats.madeValues = opts.madeValues;
  stats.maxLoopIterations = opts.maxLoopIterations;
  size_t firstEvent = rank.track.events.size();
  EventRecorder recorder(rank.track.events);
  if (opts.trace) stats.trace = &recorder;
  double commBefore = comm.stats().seconds;
  uint64_t bytesBefore = 0;
  for (const auto& [ring, t] : comm.traffic()) bytesBefore += t.sent;
  comm.setMicroBatch(job.microBatch);  // what its messages are keyed by (core/message_key.h)
  auto start = std::chrono::steady_clock::now();
  Status s = jp->executor->run(in, out, &comm, &stats);
  auto end = std::chrono::steady_clock::now();
  if (!s) return s.isCancelled() ? s : s.prefixed(where);
  double secs = std::chrono::duration<double>(end - start).count();
  JobCost& c = rank.costs[job.type()];
  double busy = std::max(0.0, secs - (comm.stats().seconds - commBefore));
  c.seconds += busy;
  c.runs += 1;
  for (const auto& [ring, t] : comm.traffic()) c.bytesSent += t.sent;
  c.bytesSent -= bytesBefore;
  rank.busySeconds += busy;
  rank.kernelSeconds += stats.kernelSeconds;
  int64_t startNs = std::chrono::duration_cast<std::chrono::nanoseconds>(start.time_since_epoch()).count();
  rank.firstNs = std::min(rank.firstNs, startNs);
  rank.lastNs = std::max(rank.lastNs, startNs + int64_t(secs * 1e9));
  rank.lastStep.push_back({job, startNs, startNs + int64_t(secs * 1e9)});
  if (opts.trace) {
    for (size_t e = firstEvent; e < rank.track.events.size(); ++e)
      rank.track.eventNames.push_back(eventName(*jp->executor, rank.track.events[e]));
    if (session.pipelined) rank.track.spans.push_back({job.name(), startNs, int64_t(secs * 1e9)});
  }
  for (auto& [name, t] : out) {
    if (auto it = rank.shared.find(name); it != rank.shared.end())
      it->second = t;  // builtin.set_parameter
    else
      scope[name] = t;
  }
  if (job.kind != sched::JobKind::Optimizer)
    if (auto it = out.find(opts.lossName); it != out.end()) rank.lossPieces.push_back(it->second.clone());
  return Status::ok();
}

/// The lone layout value of the loss output `name` (null: no layout, or none).
const passes::LayoutValue* lossValue(const Session& session, const std::string& name) {
  if (!session.layout || name.empty()) return nullptr;
  for (const passes::LayoutValue& v : session.layout->values)
    if (v.kind == passes::LayoutValueKind::ShadowOutput && v.name == name) return &v;
  return nullptr;
}

/// One step's loss: the mean over its micro-batches of each one's loss
/// assembled from the ranks' pieces; none when one cannot be assembled.
std::optional<double> stepLossOf(const passes::LayoutValue* v, const std::vector<std::map<int64_t, Tensor>>& pieces) {
  double sum = 0;
  for (const auto& byRank : pieces) {
    Tensor l;
    if (!assembleValue(v, byRank, l)) return std::nullopt;
    auto x = scalarOf(l);
    if (!x) return std::nullopt;
    sum += *x / double(pieces.size());
  }
  return pieces.empty() ? std::nullopt : std::optional<double>(sum);
}

/// The steps every rank of this process finished: it counts them for the
/// progress bar (a plain run's unit) and hands each step's loss to
/// SessionOptions::stepLoss in step order, as soon as the step's last rank
/// finishes it. Ranks call it from their threads.
class StepTracker {
 public:
  StepTracker(const Session& session, const SessionOptions& opts, int64_t ranksHere, RunProgress& progress,
              bool liveLoss)
      : session_(session),
        opts_(opts),
        ranksHere_(ranksHere),
        progress_(progress),
        countSteps_(!session.pipelined),
        liveLoss_(liveLoss && opts.stepLoss),
        loss_(lossValue(session, opts.lossName)),
        ranksDone_(size_t(opts.steps), 0),
        pieces_(size_t(opts.steps)) {
    if (countSteps_) progress_.expect(opts.steps, 0);
  }

  /// `rank` finished `step`; its loss pieces of the step start at `first`.
  void finished(const RankSession& rank, int64_t step, size_t first) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (liveLoss_) {
      auto& mine = pieces_[size_t(step)];
      for (size_t i = first; i < rank.lossPieces.size(); ++i) mine.push_back({rank.rank, rank.lossPieces[i]});
    }
    ++ranksDone_[size_t(step)];
    while (next_ < opts_.steps && ranksDone_[size_t(next_)] == ranksHere_) {
      if (countSteps_) progress_.done(1, 0);
      if (liveLoss_) report(next_);
      ++next_;
    }
  }

 private:
  void report(int64_t step) {
    const int64_t n = session_.microBatches();
    std::vector<std::map<int64_t, Tensor>> byMicroBatch(static_cast<size_t>(n));
    std::map<int64_t, size_t> seen;  // per rank, its pieces so far: piece j is micro-batch j
    for (auto& [rank, t] : pieces_[size_t(step)]) {
      size_t j = seen[rank]++;
      if (j < byMicroBatch.size()) byMicroBatch[j][rank] = t;
    }
    pieces_[size_t(step)].clear();
    if (auto loss = stepLossOf(loss_, byMicroBatch)) opts_.stepLoss(step, *loss);
  }

  const Session& session_;
  const SessionOptions& opts_;
  const int64_t ranksHere_;
  RunProgress& progress_;
  const bool countSteps_, liveLoss_;
  const passes::LayoutValue* loss_;
  std::mutex mutex_;
  std::vector<int64_t> ranksDone_;                               // per step
  std::vector<std::vector<std::pair<int64_t, Tensor>>> pieces_;  // per step: (rank, loss piece) in run order
  int64_t next_ = 0;                                             // the first step not yet finished everywhere
};

int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

Status runRank(const Session& session, RankSession& rank, const SessionOptions& opts, Communicator& comm,
               RunProgress& progress, StepTracker& steps) {
  threadMemory() = {};
  auto start = std::chrono::steady_clock::now();
  const auto& jobs = session.schedule.stageJobs[size_t(rank.stage)];
  auto opsOf = [&](const sched::Job& job) {
    JobPlan* jp = rank.job(job.type());
    return jp ? int64_t(jp->executor->numSteps()) : int64_t(0);
  };
  int64_t stepOps = 0;
  for (const sched::Job& job : jobs) stepOps += opsOf(job);
  // A pipeline counts its jobs; a plain run its steps (StepTracker).
  const int64_t jobUnit = session.pipelined ? 1 : 0;
  progress.expect(opts.steps * int64_t(jobs.size()) * jobUnit, opts.steps * stepOps);
  for (int64_t step = 0; step < opts.steps; ++step) {
    rank.scopes.assign(rank.feeds.size(), {});
    rank.lastStep.clear();
    if (opts.record) rank.stepBefore.push_back(cloneAll(rank.shared));
    const int64_t stepStart = nowNs();
    const size_t firstSpan = rank.track.spans.size(), firstLoss = rank.lossPieces.size();
    for (const sched::Job& job : jobs) {
      if (Status s = runJob(session, rank, job, opts, comm); !s) return s;
      progress.done(jobUnit, opsOf(job));
    }
    rank.stepSeconds.push_back(double(nowNs() - stepStart) * 1e-9);
    if (opts.record) {
      TensorMap& grads = rank.stepGradients.emplace_back();
      for (const TensorMap& scope : rank.scopes)
        for (auto& [name, t] : scope)
          if (passes::isExportedGradientName(name)) grads[passes::paramOfExported(name)] = t;
    }
    // The step's span encloses its jobs' spans: before them, so viewers nest them.
    if (opts.trace)
      rank.track.spans.insert(rank.track.spans.begin() + std::ptrdiff_t(firstSpan),
                              {"step " + std::to_string(step + 1), stepStart, nowNs() - stepStart});
    steps.finished(rank, step, firstLoss);
  }
  rank.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  rank.commSeconds = comm.stats().seconds;
  rank.bytesSent.clear();
  rank.bytesReceived.clear();
  for (const auto& [ring, t] : comm.traffic()) {
    if (t.sent) rank.bytesSent[ring] = t.sent;
    if (t.received) rank.bytesReceived[ring] = t.received;
  }
  rank.peakBytes = threadMemory().peak;
  return Status::ok();
}

/// Under MPI, what a rank's process sends rank 0: every result of a
/// RankSession (not its plans, which rank 0 has too).
std::string packRank(const RankSession& r) {
  BlobWriter w;
  w.put(r.shared), w.put(uint64_t(r.scopes.size()));
  for (const TensorMap& m : r.scopes) w.put(m);
  w.put(r.lossPieces);
  for (const auto* steps : {&r.stepBefore, &r.stepGradients}) {
    w.put(uint64_t(steps->size()));
    for (const TensorMap& m : *steps) w.put(m);
  }
  w.put(uint64_t(r.costs.size()));
  for (const auto& [type, c] : r.costs) w.put(type), w.put(c);
  w.put(r.firstNs), w.put(r.lastNs), w.put(r.busySeconds), w.put(r.kernelSeconds), w.put(r.track.events);
  w.put(uint64_t(r.track.eventNames.size()));
  for (const std::string& n : r.track.eventNames) w.put(n);
  w.put(uint64_t(r.track.spans.size()));
  for (const TraceSpan& sp : r.track.spans) w.put(sp.name), w.put(sp.startNs), w.put(sp.durationNs);
  w.put(r.seconds), w.put(r.commSeconds), w.put(r.peakBytes), w.put(r.bytesSent), w.put(r.bytesReceived);
  w.put(r.lastStep), w.put(r.stepSeconds);
  return w.take();
}

Status unpackRank(std::string_view bytes, RankSession& r) {
  BlobReader in(bytes);
  uint64_t n = 0;
  r.shared.clear();
  in.get(r.shared), in.get(n);
  r.scopes.assign(size_t(std::min<uint64_t>(n, bytes.size())), {});
  for (TensorMap& m : r.scopes) in.get(m);
  in.get(r.lossPieces);
  for (auto* steps : {&r.stepBefore, &r.stepGradients}) {
    in.get(n);
    steps->assign(size_t(std::min<uint64_t>(n, bytes.size())), {});
    for (TensorMap& m : *steps) in.get(m);
  }
  in.get(n);
  for (uint64_t i = 0; i < n && i < bytes.size(); ++i) {
    std::string type;
    in.get(type);
    in.get(r.costs[type]);
  }
  in.get(r.firstNs), in.get(r.lastNs), in.get(r.busySeconds), in.get(r.kernelSeconds), in.get(r.track.events);
  in.get(n);
  r.track.eventNames.assign(size_t(std::min<uint64_t>(n, bytes.size())), {});
  for (std::string& name : r.track.eventNames) in.get(name);
  in.get(n);
  r.track.spans.assign(size_t(std::min<uint64_t>(n, bytes.size())), {});
  for (TraceSpan& sp : r.track.spans) in.get(sp.name), in.get(sp.startNs), in.get(sp.durationNs);
  in.get(r.seconds), in.get(r.commSeconds), in.get(r.peakBytes), in.get(r.bytesSent), in.get(r.bytesReceived);
  in.get(r.lastStep), in.get(r.stepSeconds);
  return in.ok() ? Status::ok() : Status::internal("rank " + std::to_string(r.rank) + "'s results are cut short");
}

/// A rank's error located in its running job's program (else prefixed with the rank).
Status locatedOn(Session& session, int64_t rank, const Status& s) {
  RankSession* r = session.find(rank);
  if (r && r->current) return s.in(r->current);
  return s.prefixed("rank " + std::to_string(rank) + ": ");
}

/// A deadlock's report of what every rank waits on: its notes are each
/// rank's wait (or that it finished). Under MPI `remote` holds the other
/// processes' reports (rendered by each process, which alone knows its wait).
Status deadlockStatus(Session& session, World& world, const WorldOutcome& outcome, const SessionOptions& opts,
                      const std::vector<World::RankReport>& remote, std::chrono::milliseconds grace) {
  std::vector<Status> waits;
  for (size_t r = 0; r < outcome.perRank.size(); ++r) {
    const std::string who = "rank " + std::to_string(r) + ": ";
    if (!world.runsRank(int64_t(r))) {
      if (r >= remote.size()) continue;
      if (!remote[r].answered)
        waits.push_back(Status::error(who + "did not answer within " + std::to_string(grace.count()) +
                                      " ms (still running or waiting)"));
      else if (remote[r].failure.empty())
        waits.push_back(Status::error(who + "finished"));
      else
        waits.push_back(Status::rendered(core::ErrorKind::Timeout, remote[r].failure));
      continue;
    }
    const Status& s = outcome.perRank[r];
    waits.push_back(s.isOk() ? Status::error(who + "finished") : locatedOn(session, int64_t(r), s));
  }
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%g", double(opts.timeout.count()) / 1000.0);
  return Status::timeout("deadlock: a rank waited longer than --timeout " + std::string(seconds) +
                         " s; what every rank waits on:")
      .withNotes(std::move(waits));
}

/// How a failed run is reported: the first failing rank's error located in
/// its program, or a deadlock's report of what every rank waits on.
Status outcomeStatus(Session& session, World& world, const WorldOutcome& outcome, const SessionOptions& opts) {
  if (outcome.kind == WorldOutcome::Kind::Failed) {
    int64_t r = outcome.failedRank;
    return outcome.perRank[size_t(r)]
        .prefixed("rank " + std::to_string(r) + ": ")
        .in(session.find(r) ? session.find(r)->current : nullptr);
  }
  return deadlockStatus(session, world, outcome, opts, {}, {});
}

/// Under MPI, after the ranks ran and none failed but by a timeout: every
/// process's outcome to rank 0 (World::gatherReports), which reports every
/// rank's wait of a deadlock. Ok when every rank finished (or on a process
/// other than rank 0 that finished).
Status mpiOutcome(Session& session, World& world, const WorldOutcome& outcome, const SessionOptions& opts) {
  // Waiting ranks time out within about one --timeout of each other.
  const auto grace = std::min(opts.timeout, std::chrono::milliseconds(10000));
  const bool deadlocked = outcome.kind == WorldOutcome::Kind::Deadlock;
  std::string mine;
  if (deadlocked) {
    int64_t me = outcome.failedRank;
    mine = core::renderStatus(locatedOn(session, me, outcome.perRank[size_t(me)]));
  }
  std::vector<World::RankReport> reports = world.gatherReports(mine, grace);
  bool failed = deadlocked;
  for (const World::RankReport& r : reports) failed |= !r.answered || !r.failure.empty();
  if (!failed) return Status::ok();
  // On rank 0, or on another rank that rank 0 did not stop: its own.
  return deadlockStatus(session, world, outcome, opts, reports, grace);
}

}  // namespace

Status runSession(Session& session, World& world, const SessionOptions& opts) {
  RunProgress progress(session.pipelined ? "jobs" : "steps");
  int64_t ranksHere = 0;
  for (const RankSession& r : session.ranks) ranksHere += world.runsRank(r.rank) ? 1 : 0;
  // Under MPI a step's loss may need other processes' pieces: the caller
  // reports the losses after the gather.
  StepTracker steps(session, opts, ranksHere, progress, !world.isMpi());
  WorldOutcome outcome;
  {
    std::shared_ptr<void> bar;
    if (opts.showProgress && world.runsRank(0)) bar = opts.showProgress(progress);
    PhaseTimer timer("run");
    outcome = world.run([&](int64_t rank, Communicator& comm) -> Status {
      RankSession* r = session.find(rank);
      if (!r) return Status::ok();  // a rank in no mesh idles
      return runRank(session, *r, opts, comm, progress, steps);
    });
  }
  // A failing rank stops the job at once; a deadlock under MPI is reported
  // by rank 0 with every process's wait.
  if (outcome.kind == WorldOutcome::Kind::Failed || (outcome.kind != WorldOutcome::Kind::Ok && !world.isMpi()))
    return outcomeStatus(session, world, outcome, opts);
  if (world.isMpi())
    if (Status s = mpiOutcome(session, world, outcome, opts); !s) return s;
  // Under MPI: every rank's results to rank 0.
  return world.gatherToRoot(
      [&](int64_t rank) {
        RankSession* r = session.find(rank);
        return r ? packRank(*r) : std::string();
      },
      [&](int64_t rank, std::string_view bytes) {
        RankSession* r = session.find(rank);
        return r ? unpackRank(bytes, *r) : Status::ok();
      });
}

namespace {

/// What a session reports, by name: its layout's outputs, parameters and
/// state, or (no layout) the one rank's.
struct Reported {
  std::string name;
  bool output;
  const passes::LayoutValue* value;  // null without a layout
};

std::vector<Reported> reportedValues(const Session& session) {
  std::vector<Reported> out;
  if (session.layout) {
    for (const passes::LayoutValue& v : session.layout->values) {
      bool output = v.kind == passes::LayoutValueKind::ShadowOutput;
      if (output || v.isState()) out.push_back({v.name, output, &v});
    }
    return out;
  }
  std::set<std::string> seen;
  for (const RankSession& r : session.ranks)
    for (const JobPlan& j : r.jobs) {
      for (const std::string& name : j.executor->outputNames())
        if (seen.insert(name).second) out.push_back({name, true, nullptr});
      for (const ProgramInput& in : j.executor->inputs())
        if (in.isState() && seen.insert(in.name).second) out.push_back({in.name, false, nullptr});
    }
  return out;
}

}  // namespace

core::Result<SessionResults> assembleResults(const Session& session, int64_t steps, const std::string& lossName) {
  PhaseTimer timer("assemble");
  SessionResults res;
  const int64_t n = session.microBatches();
  for (const Reported& rep : reportedValues(session)) {
    if (!rep.output) {
      std::map<int64_t, Tensor> byRank;
      for (auto& r : session.ranks)
        if (auto it = r.shared.find(rep.name); it != r.shared.end()) byRank[r.rank] = it->second;
      if (byRank.empty() && !rep.value) continue;
      if (Status s = assembleValue(rep.value, byRank, res.values[rep.name]); !s) return s;
      continue;
    }
    std::vector<Tensor> parts;
    for (int64_t j = 0; j < n; ++j) {
      std::map<int64_t, Tensor> byRank;
      for (auto& r : session.ranks)
        if (size_t(j) < r.scopes.size())
          if (auto it = r.scopes[size_t(j)].find(rep.name); it != r.scopes[size_t(j)].end())
            byRank[r.rank] = it->second;
      if (byRank.empty()) break;
      Tensor value;
      if (Status s = assembleValue(rep.value, byRank, value); !s) return s;
      parts.push_back(value);
    }
    if (int64_t(parts.size()) == n) res.values[rep.name] = session.pipelined ? stackMicroBatches(parts) : parts[0];
    if (rep.name != lossName) continue;
    for (int64_t step = 0; step < steps; ++step) {
      std::vector<std::map<int64_t, Tensor>> pieces(static_cast<size_t>(n));
      for (int64_t j = 0; j < n; ++j)
        for (auto& r : session.ranks)
          if (size_t k = size_t(step * n + j); k < r.lossPieces.size()) pieces[size_t(j)][r.rank] = r.lossPieces[k];
      if (auto loss = stepLossOf(rep.value, pieces)) res.stepLosses.push_back(*loss);
      if (step + 1 < steps) continue;
      for (const auto& byRank : pieces) {
        Tensor l;
        if (assembleValue(rep.value, byRank, l))
          if (auto x = scalarOf(l)) res.microBatchLosses.push_back(*x);
      }
    }
  }
  return res;
}

core::Result<std::vector<StepValues>> assembleSteps(const Session& session) {
  PhaseTimer timer("assemble");
  std::optional<passes::LayoutIndex> index;
  if (session.layout) index.emplace(*session.layout);
  // A name's value from every rank's map `of(rank)`, through `v`.
  auto gather = [&](const std::string& name, const passes::LayoutValue* v, auto&& of, Tensor& out) -> Status {
    std::map<int64_t, Tensor> byRank;
    for (const RankSession& r : session.ranks)
      if (const TensorMap* m = of(r))
        if (auto it = m->find(name); it != m->end()) byRank[r.rank] = it->second;
    if (byRank.empty()) return Status::ok();
    return assembleValue(v, byRank, out);
  };
  std::vector<StepValues> steps;
  size_t count = 0;
  for (const RankSession& r : session.ranks) count = std::max(count, r.stepBefore.size());
  for (size_t s = 0; s < count; ++s) {
    StepValues& step = steps.emplace_back();
    std::string at = "step " + std::to_string(s + 1) + ": ";
    auto before = [&](const RankSession& r) { return s < r.stepBefore.size() ? &r.stepBefore[s] : nullptr; };
    auto grads = [&](const RankSession& r) { return s < r.stepGradients.size() ? &r.stepGradients[s] : nullptr; };
    for (const Reported& rep : reportedValues(session)) {
      if (rep.output) continue;
      Tensor t;
      if (Status st = gather(rep.name, rep.value, before, t); !st) return st.prefixed(at + "'" + rep.name + "': ");
      if (t.defined()) step.before[rep.name] = t;
    }
    std::set<std::string> params;
    for (const RankSession& r : session.ranks)
      if (const TensorMap* m = grads(r))
        for (auto& [name, t] : *m) params.insert(name);
    for (const std::string& p : params) {
      // A gradient lies as its parameter does.
      const passes::LayoutValue* v = index ? index->find(p, passes::LayoutValueKind::Parameter) : nullptr;
      if (!v && index) v = index->find(p, passes::LayoutValueKind::Data);
      if (!v && index) return Status::error(at + "the gradient of '" + p + "': the parameter is not in ranks.yaml");
      Tensor t;
      if (Status st = gather(p, v, grads, t); !st) return st.prefixed(at + "the gradient of '" + p + "': ");
      step.gradients[p] = t;
    }
  }
  return steps;
}

namespace {

/// `wanted` when it is one of the 0-D outputs, else an error listing them;
/// no `wanted`: the only one, or none.
core::Result<std::string> chooseLoss(std::vector<std::string> zeroD, const std::string& wanted) {
  if (wanted.empty()) return zeroD.size() == 1 ? zeroD[0] : std::string();
  if (std::find(zeroD.begin(), zeroD.end(), wanted) != zeroD.end()) return wanted;
  std::sort(zeroD.begin(), zeroD.end());
  std::string list;
  for (const std::string& n : zeroD) list += (list.empty() ? "" : ", ") + n;
  return Status::error("--loss '" + wanted + "' names no 0-D shadow_output; " +
                       (zeroD.empty() ? std::string("the program has none") : "the 0-D outputs: " + list));
}

}  // namespace

core::Result<std::string> pickLoss(const passes::RankLayout& layout, const std::string& wanted) {
  std::vector<std::string> zeroD;
  for (const passes::LayoutValue& v : layout.values)
    if (v.kind == passes::LayoutValueKind::ShadowOutput && v.shape.empty()) zeroD.push_back(v.name);
  return chooseLoss(std::move(zeroD), wanted);
}

core::Result<std::string> pickLoss(const core::Program& program, const std::string& wanted) {
  std::vector<std::string> zeroD;
  core::walk(program.body(), [&](const core::Operation& op) {  // in regions too
    const core::OpInfo* info = core::lookupRunOp(op);
    if (!info || info->scope != core::ScopeAccess::WritesOutput || op.numOperands() != 1 || !op.operandValue(0)) return;
    auto shape = core::tensorShape(op.operandValue(0)->type());
    if (shape && shape->dims.empty())
      if (auto* n = op.attrOf<core::StringAttr>(info->scopeKey)) zeroD.push_back(n->value());
  });
  return chooseLoss(std::move(zeroD), wanted);
}

Tensor microBatch(const Tensor& t, int64_t j, int64_t n) {
  std::vector<int64_t> shape(t.shape().begin(), t.shape().end());
  shape[0] /= n;
  Tensor out = Tensor::allocate(t.dtype(), shape);
  std::vector<int64_t> at(shape.size(), 0), zero(shape.size(), 0);
  at[0] = j * shape[0];
  copyBox(t, at, out, zero, shape);
  return out;
}

Tensor stackMicroBatches(const std::vector<Tensor>& parts) {
  const Tensor& first = parts[0];
  std::vector<int64_t> shape(first.shape().begin(), first.shape().end());
  const int64_t rows = first.rank() == 0 ? 1 : shape[0];
  if (first.rank() == 0)
    shape = {int64_t(parts.size())};
  else
    shape[0] = rows * int64_t(parts.size());
  Tensor out = Tensor::allocate(first.dtype(), shape);
  std::vector<int64_t> zero(shape.size(), 0), at(shape.size(), 0), extent = shape;
  extent[0] = rows;
  for (size_t j = 0; j < parts.size(); ++j) {
    at[0] = int64_t(j) * rows;
    copyBox(parts[j].view(extent), zero, out, at, extent);
  }
  return out;
}

std::optional<double> scalarOf(const Tensor& t) {
  if (!t.defined() || t.numel() != 1) return std::nullopt;
  switch (t.dtype()) {
    case core::DataType::F32:
      return t.data<float>()[0];
    case core::DataType::F64:
      return t.data<double>()[0];
    case core::DataType::BF16:
      return t.data<BFloat16>()[0].toFloat();
    default:
      return std::nullopt;
  }
}

TensorMap cloneAll(const TensorMap& m) {
  TensorMap out;
  for (auto& [k, v] : m) out[k] = v.clone();
  return out;
}

}  // namespace pir::runtime::runner
