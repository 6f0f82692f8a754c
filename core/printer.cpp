//===- printer.cpp - PIR text output ---------------------------------------===//
#include "core/printer.h"

#include <algorithm>
#include <bit>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>

#include "core/context.h"
#include "core/decimal_counter.h"
#include "core/hash.h"
#include "core/op_runs.h"
#include "core/op_signature.h"
#include "core/op_table.h"
#include "core/prefetch.h"
#include "core/text_cache.h"
#include "core/threads.h"
#include "core/verifier.h"

namespace pir::core {

namespace {

constexpr size_t kFlushThreshold = 1 << 20;
// Bytes set aside per op of the block printed, for its text and for the
// text kept of its types and attribute lists; a few printed cases of
// `--split-input-file` must not each allocate a megabyte of buffer and 8 MB
// of kept text (under ASan each allocation is mapped and poisoned: thousands
// of small cases took minutes).
constexpr size_t kOutBytesPerOp = 512;
constexpr size_t kKeptTextPerOp = 64;
constexpr size_t kMaxKeptText = size_t{8} << 20;
// The text of op tails kept (see printTail) is bounded by this.
constexpr size_t kTailStoreBytes = size_t{16} << 20;
// How many ops ahead the printer fetches kwarg names (their kwargs are
// fetched OperandPrefetcher::kDistance ahead).
constexpr int kNamesAhead = 4;

/// How many decimal digits `u` has (0 has one), from its bit length: every
/// op prints a few numbers, and a loop of divisions was a fifth of printing
/// a value's `%N`.
int decimalDigits(uint64_t u) {
  static constexpr uint64_t kPow10[] = {1ULL,
                                        10ULL,
                                        100ULL,
                                        1000ULL,
                                        10000ULL,
                                        100000ULL,
                                        1000000ULL,
                                        10000000ULL,
                                        100000000ULL,
                                        1000000000ULL,
                                        10000000000ULL,
                                        100000000000ULL,
                                        1000000000000ULL,
                                        10000000000000ULL,
                                        100000000000000ULL,
                                        1000000000000000ULL,
                                        10000000000000000ULL,
                                        100000000000000000ULL,
                                        1000000000000000000ULL,
                                        10000000000000000000ULL};
  if (u < 10) return 1;
  int bits = 64 - std::countl_zero(u);
  int below = (bits * 1233) >> 12;  // 1233 / 4096 ~ log10(2): 10^below <= 2^(bits-1) <= u, or one more
  return below + (u >= kPow10[below]);
}

/// Writes `u` in decimal ending just before `end`, two digits at a time;
/// returns where it starts.
[[gnu::always_inline]] inline char* putDigits(char* end, uint64_t u) {
  static constexpr char kPairs[] =
      "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
      "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
      "8081828384858687888990919293949596979899";
  char* p = end;
  while (u >> 32) {
    unsigned pair = static_cast<unsigned>(u % 100) * 2;
    u /= 100;
    *--p = kPairs[pair + 1];
    *--p = kPairs[pair];
  }
  // Most numbers (every value's) fit 32 bits, whose division by 100 is a
  // shorter multiply than a 64-bit one.
  auto w = static_cast<uint32_t>(u);
  while (w >= 100) {
    unsigned pair = (w % 100) * 2;
    w /= 100;
    *--p = kPairs[pair + 1];
    *--p = kPairs[pair];
  }
  if (w >= 10) {
    *--p = kPairs[w * 2 + 1];
    *--p = kPairs[w * 2];
  } else {
    *--p = static_cast<char>('0' + w);
  }
  return p;
}

uint64_t magnitude(int64_t v) { return v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v); }

void appendInt(std::string& out, int64_t v) {
  char buf[24];
  char* end = buf + sizeof buf;
  char* p = putDigits(end, magnitude(v));
  if (v < 0) *--p = '-';
  out.append(p, static_cast<size_t>(end - p));
}

void appendInts(std::string& out, std::span<const int64_t> vs) {
  out += '[';
  for (size_t i = 0; i < vs.size(); ++i) {
    if (i) out += ',';
    appendInt(out, vs[i]);
  }
  out += ']';
}

void appendPartials(std::string& out, const TensorDistAttr* tda) {
  bool first = true;
  for (const PartialEntry& p : tda->partial()) {
    if (!first) out += ',';
    first = false;
    out += "partial(";
    appendInt(out, p.meshDim);
    out += ',';
    out += reduceTypeName(p.reduce);
    out += ')';
  }
}

void appendPlacements(std::string& out, const PlacementsAttr* p) {
  out += '[';
  bool first = true;
  for (const Placement& pl : p->placements()) {
    if (!first) out += ", ";
    first = false;
    switch (pl.kind) {
      case Placement::Kind::Shard:
        out += "Shard(dim=";
        appendInt(out, pl.dim);
        if (pl.splitFactor != 1) {
          out += ", split_factor=";
          appendInt(out, pl.splitFactor);
        }
        out += ')';
        break;
      case Placement::Kind::Replicate:
        out += "Replicate()";
        break;
      case Placement::Kind::Partial:
        out += "Partial(reduce_type=";
        out += reduceTypeName(pl.reduce);
        out += ')';
        break;
    }
  }
  out += ']';
}

/// A tensor dist attr as a type or a newest-era op attr prints it:
/// `mesh_shape:[..],process_ids:[..],dims_mappings:[..], partial(..), placements:[..]`.
/// The dims_maping era's types leave out process_ids.
void appendTensorDist(std::string& out, const TensorDistAttr* tda, bool withIds) {
  out += "mesh_shape:";
  appendInts(out, tda->mesh()->shape());
  if (withIds) {
    out += ",process_ids:";
    appendInts(out, tda->mesh()->processIds());
  }
  out += ",dims_mappings:";
  appendInts(out, tda->dimsMapping());
  if (tda->isPartial()) {
    out += ", ";
    appendPartials(out, tda);
  }
  if (tda->placements()) {
    out += ", placements:";
    appendPlacements(out, tda->placements());
  }
}

/// One operand or result entry of op_dist_attr, between its braces.
void appendOpDistEntry(std::string& out, const Attribute* a, const PrintStyle& style) {
  if (auto* tda = a->dynCast<TensorDistAttr>()) {
    if (style.distEra == DistEra::DimsMaping) {
      out += "dims_maping:";
      appendInts(out, tda->dimsMapping());
      if (tda->isPartial()) {
        out += ',';
        appendPartials(out, tda);
      }
      if (tda->placements()) {
        out += ", placements:";
        appendPlacements(out, tda->placements());
      }
    } else {
      appendTensorDist(out, tda, true);
    }
  } else if (auto* arr = a->dynCast<ArrayAttr>()) {
    out += '[';
    for (size_t i = 0; i < arr->size(); ++i) {
      if (i) out += ',';
      appendOpDistEntry(out, arr->elements()[i], style);
    }
    out += ']';
  } else if (a->isa<NullAttr>()) {
    out += style.distEra == DistEra::DimsMaping ? "null" : "<#AttrNull>";
  } else {
    printAttribute(out, a, style);
  }
}

void appendOpDist(std::string& out, const OpDistAttr* od, const PrintStyle& style) {
  out += "{mesh:{shape:";
  appendInts(out, od->mesh()->shape());
  out += ",process_ids:";
  appendInts(out, od->mesh()->processIds());
  out += '}';
  for (size_t i = 0; i < od->operands().size(); ++i) {
    out += ",operand(";
    appendInt(out, static_cast<int64_t>(i));
    out += "):{";
    appendOpDistEntry(out, od->operands()[i], style);
    out += '}';
  }
  for (size_t i = 0; i < od->results().size(); ++i) {
    out += ",result(";
    appendInt(out, static_cast<int64_t>(i));
    out += "):{";
    appendOpDistEntry(out, od->results()[i], style);
    out += '}';
  }
  if (od->hasChunkId()) {
    out += ",chunk_id:";
    appendInt(out, od->chunkId());
  }
  out += '}';
}

void appendDims(std::string& out, std::span<const int64_t> dims, DataType dtype) {
  for (int64_t d : dims) {
    appendInt(out, d);
    out += 'x';
  }
  out += dataTypeName(dtype);
}

/// The printer's output: bytes written through a pointer, the storage
/// doubling as it fills. Appends of a few bytes are most of printing, so
/// they are inline and short ones skip memcpy's call.
class OutBuffer {
 public:
  explicit OutBuffer(size_t capacity) { grow(capacity); }

