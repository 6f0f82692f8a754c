//===- torch_csv.cpp - torch.distributed.pipelining's schedule CSV --------===//
//
// The format of PipelineScheduleMulti._dump_csv / _load_csv
// (torch/distributed/pipelining/schedules.py at 00722e6): one row per rank,
// one cell per action, `_Action.__repr__`: STAGE TYPE MICRO_BATCH (`2F0`,
// `7I3`, `0SEND_F1`), or `(F;B)OVERLAP_F_B` for DualPipeV's pair; an empty
// cell is a step without an action. STAGE is torch's global stage index.
//
// Here a row is a stage (P = rows) and the index k maps to a chunk: V-placed
// modes (ZBVPP, ZBV, DualPipeV) k = s for chunk 0 and 2P-1-s for chunk 1,
// else interleaved k = c*P + s. Actions: F forward, I backward_b, W
// backward_w, B a full backward; RECV_F and SEND_B become recv_forward and
// send_backward where the mode's programs have those jobs, SEND_F and RECV_B
// are dropped (those sends and receives are in the job programs). Without
// RECV_F/SEND_B (the compute-only form) the communication jobs are re-added
// as Paddle's lists order them (before a forward its recv_forward, after a
// backward its send_backward, and a backward followed by a forward gives
// backward, recv_forward, send_backward, forward), and every stage ends with
// its optimizer: a list written and read back is the list.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>

#include "passes/schedule/formats.h"
#include "passes/schedule/generate.h"

