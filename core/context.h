//===- context.h - owner of interned strings, types, attributes -*- C++ -*-===//
//
// Everything the Context hands out lives as long as the Context and is
// uniqued: equal inputs give the same pointer, so equality is a pointer
// compare. IR objects (operations, values, blocks) are allocated from the
// Context's arena too.
//
// Threads: a Context and everything in it (its programs, their values and
// ops, the passes' scratch fields in them) is used by one thread at a time.
// Different Contexts share no mutable state, so work on different Contexts
// (one per rank) may run on different threads at once. The exceptions:
// - IR that no thread writes may be read by several at once through const
//   accessors (a CloneSource's program, say); printing and verifying write
//   scratch marks into values, so they count as writes, unless a walk
//   splits them as printProgram's and verifyProgram's threaded forms do.
// - While a Context::Concurrent scope is open (`--threads`: the reader's
//   chunks), any thread holding a Context::Worker may intern strings,
//   types, attributes and attribute lists into it, each call taking the
//   lock of the table's shard its hash falls in (core/sharded_table.h).
//   The Worker is what makes allocating safe: arena() gives that thread an
//   arena of its own (the Context's own is not locked), for interned objects
//   and IR alike. What each thread builds is its own until the scope closes.
//   newWalkEpoch() and stringAttrs() stay with the thread that opened it.
// - A Context made over a parent (core::Context(parent, pool)) finds what
//   the parent holds there, reading the parent's tables without its locks:
//   children on several threads may read one parent at once (split-ranks'
//   ranks), and nothing may intern into the parent while they do.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <memory>
#include <mutex>
#include <span>
#include <string_view>
#include <vector>

#include "core/arena.h"
#include "core/attributes.h"
#include "core/hash.h"
#include "core/sharded_table.h"
#include "core/threads.h"
#include "core/types.h"
#include "core/value.h"

namespace pir::core {

class Context {
 public:
  Context();
  /// A Context whose arena takes its large slabs from `pool` and leaves
  /// them there (core/arena.h: for many Contexts made one after another).
  explicit Context(std::shared_ptr<SlabPool> pool);
  /// A Context over `parent`, which must outlive it: asked for a string,
  /// type, attribute or attribute list the parent (or its parent) holds, it
  /// gives the parent's, so IR of the parent's can be copied in by pointer
  /// (cloneProgram) and the copy's interned objects are not made twice.
  /// What the parent lacks is made here; the child never writes the parent.
  /// `owner`, when given, owns `parent`: it is held while this lives.
  Context(const Context* parent, std::shared_ptr<SlabPool> pool, std::shared_ptr<const Context> owner = nullptr);
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  /// The arena IR is allocated from: this thread's own while it holds a
  /// Worker of this Context, else the Context's.
  Arena& arena() { return tlsContext_ == this ? *tlsArena_ : arena_; }

  /// While it lives, interning is thread-safe (see the header comment).
  /// Open it before starting the threads and close it after joining them.
  class Concurrent {
   public:
    explicit Concurrent(Context& ctx) : ctx_(ctx) { ctx_.concurrent_ = true; }
    ~Concurrent() { ctx_.concurrent_ = false; }
    Concurrent(const Concurrent&) = delete;
    Concurrent& operator=(const Concurrent&) = delete;

   private:
    Context& ctx_;
  };

  /// While it lives, arena() on this thread gives an arena of its own,
  /// which the Context keeps (its IR lives as long as the Context).
  class Worker {
   public:
    explicit Worker(Context& ctx);
    ~Worker();
    Worker(const Worker&) = delete;
    Worker& operator=(const Worker&) = delete;

   private:
    Context* savedContext_;
    Arena* savedArena_;
  };

  /// Returns a copy of `s` owned by the context; equal strings share storage.
  std::string_view intern(std::string_view s);
  /// Whether `other` is this Context or one it was made over (at any
  /// depth): then everything `other` hands out is this Context's too.
  bool readsFrom(const Context* other) const {
    for (const Context* c = this; c; c = c->parent_)
      if (c == other) return true;
    return false;
  }

  /// Whether `s` was interned here. Every op's name is: an op name never
  /// interned names no op of the context, and a pass can skip looking.
  bool hasInterned(std::string_view s);

  /// An op's attribute list owned by the context; equal lists (same keys,
  /// same attributes, same order) share storage. Most ops of a program
  /// repeat the list of another op, so this keeps an op to a pointer.
  std::span<const NamedAttr> attrList(std::span<const NamedAttr> attrs);
  /// A copy of `attrs` for one op, not interned: for a list that holds an
  /// attribute just made (every parameter's name is one), which no list
  /// the Context holds can equal. Looking it up would miss, and keeping it
  /// would grow the table by a list no other op shares.
  std::span<const NamedAttr> ownAttrList(std::span<const NamedAttr> attrs) { return arena().copy(attrs); }

  // Types.
  const ScalarType* scalarType(DataType dtype);
  const DenseTensorType* denseTensorType(std::string_view spelling, DataType dtype, std::span<const int64_t> dims);
  const DistTensorType* distTensorType(DataType dtype, std::span<const int64_t> dims, const TensorDistAttr* dist);
  const VectorType* vectorType(std::span<const Type* const> elems);
  const NullType* nullType() { return nullType_; }
  const OpaqueType* opaqueType(std::string_view text);

