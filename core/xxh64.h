//===- xxh64.h - XXH64, a file's fingerprint at memory speed ----*- C++ -*-===//
//
// programs.yaml's source_hash fingerprints the whole input (534 MB at 1M
// ops). FNV-1a, which interns keys, goes a byte at a time through a
// multiply (0.7 CPU-s there); XXH64 takes 32 bytes a step on four lanes.
// This is Yann Collet's published algorithm (xxhash.h, XXH64), written out
// here, not vendored; tests check it against Debian's libxxhash.so.0.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string_view>

namespace pir::core {

/// XXH64 of `bytes` with `seed`.
uint64_t xxh64(std::string_view bytes, uint64_t seed = 0);

}  // namespace pir::core
