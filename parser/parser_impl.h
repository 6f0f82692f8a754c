//===- parser_impl.h - the recursive-descent parser's shared state -*- C++ -*-===//
//
// One Parser object reads one source. Its parts live in parser_ops.cpp
// (programs, blocks, ops, values), parser_types.cpp, parser_attrs.cpp and
// parser_dist.cpp (distributed attributes). Each parse function returns
// `false` on a syntax error, after reporting it; the grammar rule it reads
// is written above it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstring>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/context.h"
#include "core/diagnostics.h"
#include "core/program.h"
#include "parser/lexer.h"
#include "parser/parser.h"
#include "parser/segmented_list.h"
#include "parser/tail_memo.h"
#include "parser/text_memo.h"

namespace pir::parser {

using namespace pir::core;

class Parser {
 public:
  Parser(Context& ctx, std::string_view text, DiagnosticEngine& diag, const ParseOptions& options = {});

  bool parseFile(std::vector<ParsedProgram>& out);

  //===--- one chunk of a program read on several threads (parser_chunks.cpp) ---===//
  struct ValueEntry {
    Value* value = nullptr;
    int64_t offset = -1;
  };
  /// An operand naming a value its chunk does not define before it: set,
  /// and its type checked, when the chunks are joined.
  struct Deferred {
    OpOperand* operand;
    std::string_view name;
    const char* typeAt;  // its type's text, or null when the op lists no operand types
    const Type* type;    // as read with the op's mesh for a hint
    const ProcessMesh* opMesh;
    Value* value = nullptr;  // what the join found
    int32_t number;          // N of `%N` (at most 9 digits), or -1
  };
  static_assert(sizeof(Deferred) <= 64, "a deferred operand in one cache line: 1.6M of them at 1M ops");
  /// What reading a chunk left for the join.
  struct ChunkOut {
    bool ok = false;
    int64_t programAt = -1;  // the first chunk: where the program's `{` is
    OpChain chain;           // the chunk's ops of the program's own block
    // Values it defines: `%N` at numbered[N - numberBase], the rest in named.
    int64_t numberBase = 0;
    std::vector<ValueEntry> numbered;
    std::unordered_map<std::string_view, ValueEntry> named;
    bool numbersInNamed = false;
    // Its deferred operands in text order, and each of them again in one of
    // as many parts as the join has threads, in text order: all the uses of
    // one value are in one part (joinPart). (One list of parts' pointers: a
    // segmented list a part would map a huge page for each of threads x
    // chunks parts, 1 GB on 8 threads.)
    SegmentedList<Deferred> deferred;
    std::vector<std::vector<Deferred*>> parts;
    void defer(const Deferred& d) {
      deferred.push_back(d);
      parts[joinPart(d.name, d.number, parts.size())].push_back(&deferred.back());
    }
    std::vector<std::string_view> argsMade;  // `%arg_N` made where first used
    PrintStyle style;
    bool sawDistEra = false, sawNumberStyle = false, sawTensorSpelling = false, sawChunkStyle = false;
    std::map<std::vector<int64_t>, const ProcessMesh*> sequentialMeshes;
  };
  /// Reads the bytes [begin, end) of the text, a run of whole ops of
  /// `program`'s own block (the first chunk starts at its `{` and reads its
  /// header, the last ends at its `}` and the end of the text), into `out`,
  /// its deferred operands in `joinParts` parts.
  /// Caches carry over from the chunks read before (later ones, in order).
  void parseChunk(std::string_view fullText, size_t begin, size_t end, bool first, bool last, Program& program,
                  size_t joinParts, ChunkOut& out);
  /// Which of `parts` the join sets the uses of the value named `name`
  /// (number `n` for `%N`, or -1) in.
  static size_t joinPart(std::string_view name, int64_t n, size_t parts);
  /// A value a chunk defines, by name (and its number `n` for `%N`, or -1), or null.
  static Value* definedIn(const ChunkOut& chunk, std::string_view name, int64_t n);
  /// N of `%N` written the canonical way, or -1.
  static int64_t numberOf(std::string_view name);
  /// numberOf for a name in the text being read, faster.
  int64_t numberInText(std::string_view name) const;
  /// The type at `at` (the text is the parser's), read with `hint`; null
  /// after a diagnostic.
  const Type* reparseType(const char* at, const ProcessMesh* hint);
  bool parseTypeOnly(const Type*& out);
  bool parseAttributeOnly(const Attribute*& out);