namespace pir::passes::schedule {

namespace {

/// torch's global stage index of chunk `chunk` on stage `stage`.
int globalStage(const Schedule& schedule, int stage, int chunk) {
  const int p = schedule.stages;
  if (chunk <= 0) return stage;
  if (schedule.placement() == Placement::VShape) return (chunk + 1) * p - 1 - stage;
  return chunk * p + stage;
}

char torchLetter(JobKind kind) {
  switch (kind) {
    case JobKind::Forward:
      return 'F';
    case JobKind::Backward:
      return 'B';
    case JobKind::BackwardB:
      return 'I';
    case JobKind::BackwardW:
      return 'W';
    default:
      return 0;  // no torch action
  }
}

std::string torchAction(const Schedule& schedule, int stage, const Job& job) {
  return std::to_string(globalStage(schedule, stage, job.chunkIndex())) + torchLetter(job.kind) +
         std::to_string(job.microBatch);
}

}  // namespace

std::string scheduleToTorchCsv(const Schedule& schedule) {
  std::string out;
  for (int s = 0; s < int(schedule.stageJobs.size()); ++s) {
    const std::vector<Job>& jobs = schedule.stageJobs[size_t(s)];
    std::string row;
    for (size_t i = 0; i < jobs.size(); ++i) {
      if (!torchLetter(jobs[i].kind)) continue;
      std::string cell = torchAction(schedule, s, jobs[i]);
      if (i + 1 < jobs.size() && jobs[i + 1].overlapsPrevious)
        cell = "(" + cell + ";" + torchAction(schedule, s, jobs[++i]) + ")OVERLAP_F_B";
      row += (row.empty() ? "" : ",") + cell;
    }
    out += row + "\n";
  }
  return out;
}

namespace {

/// One action as torch spells it, before its stage index is mapped.
struct Action {
  int index = 0;     // torch's global stage
  std::string type;  // F, I, W, B, SEND_F, RECV_F, SEND_B, RECV_B
  int microBatch = 0;
  bool overlapsPrevious = false;
  SourcePos at;
};

core::Status errorAt(const std::string& what, SourcePos at, const std::string& message) {
  return core::Status::error(what + ":" + at.str() + ": " + message);
}

bool parseNumber(std::string_view text, size_t& i, int& out) {
  size_t start = i;
  int64_t value = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9' && value <= kMaxScheduleJobs)
    value = value * 10 + (text[i++] - '0');
  out = int(std::min<int64_t>(value, kMaxScheduleJobs + 1));
  return i > start;
}

/// `2F0`, `3SEND_B1`: torch's _action_regex, matched whole.
core::Result<Action> parseAction(std::string_view text, SourcePos at, const std::string& what) {
  static constexpr std::string_view kTypes[] = {"SEND_F",      "RECV_F", "SEND_B", "RECV_B", "UNSHARD", "RESHARD",
                                                "REDUCE_GRAD", "F",      "I",      "W",      "B"};
  Action a;
  a.at = at;
  size_t i = 0;
  if (!parseNumber(text, i, a.index))
    return errorAt(what, at, "'" + std::string(text) + "' is no torch action (STAGE TYPE MICRO_BATCH, as 2F0)");
  for (std::string_view t : kTypes)
    if (text.substr(i, t.size()) == t) {
      a.type = t;
      break;
    }
  if (a.type.empty())
    return errorAt(what, at,
                   "'" + std::string(text) +
                       "': unknown action type (F, I, W, B, SEND_F, RECV_F, SEND_B, "
                       "RECV_B or (F;B)OVERLAP_F_B)");
  if (a.type == "UNSHARD" || a.type == "RESHARD" || a.type == "REDUCE_GRAD")
    return errorAt(what, at, "torch's " + a.type + " (FSDP) has no job here");
  i += a.type.size();
  if (!parseNumber(text, i, a.microBatch) || i != text.size())
    return errorAt(what, at, "'" + std::string(text) + "' needs a micro-batch after its type (as 2F0)");
  return a;
}

/// The actions of one cell: one, or an overlapped pair.
core::Status parseCell(std::string_view cell, SourcePos at, const std::string& what, std::vector<Action>& out) {
  constexpr std::string_view kOverlap = ")OVERLAP_F_B";
  if (cell.front() != '(') {
    auto a = parseAction(cell, at, what);
    if (!a) return a.status();
    out.push_back(*a);
    return core::Status::ok();
  }
  size_t semi = cell.find(';');
  if (!cell.ends_with(kOverlap) || semi == std::string_view::npos)
    return errorAt(what, at, "'" + std::string(cell) + "': an overlapped pair is (F;B)OVERLAP_F_B");
  auto f = parseAction(cell.substr(1, semi - 1), at, what);
  if (!f) return f.status();
  auto b = parseAction(cell.substr(semi + 1, cell.size() - kOverlap.size() - semi - 1), at, what);
  if (!b) return b.status();
  if (f->type != "F" || (b->type != "B" && b->type != "I"))
    return errorAt(what, at, "'" + std::string(cell) + "': OVERLAP_F_B pairs a forward with a backward");
  b->overlapsPrevious = true;
  out.push_back(*f);
  out.push_back(*b);
  return core::Status::ok();
}

/// Each row's actions, cells split at commas (torch writes none inside one).
core::Status readRows(const std::string& text, const std::string& what, std::vector<std::vector<Action>>& rows) {
  std::istringstream in(text);
  std::string line;
  int64_t count = 0;
  for (int lineNo = 1; std::getline(in, line); ++lineNo) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (int64_t(rows.size()) >= kMaxScheduleStages)
      return errorAt(what, {lineNo, 1}, "more than " + std::to_string(kMaxScheduleStages) + " rows (ranks)");
    std::vector<Action>& row = rows.emplace_back();
    size_t from = 0;
    for (;;) {
      size_t comma = line.find(',', from);
      std::string_view cell = std::string_view(line).substr(from, comma == std::string::npos ? comma : comma - from);
      const int column = int(from) + 1;
      while (!cell.empty() && cell.front() == ' ') cell.remove_prefix(1);
      while (!cell.empty() && cell.back() == ' ') cell.remove_suffix(1);
      if (!cell.empty())
        if (core::Status s = parseCell(cell, {lineNo, column}, what, row); !s) return s;
      if (comma == std::string::npos) break;
      from = comma + 1;
    }
    count += int64_t(row.size());
    if (count > kMaxScheduleJobs || count * int64_t(rows.size()) > kMaxScheduleCells)
      return errorAt(what, {lineNo, 1}, "too many actions: at most " + std::to_string(kMaxScheduleJobs) + " are read");
  }
  while (!rows.empty() && rows.back().empty()) rows.pop_back();  // a trailing blank line
  if (rows.empty()) return core::Status::error(what + ": no rows (one per rank)");
  return core::Status::ok();
}

/// Whether action `a` on row `r` of `p` is where the placement puts its stage.
bool fits(const Action& a, int r, int p, bool vShape) {
  return vShape ? a.index == r || a.index == 2 * p - 1 - r : a.index % p == r;
}

/// The first action of `rows` the placement does not fit, if any.
const Action* misplaced(const std::vector<std::vector<Action>>& rows, bool vShape) {
  const int p = int(rows.size());
  for (int r = 0; r < p; ++r)
    for (const Action& a : rows[size_t(r)])
      if (!fits(a, r, p, vShape)) return &a;
  return nullptr;
}

/// The mode a file's actions call for: V-placed with an overlapped pair or
/// a full backward DualPipeV, else ZBV; interleaved chunks VPP; one chunk
/// ZBH1 with split backwards, else 1F1B.
std::string inferMode(const std::vector<std::vector<Action>>& rows, bool vShape, int chunks) {
  bool split = false, full = false, overlap = false;
  for (const auto& row : rows)
    for (const Action& a : row) {
      split = split || a.type == "I" || a.type == "W";
      full = full || a.type == "B";
      overlap = overlap || a.overlapsPrevious;
    }
  if (vShape) return overlap || full ? "DualPipeV" : "ZBV";
  if (chunks > 1) return "VPP";
  return split ? "ZBH1" : "1F1B";
}

/// Whether the mode's programs have recv_forward and send_backward jobs.
bool hasCommJobs(const std::string& mode, bool split) { return mode == "1F1B" || (mode == "VPP" && !split); }

/// Adds recv_forward and send_backward around the compute jobs as Paddle's lists have them.
void addCommJobs(std::vector<Job>& jobs, std::vector<SourcePos>& at) {
  std::vector<Job> out;
  std::vector<SourcePos> outAt;
  std::optional<std::pair<Job, SourcePos>> pendingSend;
  auto flush = [&] {
    if (pendingSend) out.push_back(pendingSend->first), outAt.push_back(pendingSend->second);
    pendingSend.reset();
  };
  for (size_t i = 0; i < jobs.size(); ++i) {
    Job job = jobs[i];
    if (job.kind == JobKind::Forward) {
      out.push_back(Job{JobKind::RecvForward, job.chunk, job.microBatch}), outAt.push_back(at[i]);
      flush();
    } else {
      flush();
    }
    out.push_back(job), outAt.push_back(at[i]);
    if (job.kind == JobKind::Backward) pendingSend = {Job{JobKind::SendBackward, job.chunk, job.microBatch}, at[i]};
  }
  flush();
  jobs = std::move(out);
  at = std::move(outAt);
}

}  // namespace

