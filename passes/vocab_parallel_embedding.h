//===- vocab_parallel_embedding.h - embedding on a vocab shard -----*- C++ -*-===//
//
// An `embedding` whose weight is sharded on the vocab (dims_mapping [m, ..])
// reads, on each rank, only rows [start, start + rows) of the table: its
// dense form is `c_embedding(weight, x) {start_index, vocab_size}`, which
// gives zeros for ids outside the rank's rows (the result is partial over m:
// summing the ranks gives the row), and its grad `c_embedding_grad(weight, x,
// out_grad) {start_index}`, which scatters only the rank's rows. Auto-parallel
// Paddle writes `embedding` with a sharded weight and picks that kernel when it
// runs; a rank's dense program must name it, so dist-to-dense rewrites it here
// while the types are still global.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "core/program.h"

namespace pir::passes {

/// Rewrites every vocab-sharded `pd_op.embedding` / `pd_op.embedding_grad` of
/// `program` (in every block) into rank `rank`'s `pd_op.c_embedding` /
/// `pd_op.c_embedding_grad`; returns how many. A sharded embedding with a
/// `padding_idx` (c_embedding has none) is reported through `report`.
int localizeVocabParallelEmbeddings(core::Program& program, int64_t rank,
                                    const std::function<void(const core::Operation&, std::string)>& report);

}  // namespace pir::passes
