//===- scan.h - finding the next special byte fast --------------*- C++ -*-===//
//
// The parser's caches key on the text of a type or an attribute dictionary,
// so it first finds where that text ends; scanning 16 bytes at a time keeps
// that from costing as much as the parse it saves.
//
//===----------------------------------------------------------------------===//
#pragma once

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace pir::parser {

/// The first byte in [p, end) equal to `a`, `b`, `c` or `d`, or `end`.
inline const char* findFirstOf(const char* p, const char* end, char a, char b, char c, char d) {
#if defined(__SSE2__)
  const __m128i va = _mm_set1_epi8(a), vb = _mm_set1_epi8(b), vc = _mm_set1_epi8(c), vd = _mm_set1_epi8(d);
  for (; end - p >= 16; p += 16) {  // loads stay inside [p, end)
    __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, va), _mm_cmpeq_epi8(x, vb)),
                               _mm_or_si128(_mm_cmpeq_epi8(x, vc), _mm_cmpeq_epi8(x, vd)));
    if (int bits = _mm_movemask_epi8(hit)) return p + __builtin_ctz(static_cast<unsigned>(bits));
  }
#endif
  for (; p < end; ++p)
    if (*p == a || *p == b || *p == c || *p == d) return p;
  return end;
}

}  // namespace pir::parser