 private:
  //===--- tokens and errors (parser_ops.cpp) ---===//
  void consume() {
    prevEnd_ = tok_.text.data() + tok_.text.size();
    tok_ = lex_.next();
  }
  bool consumeIf(TokenKind k) {
    if (!tok_.is(k)) return false;
    consume();
    return true;
  }
  bool expect(TokenKind k, std::string_view what);
  /// The token after the current one, without consuming anything.
  Token peek();
  int64_t offsetOf(const Token& t) const { return static_cast<int64_t>(t.text.data() - text_.data()); }
  int64_t offsetOf(const char* p) const { return static_cast<int64_t>(p - text_.data()); }
  /// Reports a syntax error at `t` and returns false.
  bool syntaxError(const Token& t, std::string message);
  bool syntaxErrorAt(const char* p, std::string message);
  /// Reports the current token as unexpected, saying what was expected
  /// (`expected` then `tail`: a message naming its list costs no string until
  /// it is reported).
  bool unexpected(std::string_view expected, std::string_view tail = {});
  bool enterNesting(const Token& at);
  void leaveNesting() { --depth_; }

  //===--- comma-separated lists, after MLIR's parseCommaSeparatedList ---===//
  enum class TrailingComma { Error, Allowed };

  /// list ::= (element (`,` element)*)? close, read after the list's opening
  /// token (callers differ in how they check it and count nesting). After an
  /// element, a token other than `,` and `close` is reported as "expected
  /// <expected><tail>, found ..." (two parts, joined only when reported);
  /// after a comma the next element reports what it finds, unless
  /// `kTrailing` allows a comma before `close`. `element` reads one element
  /// and returns false on an error it reported.
  template <TrailingComma kTrailing = TrailingComma::Error, class Element>
  bool parseCommaList(TokenKind close, std::string_view expected, std::string_view tail, Element&& element) {
    if (consumeIf(close)) return true;
    while (true) {
      if (!element()) return false;
      // `close` first: most lists hold one element (`(%0)`, `[false]`).
      if (consumeIf(close)) return true;
      if (!consumeIf(TokenKind::Comma)) return unexpected(expected, tail);
      if (kTrailing == TrailingComma::Allowed && consumeIf(close)) return true;
    }
  }
  template <TrailingComma kTrailing = TrailingComma::Error, class Element>
  bool parseCommaList(TokenKind close, std::string_view expected, Element&& element) {
    return parseCommaList<kTrailing>(close, expected, {}, element);
  }

  /// element (`,` element)*, without delimiters; what follows is the
  /// caller's. At a comma, `continues()` says whether it is this list's (for
  /// a list ending at the line end, or one inside another list).
  template <class Element, class Continues>
  bool parseCommaSeparated(Element&& element, Continues&& continues) {
    do {
      if (!element()) return false;
    } while (tok_.is(TokenKind::Comma) && continues() && (consume(), true));
    return true;
  }
  template <class Element>
  bool parseCommaSeparated(Element&& element) {
    return parseCommaSeparated(element, [] { return true; });
  }

  //===--- ordinary op lines, from the tail memo (parser_fast.cpp) ---===//
  enum class FastOp { Done, Failed, Fallback };
  /// Reads the op at the current `(` when its line has the shape Paddle
  /// prints, every operand is defined, and its tail is in the memo; else
  /// consumes nothing and returns Fallback (tailAdmit_ then says whether the
  /// general path should remember the tail it reads).
  FastOp tryFastOp(Block& block);
  /// After the general path read an op's tail (`dictAt` is where its
  /// dictionary started, `typesAt` its `:`), remembers it if tryFastOp
  /// asked to and the tail read as one piece with no diagnostic.
  void admitTail(const char* dictAt, const Token& typesAt, std::span<const NamedAttr> attrs, const ProcessMesh* opMesh,
                 std::span<const Type* const> operandTypes, std::span<const Type* const> resultTypes);
  /// The entry of `attrs` whose value each hole of tailScan_ is, checked
  /// against the dictionary's text; false when a hole is anything else.
  bool mapHoles(const char* dictEnd, std::span<const NamedAttr> attrs, std::vector<uint32_t>& out) const;
  /// ctx_.intern(name) through a small cache: a program has few op names.
  std::string_view internOpName(std::string_view name);

