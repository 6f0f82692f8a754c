//===- parser_fast.cpp - ordinary op lines, read from the tail memo -------===//
//
// Nearly every line of a dump is `(%5) = "pd_op.add" (%3, %4) {...} : (...)
// -> ...`, with the dictionary and types of many other lines. The fast path
// reads the head of such a line byte by byte, and takes the rest from the
// tail memo (parser/tail_memo.h): one scan for the line's end, one hash, one
// compare, instead of lexing and looking up every type and attribute. It
// reads only what it is sure the general path reads the same way; on
// anything else it consumes nothing and the general path reads the op (and
// teaches the memo the tail, if it may).
//
//===----------------------------------------------------------------------===//
#include <charconv>
#include <cstring>

#include "core/bytes_equal.h"
#include "core/prefetch.h"
#include "parser/parser_impl.h"

namespace pir::parser {

namespace {

constexpr std::string_view kNullValue = "<<NULL VALUE>>";

/// `%` and a value name; the end of it, or null. A name's digits (most
/// are `%N`) are skipped eight bytes at a time, to the lowest byte flagged
/// as no digit.
const char* scanValueId(const char* p, const char* end) {
  if (p == end || *p != '%') return nullptr;
  const char* start = p++;
  for (; end - p >= 8; p += 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    if (uint64_t other = nonDigitBytes(w)) {
      p += __builtin_ctzll(other) >> 3;
      break;
    }
  }
  while (p < end && isValueIdChar(*p)) ++p;
  return p == start + 1 ? nullptr : p;
}

/// The first `"`, backslash, newline or NUL from `p` on, or `end`: eight bytes
/// at a time (a byte at a time was 3% of a read, on names of 10-25 bytes).
/// The lowest byte flagged is a real one: a false flag only ever sits above
/// a real one of its own test.
const char* nameEnd(const char* p, const char* end) {
  constexpr uint64_t kOnes = 0x0101010101010101, kHighs = 0x8080808080808080;
  auto zeroBytes = [](uint64_t v) { return (v - kOnes) & ~v & kHighs; };
  for (; end - p >= 8; p += 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    uint64_t hit =
        zeroBytes(w ^ (kOnes * '"')) | zeroBytes(w ^ (kOnes * '\\')) | zeroBytes(w ^ (kOnes * '\n')) | zeroBytes(w);
    if (hit) return p + (__builtin_ctzll(hit) >> 3);
  }
  while (p < end && *p != '"' && *p != '\\' && *p != '\n' && *p != '\0') ++p;
  return p;
}

bool startsWith(const char* p, const char* end, std::string_view s) {
  return static_cast<size_t>(end - p) >= s.size() && std::memcmp(p, s.data(), s.size()) == 0;
}

}  // namespace

std::string_view Parser::internOpName(std::string_view name) {
  // A name of eight bytes or more is hashed by its first and last eight
  // (hashText's loop and its calls to memcpy were 3% of a read).
  uint64_t h;
  if (name.size() >= 8) {
    uint64_t first, last;
    std::memcpy(&first, name.data(), 8);
    std::memcpy(&last, name.data() + name.size() - 8, 8);
    // A product's top bits depend on all of its factor's: the slot is taken from them.
    h = ((first * 0x9e3779b97f4a7c15ull) ^ (last * 0xff51afd7ed558ccdull) ^ (name.size() * 0xc2b2ae3d27d4eb4full)) >>
        56;
  } else {
    h = hashText(name);
  }
  OpName& slot = opNames_[h & 255];
  if (slot.size == name.size() && slot.data && core::bytesEqual(std::string_view(slot.data, slot.size), name))
    return slot.interned;
  slot = {name.data(), name.size(), ctx_.intern(name)};
  return slot.interned;
}

// head ::= `(` (value-id (`, ` value-id)*)? `) = "` name `"` (` [id:` digits `]`)?
//          ` (` (value-id (`, ` value-id)*)? `) ` tail
Parser::FastOp Parser::tryFastOp(Block& block) {
  tailAdmit_ = false;
  if (!options_.fastPath) return FastOp::Fallback;
  const char* p = tok_.text.data();
  const char* end = lex_.end();
  // Results.
  resultNames_.clear();
  ++p;
  if (p < end && *p != ')') {
    while (true) {
      const char* idEnd = scanValueId(p, end);
      if (!idEnd) return FastOp::Fallback;
      resultNames_.push_back(Token{TokenKind::ValueId, false, std::string_view(p, static_cast<size_t>(idEnd - p))});
      p = idEnd;
      if (p < end && *p == ')') break;
      if (!startsWith(p, end, ", ")) return FastOp::Fallback;
      p += 2;
    }
  }
  if (!startsWith(p, end, ") = \"")) return FastOp::Fallback;
  p += 5;
  // The name: bytes a string token holds as they are.
  const char* nameAt = p;
  p = nameEnd(p, end);
  if (p == end || *p != '"' || p == nameAt) return FastOp::Fallback;
  std::string_view name(nameAt, static_cast<size_t>(p - nameAt));
  ++p;
  int64_t debugId = -1;
  if (startsWith(p, end, " [id:")) {
    p += 5;
    const char* digits = p;
    while (p < end && isDigit(*p)) ++p;
    auto [q, ec] = std::from_chars(digits, p, debugId);
    if (p == digits || ec != std::errc() || q != p || !startsWith(p, end, "]")) return FastOp::Fallback;
    ++p;
  }
  // Operands: each must be defined already (no pending use, no block
  // argument made on its first use), so that looking them up changes nothing.
  if (!startsWith(p, end, " (")) return FastOp::Fallback;
  p += 2;
  operands_.clear();
  operandNames_.clear();
  tailHints_.clear();
  unresolved_.clear();
  if (p < end && *p != ')') {
    while (true) {
      if (startsWith(p, end, kNullValue)) {  // an optional operand left out
        operands_.push_back(nullptr);
        operandNames_.push_back(Token{TokenKind::NullValue, false, std::string_view(p, kNullValue.size())});
        tailHints_.push_back(nullptr);
        p += kNullValue.size();
      } else {
        const char* idEnd = scanValueId(p, end);
        if (!idEnd) return FastOp::Fallback;
        std::string_view id(p, static_cast<size_t>(idEnd - p));
        ValueEntry* e = lookupEntry(id, false);
        Value* v = e ? e->value : nullptr;
        if (!v) {
          // Not defined (yet, or in this chunk): noted as the general path
          // notes it, once the op is read. A `%arg_N` it would make here.
          if (id.starts_with("%arg_") && block.parentOp()) return FastOp::Fallback;
          unresolved_.push_back(static_cast<uint32_t>(operands_.size()));
        }
        operands_.push_back(v);
        if (v) prefetch(v);  // its type is read below, once all are found: their misses overlap
        operandNames_.push_back(Token{TokenKind::ValueId, false, id});
        tailHints_.push_back(nullptr);
        p = idEnd;
      }
      if (p < end && *p == ')') break;
      if (!startsWith(p, end, ", ")) return FastOp::Fallback;
      p += 2;
    }
  }
  // The mesh the general path reads each operand's type with (null: the op's).
  for (size_t i = 0; i < operands_.size(); ++i) {
    const Type* vt = operands_[i] ? operands_[i]->type() : nullptr;
    if (auto* vec = vt ? vt->dynCast<VectorType>() : nullptr; vec && !vec->elements().empty()) vt = vec->elements()[0];
    const TensorDistAttr* d = vt ? distAttrOf(vt) : nullptr;
    tailHints_[i] = d ? d->mesh() : nullptr;
  }
  if (!startsWith(p, end, ") {")) return FastOp::Fallback;
  p += 2;
  if (!scanTail(p, end, tailScan_)) return FastOp::Fallback;
  tailScan_.hash = TailMemo::hashHints(tailScan_.hash, tailHints_);
  TailParse tail;
  switch (tailMemo_.find(tailScan_, tailHints_, tail)) {
    case TailMemo::Found::Miss:
      return FastOp::Fallback;
    case TailMemo::Found::Admit:
      tailAdmit_ = true;
      return FastOp::Fallback;
    case TailMemo::Found::Hit:
      break;
  }
  // The general path reports these; and no nesting it does can reach the limit.
  if (tail.resultTypes.size() != resultNames_.size() || depth_ + 1 + tail.depth > kMaxNestingDepth)
    return FastOp::Fallback;

  // (A chunk defers them instead: see Parser::Deferred.)
  if (!chunk_)
    for (uint32_t i : unresolved_) pending_[operandNames_[i].text].push_back(offsetOf(operandNames_[i]));
  std::span<const NamedAttr> attrs = tail.attrs;
  if (!tail.holeEntries.empty()) {
    attrs_.assign(tail.attrs.begin(), tail.attrs.end());
    bool fresh = false;  // a string no op had before (a parameter's name): a list no op has
    for (size_t k = 0; k < tail.holeEntries.size(); ++k) {
      auto [open, close] = tailScan_.holes[k];
      bool made = false;
      attrs_[tail.holeEntries[k]].value =
          ctx_.stringAttr(std::string_view(open, static_cast<size_t>(close - open)), made);
      fresh = fresh || made;
    }
    attrs = fresh ? ctx_.ownAttrList(attrs_) : ctx_.attrList(attrs_);
  }
  ++depth_;
  Operation* op = Operation::createInterned(ctx_, internOpName(name), operands_, tail.resultTypes, attrs);
  op->setLocation(offsetOf(tok_));
  op->setDebugId(debugId);
  appendOp(block, op);
  ++numOpsRead_;
  if (chunk_) {
    bool typed = tail.operandTypes.size() == operands_.size();
    for (uint32_t i : unresolved_)
      chunk_->defer(Deferred{.operand = &op->operand(i),
                             .name = operandNames_[i].text,
                             .typeAt = typed ? tailScan_.end - tail.operandTypesFromEnd[i] : nullptr,
                             .type = typed ? tail.operandTypes[i] : nullptr,
                             .opMesh = tail.opMesh,
                             .number = static_cast<int32_t>(numberInText(operandNames_[i].text))});
  }
  for (size_t i = 0; i < resultNames_.size(); ++i) defineValue(resultNames_[i], op->result(static_cast<uint32_t>(i)));
  Token typesAt{TokenKind::Colon, false, std::string_view(tailScan_.end - tail.colonFromEnd, 1)};
  checkOperandTypes(*op, tail.operandTypes, typesAt, operandNames_);
  prevEnd_ = tailScan_.end;
  lex_.resetTo(tailScan_.end);
  tok_ = lex_.next();
  if (tok_.is(TokenKind::LBrace) && !parseRegions(*op)) return FastOp::Failed;
  leaveNesting();
  return FastOp::Done;
}

bool Parser::mapHoles(const char* dictEnd, std::span<const NamedAttr> attrs, std::vector<uint32_t>& out) const {
  out.clear();
  int depth = 0;
  size_t k = 0;
  for (const char* p = tailScan_.begin; p < dictEnd; ++p) {
    char c = *p;
    if (k < tailScan_.holes.size() && p + 1 == tailScan_.holes[k].first) {
      // `{key:"` or `,key:"` right inside the dictionary's braces.
      const char* colon = p - 1;
      if (depth != 1 || *colon != ':') return false;
      const char* keyAt = colon;
      while (keyAt > tailScan_.begin && isIdentChar(keyAt[-1])) --keyAt;
      if (keyAt == colon || (keyAt[-1] != '{' && keyAt[-1] != ',')) return false;
      std::string_view key(keyAt, static_cast<size_t>(colon - keyAt));
      std::string_view raw(tailScan_.holes[k].first,
                           static_cast<size_t>(tailScan_.holes[k].second - tailScan_.holes[k].first));
      size_t entry = 0;
      while (entry < attrs.size() && attrs[entry].key != key) ++entry;
      if (entry == attrs.size()) return false;
      auto* s = attrs[entry].value ? attrs[entry].value->dynCast<StringAttr>() : nullptr;
      if (!s || s->raw() != raw) return false;
      out.push_back(static_cast<uint32_t>(entry));
      p = tailScan_.holes[k].second;  // the closing quote
      ++k;
      continue;
    }
    if (c == '{' || c == '[' || c == '(') ++depth;
    if (c == '}' || c == ']' || c == ')') --depth;
    if (c == '<' || c == '>' || c == '"') return false;  // an opaque value, or a string outside the holes
  }
  return k == tailScan_.holes.size();
}

void Parser::admitTail(const char* dictAt, const Token& typesAt, std::span<const NamedAttr> attrs,
                       const ProcessMesh* opMesh, std::span<const Type* const> operandTypes,
                       std::span<const Type* const> resultTypes) {
  // The tail read to its line's end: the next token is past it (what lay
  // between was blanks or a comment, which the same bytes make again).
  if (dictAt != tailScan_.begin || tok_.text.data() < tailScan_.end) return;
  const char* colon = typesAt.text.data();
  if (colon < tailScan_.begin || colon >= tailScan_.end) return;
  // Every nesting the general path counts opens a bracket: with at most
  // this many, no read of the tail at a depth that passes the fast path's
  // check can reach kMaxNestingDepth.
  int opens = 0;
  for (const char* p = tailScan_.begin; p < tailScan_.end && opens < kMaxNestingDepth; ++p)
    opens += *p == '(' || *p == '[' || *p == '{' || *p == '<';
  std::vector<uint32_t> holeEntries;
  if (!tailScan_.holes.empty() && !mapHoles(colon, attrs, holeEntries)) return;
  std::vector<uint32_t> typesFromEnd;
  for (const char* at : operandTypesAt_) {
    if (at < colon || at >= tailScan_.end) return;
    typesFromEnd.push_back(static_cast<uint32_t>(tailScan_.end - at));
  }
  TailParse parse;
  parse.operandTypesFromEnd = typesFromEnd;
  parse.attrs = attrs;
  parse.opMesh = opMesh;
  parse.operandTypes = operandTypes;
  parse.resultTypes = resultTypes;
  parse.holeEntries = holeEntries;
  parse.colonFromEnd = static_cast<uint32_t>(tailScan_.end - colon);
  parse.depth = opens;
  tailMemo_.add(tailScan_, tailHints_, parse);
}

}  // namespace pir::parser