  size_t size() const { return static_cast<size_t>(cur_ - data()); }
  std::string_view view() const { return std::string_view(data(), size()); }
  void clear() { cur_ = data(); }
  /// The text, as a string (the buffer is left empty).
  std::string take() {
    std::string out(view());
    clear();
    return out;
  }
  /// Text and the storage holding it.
  struct Released {
    std::unique_ptr<char[]> store;
    size_t size = 0, capacity = 0;
    std::string_view view() const { return {store.get(), size}; }
  };
  /// The text and its storage, handed over. The buffer goes on in `spare`
  /// (storage released before, its pages faulted in already), or else in a
  /// new one as big.
  Released release(Released spare) {
    size_t used = size(), capacity = static_cast<size_t>(end_ - data());
    Released out{std::move(store_), used, capacity};
    cur_ = end_ = nullptr;
    if (spare.store) {
      store_ = std::move(spare.store);
      cur_ = data();
      end_ = data() + spare.capacity;
    } else {
      grow(capacity);
    }
    return out;
  }

  [[gnu::always_inline]] OutBuffer& operator+=(char c) {
    if (cur_ == end_) grow(1);
    *cur_++ = c;
    return *this;
  }
  [[gnu::always_inline]] OutBuffer& operator+=(std::string_view s) {
    append(s.data(), s.size());
    return *this;
  }
  [[gnu::always_inline]] void append(const char* p, size_t n) {
    if (static_cast<size_t>(end_ - cur_) < n) grow(n);
    if (n <= 16 && n >= 8) {  // two overlapping words
      std::memcpy(cur_, p, 8);
      std::memcpy(cur_ + n - 8, p + n - 8, 8);
    } else if (n < 8 && n >= 4) {
      std::memcpy(cur_, p, 4);
      std::memcpy(cur_ + n - 4, p + n - 4, 4);
    } else if (n < 4) {
      for (size_t i = 0; i < n; ++i) cur_[i] = p[i];
    } else {
      std::memcpy(cur_, p, n);
    }
    cur_ += n;
  }
  /// `v` in decimal.
  void appendInt(int64_t v) {
    if (end_ - cur_ < 24) grow(24);
    if (v < 0) *cur_++ = '-';
    uint64_t u = magnitude(v);
    cur_ += decimalDigits(u);
    putDigits(cur_, u);
  }

