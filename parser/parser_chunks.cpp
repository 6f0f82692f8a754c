//===- parser_chunks.cpp - one program read on several threads ------------===//
//
// `--threads N` cuts a big program at lines that start a top-level op
// (`\n    (`), and N threads read the chunks into the one Context, each its
// chunk's ops into a chain of its own (core/operation.h: OpChain), with the
// Context's interning locked (core/context.h: Context::Concurrent). An
// operand naming a value its chunk does not define is left null and noted.
// Joining the chunks then does what one reader would have done in between:
// it finds each noted value in an earlier chunk and sets the operand,
// rereads the operand's type where its value's mesh was the hint, checks
// it, and takes each print-style fact from the first chunk that noted one.
// The operands are set on the threads too, each thread the uses of its own
// share of the values (by name: Parser::joinPart) in text order, so that
// each value's uses come in the order one reader makes them.
//
// The join gives up, and one thread reads the whole text again, on anything
// one reader would have said something about or read otherwise: a
// diagnostic in any chunk, a chunk that does not end where the next starts
// (a cut inside a string or a region), a value no earlier chunk defines or
// that two chunks define, a `%arg_N` made in a chunk that an earlier one
// defines. So the output and the diagnostics are one thread's, always.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <set>

#include "core/prefetch.h"
#include "core/threads.h"
#include "parser/parser_impl.h"