  // Attributes.
  const BoolAttr* boolAttr(bool v) { return v ? true_ : false_; }
  const StringAttr* stringAttr(std::string_view raw);
  /// As stringAttr(raw), and `made` says whether the attribute is new: no
  /// attribute list the Context holds can then hold it (see ownAttrList).
  const StringAttr* stringAttr(std::string_view raw, bool& made);
  /// Escapes `"` and `\` in `value` and interns the result.
  const StringAttr* stringAttrFromValue(std::string_view value);
  /// stringAttr() of each of `raws` into `out` (the same size). For a pass
  /// naming half a million values: the tables grow once, up front, and each
  /// lookup's slots are fetched a few names ahead, so their cache misses
  /// overlap instead of coming one after another. Returns how many of the
  /// strings were new to the context: all of them (if distinct) when none
  /// equals a string it held before.
  size_t stringAttrs(std::span<const std::string_view> raws, std::span<const StringAttr*> out);
  const NumberAttr* numberAttr(std::string_view tag, std::string_view text);
  const ArrayAttr* arrayAttr(std::span<const Attribute* const> elems, bool arrayPrefix = false);
  const TaggedAttr* taggedAttr(std::string_view tag, const Attribute* inner);
  const SymbolAttr* symbolAttr(std::string_view text);
  const OpaqueAttr* opaqueAttr(std::string_view text);
  const NullAttr* nullAttr(bool spelledNull = false) { return spelledNull ? nullSpelled_ : null_; }
  const TypeAttr* typeAttr(const Type* type);

  const ProcessMesh* processMesh(std::span<const int64_t> shape, std::span<const int64_t> ids,
                                 std::span<const std::string_view> dimNames = {});
  /// Every process mesh interned here and in the Contexts this one was
  /// made over (not to be asked while threads intern). Each op's and
  /// value's mesh is one of them: a pass learns from these few, without a
  /// walk, that no op is on a mesh without some rank.
  std::vector<const ProcessMesh*> processMeshes() const;
  const PlacementsAttr* placementsAttr(std::span<const Placement> placements);
  const TensorDistAttr* tensorDistAttr(const ProcessMesh* mesh, std::span<const int64_t> dimsMapping,
                                       std::span<const PartialEntry> partial = {},
                                       const PlacementsAttr* placements = nullptr);
  const OpDistAttr* opDistAttr(const ProcessMesh* mesh, std::span<const Attribute* const> operands,
                               std::span<const Attribute* const> results, int64_t chunkId, bool hasChunkId);

  /// A fresh mark for a walk that stamps the values it visits (the
  /// verifier's scope check, the printer's numbering): never 0 and never
  /// one handed out before (until 2^32 walks), so no walk clears its marks.
  /// Per Context, not global: walks on other threads' Contexts never touch it.
  uint32_t newWalkEpoch() { return newWalkEpochs(1); }
  /// `n` fresh marks in a row, the first returned: a walk split over
  /// threads gives each part its own.
  uint32_t newWalkEpochs(uint32_t n) {
    if (walkEpoch_ + uint64_t{n} > UINT32_MAX) walkEpoch_ = 0;  // 2^32 walks later: start over
    uint32_t first = walkEpoch_ + 1;
    walkEpoch_ += n;
    return first;
  }

 private:
  struct InternedString {
    uint64_t h;
    std::string_view s;
    uint64_t hash() const { return h; }
  };

  std::string_view intern(std::string_view s, uint64_t h);
  const StringAttr* stringAttr(std::string_view raw, uint64_t h, uint64_t textHash);
  static uint64_t stringAttrHash(std::string_view raw);

  struct InternedAttrList {
    uint64_t h;
    std::span<const NamedAttr> attrs;
    uint64_t hash() const { return h; }
  };

  /// What the parents hold for `h` in their `table`, the nearest first;
  /// read without their locks (nothing writes them while this reads).
  template <class T, class Eq>
  const T* findInParents(ShardedTable<T> Context::*table, uint64_t h, Eq&& eq) const {
    for (const Context* up = parent_; up; up = up->parent_)
      if (const T* found = (up->*table).find(h, eq)) return found;
    return nullptr;
  }

  const Context* parent_ = nullptr;
  std::shared_ptr<const Context> parentOwner_;  // when the parent's owner was given: it outlives this
  Arena arena_;
  // Concurrent interning: each shard's lock guards its part of a table. A
  // type, attribute or list shard's may be held while taking a string
  // shard's, never the reverse, and no two of one table's at once.
  // scalarsLock_ guards scalars_, meshesLock_ meshes_ (taken inside an
  // attribute shard's).
  bool concurrent_ = false;
  SpinLock scalarsLock_;
  SpinLock meshesLock_;
  std::vector<const ProcessMesh*> meshes_;  // interned here, in the order made
  std::mutex workersMutex_;
  std::vector<std::unique_ptr<Arena>> workerArenas_;
  std::shared_ptr<SlabPool> workerSlabs_;  // worker arenas' slabs: none faulted in ahead
  static inline thread_local Context* tlsContext_ = nullptr;
  static inline thread_local Arena* tlsArena_ = nullptr;
  ShardedTable<InternedString> strings_;
  ShardedTable<InternedAttrList> attrLists_;
  ShardedTable<Type> types_;
  ShardedTable<Attribute> attrs_;
  const ScalarType* scalars_[32] = {};
  const NullType* nullType_;
  const BoolAttr* true_;
  const BoolAttr* false_;
  const NullAttr* null_;
  const NullAttr* nullSpelled_;
  uint32_t walkEpoch_ = 0;
};

/// The element types of a type: itself, or a vector's elements.
bool typesEqual(const Type* a, const Type* b);

}  // namespace pir::core