 private:
  char* data() { return store_.get(); }
  const char* data() const { return store_.get(); }
  void grow(size_t need) {
    size_t used = store_ ? size() : 0;
    size_t capacity = std::max(store_ ? static_cast<size_t>(end_ - data()) * 2 : 0, used + need + 64);
    std::unique_ptr<char[]> bigger(new char[capacity]);  // not zeroed: written before read
    if (used) std::memcpy(bigger.get(), data(), used);
    store_ = std::move(bigger);
    cur_ = data() + used;
    end_ = data() + capacity;
  }

  std::unique_ptr<char[]> store_;  // [data(), cur_) is written, up to end_
  char* cur_ = nullptr;
  char* end_ = nullptr;
};

class RunNumberer;

class ProgramPrinter {
 public:
  // A value is numbered anew once per print: when its printGen is not `gen`
  // (the program's Context hands out a fresh one each time).
  // `ops`: how many ops it will print (a hint: a block's own count, without
  // its regions'), which sizes its buffers.
  ProgramPrinter(const PrintStyle& style, const OutputSink* sink, uint32_t gen, const OpAnnotator* annotate, size_t ops)
      : style_(style),
        sink_(sink),
        annotate_(annotate),
        out_(4096 + (sink ? std::min(kFlushThreshold, ops * kOutBytesPerOp) : 0)),
        texts_(std::clamp<size_t>(ops * kKeptTextPerOp, 64 << 10, kMaxKeptText)),
        gen_(gen) {}

  void printBlock(const Block& block, std::string_view indent) {
    out_ += indent;
    out_ += "{\n";
    std::string inner(indent);
    inner += "    ";
    printBody(block, inner);
    out_ += indent;
    out_ += "}\n";
  }

  /// The threaded printer's parts: the program's `{` and header, a run of
  /// its ops, its `}`.
  void printOpen(const Block& body) {
    out_ += "{\n";
    printHeader(body, "    ", argsNeedDeclaring(body));
  }
  void printRun(const Operation* from, const Operation* to) { printOps(from, to, kIndent); }
  void printClose() { out_ += "}\n"; }

  std::string take() { return out_.take(); }
  bool failed() const { return failed_; }
  void flush() {
    if (sink_ && out_.size()) {
      if (!(*sink_)(out_.view())) failed_ = true;
      out_.clear();
    }
  }

 private:
  void printOps(const Block& block, const std::string& indent) { printOps(block.front(), nullptr, indent); }

  /// The ops [from, to) of one block.
  void printOps(const Operation* from, const Operation* to, const std::string& indent) {
    // Printing an operand reads its number...
    const Operation* ahead = from;
    for (int i = 0; i < OperandPrefetcher::kDistance && ahead != to; ++i) ahead = ahead->nextOp();
    // ...and a kwarg's name, somewhere else: fetched once its kwarg is in.
    const Operation* names = from;
    for (int i = 0; i < kNamesAhead && names != to; ++i) names = names->nextOp();
    for (const Operation* next = from; next != to;) {
      const Operation& op = *next;
      next = op.nextOp();
      if (ahead != to) {
        for (const OpOperand& o : ahead->operands())
          if (const Value* v = o.get()) prefetch(v);
        ahead = ahead->nextOp();
      }
      if (names != to) {
        for (const OpOperand& o : names->operands())
          if (const Value* v = o.get(); v && v->kind() == ValueKind::Kwarg)
            prefetch(static_cast<const BlockArgument*>(v)->name().data());
        names = names->nextOp();
      }
      out_ += indent;
      printOp(op, indent);
      out_ += '\n';
      if (sink_ && out_.size() >= kFlushThreshold) flush();
    }
  }

  // Paddle declares a block's arguments only where each is first printed
  // (pd_op.while aside), and a reader gives such an argument to the block
  // that uses it. That reads back as this block's arguments only if each is
  // used, first in order, by an op of this block itself; otherwise the block
  // declares them in a `^` line first, as a while body does.
  static bool argsNeedDeclaring(const Block& block) {
    std::span<BlockArgument* const> args = block.arguments();
    if (args.empty()) return false;
    if (!block.parentOp()) return true;  // a program's own block has no first-use form
    size_t declared = 0;
    bool reordered = false;
    walk(block, [&](const Operation& op) {
      for (uint32_t i = 0; i < op.numOperands() && !reordered; ++i) {
        const Value* v = op.operandValue(i);
        if (!v || v->kind() != ValueKind::BlockArgument || v->ownerBlock() != &block || v->index() < declared) continue;
        if (v->index() == declared && op.parentBlock() == &block)
          ++declared;
        else
          reordered = true;
      }
    });
    return reordered || declared != args.size();
  }

  // What a block declares before its ops: its kwargs under `^kw:` (as
  // Paddle's PrintBlock does for any block; the dumps we have show them only
  // in a program's own block), then, when asked, its arguments in a `^` line.
  void printHeader(const Block& block, std::string_view indent, bool withArgs) {
    std::span<BlockArgument* const> kwargs = block.kwargs();
    if (!kwargs.empty()) {
      out_ += indent;
      out_ += "^kw:\n";
      for (size_t i = 0; i < kwargs.size(); ++i) {
        // Kwargs sit in the arena in the order they were made, their names
        // anywhere: each name is fetched a few kwargs ahead.
        if (i + 16 < kwargs.size()) prefetch(kwargs[i + 16]);
        if (i + 8 < kwargs.size()) prefetch(kwargs[i + 8]->name().data());
        out_ += indent;
        out_ += "    ";
        printValue(kwargs[i]);
        out_ += '\n';
      }
    }
    if (withArgs) printArgsLine(block, indent);
  }

