//===- dist_locate.cpp - finding an op_dist_attr entry in the text --------===//
//
// A byte scanner over one op line that knows only what it must: strings,
// balanced brackets, identifiers, and how the reader splits the elements of
// a list entry (parser_dist.cpp: `null` and `<#AttrNull>` are elements of
// their own, and a repeated `mesh_shape`, `dims_maping` or `mesh` starts the
// next element).
//
//===----------------------------------------------------------------------===//
#include "core/dist_locate.h"

namespace pir::core {

namespace {

bool identStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool identChar(char c) { return identStart(c) || (c >= '0' && c <= '9') || c == '.'; }
bool opener(char c) { return c == '(' || c == '{' || c == '['; }
bool closer(char c) { return c == ')' || c == '}' || c == ']'; }

class Scanner {
 public:
  Scanner(std::string_view text, size_t from) : text_(text) {
    size_t nl = text.find('\n', from);
    end_ = nl == std::string_view::npos ? text.size() : nl;
  }

  char at(size_t p) const { return p < end_ ? text_[p] : '\n'; }
  size_t end() const { return end_; }

  size_t skipSpaces(size_t p) const {
    while (p < end_ && (text_[p] == ' ' || text_[p] == '\t')) ++p;
    return p;
  }
  std::string_view ident(size_t p) const {
    size_t q = p;
    if (!identStart(at(q))) return {};
    while (identChar(at(q))) ++q;
    return text_.substr(p, q - p);
  }
  size_t skipString(size_t p) const {  // p at the opening quote
    for (++p; p < end_; ++p) {
      if (text_[p] == '\\')
        ++p;
      else if (text_[p] == '"')
        return p + 1;
    }
    return end_;
  }
  /// Past the bracket that closes the one at `p`.
  size_t skipGroup(size_t p) const {
    int depth = 0;
    while (p < end_) {
      char c = text_[p];
      if (c == '"') {
        p = skipString(p);
        continue;
      }
      if (opener(c)) ++depth;
      if (closer(c) && --depth == 0) return p + 1;
      ++p;
    }
    return end_;
  }
  /// Past the comma ending the field at `p`, or at the closer ending the list.
  size_t skipField(size_t p) const {
    while (p < end_) {
      char c = text_[p];
      if (c == '"')
        p = skipString(p);
      else if (opener(c))
        p = skipGroup(p);
      else if (c == ',')
        return p + 1;
      else if (closer(c))
        return p;
      else
        ++p;
    }
    return end_;
  }
  /// The `op_dist_attr:{` key's `{` from `p` on, or npos.
  size_t findOpDistAttr(size_t p) const {
    while (p < end_) {
      char c = text_[p];
      if (c == '"') {
        p = skipString(p);
      } else if (identStart(c) && (p == 0 || !identChar(text_[p - 1]))) {
        std::string_view w = ident(p);
        p += w.size();
        if (w == "op_dist_attr" && at(p) == ':' && at(p + 1) == '{') return p + 1;
      } else {
        ++p;
      }
    }
    return std::string_view::npos;
  }

