//===- context.cpp - uniquing of strings, types and attributes ------------===//
#include "core/context.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>
#include <utility>

namespace pir::core {

namespace {
template <class T>
bool spanEq(std::span<const T> a, std::span<const T> b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end());
}
uint64_t seedFor(unsigned kind) { return 0x51ed2701u * (kind + 1); }

/// Holds `m` when `on` (a Context::Concurrent scope is open).
class MaybeLock {
 public:
  MaybeLock(SpinLock& m, bool on) : m_(on ? &m : nullptr) {
    if (m_) m_->lock();
  }
  ~MaybeLock() {
    if (m_) m_->unlock();
  }
  MaybeLock(const MaybeLock&) = delete;
  MaybeLock& operator=(const MaybeLock&) = delete;

 private:
  SpinLock* m_;
};
}  // namespace

Context::Worker::Worker(Context& ctx) : savedContext_(tlsContext_), savedArena_(tlsArena_) {
  std::lock_guard<std::mutex> lock(ctx.workersMutex_);
  if (!ctx.workerSlabs_) ctx.workerSlabs_ = std::make_shared<SlabPool>();
  ctx.workerArenas_.push_back(std::make_unique<Arena>(ctx.workerSlabs_));
  tlsContext_ = &ctx;
  tlsArena_ = ctx.workerArenas_.back().get();
}

Context::Worker::~Worker() {
  tlsContext_ = savedContext_;
  tlsArena_ = savedArena_;
}

Context::Context() : Context(nullptr, nullptr) {}

Context::Context(std::shared_ptr<SlabPool> pool) : Context(nullptr, std::move(pool)) {}

Context::Context(const Context* parent, std::shared_ptr<SlabPool> pool, std::shared_ptr<const Context> owner)
    : parent_(parent), parentOwner_(std::move(owner)), arena_(std::move(pool)) {
  if (parent_) {
    // The parent's singletons, so that IR copied from it by pointer
    // compares equal to what is made here.
    nullType_ = parent_->nullType_;
    true_ = parent_->true_;
    false_ = parent_->false_;
    null_ = parent_->null_;
    nullSpelled_ = parent_->nullSpelled_;
    std::copy(std::begin(parent_->scalars_), std::end(parent_->scalars_), std::begin(scalars_));
    return;
  }
  nullType_ = arena_.make<NullType>(seedFor(100));
  true_ = arena_.make<BoolAttr>(seedFor(1), true);
  false_ = arena_.make<BoolAttr>(seedFor(2), false);
  null_ = arena_.make<NullAttr>(seedFor(3), false);
  nullSpelled_ = arena_.make<NullAttr>(seedFor(4), true);
  // Made up front, so that threads reading types never make one.
  for (unsigned d = 0; d <= static_cast<unsigned>(DataType::Undefined); ++d) scalarType(static_cast<DataType>(d));
}

std::string_view Context::intern(std::string_view s) { return intern(s, hashString(s)); }

bool Context::hasInterned(std::string_view s) {
  uint64_t h = hashString(s);
  auto same = [&](const InternedString* e) { return e->s == s; };
  if (findInParents(&Context::strings_, h, same)) return true;
  MaybeLock lock(strings_.lockFor(h), concurrent_);
  return strings_.find(h, same) != nullptr;
}

std::string_view Context::intern(std::string_view s, uint64_t h) {
  auto same = [&](const InternedString* e) { return e->s == s; };
  MaybeLock lock(strings_.lockFor(h), concurrent_);
  if (const InternedString* found = strings_.find(h, same)) return found->s;
  if (const InternedString* found = findInParents(&Context::strings_, h, same)) return found->s;
  Arena& arena = this->arena();
  auto* e = arena.make<InternedString>(InternedString{h, arena.copy(s)});
  strings_.insert(e);
  return e->s;
}