  // A block's header and ops, each line at `indent` (a while body's
  // header sits at its op's indent instead: see printWhile).
  void printBody(const Block& block, const std::string& indent) {
    printHeader(block, indent, argsNeedDeclaring(block));
    printOps(block, indent);
  }

  void printArgsLine(const Block& block, std::string_view indent) {
    out_ += indent;
    out_ += '^';
    std::span<BlockArgument* const> args = block.arguments();
    for (size_t i = 0; i < args.size(); ++i) {
      if (i) out_ += ", ";
      printValue(args[i]);
    }
    out_ += '\n';
  }

  /// Inline for an op result printed on one thread, which is most of the
  /// values printed (its call, prologue and epilogue were a third of it);
  /// printOtherValue does the rest.
  [[gnu::always_inline]] void printValue(const Value* v) {
    if (v && !runs_ && v->kind() == ValueKind::OpResult) {
      out_ += '%';
      if (v->printGen != gen_) {
        v->printGen = gen_;
        v->printId = nextResult_++;
        if (next_.value() != v->printId) next_.reset(v->printId);
        out_.append(next_.text(), next_.size());
        next_.next();
        return;
      }
      out_.appendInt(v->printId);
      return;
    }
    printOtherValue(v);
  }

  [[gnu::noinline]] void printOtherValue(const Value* v) {
    if (!v) {
      out_ += "<<NULL VALUE>>";
      return;
    }
    bool first = v->printGen != gen_;
    if (first && runs_) {
      numberFromRun(v);
    } else if (first) {
      v->printGen = gen_;
      v->printId = v->kind() == ValueKind::BlockArgument ? nextArg_++
                   : v->kind() == ValueKind::OpResult    ? nextResult_++
                                                         : 0;
    }
    switch (v->kind()) {
      case ValueKind::OpResult:
        out_ += '%';
        out_.appendInt(runs_ && first ? resultNumber_ : v->printId);
        return;
      case ValueKind::BlockArgument:
        out_ += "%arg_";
        out_.appendInt(v->printId);
        break;
      case ValueKind::Kwarg:
        out_ += "%kwarg_";
        out_ += static_cast<const BlockArgument*>(v)->name();
        break;
    }
    if (first) {
      // Block arguments show their attributes on first print only.
      out_ += " {";
      printAttrList(static_cast<const BlockArgument*>(v)->attributes());
      out_ += '}';
    }
  }

  /// Threaded: the number of a value first printed here that a run
  /// numbered (RunNumberer): an op result's is resultNumber_ (results are
  /// other runs' to read, so nothing is written), an argument's or kwarg's
  /// is stamped as printed (they are the run's own).
  void numberFromRun(const Value* v) {
    if (v->kind() == ValueKind::Kwarg) {
      v->printGen = gen_;
      v->printId = 0;
      return;
    }
    uint32_t run = v->printGen - firstRunGen_;
    if (run >= runs_) {  // a value no run numbered: the program does not verify
      unnumbered_ = true;
      run = 0;
    }
    if (v->kind() == ValueKind::OpResult) {
      resultNumber_ = v->printId + resultBase_[run];
      return;
    }
    v->printId += argBase_[run];
    v->printGen = gen_;
  }

  void printAttrList(std::span<const NamedAttr> attrs) {
    for (size_t i = 0; i < attrs.size(); ++i) {
      if (i) out_ += ',';
      out_ += attrs[i].key;
      out_ += ':';
      // A list of its own (a parameter's, with its name) mostly holds
      // values other lists hold too: their text is kept by address.
      std::string_view cached;
      bool keep = false;
      if (attrs[i].value && texts_.lookup(attrs[i].value, cached, keep)) {
        out_ += cached;
        continue;
      }
      scratch_.clear();
      printAttribute(scratch_, attrs[i].value, style_);
      out_ += scratch_;
      if (keep) texts_.keep(attrs[i].value, scratch_);
    }
  }

  void printType(const Type* t) {
    std::string_view cached;
    bool keep = false;
    if (t && texts_.lookup(t, cached, keep)) {
      out_ += cached;
      return;
    }
    scratch_.clear();
    core::printType(scratch_, t, style_);
    out_ += scratch_;
    if (keep) texts_.keep(t, scratch_);
  }

  void printResults(const Operation& op) {
    out_ += '(';
    for (uint32_t i = 0; i < op.numResults(); ++i) {
      if (i) out_ += ", ";
      printValue(op.result(i));
    }
    out_ += ')';
  }

  void printNameAndId(const Operation& op) {
    out_ += " = \"";
    out_ += op.name();
    out_ += '"';
    if (op.debugId() >= 0) {
      out_ += " [id:";
      out_.appendInt(op.debugId());
      out_ += ']';
    }
  }

  void printOperands(const Operation& op) {
    out_ += " (";
    for (uint32_t i = 0; i < op.numOperands(); ++i) {
      if (i) out_ += ", ";
      printValue(op.operandValue(i));
    }
    out_ += ')';
  }

  void printAttrDict(const Operation& op) {
    out_ += " {";
    // An op's list never changes once made (Context::attrList): its address is its text.
    std::span<const NamedAttr> attrs = op.attributes();
    std::string_view cached;
    bool keep = false;
    if (!attrs.empty() && texts_.lookup(attrs.data(), cached, keep)) {
      out_ += cached;
    } else {
      size_t at = out_.size();
      printAttrList(attrs);
      if (keep) texts_.keep(attrs.data(), out_.view().substr(at));
    }
    out_ += '}';
  }

