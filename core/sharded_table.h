//===- sharded_table.h - a uniquing table cut into locked shards -*- C++ -*-===//
//
// The Context's tables while threads intern at once (Context::Concurrent):
// each hash falls in one of kShards UniqueTables, each with a lock of its
// own. Two threads wait for each other only when they land in the same
// shard, and a growing shard holds up only its own lookups. With one lock
// for all (as before), most of the time two readers spent interning the
// names of a program's parameters (each a new string) went to waiting for it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "core/hash.h"
#include "core/threads.h"

namespace pir::core {

template <class T>
class ShardedTable {
 public:
  static constexpr size_t kShards = 16;

  /// The lock of the shard `hash` falls in (the caller holds it around
  /// find and insert only while threads intern at once).
  SpinLock& lockFor(uint64_t hash) { return shards_[shardOf(hash)].lock; }

  template <class Eq>
  const T* find(uint64_t hash, Eq&& eq) const {
    return shards_[shardOf(hash)].table.find(hash, eq);
  }
  void insert(const T* value) { shards_[shardOf(value->hash())].table.insert(value); }
  void prefetch(uint64_t hash) const { shards_[shardOf(hash)].table.prefetch(hash); }

  /// Makes room in each shard for the entries of `hashes` that fall in it,
  /// taking its lock when `locked`.
  void reserveFor(std::span<const uint64_t> hashes, bool locked) {
    std::array<size_t, kShards> more{};
    for (uint64_t h : hashes) ++more[shardOf(h)];
    for (size_t s = 0; s < kShards; ++s) {
      if (!more[s]) continue;
      Shard& shard = shards_[s];
      if (locked) shard.lock.lock();
      shard.table.reserve(shard.table.size() + more[s]);
      if (locked) shard.lock.unlock();
    }
  }

  /// Entries in all (not to be asked while threads intern).
  size_t size() const {
    size_t n = 0;
    for (const Shard& s : shards_) n += s.table.size();
    return n;
  }

 private:
  // A shard on a cache line of its own: a thread taking one lock does not
  // move the line another thread's lock is on.
  struct alignas(64) Shard {
    SpinLock lock;
    UniqueTable<T> table;
  };

  // Bits 32-35 of the multiplicative hash: UniqueTable takes a slot from
  // the top bits and a tag from bits 16-31, so every bit of both still
  // tells a shard's entries apart (below 2^28 slots a shard).
  static size_t shardOf(uint64_t hash) {
    return static_cast<size_t>((hash * 0x9e3779b97f4a7c15ull) >> 32) & (kShards - 1);
  }

  std::array<Shard, kShards> shards_;
};

}  // namespace pir::core