namespace pir::parser {

namespace {

std::atomic<size_t> threadedReadCount{0};

/// Chunks per thread, so that one slow chunk does not hold the others up.
constexpr size_t kChunksPerThread = 8;

/// Where chunks start: 0, then the start of a line `    (` after each even
/// share of the text, then the text's end.
/// (Chunks are at least `minChunk` bytes: each starts its reader's caches
/// on text they have not seen, and the join's work grows with their number.)
std::vector<size_t> cutPoints(std::string_view text, unsigned threads, size_t minChunk) {
  std::vector<size_t> cuts{0};
  size_t chunks = std::min<size_t>(threads * kChunksPerThread, text.size() / std::max<size_t>(minChunk, 1));
  constexpr std::string_view kLine = "\n    (";
  for (size_t k = 1; k < chunks; ++k) {
    size_t from = std::max(text.size() / chunks * k, cuts.back());
    size_t at = text.find(kLine, from);
    if (at == std::string_view::npos) break;
    if (at + 1 > cuts.back()) cuts.push_back(at + 1);
  }
  cuts.push_back(text.size());
  return cuts;
}

}  // namespace

size_t Parser::joinPart(std::string_view name, int64_t n, size_t parts) {
  if (parts <= 1) return 0;
  return static_cast<size_t>(n >= 0 ? static_cast<uint64_t>(n) : hashString(name)) % parts;
}

void Parser::parseChunk(std::string_view fullText, size_t begin, size_t end, bool first, bool last, Program& program,
                        size_t joinParts, ChunkOut& out) {
  // The text ends where the chunk does: nothing reads past it.
  text_ = fullText.substr(0, end);
  lex_ = Lexer(text_);
  lex_.resetTo(text_.data() + begin);
  program_ = &program;
  out = ChunkOut();
  out.parts.resize(std::max<size_t>(joinParts, 1));
  style_ = &out.style;
  chunk_ = &out;
  chunkBlock_ = &program.body();
  sawDistEra_ = sawNumberStyle_ = sawTensorSpelling_ = sawChunkStyle_ = false;
  numbered_.clear();
  named_.clear();
  numbersInNamed_ = false;
  pending_.clear();
  numOpsRead_ = 0;
  // Its table of `%N` starts at the first result it defines.
  numberBase_ = 0;
  if (const char* p = text_.data() + begin; !first && text_.size() - begin > 6 && p[4] == '(' && p[5] == '%') {
    const char* q = p + 6;
    while (q < text_.data() + end && isDigit(*q)) ++q;
    numberBase_ = std::max<int64_t>(0, Parser::numberOf(std::string_view(p + 5, static_cast<size_t>(q - p - 5))));
  }
  core::reserveOnHugePages(numbered_, (end - begin) / 64 + 64);
  consume();

  Block& block = program.body();
  auto read = [&] {
    if (first) {
      if (!tok_.is(TokenKind::LBrace)) return false;  // a `// -----` line, a fragment: one reader's
      out.programAt = offsetOf(tok_);
      consume();
      if (tok_.is(TokenKind::Caret)) {
        if (peek().isIdent("kw") && !parseKwargs(block)) return false;
        if (tok_.is(TokenKind::Caret) && !parseBlockArgsLine(block)) return false;
      }
    }
    while (tok_.is(TokenKind::LParen))
      if (!parseOp(block)) return false;
    if (!last) return tok_.is(TokenKind::Eof);
    if (!consumeIf(TokenKind::RBrace)) return false;
    return tok_.is(TokenKind::Eof);
  };
  out.ok = read() && !failed_ && diag_.size() == 0;
  out.numberBase = numberBase_;
  out.numbered = std::move(numbered_);
  out.named = std::move(named_);
  out.numbersInNamed = numbersInNamed_;
  out.sawDistEra = sawDistEra_;
  out.sawNumberStyle = sawNumberStyle_;
  out.sawTensorSpelling = sawTensorSpelling_;
  out.sawChunkStyle = sawChunkStyle_;
  out.sequentialMeshes = sequentialMeshes_;
  chunk_ = nullptr;
  chunkBlock_ = nullptr;
  numbered_ = {};
  named_ = {};
}

Value* Parser::definedIn(const ChunkOut& chunk, std::string_view name, int64_t n) {
  if (n >= chunk.numberBase) {
    auto i = static_cast<size_t>(n - chunk.numberBase);
    if (i < chunk.numbered.size() && chunk.numbered[i].value) return chunk.numbered[i].value;
  }
  // A `%N` is in `named` only where one fell outside the table's window
  // (Parser::lookupEntry): else no string is hashed, 1.6M times at 1M ops.
  if (n >= 0 && !chunk.numbersInNamed) return nullptr;
  auto it = chunk.named.find(name);
  return it == chunk.named.end() ? nullptr : it->second.value;
}

const Type* Parser::reparseType(const char* at, const ProcessMesh* hint) {
  lex_.resetTo(at);
  consume();
  size_t before = diag_.size();
  const Type* t = nullptr;
  if (!parseType(t, hint) || diag_.size() != before) return nullptr;
  return t;
}

namespace {

/// A value both chunks define (one reader reports it redefined).
bool defineSame(const Parser::ChunkOut& a, const Parser::ChunkOut& b) {
  // `%N` in both tables.
  int64_t lo = std::max(a.numberBase, b.numberBase);
  int64_t hi = std::min(a.numberBase + static_cast<int64_t>(a.numbered.size()),
                        b.numberBase + static_cast<int64_t>(b.numbered.size()));
  for (int64_t n = lo; n < hi; ++n)
    if (a.numbered[static_cast<size_t>(n - a.numberBase)].value &&
        b.numbered[static_cast<size_t>(n - b.numberBase)].value)
      return true;
  for (const auto& [name, entry] : a.named)
    if (entry.value && Parser::definedIn(b, name, Parser::numberOf(name))) return true;
  for (const auto& [name, entry] : b.named)
    if (entry.value && Parser::definedIn(a, name, Parser::numberOf(name))) return true;
  return false;
}

/// The value an earlier chunk than `k` defines under `name` (number `n`
/// for `%N`, or -1), or null. `%N` is looked for first in the chunk whose
/// numbers start below it, as they mostly follow each other.
Value* findEarlier(const std::vector<Parser::ChunkOut>& chunks, size_t k, std::string_view name, int64_t n) {
  size_t likely = k;
  if (n >= 0) {
    auto after = std::upper_bound(chunks.begin(), chunks.begin() + static_cast<std::ptrdiff_t>(k), n,
                                  [](int64_t x, const Parser::ChunkOut& c) { return x < c.numberBase; });
    if (after != chunks.begin()) {
      likely = static_cast<size_t>(after - chunks.begin()) - 1;
      if (Value* v = Parser::definedIn(chunks[likely], name, n)) return v;
    }
  }
  for (size_t j = k; j-- > 0;)
    if (j != likely)
      if (Value* v = Parser::definedIn(chunks[j], name, n)) return v;
  return nullptr;
}

/// The mesh one reader reads an operand's type with: its value's.
const ProcessMesh* hintOf(const Value* v, const ProcessMesh* opMesh) {
  const Type* vt = v->type();
  if (!vt) return opMesh;
  if (auto* vec = vt->dynCast<VectorType>(); vec && !vec->elements().empty()) vt = vec->elements()[0];
  const TensorDistAttr* d = distAttrOf(vt);
  return d ? d->mesh() : opMesh;
}

/// Checks a deferred operand's type against its value's as one reader
/// would (reread with the value's mesh for a hint where that differs); a
/// kwarg or block argument without a type learns it here, at its first use.
bool checkType(const Parser::Deferred& d, Parser& types) {
  Value* v = d.value;
  const Type* t = d.type;
  if (const ProcessMesh* hint = hintOf(v, d.opMesh); hint != d.opMesh) t = types.reparseType(d.typeAt, hint);
  if (!t) return false;
  if (!v->type())
    v->setType(t);
  else if (!typesEqual(v->type(), t))
    return false;
  return true;
}

/// On a thread: sets the deferred operands of part `part` of every chunk,
/// in text order, each to the value an earlier chunk defines, and checks
/// its type. The values of a part are only its own, so no other thread
/// touches their uses or types. False where one reader would have said
/// something.
bool joinDeferred(std::vector<Parser::ChunkOut>& chunks, size_t part, Parser& types) {
  // Finding a value, checking its type and setting the operand each miss
  // the cache: values are found (and fetched) kFind operands ahead, and
  // their first uses (which setting relinks) fetched kFirstUse ahead.
  constexpr size_t kFind = 8, kFirstUse = 4;
  for (size_t k = 1; k < chunks.size(); ++k) {
    // Undefined, or defined later (also in its own chunk, after the use): one reader reports it.
    auto find = [&](Parser::Deferred& d) {
      Value* v = findEarlier(chunks, k, d.name, d.number);
      if (v && Parser::definedIn(chunks[k], d.name, d.number)) v = nullptr;
      d.value = v;
      if (v) prefetch(v);
      prefetch(d.operand);
    };
    const std::vector<Parser::Deferred*>& mine = chunks[k].parts[part];
    size_t n = mine.size();
    for (size_t i = 0; i < n && i < kFind; ++i) find(*mine[i]);
    for (size_t i = 0; i < n; ++i) {
      if (i + kFind < n) find(*mine[i + kFind]);
      if (i + kFirstUse < n && mine[i + kFirstUse]->value) prefetch(mine[i + kFirstUse]->value->firstUse());
      Parser::Deferred& d = *mine[i];
      if (!d.value) return false;
      if (d.typeAt && !checkType(d, types)) return false;
      d.operand->set(d.value);
    }
  }
  return true;
}

/// Joins the chunks into `program`, their deferred operands set already
/// (joinDeferred); false where one reader would have read otherwise or said
/// something (the caller then reads it alone).
bool join(std::vector<Parser::ChunkOut>& chunks, Program& program) {
  // No value defined twice. Chunks' `%N` ranges mostly follow each other.
  for (size_t k = 1; k < chunks.size(); ++k)
    for (size_t j = 0; j < k; ++j)
      if (defineSame(chunks[j], chunks[k])) return false;
  // A `%arg_N` a chunk made on its first use is an earlier chunk's value to one reader.
  for (size_t k = 1; k < chunks.size(); ++k)
    for (std::string_view name : chunks[k].argsMade)
      if (findEarlier(chunks, k, name, -1)) return false;
  // Meshes without process ids: within the bound one reader keeps, all together.
  std::map<std::vector<int64_t>, int64_t> shapes;
  for (const Parser::ChunkOut& c : chunks)
    for (const auto& [shape, mesh] : c.sequentialMeshes)
      shapes[shape] = static_cast<int64_t>(mesh->processIds().size());
  int64_t ids = 0;
  for (const auto& [shape, n] : shapes) ids += n;
  if (ids > (int64_t{1} << 22)) return false;

  // Chunk 0 defers nothing: everything before its ops is in it.
  if (!chunks[0].deferred.empty()) return false;

  PrintStyle& style = program.style();
  auto take = [&](auto saw, auto apply) {
    for (const Parser::ChunkOut& c : chunks)
      if (c.*saw) {
        apply(c.style);
        return;
      }
  };
  take(&Parser::ChunkOut::sawDistEra, [&](const PrintStyle& s) { style.distEra = s.distEra; });
  take(&Parser::ChunkOut::sawNumberStyle, [&](const PrintStyle& s) { style.taggedNumbers = s.taggedNumbers; });
  take(&Parser::ChunkOut::sawTensorSpelling, [&](const PrintStyle& s) { style.tensorSpelling = s.tensorSpelling; });
  take(&Parser::ChunkOut::sawChunkStyle, [&](const PrintStyle& s) { style.opDistChunkId = s.opDistChunkId; });
  // Each chain's landmarks, at their place in the whole block: the threaded
  // verifier and printer start from them without walking the list.
  Block& body = program.body();
  std::vector<OpLandmarks::Landmark> landmarks;
  for (Parser::ChunkOut& c : chunks) {
    size_t offset = body.numOps();
    for (const auto& [op, at] : c.chain.landmarks) landmarks.emplace_back(op, offset + at);
    body.append(c.chain);
  }
  program.bodyLandmarks().set(body, std::move(landmarks));
  return true;
}

}  // namespace

/// parseFile's threaded form: a program cut into chunks read at once, or
/// null when the text is not one program of that shape, or the join gave
/// up (a chunk read something one reader would not have).
std::unique_ptr<Program> parseChunked(Context& ctx, std::string_view text, const ParseOptions& options,
                                      int64_t& offset) {
  std::vector<size_t> cuts = cutPoints(text, options.threads, options.chunkBytes);
  size_t n = cuts.size() - 1;
  if (n < 2) return nullptr;
  auto program = std::make_unique<Program>(ctx);
  std::vector<Parser::ChunkOut> chunks(n);
  auto threads = static_cast<unsigned>(std::min<size_t>(options.threads, n));
  // Each thread reads with a Parser of its own, allocating from an arena
  // of its own (a Worker; a reread type may be new to the Context too).
  struct Reader {
    Reader(Context& ctx, std::string_view text, const ParseOptions& options)
        : worker(ctx), parser(ctx, text, diag, options) {}
    Context::Worker worker;
    DiagnosticEngine diag;
    Parser parser;
  };
  auto onThreads = [&](uint32_t runs, const ParseOptions& readerOptions, auto each) {
    core::forEachRunOnThreads(threads, runs, [&](unsigned) {
      return [&, reader = std::make_unique<Reader>(ctx, text, readerOptions)](uint32_t r) { each(*reader, r); };
    });
  };
  {
    Context::Concurrent concurrent(ctx);
    onThreads(static_cast<uint32_t>(n), options, [&](Reader& reader, uint32_t k) {
      reader.diag.clear();
      if (options.aboutToRead) options.aboutToRead(cuts[k], cuts[k + 1]);
      reader.parser.parseChunk(text, cuts[k], cuts[k + 1], k == 0, k + 1 == n, *program, threads, chunks[k]);
      if (options.doneWith) options.doneWith(cuts[k], cuts[k + 1]);
    });
    for (const Parser::ChunkOut& c : chunks)
      if (!c.ok) return nullptr;
    // The deferred operands set on the threads too, a part each (types
    // reread over the whole text).
    std::vector<char> joined(threads, 0);
    onThreads(threads, ParseOptions{},
              [&](Reader& reader, uint32_t part) { joined[part] = joinDeferred(chunks, part, reader.parser); });
    for (char ok : joined)
      if (!ok) return nullptr;
  }
  if (!join(chunks, *program)) return nullptr;
  threadedReadCount.fetch_add(1, std::memory_order_relaxed);
  offset = chunks[0].programAt;
  program->setLocation(offset);
  return program;
}

size_t threadedReads() { return threadedReadCount.load(std::memory_order_relaxed); }

}  // namespace pir::parser