  void printResultTypes(const Operation& op) {
    for (uint32_t i = 0; i < op.numResults(); ++i) {
      if (i) out_ += ", ";
      printType(op.result(i)->type());
    }
  }

  // ` {ATTRS} : (OPERAND TYPES) -> RESULT TYPES`, which most ops share
  // with many others: copied from the first op that printed it, when the
  // op's signature was seen before.
  void printTail(const Operation& op) {
    uint64_t h = opSignature(op, false, signature_);
    TailText* kept = nullptr;
    auto found = tails_.find(signature_, h, kept);
    if (found == SignatureMemo<TailText>::Found::Hit) {
      out_.append(tailStore_.data() + kept->offset, kept->size);
      return;
    }
    size_t at = out_.size();
    printAttrDict(op);
    out_ += " : (";
    for (uint32_t i = 0; i < op.numOperands(); ++i) {
      if (i) out_ += ", ";
      const Value* v = op.operandValue(i);
      printType(v ? v->type() : nullptr);
    }
    out_ += ") -> ";
    printResultTypes(op);
    size_t size = out_.size() - at;
    if (found == SignatureMemo<TailText>::Found::Admit && tailStore_.size() + size <= kTailStoreBytes) {
      tails_.keep(signature_, h, TailText{tailStore_.size(), size});
      tailStore_.append(out_.view().substr(at, size));
    }
  }

  // The op table says which syntax an op's regions print in; an op whose
  // regions do not fit it prints generically. (Region counts first: most
  // ops have none, and need no lookup.)
  static bool isIf(const Operation& op) {
    return op.numRegions() == 2 && op.region(0).blocks().size() == 1 && op.region(1).blocks().size() == 1 &&
           regionSyntax(op) == RegionSyntax::IfElse;
  }
  static bool isWhile(const Operation& op) {
    return op.numRegions() == 1 && op.region(0).blocks().size() == 1 && op.numOperands() >= 1 &&
           regionSyntax(op) == RegionSyntax::While;
  }
  static RegionSyntax regionSyntax(const Operation& op) {
    const OpInfo* info = lookupOp(op);
    return info ? info->regionSyntax : RegionSyntax::Generic;
  }

  void printOp(const Operation& op, const std::string& indent) {
    if (isIf(op)) return printIf(op, indent);
    if (isWhile(op)) return printWhile(op, indent);
    printResults(op);
    printNameAndId(op);
    printOperands(op);
    printTail(op);
    annotate(op);
    if (op.numRegions() == 0) return;
    // A generic region op: its blocks follow on their own lines, and the
    // enclosing block's newline leaves an empty line after the last `}`.
    out_ += '\n';
    for (uint32_t r = 0; r < op.numRegions(); ++r)
      for (const Block* b : op.region(r).blocks()) printBlock(*b, indent);
  }

  // `(%4) = "pd_op.if" (%3) {..} -> T {` true ops `} else {` false ops `}`
  void printIf(const Operation& op, const std::string& indent) {
    printResults(op);
    printNameAndId(op);
    printOperands(op);
    printAttrDict(op);
    out_ += " -> ";
    printResultTypes(op);
    out_ += " {";
    annotate(op);
    out_ += '\n';
    std::string inner = indent + "    ";
    printBody(*op.region(0).front(), inner);
    out_ += indent;
    out_ += "} else {\n";
    printBody(*op.region(1).front(), inner);
    out_ += indent;
    out_ += '}';
  }

  // `(%5) = "pd_op.while" (cond=%3, inputs=%1, %2) { ` `^%arg_0 {..}` ops `}`
  void printWhile(const Operation& op, const std::string& indent) {
    printResults(op);
    printNameAndId(op);
    out_ += " (cond=";
    printValue(op.operandValue(0));
    out_ += ", inputs=";
    for (uint32_t i = 1; i < op.numOperands(); ++i) {
      if (i > 1) out_ += ", ";
      printValue(op.operandValue(i));
    }
    out_ += ") { ";
    annotate(op);
    out_ += '\n';
    const Block& body = *op.region(0).front();
    printHeader(body, indent, true);
    printOps(body, indent + "    ");
    out_ += indent;
    out_ += '}';
  }

  void annotate(const Operation& op) {
    if (!annotate_) return;
    scratch_.clear();
    (*annotate_)(scratch_, op);
    if (!scratch_.empty()) out_ += scratch_;
  }

  const PrintStyle& style_;
  const OutputSink* sink_;
  const OpAnnotator* annotate_;
  OutBuffer out_;
  std::string scratch_;  // what the free printing functions write, then copied
  TextCache texts_;
  struct TailText {
    size_t offset, size;  // in tailStore_
  };
  SignatureMemo<TailText> tails_;
  std::string tailStore_;  // at most kTailStoreBytes
  OpSignatureKey signature_;
  uint32_t gen_;
  uint32_t nextResult_ = 0;
  DecimalCounter next_;  // nextResult_'s text, when printValue numbers in step with it
  uint32_t nextArg_ = 0;
  bool failed_ = false;
  // Threaded (printProgram's threaded form): runs_ runs numbered values
  // with printGen firstRunGen_ + run, counting from 0; their numbers start
  // at resultBase_[run] and argBase_[run].
  uint32_t runs_ = 0;
  uint32_t firstRunGen_ = 0;
  const uint32_t* resultBase_ = nullptr;
  const uint32_t* argBase_ = nullptr;
  uint32_t resultNumber_ = 0;
  bool unnumbered_ = false;