 private:
  std::string_view text_;
  size_t end_;
};

/// The `item`-th element of the list at `p` (`[..]` or `(..)`), or -1.
int64_t listItem(const Scanner& s, size_t p, int64_t item) {
  if (s.at(p) != '[' && s.at(p) != '(') return -1;
  ++p;
  for (int64_t k = 0; p < s.end(); ++k) {
    p = s.skipSpaces(p);
    if (closer(s.at(p))) return -1;
    if (k == item) return static_cast<int64_t>(p);
    p = s.skipField(p);
  }
  return -1;
}

/// Finds `ref`'s part in the entry value at `p` (after `operand(i):{`).
int64_t locateInEntry(const Scanner& s, size_t p, size_t key, const DistEntryRef& ref) {
  if (ref.part == DistPart::Entry && ref.element < 0) return static_cast<int64_t>(key);
  bool list = s.at(p) == '[';
  if (list != (ref.element >= 0)) return -1;
  if (list) ++p;
  int64_t element = 0, partials = 0;
  bool seenShape = false, seenDims = false, seenMesh = false, first = true, afterNull = false;
  while (p < s.end()) {
    p = s.skipSpaces(p);
    size_t field = p;
    if (closer(s.at(p))) return -1;
    std::string_view f = s.at(p) == '<' ? std::string_view("<") : s.ident(p);
    // The reader's rule for where the next element of a list starts.
    if (list && !first &&
        (afterNull || f == "null" || f == "<" || (f == "mesh_shape" && seenShape) || (f == "dims_maping" && seenDims) ||
         (f == "mesh" && seenMesh))) {
      ++element;
      seenShape = seenDims = seenMesh = false;
      partials = 0;
    }
    first = false;
    afterNull = f == "null" || f == "<";  // a null is a whole element
    seenShape |= f == "mesh_shape";
    seenDims |= f == "dims_maping" || f == "dims_mappings";
    seenMesh |= f == "mesh";
    if (element == (list ? ref.element : 0)) {
      size_t value = s.skipSpaces(field + f.size() + 1);  // past `:`
      switch (ref.part) {
        case DistPart::Entry:
          return static_cast<int64_t>(field);
        case DistPart::Mesh:
          if (f == "mesh_shape" || f == "process_ids" || f == "mesh") return static_cast<int64_t>(field);
          break;
        case DistPart::DimsMapping:
          if (f == "dims_maping" || f == "dims_mappings")
            return ref.item < 0 ? static_cast<int64_t>(field) : listItem(s, value, ref.item);
          break;
        case DistPart::Partial:
          if (f == "partial" && partials++ == (ref.item < 0 ? 0 : ref.item)) return static_cast<int64_t>(field);
          break;
      }
    } else if (element > ref.element && list) {
      return -1;
    }
    p = s.skipField(p + (f.empty() ? 1 : 0));
  }
  return -1;
}

}  // namespace

int64_t locateDistEntry(std::string_view text, int64_t opOffset, const DistEntryRef& ref) {
  if (opOffset < 0 || static_cast<uint64_t>(opOffset) >= text.size()) return -1;
  Scanner s(text, static_cast<size_t>(opOffset));
  size_t p = s.findOpDistAttr(static_cast<size_t>(opOffset));
  if (p == std::string_view::npos) return -1;
  std::string_view kind = ref.result ? "result" : "operand";
  for (++p; p < s.end();) {
    p = s.skipSpaces(p);
    if (closer(s.at(p))) return -1;
    size_t key = p;
    std::string_view f = s.ident(p);
    if (ref.index < 0 && f == "mesh") return static_cast<int64_t>(key);
    if (ref.index >= 0 && f == kind && s.at(p + f.size()) == '(') {
      size_t q = p + f.size() + 1;
      int64_t n = 0;
      bool digits = false;
      for (; s.at(q) >= '0' && s.at(q) <= '9' && n < (int64_t{1} << 40); ++q, digits = true)
        n = n * 10 + (s.at(q) - '0');
      if (digits && n == ref.index && s.at(q) == ')' && s.at(q + 1) == ':' && s.at(q + 2) == '{')
        return locateInEntry(s, s.skipSpaces(q + 3), key, ref);
    }
    p = s.skipField(p + (f.empty() ? 1 : 0));
  }
  return -1;
}

int64_t locateOperand(std::string_view text, int64_t opOffset, uint32_t operand) {
  if (opOffset < 0 || static_cast<uint64_t>(opOffset) >= text.size()) return -1;
  Scanner s(text, static_cast<size_t>(opOffset));
  size_t p = static_cast<size_t>(opOffset);
  if (s.at(p) == '(') p = s.skipSpaces(s.skipGroup(p));  // the results
  if (s.at(p) != '=') return -1;
  p = s.skipSpaces(p + 1);
  p = s.at(p) == '"' ? s.skipString(p) : p + s.ident(p).size();
  return listItem(s, s.skipSpaces(p), operand);
}

}  // namespace pir::core
