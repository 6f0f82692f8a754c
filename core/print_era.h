//===- print_era.h - printing a program in another printer era --*- C++ -*-===//
//
// A program prints in the era it was read in (PrintStyle). convertToEra
// rewrites it to print in another:
//   2024    the `dims_maping` era of the seeds (Paddle, March 2024): op attr
//           entries `dims_maping:[..]` on the op's mesh, types with
//           `mesh_shape` only, tagged numbers `(Int32)-1` and dialect values
//           `(pd_op.DataType)float32`, `builtin.tensor<..>`, no chunk_id;
//   newest  types and entries with `process_ids`, bare numbers and dialect
//           values, `tensor<..>`, `chunk_id:N` in every op_dist_attr.
// What the target era cannot spell is a located error, never a silent drop:
// for 2024, a chunk id other than -1, a dist type whose mesh a reader would
// complete differently (not its producer's op mesh, or for a block argument
// not ids 0..n-1), and a bare number whose tag Paddle's op definitions do
// not give (kSpellings in print_era.cpp). Converting a seed to the newest
// era and back is the identity (testdata/era/).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>
#include <string_view>

#include "core/program.h"
#include "core/status.h"

namespace pir::core {

enum class PrintEra : uint8_t {
  Input,   // as read: nothing to convert
  Y2024,   // the dims_maping era of the seeds
  Newest,  // process_ids, bare numbers, chunk_id
};

/// "input", "2024" or "newest"; nullopt for anything else.
std::optional<PrintEra> parsePrintEra(std::string_view name);

/// Rewrites `program` (attributes, tensor spellings, its style) to print in
/// `era`; an error at the first op that era cannot spell. Run before the
/// passes too, what they create is spelled as that era spells it, and what
/// they refuse only in an era (a cross-mesh reshard in the dims_maping era)
/// they do in the one printed.
Status convertToEra(Program& program, PrintEra era);

/// convertToEra, then checkPrintable (on up to `threads` threads): what a
/// driver runs before printing.
Status prepareToPrint(Program& program, PrintEra era, unsigned threads = 1);

}  // namespace pir::core