  inline static const std::string kIndent = "    ";

  friend Status core::printProgramThreaded(const Program&, const OutputSink&, unsigned, size_t);
  friend class RunNumberer;
};

/// The threaded printer's first pass over a run of the program's own
/// block: numbers, from 0, each value the run prints first, in the order
/// ProgramPrinter prints them (results where their op is printed, a
/// block's arguments in its `^` line or where first used), and stamps them
/// with the run's gen. It follows the printer's walk: printOp, printIf,
/// printWhile, printBody, printHeader. Results are printed where they are
/// defined (the program verifies), so operands that are results are not
/// looked at: other runs are stamping those.
class RunNumberer {
 public:
  struct Counts {
    uint32_t results = 0, args = 0;
  };
  RunNumberer(uint32_t gen, uint32_t headerGen) : gen_(gen), headerGen_(headerGen) {}
  uint32_t results = 0, args = 0;

  /// A run of the program's own block. Its ops' operands are not looked
  /// at: a block argument they read is the block's own (the program
  /// verifies), which its header numbered. Reading each operand's kind was
  /// a cache miss per operand.
  void runOps(const Operation* from, const Operation* to) {
    for (const Operation* op = from; op != to; op = op->nextOp()) opOf(*op, false);
  }

 private:
  /// The ops of a block nested in an op.
  void ops(const Operation* from, const Operation* to) {
    OperandPrefetcher prefetcher(from);  // an operand's kind is read, a cache miss
    for (const Operation* op = from; op != to; op = op->nextOp()) {
      prefetcher.next();
      opOf(*op, true);
    }
  }
  void opOf(const Operation& op, bool nested) {
    for (uint32_t i = 0; i < op.numResults(); ++i) stamp(op.result(i), results++);
    if (nested)
      for (const OpOperand& o : op.operands())
        if (const Value* v = o.get(); v && v->kind() == ValueKind::BlockArgument) arg(v);
    if (ProgramPrinter::isIf(op)) {
      body(*op.region(0).front());
      body(*op.region(1).front());
    } else if (ProgramPrinter::isWhile(op)) {
      const Block& b = *op.region(0).front();
      header(b, true);
      ops(b.front(), nullptr);
    } else {
      for (uint32_t r = 0; r < op.numRegions(); ++r)
        for (const Block* b : op.region(r).blocks()) body(*b);
    }
  }
  void body(const Block& b) {
    header(b, ProgramPrinter::argsNeedDeclaring(b));
    ops(b.front(), nullptr);
  }
  void header(const Block& b, bool withArgs) {
    if (withArgs)
      for (const BlockArgument* a : b.arguments()) arg(a);
  }
  void arg(const Value* v) {
    if (v->printGen != gen_ && v->printGen != headerGen_) stamp(v, args++);
  }
  void stamp(const Value* v, uint32_t id) {
    v->printGen = gen_;
    v->printId = id;
  }

  uint32_t gen_, headerGen_;
};

}  // namespace

void printType(std::string& out, const Type* type, const PrintStyle& style) {
  if (!type) {
    out += "<<NULL TYPE>>";
    return;
  }
  switch (type->kind()) {
    case TypeKind::Scalar:
      out += dataTypeName(type->dynCast<ScalarType>()->dtype());
      return;
    case TypeKind::DenseTensor: {
      auto* t = type->dynCast<DenseTensorType>();
      out += t->spelling();
      out += '<';
      appendDims(out, t->dims(), t->dtype());
      out += '>';
      return;
    }
    case TypeKind::DistTensor: {
      auto* t = type->dynCast<DistTensorType>();
      out += "pd_dist.tensor<";
      appendDims(out, t->dims(), t->dtype());
      out += ", ";
      appendTensorDist(out, t->distAttr(), style.distEra != DistEra::DimsMaping);
      out += '>';
      return;
    }
    case TypeKind::Vector: {
      out += "vec[";
      auto elems = type->dynCast<VectorType>()->elements();
      for (size_t i = 0; i < elems.size(); ++i) {
        if (i) out += ',';
        printType(out, elems[i], style);
      }
      out += ']';
      return;
    }
    case TypeKind::Null:
      out += "<<NULL TYPE>>";
      return;
    case TypeKind::Opaque:
      out += type->dynCast<OpaqueType>()->text();
      return;
  }
}

