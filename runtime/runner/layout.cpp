//===- layout.cpp - global tensors to rank pieces and back ----------------===//
#include "runtime/runner/layout.h"

#include <algorithm>
#include <cmath>

#include "core/mesh_math.h"
#include "runtime/comm/communicator.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/runner/compare.h"

namespace pir::runtime::runner {

using core::Status;

namespace {

/// Every element of `t` set to `value`.
void fill(Tensor& t, double value) {
  visitDtype(t.dtype(), [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    T x;
    if constexpr (std::is_same_v<T, BFloat16>)
      x = BFloat16::fromFloat(float(value));
    else
      x = T(value);
    std::fill(t.data<T>(), t.data<T>() + t.numel(), x);
  });
}

const passes::LayoutPiece* pieceOf(const passes::LayoutValue& v, int64_t rank) {
  // A value on no mesh (a dense value of a distributed program, such as the
  // input of a dist_op.shard_tensor) is whole on every rank that reads it.
  if (v.processIds.empty()) return v.pieces.empty() ? nullptr : &v.pieces.front();
  for (auto& p : v.pieces)
    if (p.rank == rank) return &p;
  return nullptr;
}

/// Rank's coordinate in the value's mesh (empty when it is not in it).
std::vector<int64_t> coordOf(const passes::LayoutValue& v, int64_t rank) {
  auto it = std::find(v.processIds.begin(), v.processIds.end(), rank);
  if (it == v.processIds.end()) return {};
  int64_t flat = it - v.processIds.begin();
  std::vector<int64_t> c(v.meshShape.size());
  for (size_t d = v.meshShape.size(); d-- > 0;) {
    c[d] = flat % v.meshShape[d];
    flat /= v.meshShape[d];
  }
  return c;
}

bool isPartialDim(const passes::LayoutValue& v, size_t d) {
  for (auto& p : v.partial)
    if (p.meshDim == int64_t(d)) return true;
  return false;
}

std::vector<int64_t> begins(const passes::LayoutPiece& p) {
  std::vector<int64_t> b;
  for (auto& r : p.ranges) b.push_back(r.begin);
  return b;
}

}  // namespace

Status checkProgramReads(const passes::LayoutValue& v, const ProgramInput& in, int64_t rank,
                         const core::SourceFile* source) {
  auto list = [](const std::vector<int64_t>& dims) {
    std::string text = "[";
    for (size_t i = 0; i < dims.size(); ++i) text += (i ? ", " : "") + std::to_string(dims[i]);
    return text + "]";
  };
  const int64_t at = in.op ? in.op->location() : -1;
  const std::string who = "rank " + std::to_string(rank) + " reads '" + in.name + "' as " +
                          std::string(core::dataTypeName(in.dtype)) + list(in.shape) + ", but ranks.yaml gives ";
  if (v.dtype != in.dtype)
    return Status::error(who + "dtype " + std::string(core::paddleDataTypeName(v.dtype)), at).in(source);
  const passes::LayoutPiece* piece = pieceOf(v, rank);
  if (!piece) return Status::ok();  // not on this rank's mesh: slicePiece says so
  bool fits = piece->shape.size() == in.shape.size();
  for (size_t d = 0; fits && d < in.shape.size(); ++d)
    fits = in.shape[d] < 0 || piece->shape[d] < 0 || in.shape[d] == piece->shape[d];
  if (!fits) return Status::error(who + "its piece the shape " + list(piece->shape), at).in(source);
  return Status::ok();
}

core::Result<Tensor> slicePiece(const passes::LayoutValue& v, const Tensor& global, int64_t rank) {
  const passes::LayoutPiece* p = pieceOf(v, rank);
  if (!p) return Status::error("'" + v.name + "' has no piece on rank " + std::to_string(rank) + " in ranks.yaml");
  Tensor piece = Tensor::allocate(global.dtype(), p->shape);
  std::vector<int64_t> zero(p->shape.size(), 0);
  if (p->shape.size() != global.rank())
    return Status::error("'" + v.name + "': its piece's rank differs from the value's");
  copyBox(global, begins(*p), piece, zero, p->shape);
  if (!v.partial.empty()) {
    auto c = coordOf(v, rank);
    bool keeper = true;
    for (size_t d = 0; d < c.size(); ++d)
      if (isPartialDim(v, d) && c[d] != 0) keeper = false;
    core::PartialShare share = core::partialShare(v.partial[0].reduce, keeper);
    if (!share.keepsValue) fill(piece, share.fill);
  }
  return piece;
}

core::Result<Tensor> assemble(const passes::LayoutValue& v, const std::map<int64_t, Tensor>& byRank) {
  // ranges -> (coordinates off the partial dims -> addends, with their ranks)
  std::map<std::vector<int64_t>, std::map<std::vector<int64_t>, std::vector<std::pair<int64_t, Tensor>>>> groups;
  std::map<std::vector<int64_t>, const passes::LayoutPiece*> pieces;
  core::DataType dtype = v.dtype;
  for (const auto& p : v.pieces) {
    auto it = byRank.find(p.rank);
    if (it == byRank.end() || !it->second.defined()) continue;
    auto c = coordOf(v, p.rank);
    std::vector<int64_t> key;
    for (size_t d = 0; d < c.size(); ++d)
      if (!isPartialDim(v, d)) key.push_back(c[d]);
    auto b = begins(p);
    groups[b][key].push_back({p.rank, it->second});
    pieces[b] = &p;
    dtype = it->second.dtype();
  }
  if (groups.empty()) return Status::error("'" + v.name + "' is on no rank that ran");
  Tensor global = Tensor::zeros(dtype, v.shape);
  for (auto& [b, replicas] : groups) {
    Tensor first;
    int64_t firstRank = -1;
    for (auto& [key, addends] : replicas) {
      Tensor value = addends[0].second;
      if (addends.size() > 1 && !v.partial.empty()) {
        std::vector<const Tensor*> parts;
        for (auto& a : addends) parts.push_back(&a.second);
        value = Tensor::allocate(dtype, addends[0].second.shape());
        reduceInto(parts, value, v.partial[0].reduce);
      }
      if (!first.defined()) {
        first = value, firstRank = addends[0].first;
        continue;
      }
      if (value.numel() != first.numel() || !withinTolerance(value, first))
        return Status::error("the replicas of '" + v.name + "' on ranks " + std::to_string(firstRank) + " and " +
                             std::to_string(addends[0].first) + " differ");
    }
    if (first.rank() != global.rank())
      return Status::error("'" + v.name + "': a piece's rank differs from the value's");
    std::vector<int64_t> zero(first.rank(), 0);
    copyBox(first, zero, global, b, first.shape());
  }
  return global;
}

}  // namespace pir::runtime::runner