  //===--- programs, blocks, ops, values (parser_ops.cpp) ---===//
  bool parseProgramBody(Program& program, bool braced);
  bool parseBlockBody(Block& block, const Token* openBrace);
  bool parseKwargs(Block& block);
  bool parseBlockArgsLine(Block& block);
  bool parseOp(Block& block);
  bool parseOpResults(std::vector<Token>& names);
  bool parseOperands(Block& block, std::vector<Value*>& values, std::vector<Token>& names,
                     std::vector<std::string_view>& keywords);
  bool parseRegions(Operation& op);
  bool parseTypeListUntilLineEnd(std::vector<const Type*>& types, const ProcessMesh* hint);
  bool atAttrDict();
  bool parseNamedAttrList(std::vector<NamedAttr>& attrs, const ProcessMesh*& opMesh);
  bool parseOpAttrDict(std::span<const NamedAttr>& out, const ProcessMesh*& opMesh);

  ValueEntry* lookupEntry(std::string_view name, bool create);
  /// Adds `op` to `block`: for the program's own block in a chunk, to the
  /// chunk's chain.
  void appendOp(Block& block, Operation* op) {
    if (chunk_ && &block == chunkBlock_)
      block.pushBack(chunk_->chain, op);
    else
      block.pushBack(op);
  }
  Value* resolveOperand(const Token& name, Block& block, bool hasAttrs);
  void defineValue(const Token& name, Value* v);
  void checkOperandTypes(Operation& op, std::span<const Type* const> types, const Token& at,
                         const std::vector<Token>& operandNames);
  void reportUndefinedValues();

  //===--- types (parser_types.cpp) ---===//
  bool parseType(const Type*& out, const ProcessMesh* hint);
  bool parseTensorType(const Type*& out, std::string_view spelling, const ProcessMesh* hint);
  bool parseTensorBody(std::vector<int64_t>& dims, DataType& dtype);
  static std::string typeNameHint(const TypeNameCheck& check);
  bool parseOpaqueBalanced(char open, char close, std::string_view& text);

  //===--- attributes (parser_attrs.cpp) ---===//
  bool parseAttribute(const Attribute*& out);
  bool parseTaggedOrParenthesized(const Attribute*& out);
  bool parseNumber(std::string_view tag, const Attribute*& out);
  bool parseArray(const Attribute*& out, bool arrayPrefix);
  bool parseIntList(std::vector<int64_t>& out, std::string_view what, std::string_view element);
  bool parseInt64(const Token& t, int64_t& out, std::string_view what);
  void noteNumberStyle(bool tagged);

  //===--- distributed attributes (parser_dist.cpp) ---===//
  bool parseOpDistAttr(const Attribute*& out, const ProcessMesh*& opMesh);
  bool parseMeshDict(const ProcessMesh*& out);
  bool parseOpDistEntry(const Attribute*& out, const ProcessMesh* opMesh);
  bool parseTensorDistAttr(const TensorDistAttr*& out, const ProcessMesh* hint, bool inType);
  bool parsePlacements(const PlacementsAttr*& out);
  /// Reports what Paddle's ProcessMesh refuses in a mesh read from the lists
  /// whose `[` are at `shapeAt` and `idsAt`, at the element at fault.
  void checkMesh(std::span<const int64_t> shape, const char* shapeAt, std::span<const int64_t> ids, const char* idsAt);
  void noteDistEra(DistEra era);

  Context& ctx_;
  std::string_view text_;
  Lexer lex_;
  DiagnosticEngine& diag_;
  ParseOptions options_;
  Token tok_;
  int depth_ = 0;
  bool failed_ = false;  // a syntax error was reported

  // Per program.
  Program* program_ = nullptr;
  PrintStyle* style_ = nullptr;  // where noted facts go: the program's, or a chunk's
  // Reading a chunk: its results, the program's own block, where `%N` for
  // N = numberBase_ sits in numbered_, and the operands of the op being read
  // that were deferred (their indices).
  ChunkOut* chunk_ = nullptr;
  Block* chunkBlock_ = nullptr;
  int64_t numberBase_ = 0;
  std::vector<uint32_t> opDeferred_;
  std::vector<const char*> operandTypesAt_;  // where each operand type of the op being read starts
  bool sawDistEra_ = false, sawNumberStyle_ = false, sawTensorSpelling_ = false, sawChunkStyle_ = false;
  int dialectDepth_ = 0;              // inside a dialect value's `(pd_op.X)` tag: its numbers say nothing of the era
  std::vector<ValueEntry> numbered_;  // `%N`, indexed by N
  std::unordered_map<std::string_view, ValueEntry> named_;
  bool numbersInNamed_ = false;  // some `%N` went to named_: look there first
  // Operands naming values not defined (yet): name -> offsets of the uses.
  std::unordered_map<std::string_view, std::vector<int64_t>> pending_;
  size_t numOpsRead_ = 0;
  // What options_.doneWith was last told, and how much to read between calls.
  int64_t doneUpTo_ = 0;
  static constexpr int64_t kDoneStep = int64_t{16} << 20;
  // Meshes given only by mesh_shape, on ids 0..n-1, by shape; and how many
  // ids they hold together (bounded).
  std::map<std::vector<int64_t>, const ProcessMesh*> sequentialMeshes_;
  int64_t sequentialIds_ = 0;