std::span<const NamedAttr> Context::attrList(std::span<const NamedAttr> attrs) {
  if (attrs.empty()) return {};
  // Keys are interned and attributes uniqued: pointers identify them.
  uint64_t h = attrs.size();
  for (const NamedAttr& a : attrs) {
    h = hashMix(h, reinterpret_cast<uintptr_t>(a.key.data()) ^ (uint64_t{a.key.size()} << 48));
    h = hashMix(h, reinterpret_cast<uintptr_t>(a.value));
  }
  auto same = [&](const InternedAttrList* e) {
    if (e->attrs.size() != attrs.size()) return false;
    for (size_t i = 0; i < attrs.size(); ++i)
      if (e->attrs[i].key.data() != attrs[i].key.data() || e->attrs[i].key.size() != attrs[i].key.size() ||
          e->attrs[i].value != attrs[i].value)
        return false;
    return true;
  };
  MaybeLock lock(attrLists_.lockFor(h), concurrent_);
  if (const InternedAttrList* found = attrLists_.find(h, same)) return found->attrs;
  if (const InternedAttrList* found = findInParents(&Context::attrLists_, h, same)) return found->attrs;
  Arena& arena = this->arena();
  auto* e = arena.make<InternedAttrList>(InternedAttrList{h, arena.copy(attrs)});
  attrLists_.insert(e);
  return e->attrs;
}

// Uniques an object of type T: `eq` compares a candidate of kind T::kKind
// with the key, `make` allocates a new one with the given hash.
#define PIR_UNIQUE(table, T, h, eqExpr, makeExpr)                                                 \
  do {                                                                                            \
    MaybeLock lock(table.lockFor(h), concurrent_);                                                \
    Arena& objArena = this->arena();                                                              \
    (void)objArena;                                                                               \
    auto eq = [&](const auto* base) {                                                             \
      if (base->kind() != T::kKind) return false;                                                 \
      const T* e = static_cast<const T*>(base);                                                   \
      (void)e;                                                                                    \
      return (eqExpr);                                                                            \
    };                                                                                            \
    if (auto* found = table.find(h, eq)) return static_cast<const T*>(found);                     \
    if (auto* found = findInParents(&Context::table, h, eq)) return static_cast<const T*>(found); \
    const T* created = (makeExpr);                                                                \
    table.insert(created);                                                                        \
    return created;                                                                               \
  } while (0)

const ScalarType* Context::scalarType(DataType dtype) {
  auto& slot = scalars_[static_cast<unsigned>(dtype)];
  if (slot) return slot;
  MaybeLock lock(scalarsLock_, concurrent_);
  if (!slot) slot = arena_.make<ScalarType>(hashMix(seedFor(101), static_cast<uint64_t>(dtype)), dtype);
  return slot;
}

const DenseTensorType* Context::denseTensorType(std::string_view spelling, DataType dtype,
                                                std::span<const int64_t> dims) {
  uint64_t h = hashSpan(dims, hashMix(hashString(spelling, seedFor(102)), static_cast<uint64_t>(dtype)));
  PIR_UNIQUE(types_, DenseTensorType, h, e->spelling() == spelling && e->dtype() == dtype && spanEq(e->dims(), dims),
             objArena.make<DenseTensorType>(h, intern(spelling), dtype, objArena.copy(dims)));
}

const DistTensorType* Context::distTensorType(DataType dtype, std::span<const int64_t> dims,
                                              const TensorDistAttr* dist) {
  uint64_t h = hashSpan(dims, hashMix(hashMix(seedFor(103), static_cast<uint64_t>(dtype)), dist->hash()));
  PIR_UNIQUE(types_, DistTensorType, h, e->dtype() == dtype && e->distAttr() == dist && spanEq(e->dims(), dims),
             objArena.make<DistTensorType>(h, dtype, objArena.copy(dims), dist));
}

const VectorType* Context::vectorType(std::span<const Type* const> elems) {
  uint64_t h = hashSpan(elems, seedFor(104));
  PIR_UNIQUE(types_, VectorType, h, spanEq(e->elements(), elems), objArena.make<VectorType>(h, objArena.copy(elems)));
}

const OpaqueType* Context::opaqueType(std::string_view text) {
  uint64_t h = hashString(text, seedFor(105));
  PIR_UNIQUE(types_, OpaqueType, h, e->text() == text, objArena.make<OpaqueType>(h, intern(text)));
}

uint64_t Context::stringAttrHash(std::string_view raw) { return hashString(raw, seedFor(10)); }

const StringAttr* Context::stringAttr(std::string_view raw) {
  bool made = false;
  return stringAttr(raw, made);
}

const StringAttr* Context::stringAttr(std::string_view raw, bool& made) {
  made = false;
  uint64_t h = stringAttrHash(raw);
  PIR_UNIQUE(attrs_, StringAttr, h, e->raw() == raw, (made = true, objArena.make<StringAttr>(h, intern(raw))));
}

const StringAttr* Context::stringAttr(std::string_view raw, uint64_t h, uint64_t textHash) {
  PIR_UNIQUE(attrs_, StringAttr, h, e->raw() == raw, objArena.make<StringAttr>(h, intern(raw, textHash)));
}