core::Result<Schedule> scheduleFromTorchCsv(const std::string& text, const std::string& what,
                                            const std::string& modeHint) {
  std::vector<std::vector<Action>> rows;
  if (core::Status s = readRows(text, what, rows); !s) return s;
  const int p = int(rows.size());
  int maxIndex = 0, maxMb = -1;
  bool split = false, comms = false;
  for (const auto& row : rows)
    for (const Action& a : row) {
      maxIndex = std::max(maxIndex, a.index);
      maxMb = std::max(maxMb, a.microBatch);
      split = split || a.type == "I" || a.type == "W";
      comms = comms || a.type.find('_') != std::string::npos;
    }
  const int chunks = maxIndex / p + 1;
  const std::string given = modeHint.empty() ? "" : canonicalMode(modeHint);
  if (!modeHint.empty() && given.empty()) return core::Status::error("unknown mode '" + modeHint + "'");
  // Interleaved unless the file or the mode says V.
  const bool vShape = given.empty() ? misplaced(rows, false) != nullptr : vPlacedMode(given);
  if (const Action* a = misplaced(rows, vShape)) {
    const int r = int(a->at.line) - 1;
    return errorAt(what, a->at,
                   "stage index " + std::to_string(a->index) + " on row (rank) " + std::to_string(r) +
                       (vShape ? " is not in a V (rank r holds stages r and 2P-1-r"
                               : " is not interleaved (rank r holds stages c*P+r") +
                       ", P = " + std::to_string(p) + " rows)");
  }
  Schedule schedule;
  schedule.mode = given.empty() ? inferMode(rows, vShape, chunks) : given;
  schedule.stages = p;
  schedule.microBatches = maxMb + 1;
  schedule.vpp = vShape ? 2 : chunks;
  schedule.source.read = true;
  schedule.source.root = {1, 1};
  schedule.source.stages = {1, 1};
  const bool withComm = hasCommJobs(schedule.mode, split);
  for (int r = 0; r < p; ++r) {
    std::vector<Job> jobs;
    std::vector<SourcePos> at;
    for (const Action& a : rows[size_t(r)]) {
      int chunk = a.index / p;
      if (vShape) chunk = a.index == r ? 0 : 1;
      if (schedule.vpp == 1) chunk = -1;
      Job job{JobKind::Forward, chunk, a.microBatch, a.overlapsPrevious};
      if (a.type == "I") job.kind = JobKind::BackwardB;
      if (a.type == "W") job.kind = JobKind::BackwardW;
      if (a.type == "B") job.kind = JobKind::Backward;
      if (a.type == "RECV_F") job.kind = JobKind::RecvForward;
      if (a.type == "SEND_B") job.kind = JobKind::SendBackward;
      const bool commAction = a.type.find('_') != std::string::npos;
      if (commAction && (!withComm || (a.type != "RECV_F" && a.type != "SEND_B"))) continue;
      jobs.push_back(job);
      at.push_back(a.at);
    }
    if (withComm && !comms) addCommJobs(jobs, at);
    jobs.push_back(Job{JobKind::Optimizer, -1, 0});
    at.push_back({r + 1, 1});
    schedule.stageJobs.push_back(std::move(jobs));
    schedule.source.jobs.push_back(std::move(at));
    schedule.source.stageEntries.push_back({r + 1, 1});
  }
  return schedule;
}

bool isTorchCsvPath(const std::string& path) { return path.size() >= 4 && path.ends_with(".csv"); }

}  // namespace pir::passes::schedule