  // Per-op lists, reused across ops to avoid allocating for each. Nothing
  // reads them once an op's regions are being parsed, so nested ops may
  // reuse them.
  std::vector<Token> resultNames_, operandNames_;
  std::vector<Value*> operands_;
  std::vector<std::string_view> keywords_;
  std::vector<NamedAttr> attrs_;
  std::vector<const Type*> operandTypes_, resultTypes_;
  // Where the placements list last read starts (`[`), then each placement.
  std::vector<const char*> placementsAt_;

  // Real dumps repeat the same type and op_dist_attr text thousands of
  // times: equal text (and, for types, equal mesh hint) parses to the same
  // interned object, so the result is cached by text, per program.
  const char* prevEnd_ = nullptr;  // end of the last consumed token
  struct TypeKey {
    std::string_view text;
    const void* hint;
    bool operator==(const TypeKey&) const = default;
  };
  struct TypeKeyHash {
    size_t operator()(const TypeKey& k) const {
      return std::hash<std::string_view>()(k.text) ^ (std::hash<const void*>()(k.hint) << 1);
    }
  };
  std::unordered_map<TypeKey, const Type*, TypeKeyHash> typeCache_;
  std::unordered_map<std::string_view, std::pair<const Attribute*, const ProcessMesh*>> opDistCache_;
  TextMemo<std::pair<std::span<const NamedAttr>, const ProcessMesh*>> attrDictCache_;
  TailMemo tailMemo_;
  TailScan tailScan_;                   // the tail tryFastOp scanned last
  std::vector<const void*> tailHints_;  // its operands' meshes (null: the op's)
  std::vector<uint32_t> unresolved_;    // its operands naming no value read before
  bool tailAdmit_ = false;
  struct OpName {
    const char* data = nullptr;  // in the source
    size_t size = 0;
    std::string_view interned;
  };
  OpName opNames_[256] = {};
  /// The end of the balanced text starting at `p` (a type, or a `{...}`
  /// attribute on one line, strings skipped), or null when it is not simple
  /// to find.
  const char* extentOf(const char* p, bool braces) const;
  bool parseTypeUncached(const Type*& out, const ProcessMesh* hint);
  bool parseOpDistAttrUncached(const Attribute*& out, const ProcessMesh*& opMesh);
};

inline int64_t Parser::numberInText(std::string_view name) const {
  // Up to eight digits read as one word (the SWAR of fast_float's
  // parse_eight_digits_unrolled) where the text has eight bytes from the
  // first digit on: a loop of a digit at a time was 5% of a read.
  if (name.size() < 2 || name.size() > 9) return numberOf(name);
  const char* p = name.data() + 1;
  size_t n = name.size() - 1;
  if (p < text_.data() || p + 8 > text_.data() + text_.size()) return numberOf(name);
  if (p[0] == '0') return n == 1 ? 0 : -1;
  uint64_t word;
  std::memcpy(&word, p, 8);
  // The digits to the last of the eight bytes (the word's high end), '0's before them.
  unsigned shift = static_cast<unsigned>(8 * (8 - n));
  constexpr uint64_t kZeros = 0x3030303030303030;
  if (shift) word = (word << shift) | (kZeros >> (64 - shift));
  if (nonDigitBytes(word)) return -1;
  word -= kZeros;
  word = word * 10 + (word >> 8);
  constexpr uint64_t kMask = 0x000000FF000000FF, kMul1 = 0x000F424000000064, kMul2 = 0x0000271000000001;
  return static_cast<int64_t>(
      static_cast<uint32_t>((((word & kMask) * kMul1) + (((word >> 16) & kMask) * kMul2)) >> 32));
}

}  // namespace pir::parser