void printAttribute(std::string& out, const Attribute* attr, const PrintStyle& style) {
  if (!attr) {
    out += "<#AttrNull>";
    return;
  }
  switch (attr->kind()) {
    case AttrKind::Bool:
      out += attr->dynCast<BoolAttr>()->value() ? "true" : "false";
      return;
    case AttrKind::String:
      out += '"';
      out += attr->dynCast<StringAttr>()->raw();
      out += '"';
      return;
    case AttrKind::Number: {
      auto* n = attr->dynCast<NumberAttr>();
      if (!n->tag().empty()) {
        out += '(';
        out += n->tag();
        out += ')';
      }
      out += n->text();
      return;
    }
    case AttrKind::Array: {
      auto* a = attr->dynCast<ArrayAttr>();
      if (a->hasArrayPrefix()) out += "(Array)";
      out += '[';
      for (size_t i = 0; i < a->size(); ++i) {
        if (i) out += ',';
        printAttribute(out, a->elements()[i], style);
      }
      out += ']';
      return;
    }
    case AttrKind::Tagged: {
      auto* t = attr->dynCast<TaggedAttr>();
      out += '(';
      out += t->tag();
      out += ')';
      printAttribute(out, t->inner(), style);
      return;
    }
    case AttrKind::Symbol:
      out += attr->dynCast<SymbolAttr>()->text();
      return;
    case AttrKind::Opaque:
      out += attr->dynCast<OpaqueAttr>()->text();
      return;
    case AttrKind::Null:
      out += attr->dynCast<NullAttr>()->spelledNull() ? "null" : "<#AttrNull>";
      return;
    case AttrKind::TypeRef:
      printType(out, attr->dynCast<TypeAttr>()->type(), style);
      return;
    case AttrKind::ProcessMesh: {
      auto* m = attr->dynCast<ProcessMesh>();
      out += "mesh_shape:";
      appendInts(out, m->shape());
      out += ",process_ids:";
      appendInts(out, m->processIds());
      return;
    }
    case AttrKind::Placements:
      appendPlacements(out, attr->dynCast<PlacementsAttr>());
      return;
    case AttrKind::TensorDist:
      appendTensorDist(out, attr->dynCast<TensorDistAttr>(), true);
      return;
    case AttrKind::OpDist:
      appendOpDist(out, attr->dynCast<OpDistAttr>(), style);
      return;
  }
}

std::string typeToString(const Type* type, const PrintStyle& style) {
  std::string s;
  printType(s, type, style);
  return s;
}

std::string attributeToString(const Attribute* attr, const PrintStyle& style) {
  std::string s;
  printAttribute(s, attr, style);
  return s;
}

namespace {
/// In the dims_maping era a tensor dist attr prints no mesh, so it must be
/// on its op's mesh (op attrs) or be recoverable from its producer (types).
bool entrySpellable(const Attribute* a, const ProcessMesh* opMesh) {
  if (auto* tda = a->dynCast<TensorDistAttr>()) return tda->mesh() == opMesh;
  if (auto* arr = a->dynCast<ArrayAttr>()) {
    for (const Attribute* e : arr->elements())
      if (!entrySpellable(e, opMesh)) return false;
  }
  return true;
}

/// Where to report an op a pass made (it has no location): at the first
/// located op its results flow to (a reshard stands for what its consumer
/// needs), else at the nearest op before it.
int64_t userLocation(const Operation& op, int depth) {
  if (op.location() >= 0) return op.location();
  if (depth == 0) return -1;
  for (uint32_t r = 0; r < op.numResults(); ++r)
    for (const OpOperand* u = op.result(r)->firstUse(); u; u = u->nextUse())
      if (int64_t at = userLocation(*u->owner(), depth - 1); at >= 0) return at;
  return -1;
}

int64_t printLocation(const Operation& op) {
  // A lowered reshard's ops chain a few deep before a parsed consumer.
  if (int64_t at = userLocation(op, 24); at >= 0) return at;
  return reportLocation(&op);
}

constexpr unsigned kSpellableBits = 12;
constexpr size_t kSpellableSlots = size_t{1} << kSpellableBits;

size_t spellableSlot(const void* p) { return fibonacciSlot(reinterpret_cast<uintptr_t>(p) >> 4, kSpellableBits); }
}  // namespace

PrintableCheck::PrintableCheck(const Program& program)
    : needed_(program.style().distEra == DistEra::DimsMaping), spellable_(needed_ ? 2 * kSpellableSlots : 0) {}

void PrintableCheck::check(const Operation& op) {
  if (!needed_ || !status_.isOk()) return;
  const NamedAttr* list = op.attributes().data();
  if (!list) return;
  const void*& listSlot = spellable_[spellableSlot(list)];
  if (listSlot == list) return;
  const OpDistAttr* od = op.distAttr();
  if (od && spellable_[kSpellableSlots + spellableSlot(od)] != od) {
    bool ok = true;
    for (const Attribute* a : od->operands()) ok = ok && entrySpellable(a, od->mesh());
    for (const Attribute* a : od->results()) ok = ok && entrySpellable(a, od->mesh());
    if (!ok) {
      status_ = Status::error("op '" + std::string(op.name()) +
                                  "' has a dist attr on another mesh than its op, which the program's "
                                  "dims_maping era cannot print",
                              printLocation(op));
      return;
    }
    spellable_[kSpellableSlots + spellableSlot(od)] = od;
  }
  listSlot = list;
}

Status checkPrintable(const Program& program) {
  if (program.style().distEra != DistEra::DimsMaping) return Status::ok();
  PrintableCheck check(program);
  walk(program.body(), [&](const Operation& op) { check.check(op); });
  return check.status();
}

Status checkPrintable(const Program& program, unsigned threads, size_t minOpsPerThread) {
  const Block& body = program.body();
  threads = static_cast<unsigned>(std::min<size_t>(threads, body.numOps() / std::max<size_t>(minOpsPerThread, 1)));
  if (threads <= 1 || program.style().distEra != DistEra::DimsMaping) return checkPrintable(program);
  std::vector<const Operation*> starts = program.bodyLandmarks().runs(body, threads * 4);
  auto runs = static_cast<uint32_t>(starts.size() - 1);
  // Each run's first error; the first run's that has one is the first op's.
  std::vector<Status> found(runs);
  forEachRunOnThreads(threads, runs, [&](unsigned) {
    return [&](uint32_t r) {
      PrintableCheck check(program);
      const Operation* ahead = starts[r];  // a miss per op, unless fetched a few ahead
      for (int i = 0; i < 8 && ahead; ++i) ahead = ahead->nextOp();
      for (const Operation* op = starts[r]; op != starts[r + 1] && check.status().isOk(); op = op->nextOp()) {
        if (ahead) {
          prefetchOp(ahead);
          ahead = ahead->nextOp();
        }
        check.check(*op);
        for (uint32_t i = 0; i < op->numRegions(); ++i)
          for (const Block* b : op->region(i).blocks()) walk(*b, [&](const Operation& inner) { check.check(inner); });
      }
      found[r] = check.status();
    };
  });
  for (Status& s : found)
    if (!s) return std::move(s);
  return Status::ok();
}

