//===- prefetch.h - fetch memory ahead of a walk ----------------*- C++ -*-===//
//
// A walk over a million ops that reads values defined far away waits on the
// memory for each; asking for them a few ops ahead overlaps the waits.
//
//===----------------------------------------------------------------------===//
#pragma once

namespace pir::core {

/// Starts loading the cache line at `p`. The empty volatile asm keeps GCC
/// from deleting a loop that does nothing but prefetch.
inline void prefetch(const void* p) {
  __builtin_prefetch(p);
  asm volatile("" : : "r"(p));
}

}  // namespace pir::core
