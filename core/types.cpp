//===- types.cpp - the dialect type names Paddle registers ----------------===//
//
// Paddle prints a dialect type as `dialect.name<...>`. The names below are
// the ones its dialect code registers and prints with that prefix:
// BuiltinDialect::PrintType (`builtin.tensor`; the builtin scalars and `vec`
// print bare), OperatorDialect's PrintTypeImpl (`pd_op.tensor` of the older
// printers, `selectedrows`, `tensor_array`, `sparsecootensor`; its
// SparseCsrTensorType prints no name of its own, `sparsecsrtensor` is the
// spelling its sibling suggests) and DistDialect::PrintType (`pd_dist.tensor`,
// its one type).
//
//===----------------------------------------------------------------------===//
#include "core/types.h"

#include <algorithm>
#include <array>

namespace pir::core {

namespace {

constexpr std::array<std::string_view, 7> kRegisteredTypeNames = {
    "builtin.tensor",        "pd_op.tensor",          "pd_op.selectedrows", "pd_op.tensor_array",
    "pd_op.sparsecootensor", "pd_op.sparsecsrtensor", "pd_dist.tensor",
};

constexpr size_t kMaxEdits = 2;

/// The optimal-string-alignment distance of `a` and `b` (insertions,
/// deletions, substitutions and swaps of neighbours, one edit each), or
/// kMaxEdits + 1 once it is known to be larger.
size_t editDistance(std::string_view a, std::string_view b) {
  constexpr size_t kFar = kMaxEdits + 1;
  size_t la = a.size(), lb = b.size();
  if ((la > lb ? la - lb : lb - la) > kMaxEdits) return kFar;
  constexpr size_t kMaxLen = 32;  // the registered names are shorter; a longer `a` is far by length
  if (lb >= kMaxLen || la >= kMaxLen) return kFar;
  std::array<std::array<uint8_t, kMaxLen + 1>, kMaxLen + 1> d{};
  for (size_t i = 0; i <= la; ++i) d[i][0] = static_cast<uint8_t>(i);
  for (size_t j = 0; j <= lb; ++j) d[0][j] = static_cast<uint8_t>(j);
  for (size_t i = 1; i <= la; ++i)
    for (size_t j = 1; j <= lb; ++j) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      size_t v = std::min<size_t>({d[i - 1][j] + 1u, d[i][j - 1] + 1u, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) v = std::min<size_t>(v, d[i - 2][j - 2] + 1u);
      d[i][j] = static_cast<uint8_t>(v);
    }
  return std::min<size_t>(d[la][lb], kFar);
}

}  // namespace

TypeNameCheck checkTypeName(std::string_view name) {
  for (std::string_view known : kRegisteredTypeNames)
    if (name == known) return {TypeNameCheck::Kind::Registered, known};
  std::string_view best;
  size_t bestEdits = kMaxEdits + 1;
  for (std::string_view known : kRegisteredTypeNames)
    if (size_t e = editDistance(name, known); e < bestEdits) {
      bestEdits = e;
      best = known;
    }
  if (!best.empty()) return {TypeNameCheck::Kind::Misspelled, best};
  if (name.starts_with("pd_dist.")) return {TypeNameCheck::Kind::NotInDialect, "pd_dist.tensor"};
  return {TypeNameCheck::Kind::Unknown, {}};
}

}  // namespace pir::core
