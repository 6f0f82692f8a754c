//===- process_group.cpp - ring ids and their ordered ranks ----------------===//
#include "core/process_group.h"

#include <algorithm>

namespace pir::core {

std::optional<int64_t> ProcessGroup::localRank(int64_t rank) const {
  auto it = std::find(ranks.begin(), ranks.end(), rank);
  if (it == ranks.end()) return std::nullopt;
  return static_cast<int64_t>(it - ranks.begin());
}

const ProcessGroup& ProcessGroupTable::getOrCreate(std::span<const int64_t> ranks) {
  // Paddle compares '_'.join(ranks) keys: the same as comparing the lists.
  // A linear scan, as Paddle's: a program has a few dozen rings at most.
  for (const ProcessGroup& g : groups_)
    if (std::equal(g.ranks.begin(), g.ranks.end(), ranks.begin(), ranks.end())) return g;
  // Paddle's len(_g_process_group_map) counts the world group too.
  int64_t id = base_ + static_cast<int64_t>(groups_.size() + 1) + 1;
  groups_.push_back(ProcessGroup{id, std::vector<int64_t>(ranks.begin(), ranks.end())});
  return groups_.back();
}

const ProcessGroup* ProcessGroupTable::find(int64_t ringId) const {
  // Ids grow by one from the first group's.
  int64_t first = base_ + 2;
  if (ringId < first || ringId - first >= static_cast<int64_t>(groups_.size())) return nullptr;
  return &groups_[static_cast<size_t>(ringId - first)];
}

std::span<const int64_t> ProcessGroupTable::ranksOf(int64_t ringId) const {
  const ProcessGroup* g = find(ringId);
  return g ? std::span<const int64_t>(g->ranks) : std::span<const int64_t>();
}

std::optional<int64_t> ProcessGroupTable::localRank(int64_t ringId, int64_t rank) const {
  const ProcessGroup* g = find(ringId);
  return g ? g->localRank(rank) : std::nullopt;
}

namespace {

std::string rankList(const std::vector<int64_t>& ranks) {
  std::string s = "[";
  for (size_t i = 0; i < ranks.size(); ++i) s += (i ? ", " : "") + std::to_string(ranks[i]);
  return s + "]";
}

}  // namespace

RingTable::RingTable(std::initializer_list<ProcessGroup> rings) {
  for (const ProcessGroup& g : rings) (void)add(g.ringId, g.ranks);
}

Status RingTable::add(int64_t ringId, std::vector<int64_t> ranks) {
  std::vector<int64_t> sorted = ranks;
  std::sort(sorted.begin(), sorted.end());
  if (ranks.empty() || std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    return Status::error("ring " + std::to_string(ringId) + " must list its ranks, each once");
  auto pos = std::lower_bound(rings_.begin(), rings_.end(), ringId,
                              [](const ProcessGroup& g, int64_t id) { return g.ringId < id; });
  if (pos != rings_.end() && pos->ringId == ringId) {
    if (pos->ranks == ranks) return Status::ok();
    return Status::error("ring " + std::to_string(ringId) + " is given as " + rankList(ranks) + " and as " +
                         rankList(pos->ranks));
  }
  rings_.insert(pos, ProcessGroup{ringId, std::move(ranks)});
  return Status::ok();
}

Status RingTable::addAll(const ProcessGroupTable& table) {
  for (const ProcessGroup& g : table.groups())
    if (Status s = add(g.ringId, g.ranks); !s) return s;
  return Status::ok();
}

const ProcessGroup* RingTable::find(int64_t ringId) const {
  auto pos = std::lower_bound(rings_.begin(), rings_.end(), ringId,
                              [](const ProcessGroup& g, int64_t id) { return g.ringId < id; });
  return pos != rings_.end() && pos->ringId == ringId ? &*pos : nullptr;
}

bool RingTable::operator==(const RingTable& o) const {
  if (rings_.size() != o.rings_.size()) return false;
  for (size_t i = 0; i < rings_.size(); ++i)
    if (rings_[i].ringId != o.rings_[i].ringId || rings_[i].ranks != o.rings_[i].ranks) return false;
  return true;
}

void RingTable::addWorld(int64_t worldSize) {
  if (find(0)) return;
  std::vector<int64_t> all;
  for (int64_t r = 0; r < worldSize; ++r) all.push_back(r);
  if (!all.empty()) (void)add(0, std::move(all));
}

}  // namespace pir::core
