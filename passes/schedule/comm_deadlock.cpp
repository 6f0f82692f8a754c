//===- comm_deadlock.cpp - what every blocked rank waits for ---------------===//
#include "passes/schedule/comm_deadlock.h"

#include <algorithm>
#include <unordered_map>
#include <utility>

namespace pir::passes::schedule {

namespace {

/// A cycle of blocked ranks (indices into `waits`), started at its lowest
/// rank; empty when the waits form none.
std::vector<size_t> findCycle(const std::vector<RankWait>& waits) {
  std::unordered_map<int64_t, size_t> at;
  for (size_t i = 0; i < waits.size(); ++i) at.emplace(waits[i].site.rank, i);
  enum : uint8_t { kNew, kOnPath, kDone };
  std::vector<uint8_t> color(waits.size(), kNew);
  for (size_t start = 0; start < waits.size(); ++start) {
    if (color[start] != kNew) continue;
    std::vector<std::pair<size_t, size_t>> path{{start, 0}};  // node, next edge
    color[start] = kOnPath;
    while (!path.empty()) {
      const size_t v = path.back().first;
      if (path.back().second == waits[v].waitsFor.size()) {
        color[v] = kDone;
        path.pop_back();
        continue;
      }
      auto it = at.find(waits[v].waitsFor[path.back().second++]);
      if (it == at.end()) continue;
      const size_t w = it->second;
      if (color[w] == kNew) {
        color[w] = kOnPath;
        path.push_back({w, 0});
      } else if (color[w] == kOnPath) {
        std::vector<size_t> cycle;
        auto from = std::find_if(path.begin(), path.end(), [&](const auto& p) { return p.first == w; });
        for (; from != path.end(); ++from) cycle.push_back(from->first);
        auto lowest = std::min_element(cycle.begin(), cycle.end(),
                                       [&](size_t a, size_t b) { return waits[a].site.rank < waits[b].site.rank; });
        std::rotate(cycle.begin(), lowest, cycle.end());
        return cycle;
      }
    }
  }
  return {};
}

std::string rankInJob(const JobSite& site) {
  std::string text = "rank " + std::to_string(site.rank);
  return site.job ? text + " (" + site.job->name() + ")" : text;
}

std::string rankState(int64_t rank, const std::function<std::string(int64_t)>& idle) {
  std::string why = idle(rank);
  return std::to_string(rank) + (why.empty() ? "" : " (" + why + ")");
}

std::string waitText(const RankWait& w, const std::function<std::string(int64_t)>& idle) {
  const CommOp& op = *w.op;
  std::string text = "waits in " + describe(op);
  if (op.kind == CommOpKind::Recv)
    return text + " for micro-batch " + std::to_string(w.site.microBatch()) + "'s message; rank " +
           rankState(op.peer, idle) + " has not sent it";
  text += " (its collective #" + std::to_string(w.collectiveNumber) + " there) for rank" +
          (w.waitsFor.size() == 1 ? " " : "s ");
  for (size_t i = 0; i < w.waitsFor.size(); ++i) text += (i ? ", " : "") + rankState(w.waitsFor[i], idle);
  return text;
}

}  // namespace

core::Diagnostic deadlockDiagnostic(const std::vector<RankWait>& waits,
                                    const std::function<std::string(int64_t)>& idle) {
  std::vector<size_t> cycle = findCycle(waits);
  std::vector<size_t> order = cycle;
  for (size_t i = 0; i < waits.size(); ++i)
    if (std::find(cycle.begin(), cycle.end(), i) == cycle.end()) order.push_back(i);
  std::string message = "deadlock: no rank can go on; ";
  if (!cycle.empty()) {
    message += "the waits go round a cycle: ";
    for (size_t i : cycle) message += rankInJob(waits[i].site) + " -> ";
    message += "rank " + std::to_string(waits[cycle[0]].site.rank);
  } else {
    message += std::to_string(waits.size()) + " rank" + (waits.size() == 1 ? " waits" : "s wait") +
               " for ranks that will not act";
  }
  const RankWait& first = waits[order[0]];
  core::Diagnostic d = errorAt(first.site, *first.op, message);
  d.message = message;  // about every rank, not the first one's
  for (size_t i : order) d.notes.push_back(noteAt(waits[i].site, *waits[i].op, waitText(waits[i], idle)));
  return d;
}

}  // namespace pir::passes::schedule
