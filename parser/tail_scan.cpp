//===- tail_scan.cpp - an op line's end, strings and hash in one pass -----===//
//
// The fast path reads ~450 bytes of tail per op, so finding the line's end
// and hashing it are most of its work. One loop does both, a vector of
// bytes at a time: it looks for `"`, `\n` and NUL, and mixes each block it
// passes into the hash. Blocks start where each run of bytes outside the
// strings starts, so equal runs hash alike wherever they sit. The AVX2 loop
// (32 bytes a step) is used where the CPU has it; the SSE2 one (16 bytes)
// elsewhere; each hashes its own way, which is fine: a hash lives only as
// long as the process that made it.
//
//===----------------------------------------------------------------------===//
#include <immintrin.h>

#include <cstring>

#include "parser/scan.h"
#include "parser/tail_memo.h"

namespace pir::parser {

namespace {

constexpr size_t kMaxHoles = 32;
constexpr size_t kMaxTail = size_t{1} << 20;
constexpr uint64_t kMul = 0xff51afd7ed558ccdull;

inline uint64_t mix(uint64_t h, uint64_t w) {
  h = (h ^ w) * kMul;
  return h ^ (h >> 32);
}

/// Bytes 0..k-1 of a block kept, the rest zeroed: `kKeep + 32 - k`.
alignas(64) constexpr unsigned char kKeep[64] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                                 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                                 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

/// The string starting after the quote at `open - 1`: the closing quote,
/// or null where the reader might read the line otherwise (see scanTail).
const char* closingQuote(const char* p, const char* limit) {
  for (;; p += 2) {
    p = findFirstOf(p, limit, '"', '\\', '\n', '\0');
    if (p != limit && *p == '"') return p;
    if (p == limit || *p != '\\' || p + 1 == limit || p[1] == '\n' || p[1] == '\0') return nullptr;
  }
}

/// The loop, for one block width: Ops loads a block, finds the bytes
/// looked for in it, and mixes it into the hash.
template <class Ops>
[[gnu::always_inline]] inline bool scanWith(const char* begin, const char* limit, TailScan& out) {
  constexpr size_t W = Ops::kWidth;
  out.begin = begin;
  out.holes.clear();
  const char* textEnd = limit;
  if (static_cast<size_t>(limit - begin) > kMaxTail) limit = begin + kMaxTail;
  typename Ops::Hash h;
  Ops::start(h);
  uint64_t done = 0x84222325cbf29ce4ull;  // the runs hashed so far
  const char* p = begin;
  while (true) {
    alignas(32) char buf[W];
    const char* block = p;
    size_t valid = W;
    if (static_cast<size_t>(limit - p) < W) {  // never load past the text
      valid = static_cast<size_t>(limit - p);
      std::memset(buf, 0, W);
      std::memcpy(buf, p, valid);
      block = buf;
    }
    typename Ops::Block x;
    Ops::load(x, block);
    uint32_t special = Ops::special(x) & (valid == W ? ~0u : (1u << valid) - 1);
    if (!special) {
      if (valid == W) {
        Ops::mixBlock(h, x);
        p += W;
        continue;
      }
      // The text ends on this line (or the line is too long).
      if (limit != textEnd) return false;
      Ops::mixBlock(h, x);
      out.end = limit;
      out.hash = mix(Ops::finish(h, done), valid);
      return true;
    }
    unsigned k = static_cast<unsigned>(__builtin_ctz(special));
    Ops::mixFirst(h, x, k);
    const char* at = p + k;
    if (*at == '\n') {
      out.end = at;
      out.hash = mix(Ops::finish(h, done), k);
      return true;
    }
    if (*at == '\0' || out.holes.size() == kMaxHoles) return false;
    const char* close = closingQuote(at + 1, limit);
    if (!close) return false;
    out.holes.emplace_back(at + 1, close);
    done = mix(Ops::finish(h, done), k);
    Ops::start(h);
    p = close + 1;
  }
}

struct Sse2 {
  static constexpr size_t kWidth = 16;
  struct Hash {
    uint64_t a, b;
  };
  using Block = __m128i;
  static void start(Hash& h) { h = {0x9e3779b97f4a7c15ull, 0xc2b2ae3d27d4eb4full}; }
  static void load(Block& x, const char* p) { x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
  static uint32_t special(const Block& x) {
    __m128i hit =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')), _mm_cmpeq_epi8(x, _mm_set1_epi8('\n'))),
                     _mm_cmpeq_epi8(x, _mm_setzero_si128()));
    return static_cast<uint32_t>(_mm_movemask_epi8(hit));
  }
  static void mixBlock(Hash& h, const Block& x) {
    uint64_t lo = static_cast<uint64_t>(_mm_cvtsi128_si64(x));
    uint64_t hi = static_cast<uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(x, x)));
    h = {mix(h.a, lo), mix(h.b, hi)};
  }
  /// Mixes bytes 0..k-1 of the block in, the rest as zeros.
  static void mixFirst(Hash& h, const Block& x, unsigned k) {
    mixBlock(h, _mm_and_si128(x, _mm_loadu_si128(reinterpret_cast<const __m128i*>(kKeep + 32 - k))));
  }
  static uint64_t finish(const Hash& h, uint64_t done) { return mix(mix(done, h.a), h.b); }
};

