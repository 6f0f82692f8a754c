//===- process_group.h - ring ids and their ordered ranks ---------*- C++ -*-===//
//
// The side table a lowering writes next to the per-rank programs: which
// global ranks, in which order, each `ring_id` of a collective or of a
// send_v2/recv_v2 stands for. The text never carries it (no attribute lists
// the ranks), so it is built as groups are asked for, with the ids Paddle's
// `new_process_group` (auto_parallel/static/process_group.py) hands out:
//
//   - a group is looked up by its rank list, in order: [0,1] and [1,0] are
//     two rings, and a collective over [0,1] shares the p2p ring [0,1];
//   - group 0 is the world group and is never returned by a lookup;
//   - a new group gets id `base + (number of groups, group 0 included) + 1`.
//     Paddle's base is `collective._new_ring_id()`, which in static mode
//     with only the world communicator is 1 + max(nrings, 9) = 10, so the
//     first group is ring 12, the next 13, and so on.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <vector>

#include "core/status.h"

namespace pir::core {

/// One ring: its id and its global ranks in group order (a rank's position
/// in `ranks` is its rank inside the group, what send_v2/recv_v2 `peer` and
/// broadcast `root` name).
struct ProcessGroup {
  int64_t ringId = 0;
  std::vector<int64_t> ranks;

  /// The position of global rank `rank` in this group (its first
  /// occurrence), or nullopt when it is not a member.
  std::optional<int64_t> localRank(int64_t rank) const;
};

class ProcessGroupTable {
 public:
  /// Paddle's `_new_ring_id()` in static mode with only the world group.
  static constexpr int64_t kPaddleBaseRingId = 10;

  /// `baseRingId` (at least 0, so that no group gets ring 0) plays the part
  /// of `_new_ring_id()`.
  explicit ProcessGroupTable(int64_t baseRingId = kPaddleBaseRingId) : base_(baseRingId) {}

  /// The group whose ranks are `ranks` in this order, created with the next
  /// ring id when there is none (new_process_group without group_id or
  /// force_new_group). Group 0 is not matched. The reference stays valid
  /// until the next getOrCreate().
  const ProcessGroup& getOrCreate(std::span<const int64_t> ranks);

  /// The group with ring id `ringId`, or null (ring 0 too: the world is
  /// RingTable::addWorld's, the one rule for it). The pointer stays valid
  /// until the next getOrCreate().
  const ProcessGroup* find(int64_t ringId) const;

  /// find(ringId)'s ranks, or empty when there is no such ring.
  std::span<const int64_t> ranksOf(int64_t ringId) const;

  /// The position of global rank `rank` in ring `ringId`, or nullopt when
  /// there is no such ring or the rank is not in it.
  std::optional<int64_t> localRank(int64_t ringId, int64_t rank) const;

  /// The groups created so far, in creation order (ascending ring ids),
  /// without the world group 0.
  std::span<const ProcessGroup> groups() const { return groups_; }
  size_t size() const { return groups_.size(); }
  int64_t baseRingId() const { return base_; }

 private:
  int64_t base_;
  std::vector<ProcessGroup> groups_;
};

/// The one ring table: ring id -> ordered global ranks, ascending by id.
/// The lowering plans it (ProcessGroupTable), ranks.yaml carries it, and the
/// communicators take each ring's ranks from it.
class RingTable {
 public:
  RingTable() = default;
  /// The rings given (tests, tools); each as add() takes it, the first
  /// refusal ignored: use add() where one can be wrong.
  RingTable(std::initializer_list<ProcessGroup> rings);

  /// Adds a ring; an error when `ringId` is taken by other ranks (the same
  /// ranks again are fine) or the rank list is empty or repeats a rank.
  Status add(int64_t ringId, std::vector<int64_t> ranks);
  /// Every ring of `table` (planRings' answer), as add() does.
  Status addAll(const ProcessGroupTable& table);
  /// The one rule for ring 0, the world: every rank 0 .. worldSize-1 in
  /// order, unless the table lists ring 0 itself.
  void addWorld(int64_t worldSize);
  const ProcessGroup* find(int64_t ringId) const;
  const std::vector<ProcessGroup>& rings() const { return rings_; }
  bool empty() const { return rings_.empty(); }
  bool operator==(const RingTable&) const;

 private:
  std::vector<ProcessGroup> rings_;
};

}  // namespace pir::core
