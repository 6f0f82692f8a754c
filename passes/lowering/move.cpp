//===- move.cpp - a tensor's pieces from one mesh to another --------------===//
#include "passes/lowering/move.h"

#include <algorithm>
#include <map>

namespace pir::passes::lowering {

using namespace pir::core;

uint64_t boxElements(const Box& box) {
  uint64_t n = 1;
  for (const ShardPiece& p : box) n *= uint64_t(std::max<int64_t>(p.size(), 0));
  return n;
}

std::vector<Transfer> moveTransfers(const TensorDistAttr& from, const TensorDistAttr& to,
                                    std::span<const int64_t> dims) {
  // The distinct source pieces, each with its holders in mesh order.
  std::vector<std::pair<Box, std::vector<int64_t>>> pieces;
  for (int64_t s : from.mesh()->processIds()) {
    std::optional<Box> box = pieceBox(dims, from, s);
    if (!box) return {};
    auto it = std::find_if(pieces.begin(), pieces.end(), [&](const auto& p) { return p.first == *box; });
    if (it == pieces.end())
      pieces.push_back({*box, {s}});
    else if (std::find(it->second.begin(), it->second.end(), s) == it->second.end())
      it->second.push_back(s);
  }
  std::map<int64_t, uint64_t> sentSoFar;
  std::vector<Transfer> out;
  std::vector<int64_t> done;
  for (int64_t d : to.mesh()->processIds()) {
    if (std::find(done.begin(), done.end(), d) != done.end()) continue;  // a rank listed twice gets its box once
    done.push_back(d);
    std::optional<Box> want = pieceBox(dims, to, d);
    if (!want) return {};
    for (const auto& [piece, holders] : pieces) {
      Box cell(want->size());
      for (size_t i = 0; i < cell.size(); ++i)
        cell[i] = {std::max(piece[i].begin, (*want)[i].begin), std::min(piece[i].end, (*want)[i].end)};
      if (std::any_of(cell.begin(), cell.end(), [](const ShardPiece& p) { return p.size() <= 0; })) continue;
      int64_t sender = holders.front();
      if (std::find(holders.begin(), holders.end(), d) != holders.end()) {
        sender = d;
      } else {
        for (int64_t h : holders)
          if (sentSoFar[h] < sentSoFar[sender]) sender = h;
        sentSoFar[sender] += boxElements(cell);
      }
      out.push_back({sender, d, std::move(cell)});
    }
  }
  return out;
}

std::vector<int64_t> allToAllBlock(const Step& step, std::span<const int64_t> dims, std::vector<int64_t> local,
                                   int64_t n, int64_t i, int64_t j) {
  size_t a = size_t(step.axis), b = size_t(step.toAxis);
  local[a] = shardPiece(dims[a], n, i).size();
  local[b] = shardPiece(dims[b], n, j).size();
  return local;
}

std::vector<AllToAllPair> allToAllPairs(const Step& step, std::span<const int64_t> dims) {
  const ProcessMesh& mesh = *step.from->mesh();
  size_t meshDim = mesh.ndim() <= 1 ? 0 : size_t(step.meshDim);
  std::vector<std::vector<int64_t>> seen;
  std::vector<AllToAllPair> out;
  for (int64_t r : mesh.processIds()) {
    std::vector<int64_t> g = subMeshRanks(mesh, meshDim, r);
    if (g.size() < 2 || std::find(seen.begin(), seen.end(), g) != seen.end()) continue;
    seen.push_back(g);
    std::optional<std::vector<int64_t>> local = localShape(dims, *step.from, g[0]);
    if (!local) return {};
    int64_t n = int64_t(g.size());
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) {
        if (i == j) continue;
        std::vector<int64_t> block = allToAllBlock(step, dims, *local, n, i, j);
        if (std::all_of(block.begin(), block.end(), [](int64_t d) { return d > 0; }))
          out.push_back({g[size_t(i)], g[size_t(j)]});
      }
  }
  return out;
}

}  // namespace pir::passes::lowering
