//===- move.h - a tensor's pieces from one mesh to another -------*- C++ -*-===//
//
// The cost planner's cross-mesh step (StepKind::Move): every rank of the
// destination mesh gets the box its layout gives it, cut into the pieces
// the source layout holds (the box's intersection with each distinct
// source piece), each from one source rank holding that piece. A
// destination rank that holds a piece itself (it is in both meshes) takes
// it locally; otherwise the sender is the replica holding it that has sent
// the fewest elements so far in this move (ties: the first in the source
// mesh's order), so the replicas share the sending. Destination ranks go in
// their mesh's order, pieces in the order their first holder appears in
// the source mesh. The plan's ring plan, byte model and emission all read
// this one list.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/dist_attr.h"
#include "core/mesh_math.h"
#include "passes/lowering/plan.h"

namespace pir::passes::lowering {

using Box = std::vector<core::ShardPiece>;

/// The elements of `box` (0 when a range is empty).
uint64_t boxElements(const Box& box);

/// One piece a destination rank gets: `box` in global coordinates, from
/// rank `from` (== `to`: it holds the piece already).
struct Transfer {
  int64_t from = 0;
  int64_t to = 0;
  Box box;
};

/// The pieces of a move of a tensor of global `dims` laid out by `from`
/// (on one mesh) to `to` (on another), neither partial. Empty when a
/// layout does not fit the dims or a dim is dynamic.
std::vector<Transfer> moveTransfers(const core::TensorDistAttr& from, const core::TensorDistAttr& to,
                                    std::span<const int64_t> dims);

/// The messages of an AllToAll step (S(axis) -> S(toAxis) along
/// step.meshDim) on a tensor of global `dims`: in each sub-mesh along the
/// mesh dim (by where its first rank appears in the mesh), member i sends
/// member j the block of its piece that j will hold, for every i != j
/// whose block is not empty, i then j in mesh order.
struct AllToAllPair {
  int64_t from = 0;
  int64_t to = 0;
};
std::vector<AllToAllPair> allToAllPairs(const Step& step, std::span<const int64_t> dims);

/// The block member `i` of an AllToAll sends member `j`: the local shape
/// `i` holds (`local`) with step.axis cut to i's piece and step.toAxis to
/// j's, of `n` members.
std::vector<int64_t> allToAllBlock(const Step& step, std::span<const int64_t> dims, std::vector<int64_t> local,
                                   int64_t n, int64_t i, int64_t j);

}  // namespace pir::passes::lowering