size_t Context::stringAttrs(std::span<const std::string_view> raws, std::span<const StringAttr*> out) {
  size_t stringsBefore = strings_.size();
  // Both hashes, for the attribute table and the string table.
  std::vector<uint64_t> attrHashes(raws.size()), textHashes(raws.size());
  for (size_t i = 0; i < raws.size(); ++i) {
    attrHashes[i] = stringAttrHash(raws[i]);
    textHashes[i] = hashString(raws[i]);
  }
  attrs_.reserveFor(attrHashes, concurrent_);
  strings_.reserveFor(textHashes, concurrent_);
  constexpr size_t kAhead = 8;
  for (size_t i = 0; i < raws.size(); ++i) {
    if (i + kAhead < raws.size()) {
      attrs_.prefetch(attrHashes[i + kAhead]);
      strings_.prefetch(textHashes[i + kAhead]);
    }
    out[i] = stringAttr(raws[i], attrHashes[i], textHashes[i]);
  }
  return strings_.size() - stringsBefore;
}

const StringAttr* Context::stringAttrFromValue(std::string_view value) {
  if (value.find_first_of("\"\\") == std::string_view::npos) return stringAttr(value);
  std::string raw;
  raw.reserve(value.size());
  for (char c : value) {
    if (c == '"' || c == '\\') raw += '\\';
    raw += c;
  }
  return stringAttr(raw);
}

const NumberAttr* Context::numberAttr(std::string_view tag, std::string_view text) {
  uint64_t h = hashString(text, hashString(tag, seedFor(11)));
  PIR_UNIQUE(attrs_, NumberAttr, h, e->tag() == tag && e->text() == text,
             objArena.make<NumberAttr>(h, intern(tag), intern(text)));
}

const ArrayAttr* Context::arrayAttr(std::span<const Attribute* const> elems, bool arrayPrefix) {
  uint64_t h = hashSpan(elems, hashMix(seedFor(12), arrayPrefix));
  PIR_UNIQUE(attrs_, ArrayAttr, h, e->hasArrayPrefix() == arrayPrefix && spanEq(e->elements(), elems),
             objArena.make<ArrayAttr>(h, objArena.copy(elems), arrayPrefix));
}

const TaggedAttr* Context::taggedAttr(std::string_view tag, const Attribute* inner) {
  uint64_t h = hashMix(hashString(tag, seedFor(13)), inner->hash());
  PIR_UNIQUE(attrs_, TaggedAttr, h, e->tag() == tag && e->inner() == inner,
             objArena.make<TaggedAttr>(h, intern(tag), inner));
}

const SymbolAttr* Context::symbolAttr(std::string_view text) {
  uint64_t h = hashString(text, seedFor(14));
  PIR_UNIQUE(attrs_, SymbolAttr, h, e->text() == text, objArena.make<SymbolAttr>(h, intern(text)));
}

const OpaqueAttr* Context::opaqueAttr(std::string_view text) {
  uint64_t h = hashString(text, seedFor(15));
  PIR_UNIQUE(attrs_, OpaqueAttr, h, e->text() == text, objArena.make<OpaqueAttr>(h, intern(text)));
}

const TypeAttr* Context::typeAttr(const Type* type) {
  uint64_t h = hashMix(seedFor(16), type->hash());
  PIR_UNIQUE(attrs_, TypeAttr, h, e->type() == type, objArena.make<TypeAttr>(h, type));
}

const ProcessMesh* Context::processMesh(std::span<const int64_t> shape, std::span<const int64_t> ids,
                                        std::span<const std::string_view> dimNames) {
  uint64_t h = hashSpan(ids, hashSpan(shape, seedFor(20)));
  for (std::string_view n : dimNames) h = hashString(n, h);
  auto namesEq = [&](std::span<const std::string_view> a) {
    return std::equal(a.begin(), a.end(), dimNames.begin(), dimNames.end());
  };
  PIR_UNIQUE(attrs_, ProcessMesh, h,
             spanEq(e->shape(), shape) && spanEq(e->processIds(), ids) && namesEq(e->dimNames()), ([&] {
               std::vector<std::string_view> names;
               for (std::string_view n : dimNames) names.push_back(intern(n));
               const ProcessMesh* made =
                   objArena.make<ProcessMesh>(h, objArena.copy(shape), objArena.copy(ids),
                                              objArena.copy(std::span<const std::string_view>(names)));
               MaybeLock listed(meshesLock_, concurrent_);
               meshes_.push_back(made);
               return made;
             }()));
}