// Compiled for AVX2 function by function (the `target` attribute, which
// GCC and clang both take; clang has no `#pragma GCC target`), whatever the
// build targets. Vectors go by reference: scanWith<Avx2> is not compiled
// for AVX2 until it is inlined, and clang refuses AVX vectors passed by
// value there.
struct Avx2 {
  static constexpr size_t kWidth = 32;
  using Hash = __m256i;
  using Block = __m256i;
  [[gnu::target("avx2")]] static void start(Hash& h) {
    h = _mm256_set_epi64x(0x9e3779b97f4a7c15ll, 0xc2b2ae3d27d4eb4fll, 0x165667b19e3779f9ll, 0x27d4eb2f165667c5ll);
  }
  [[gnu::target("avx2")]] static void load(Block& x, const char* p) {
    x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  }
  [[gnu::target("avx2")]] static uint32_t special(const Block& x) {
    __m256i hit = _mm256_or_si256(
        _mm256_or_si256(_mm256_cmpeq_epi8(x, _mm256_set1_epi8('"')), _mm256_cmpeq_epi8(x, _mm256_set1_epi8('\n'))),
        _mm256_cmpeq_epi8(x, _mm256_setzero_si256()));
    return static_cast<uint32_t>(_mm256_movemask_epi8(hit));
  }
  // Each 64-bit lane: both 32-bit halves multiplied into it, so every bit
  // of the block moves the lane's high bits.
  [[gnu::target("avx2")]] static void mixBlock(Hash& h, const Block& x) {
    __m256i t = _mm256_xor_si256(h, x);
    __m256i lo = _mm256_mul_epu32(t, _mm256_set1_epi64x(0x9fb21c651e98df25ll));
    __m256i hi = _mm256_mul_epu32(_mm256_srli_epi64(t, 32), _mm256_set1_epi64x(0xc4ceb9fe1a85ec53ll));
    __m256i m = _mm256_add_epi64(lo, hi);
    h = _mm256_xor_si256(m, _mm256_srli_epi64(m, 29));
  }
  [[gnu::target("avx2")]] static void mixFirst(Hash& h, const Block& x, unsigned k) {
    mixBlock(h, _mm256_and_si256(x, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(kKeep + 32 - k))));
  }
  [[gnu::target("avx2")]] static uint64_t finish(const Hash& h, uint64_t done) {
    alignas(32) uint64_t lanes[4];
    _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), h);
    return mix(mix(mix(mix(done, lanes[0]), lanes[1]), lanes[2]), lanes[3]);
  }
};

[[gnu::flatten, gnu::target("avx2")]] bool scanAvx2(const char* begin, const char* limit, TailScan& out) {
  return scanWith<Avx2>(begin, limit, out);
}

[[gnu::flatten]] bool scanSse2(const char* begin, const char* limit, TailScan& out) {
  return scanWith<Sse2>(begin, limit, out);
}

using ScanFn = bool (*)(const char*, const char*, TailScan&);

ScanFn pickScan() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") ? scanAvx2 : scanSse2;
}

}  // namespace

bool scanTailSse2(const char* begin, const char* limit, TailScan& out) { return scanSse2(begin, limit, out); }

bool scanTail(const char* begin, const char* limit, TailScan& out) {
  static const ScanFn scan = pickScan();
  return scan(begin, limit, out);
}

}  // namespace pir::parser