Status printProgram(const Program& program, const OutputSink& sink, const OpAnnotator* annotate) {
  ProgramPrinter p(program.style(), &sink, program.context().newWalkEpoch(), annotate, program.body().numOps());
  p.printBlock(program.body(), "");
  p.flush();
  if (p.failed()) return Status::error("write error");
  return Status::ok();
}

Status printProgramThreaded(const Program& program, const OutputSink& sink, unsigned threads, size_t opsPerRun) {
  // 4096 ops a run are about 2 MB of a dump's text; fewer than 4 runs are
  // not worth the threads.
  const Block& body = program.body();
  opsPerRun = std::max<size_t>(opsPerRun, 1);
  if (threads <= 1 || body.numOps() < 4 * opsPerRun) return printProgram(program, sink);
  std::vector<const Operation*> starts =
      program.bodyLandmarks().runs(body, (body.numOps() + opsPerRun - 1) / opsPerRun);
  auto runs = static_cast<uint32_t>(starts.size() - 1);
  threads = std::min(threads, runs);
  Context& ctx = program.context();
  uint32_t gen = ctx.newWalkEpoch();
  uint32_t firstRunGen = ctx.newWalkEpochs(runs);

  // The `{` and the block's header, numbered as one thread does.
  ProgramPrinter open(program.style(), &sink, gen, nullptr, 0);
  open.printOpen(body);
  open.flush();
  if (open.failed()) return Status::error("write error");

  // Each run numbers what it prints first; then each run's numbers start
  // where the runs before it stopped.
  std::vector<uint32_t> resultBase(runs + 1), argBase(runs + 1);
  {
    std::vector<RunNumberer::Counts> counts(runs);
    forEachRunOnThreads(threads, runs, [&](unsigned) {
      return [&](uint32_t r) {
        RunNumberer n(firstRunGen + r, gen);
        n.runOps(starts[r], starts[r + 1]);
        counts[r] = {n.results, n.args};
      };
    });
    argBase[0] = open.nextArg_;
    for (uint32_t r = 0; r < runs; ++r) {
      resultBase[r + 1] = resultBase[r] + counts[r].results;
      argBase[r + 1] = argBase[r] + counts[r].args;
    }
  }

  // Runs printed on all threads, written in order by whichever thread
  // finishes the next one; a thread waits rather than get more than a few
  // runs ahead of the writing, which bounds the text held. Written runs'
  // storage is printed into again: new storage would fault in its pages.
  std::vector<OutBuffer::Released> texts(runs), spares;
  std::vector<char> ready(runs, 0);
  uint32_t written = 0;
  bool writing = false, failed = false, unnumbered = false;
  std::mutex mutex;
  std::condition_variable progress;
  const uint32_t ahead = 2 * threads + 2;
  std::vector<std::unique_ptr<ProgramPrinter>> printers(threads);
  forEachRunOnThreads(threads, runs, [&](unsigned t) {
    printers[t] = std::make_unique<ProgramPrinter>(program.style(), nullptr, gen, nullptr, body.numOps());
    ProgramPrinter& p = *printers[t];
    p.runs_ = runs;
    p.firstRunGen_ = firstRunGen;
    p.resultBase_ = resultBase.data();
    p.argBase_ = argBase.data();
    return [&](uint32_t r) {
      {
        std::unique_lock<std::mutex> lock(mutex);
        progress.wait(lock, [&] { return r < written + ahead || failed; });
        if (failed) return;
      }
      p.printRun(starts[r], starts[r + 1]);
      std::unique_lock<std::mutex> lock(mutex);
      OutBuffer::Released spare;
      if (!spares.empty()) {
        spare = std::move(spares.back());
        spares.pop_back();
      }
      texts[r] = p.out_.release(std::move(spare));
      unnumbered = unnumbered || p.unnumbered_;
      ready[r] = 1;
      if (writing) return;
      writing = true;
      while (written < runs && ready[written] && !failed) {
        OutBuffer::Released chunk = std::move(texts[written]);
        lock.unlock();
        bool ok = sink(chunk.view());
        lock.lock();
        spares.push_back(std::move(chunk));
        failed = failed || !ok;
        ++written;
        progress.notify_all();
      }
      writing = false;
    };
  });
  if (unnumbered)
    return Status::internal("the threaded printer met a value no run numbered (the program does not verify)");
  if (failed || written != runs) return Status::error("write error");
  ProgramPrinter close(program.style(), &sink, gen, nullptr, 0);
  close.printClose();
  close.flush();
  if (close.failed()) return Status::error("write error");
  return Status::ok();
}

std::string printProgram(const Program& program, const OpAnnotator* annotate) {
  ProgramPrinter p(program.style(), nullptr, program.context().newWalkEpoch(), annotate, program.body().numOps());
  p.printBlock(program.body(), "");
  return p.take();
}

}  // namespace pir::core