std::vector<const ProcessMesh*> Context::processMeshes() const {
  std::vector<const ProcessMesh*> all;
  for (const Context* c = this; c; c = c->parent_) all.insert(all.end(), c->meshes_.begin(), c->meshes_.end());
  return all;
}

const PlacementsAttr* Context::placementsAttr(std::span<const Placement> placements) {
  uint64_t h = seedFor(21);
  for (const Placement& p : placements) {
    h = hashMix(h, static_cast<uint64_t>(p.kind) * 131 + static_cast<uint64_t>(p.reduce));
    h = hashMix(h, static_cast<uint64_t>(p.dim));
    h = hashMix(h, static_cast<uint64_t>(p.splitFactor));
  }
  PIR_UNIQUE(attrs_, PlacementsAttr, h, spanEq(e->placements(), placements),
             objArena.make<PlacementsAttr>(h, objArena.copy(placements)));
}

const TensorDistAttr* Context::tensorDistAttr(const ProcessMesh* mesh, std::span<const int64_t> dimsMapping,
                                              std::span<const PartialEntry> partial, const PlacementsAttr* placements) {
  uint64_t h = hashSpan(dimsMapping, hashMix(seedFor(22), mesh->hash()));
  for (const PartialEntry& p : partial)
    h = hashMix(h, static_cast<uint64_t>(p.meshDim) * 8 + static_cast<uint64_t>(p.reduce));
  h = hashMix(h, placements ? placements->hash() : 0);
  auto lookup = [&]() -> const TensorDistAttr* {
    PIR_UNIQUE(attrs_, TensorDistAttr, h,
               e->mesh() == mesh && e->placements() == placements && spanEq(e->dimsMapping(), dimsMapping) &&
                   spanEq(e->partial(), partial),
               objArena.make<TensorDistAttr>(h, mesh, objArena.copy(dimsMapping), objArena.copy(partial), placements));
  };
  const TensorDistAttr* attr = lookup();
  auto byDim = [](const PartialEntry& a, const PartialEntry& b) { return a.meshDim < b.meshDim; };
  if (!std::is_sorted(partial.begin(), partial.end(), byDim)) {
    if (attr->canonical_.load(std::memory_order_acquire)) return attr;
    std::vector<PartialEntry> sorted(partial.begin(), partial.end());
    std::sort(sorted.begin(), sorted.end(), byDim);
    // Two threads may both get here: both store the same interned attr.
    const TensorDistAttr* canonical = tensorDistAttr(mesh, dimsMapping, sorted, placements);
    attr->canonical_.store(canonical, std::memory_order_release);
  }
  return attr;
}

const OpDistAttr* Context::opDistAttr(const ProcessMesh* mesh, std::span<const Attribute* const> operands,
                                      std::span<const Attribute* const> results, int64_t chunkId, bool hasChunkId) {
  uint64_t h = hashSpan(results, hashSpan(operands, hashMix(seedFor(23), mesh->hash())));
  h = hashMix(hashMix(h, static_cast<uint64_t>(chunkId)), hasChunkId);
  PIR_UNIQUE(attrs_, OpDistAttr, h,
             e->mesh() == mesh && e->chunkId() == chunkId && e->hasChunkId() == hasChunkId &&
                 spanEq(e->operands(), operands) && spanEq(e->results(), results),
             objArena.make<OpDistAttr>(h, mesh, objArena.copy(operands), objArena.copy(results), chunkId, hasChunkId));
}

#undef PIR_UNIQUE

bool typesEqual(const Type* a, const Type* b) {
  if (a == b) return true;
  if (!a || !b || a->kind() != b->kind()) return false;
  if (auto* da = a->dynCast<DistTensorType>()) {
    auto* db = b->dynCast<DistTensorType>();
    return da->dtype() == db->dtype() && spanEq(da->dims(), db->dims()) && sameDistAttr(da->distAttr(), db->distAttr());
  }
  if (auto* va = a->dynCast<VectorType>()) {
    auto ea = va->elements(), eb = b->dynCast<VectorType>()->elements();
    if (ea.size() != eb.size()) return false;
    for (size_t i = 0; i < ea.size(); ++i)
      if (!typesEqual(ea[i], eb[i])) return false;
    return true;
  }
  return false;
}

}  // namespace pir::core
