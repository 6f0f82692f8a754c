//===- parser_ops.cpp - programs, blocks, operations and values -----------===//
#include <unordered_set>

#include "core/huge_pages.h"
#include "core/printer.h"
#include "parser/parser_impl.h"

namespace pir::parser {

Parser::Parser(Context& ctx, std::string_view text, DiagnosticEngine& diag, const ParseOptions& options)
    : ctx_(ctx), text_(text), lex_(text), diag_(diag), options_(options) {
  // Dumps spend hundreds of bytes per value, so this holds every `%N`
  // without growing, which would copy (and fault in) the table again. Pages
  // past the values read are never touched.
  core::reserveOnHugePages(numbered_, text.size() / 64 + 64);
  consume();
}

//===----------------------------------------------------------------------===//
// Tokens and errors
//===----------------------------------------------------------------------===//

bool Parser::syntaxErrorAt(const char* p, std::string message) {
  if (!failed_) diag_.error(offsetOf(p), std::move(message));
  failed_ = true;
  return false;
}

bool Parser::syntaxError(const Token& t, std::string message) {
  // An invalid token reports the lexer's reason, wherever it was met.
  if (t.is(TokenKind::Error)) return syntaxErrorAt(t.text.data(), lex_.errorMessage());
  return syntaxErrorAt(t.text.data(), std::move(message));
}

bool Parser::unexpected(std::string_view expected, std::string_view tail) {
  std::string found = tok_.is(TokenKind::Eof) ? "end of input" : "'" + std::string(tok_.text.substr(0, 40)) + "'";
  return syntaxError(tok_, "expected " + std::string(expected) + std::string(tail) + ", found " + found);
}

bool Parser::expect(TokenKind k, std::string_view what) {
  if (consumeIf(k)) return true;
  return unexpected(what);
}

Token Parser::peek() {
  Lexer::State saved = lex_.save();
  Token t = lex_.next();
  lex_.restore(saved);
  return t;
}

bool Parser::enterNesting(const Token& at) {
  if (++depth_ > kMaxNestingDepth)
    return syntaxError(at, "nesting deeper than " + std::to_string(kMaxNestingDepth) +
                               " levels (kMaxNestingDepth); refusing to read further");
  return true;
}

//===----------------------------------------------------------------------===//
// Programs
//===----------------------------------------------------------------------===//

// file ::= (split-marker? program)*
bool Parser::parseFile(std::vector<ParsedProgram>& out) {
  while (true) {
    std::string marker;
    Token markerTok = tok_;
    if (tok_.is(TokenKind::SplitMarker)) {
      marker = std::string(tok_.text);
      consume();
    }
    if (tok_.is(TokenKind::Eof)) {
      if (out.empty()) return syntaxError(tok_, "empty input: expected a program");
      // Dropping it would lose a line of the input; keeping it would print a
      // separator with no program, which does not read back.
      if (!marker.empty())
        return syntaxError(markerTok, "'// -----' at the end of the input, with no program after it");
      return true;
    }
    ParsedProgram parsed;
    parsed.marker = std::move(marker);
    parsed.offset = offsetOf(tok_);
    parsed.program = std::make_unique<Program>(ctx_);
    parsed.program->setLocation(parsed.offset);
    bool braced = tok_.is(TokenKind::LBrace);
    if (!braced && !tok_.is(TokenKind::LParen)) return unexpected("'{' or an operation to start a program");
    if (!parseProgramBody(*parsed.program, braced)) return false;
    out.push_back(std::move(parsed));
    if (!tok_.is(TokenKind::Eof) && !tok_.is(TokenKind::SplitMarker) && !tok_.is(TokenKind::LBrace) &&
        !tok_.is(TokenKind::LParen))
      return unexpected("end of input or '// -----' after the program");
  }
}

// program ::= `{` block-body `}` | op+   (a fragment without braces)
bool Parser::parseProgramBody(Program& program, bool braced) {
  program_ = &program;
  style_ = &program.style();
  numbered_.clear();
  named_.clear();
  numbersInNamed_ = false;
  pending_.clear();
  typeCache_.clear();
  opDistCache_.clear();
  attrDictCache_.clear();
  tailMemo_.clear();
  sawDistEra_ = sawNumberStyle_ = sawTensorSpelling_ = sawChunkStyle_ = false;
  Token open = tok_;
  if (braced) consume();
  if (!parseBlockBody(program.body(), braced ? &open : nullptr)) return false;
  reportUndefinedValues();
  return true;
}

// block-body ::= kwargs? block-args? op* `}`
// `openBrace` is the block's `{`, or null for a fragment without braces.
bool Parser::parseBlockBody(Block& block, const Token* openBrace) {
  bool braced = openBrace != nullptr;
  if (tok_.is(TokenKind::Caret)) {
    Token next = peek();
    if (next.isIdent("kw")) {
      if (!parseKwargs(block)) return false;
    }
    if (tok_.is(TokenKind::Caret) && !parseBlockArgsLine(block)) return false;
  }
  while (true) {
    if (braced && consumeIf(TokenKind::RBrace)) return true;
    if (!braced && (tok_.is(TokenKind::Eof) || tok_.is(TokenKind::SplitMarker))) return true;
    if (tok_.is(TokenKind::LParen)) {
      if (!parseOp(block)) return false;
      if (options_.doneWith && !chunk_ && offsetOf(tok_) - doneUpTo_ >= kDoneStep) {
        options_.doneWith(static_cast<size_t>(doneUpTo_), static_cast<size_t>(offsetOf(tok_)));
        doneUpTo_ = offsetOf(tok_);
      }
      continue;
    }
    if (tok_.is(TokenKind::Eof)) {
      if (!failed_) {
        Diagnostic& d = diag_.error(offsetOf(tok_), "unexpected end of input: missing '}'");
        d.notes.push_back(Diagnostic{Severity::Note, offsetOf(*openBrace), "the block opened here", {}});
      }
      failed_ = true;
      return false;
    }
    return unexpected(braced ? "an operation or '}'" : "an operation");
  }
}

// kwargs ::= `^` `kw` `:` (kwarg-id attr-dict?)*
bool Parser::parseKwargs(Block& block) {
  consume();  // ^
  consume();  // kw
  if (!expect(TokenKind::Colon, "':' after '^kw'")) return false;
  while (tok_.is(TokenKind::ValueId) && tok_.text.starts_with("%kwarg_")) {
    Token name = tok_;
    consume();
    BlockArgument* kw = block.addKwarg(ctx_, name.text.substr(7), nullptr);
    defineValue(name, kw);
    if (tok_.is(TokenKind::LBrace) && atAttrDict()) {
      std::vector<NamedAttr> attrs;
      const ProcessMesh* unused = nullptr;
      if (!parseNamedAttrList(attrs, unused)) return false;
      kw->setAttributes(ctx_.arena(), attrs);
    }
  }
  return true;
}

// block-args ::= `^` (arg-id attr-dict? (`,` arg-id attr-dict?)*)?
bool Parser::parseBlockArgsLine(Block& block) {
  consume();  // ^
  if (tok_.newlineBefore) return true;
  return parseCommaSeparated([&] {
    if (!tok_.is(TokenKind::ValueId)) return unexpected("a block argument such as '%arg_0'");
    Token name = tok_;
    consume();
    BlockArgument* arg = block.addArgument(ctx_, nullptr);
    defineValue(name, arg);
    if (tok_.is(TokenKind::LBrace) && atAttrDict()) {
      std::vector<NamedAttr> attrs;
      const ProcessMesh* unused = nullptr;
      if (!parseNamedAttrList(attrs, unused)) return false;
      arg->setAttributes(ctx_.arena(), attrs);
    }
    return true;
  });
}

//===----------------------------------------------------------------------===//
// Operations
//===----------------------------------------------------------------------===//

// op ::= `(` value-ids? `)` `=` op-name debug-id? operands attr-dict?
//        (`:` `(` types? `)`)? (`->` result-types)? regions?
bool Parser::parseOp(Block& block) {
  switch (tryFastOp(block)) {
    case FastOp::Done:
      return true;
    case FastOp::Failed:
      return false;
    case FastOp::Fallback:
      break;
  }
  bool admit = tailAdmit_;
  Token start = tok_;
  if (!enterNesting(start)) return false;
  std::vector<Token>& resultNames = resultNames_;
  resultNames.clear();
  if (!parseOpResults(resultNames)) return false;
  if (!expect(TokenKind::Equal, "'=' after the results")) return false;

  std::string_view name;
  if (tok_.is(TokenKind::String))
    name = tok_.text.substr(1, tok_.text.size() - 2);
  else if (tok_.is(TokenKind::Identifier))
    name = tok_.text;
  else
    return unexpected("an operation name");
  if (name.empty()) return syntaxError(tok_, "empty operation name");
  consume();

  int64_t debugId = -1;
  if (tok_.is(TokenKind::LBracket)) {
    consume();
    if (!tok_.isIdent("id")) return unexpected("'id' in a debug id '[id:N]'");
    consume();
    if (!expect(TokenKind::Colon, "':'")) return false;
    if (!tok_.is(TokenKind::Integer)) return unexpected("an integer id");
    if (!parseInt64(tok_, debugId, "debug id")) return false;
    consume();
    if (!expect(TokenKind::RBracket, "']'")) return false;
  }

  std::vector<Value*>& operands = operands_;
  std::vector<Token>& operandNames = operandNames_;
  std::vector<std::string_view>& keywords = keywords_;
  operands.clear();
  operandNames.clear();
  keywords.clear();
  opDeferred_.clear();
  if (!tok_.is(TokenKind::LParen)) return unexpected("'(' to start the operand list");
  if (!parseOperands(block, operands, operandNames, keywords)) return false;

  std::span<const NamedAttr> attrs;
  const ProcessMesh* opMesh = nullptr;
  const char* dictAt = nullptr;
  size_t diagsBeforeTail = diag_.size();
  if (tok_.is(TokenKind::LBrace) && atAttrDict()) {
    dictAt = tok_.text.data();
    if (!parseOpAttrDict(attrs, opMesh)) return false;
  }

  std::vector<const Type*>& operandTypes = operandTypes_;
  operandTypes.clear();
  operandTypesAt_.clear();
  Token typesAt = tok_;
  bool hasOperandTypes = false;
  if (consumeIf(TokenKind::Colon)) {
    hasOperandTypes = true;
    if (!expect(TokenKind::LParen, "'(' to start the operand types")) return false;
    bool read = parseCommaList(TokenKind::RParen, "')' after the operand types", [&] {
      size_t i = operandTypes.size();
      const ProcessMesh* hint = opMesh;
      if (i < operands.size() && operands[i] && operands[i]->type()) {
        const Type* vt = operands[i]->type();
        if (auto* vec = vt->dynCast<VectorType>(); vec && !vec->elements().empty()) vt = vec->elements()[0];
        if (const TensorDistAttr* d = distAttrOf(vt)) hint = d->mesh();
      }
      const Type* t = nullptr;
      operandTypesAt_.push_back(tok_.text.data());
      if (!parseType(t, hint)) return false;
      operandTypes.push_back(t);
      return true;
    });
    if (!read) return false;
  }

  std::vector<const Type*>& resultTypes = resultTypes_;
  resultTypes.clear();
  Token resultTypesAt = tok_;
  if (consumeIf(TokenKind::Arrow)) {
    if (!parseTypeListUntilLineEnd(resultTypes, opMesh)) return false;
    if (admit && dictAt && hasOperandTypes && diag_.size() == diagsBeforeTail)
      admitTail(dictAt, typesAt, attrs, opMesh, operandTypes, resultTypes);
  } else if (tok_.is(TokenKind::LBrace)) {
    // pd_op.while prints no result types: like block arguments, its results
    // learn their types where they are first used.
    resultTypes.assign(resultNames.size(), nullptr);
  } else if (!resultNames.empty()) {
    return unexpected("'->' and the result types");
  }
  if (resultTypes.size() != resultNames.size()) {
    diag_.error(offsetOf(resultTypesAt), "operation names " + std::to_string(resultNames.size()) +
                                             " result(s) but lists " + std::to_string(resultTypes.size()) +
                                             " result type(s)");
    resultTypes.resize(resultNames.size(), nullptr);
  }

  Operation* op = Operation::createInterned(ctx_, internOpName(name), operands, resultTypes, attrs);
  op->setLocation(offsetOf(start));
  op->setDebugId(debugId);
  if (!keywords.empty()) op->setOperandKeywords(ctx_.arena(), keywords);
  appendOp(block, op);
  ++numOpsRead_;
  for (uint32_t i : opDeferred_) {
    bool typed = hasOperandTypes && operandTypes.size() == operands.size();
    chunk_->defer(Deferred{.operand = &op->operand(i),
                           .name = operandNames[i].text,
                           .typeAt = typed ? operandTypesAt_[i] : nullptr,
                           .type = typed ? operandTypes[i] : nullptr,
                           .opMesh = opMesh,
                           .number = static_cast<int32_t>(numberInText(operandNames[i].text))});
  }
  for (size_t i = 0; i < resultNames.size(); ++i) defineValue(resultNames[i], op->result(static_cast<uint32_t>(i)));
  if (hasOperandTypes) checkOperandTypes(*op, operandTypes, typesAt, operandNames);

  if (tok_.is(TokenKind::LBrace) && !parseRegions(*op)) return false;
  leaveNesting();
  return true;
}

// results ::= `(` (value-id (`,` value-id)*)? `)`
bool Parser::parseOpResults(std::vector<Token>& names) {
  consume();  // (
  return parseCommaList(TokenKind::RParen, "',' or ')' in the result list", [&] {
    if (!tok_.is(TokenKind::ValueId)) return unexpected("a result name such as '%0'");
    names.push_back(tok_);
    consume();
    return true;
  });
}

// operands ::= `(` (operand (`,` operand)*)? `)`
// operand  ::= (identifier `=`)? (value-id attr-dict? | `<<NULL VALUE>>`)
bool Parser::parseOperands(Block& block, std::vector<Value*>& values, std::vector<Token>& names,
                           std::vector<std::string_view>& keywords) {
  consume();  // (
  bool read = parseCommaList(TokenKind::RParen, "',' or ')' in the operand list", [&] {
    if (tok_.is(TokenKind::Identifier) && peek().is(TokenKind::Equal)) {
      Token keyword = tok_;
      consume();
      consume();
      // Paddle prints a while without loop inputs as `(cond=%0, inputs=)`:
      // the `)` ends the list.
      if (tok_.is(TokenKind::RParen)) return true;
      keywords.resize(values.size(), std::string_view());
      keywords.push_back(ctx_.intern(keyword.text));
    }
    names.push_back(tok_);
    if (consumeIf(TokenKind::NullValue)) {
      values.push_back(nullptr);
      return true;
    }
    if (!tok_.is(TokenKind::ValueId)) return unexpected("an operand value");
    Token name = tok_;
    consume();
    bool hasAttrs = tok_.is(TokenKind::LBrace) && atAttrDict();
    Value* v = resolveOperand(name, block, hasAttrs);
    if (!v && chunk_) opDeferred_.push_back(static_cast<uint32_t>(values.size()));
    if (hasAttrs) {
      std::vector<NamedAttr> attrs;
      const ProcessMesh* unused = nullptr;
      Token at = tok_;
      if (!parseNamedAttrList(attrs, unused)) return false;
      if (v && v->kind() != ValueKind::OpResult && static_cast<BlockArgument*>(v)->attributes().empty())
        static_cast<BlockArgument*>(v)->setAttributes(ctx_.arena(), attrs);
      else if (!attrs.empty())
        diag_.error(offsetOf(at), "attributes are printed only where a block argument first appears");
    }
    values.push_back(v);
    return true;
  });
  if (!read) return false;
  if (!keywords.empty()) keywords.resize(values.size(), std::string_view());
  return true;
}

// regions ::= region ((`else`)? region)*      region ::= `{` block-body `}`
bool Parser::parseRegions(Operation& op) {
  while (true) {
    if (!enterNesting(tok_)) return false;
    Token open = tok_;
    if (!expect(TokenKind::LBrace, "'{' to start a region")) return false;
    Block* block = op.addRegion(ctx_).addBlock(ctx_);
    if (!parseBlockBody(*block, &open)) return false;
    leaveNesting();
    if (tok_.isIdent("else")) {
      consume();
      if (!tok_.is(TokenKind::LBrace)) return unexpected("'{' after 'else'");
      continue;
    }
    if (!tok_.is(TokenKind::LBrace)) return true;
  }
}

// result-types ::= (type (`,` type)*)?   -- ends at the end of the line
bool Parser::parseTypeListUntilLineEnd(std::vector<const Type*>& types, const ProcessMesh* hint) {
  if (tok_.newlineBefore || tok_.is(TokenKind::Eof) || tok_.is(TokenKind::LBrace) || tok_.is(TokenKind::RBrace) ||
      tok_.is(TokenKind::SplitMarker))
    return true;
  return parseCommaSeparated(
      [&] {
        const Type* t = nullptr;
        if (!parseType(t, hint)) return false;
        types.push_back(t);
        return true;
      },
      [&] { return !tok_.newlineBefore; });  // a comma on the next line is not this list's
}

/// At a `{`: is it an attribute dictionary (`{}` on one line, or `{key:`)
/// rather than a region?
bool Parser::atAttrDict() {
  Token next = peek();
  if (next.is(TokenKind::RBrace)) return !next.newlineBefore;
  return next.is(TokenKind::Identifier) || next.is(TokenKind::String);
}

// Most ops repeat another op's dictionary byte for byte (only names and
// shapes vary), so an op's dictionary is cached by its text, like types.
bool Parser::parseOpAttrDict(std::span<const NamedAttr>& out, const ProcessMesh*& opMesh) {
  const char* start = tok_.text.data();
  const char* end = extentOf(start, true);
  std::string_view key(start, end ? static_cast<size_t>(end - start) : 0);
  bool admit = false;
  if (end)
    if (const auto* hit = attrDictCache_.find(key, admit)) {
      std::tie(out, opMesh) = *hit;
      lex_.resetTo(end);
      consume();
      return true;
    }
  size_t diagsBefore = diag_.size();
  attrs_.clear();
  if (!parseNamedAttrList(attrs_, opMesh)) return false;
  out = ctx_.attrList(attrs_);
  // A dictionary that drew a diagnostic (a duplicate key) draws it each time.
  if (admit && prevEnd_ == end && diag_.size() == diagsBefore) attrDictCache_.add(key, std::make_pair(out, opMesh));
  return true;
}

// attr-dict ::= `{` (key `:` attr (`,` key `:` attr)*)? `}`
bool Parser::parseNamedAttrList(std::vector<NamedAttr>& attrs, const ProcessMesh*& opMesh) {
  constexpr size_t kLinearKeyCheck = 32;
  std::unordered_set<std::string_view> keys;  // once past kLinearKeyCheck keys
  if (!enterNesting(tok_)) return false;
  consume();  // {
  bool read = parseCommaList(TokenKind::RBrace, "',' or '}' in the attribute dictionary", [&] {
    if (!tok_.is(TokenKind::Identifier)) return unexpected("an attribute name");
    Token key = tok_;
    consume();
    if (!expect(TokenKind::Colon, "':' after the attribute name")) return false;
    const Attribute* value = nullptr;
    if (key.text == "op_dist_attr" && tok_.is(TokenKind::LBrace)) {
      if (!parseOpDistAttr(value, opMesh)) return false;
    } else if (!parseAttribute(value)) {
      return false;
    }
    // Dictionaries hold a handful of keys; a hostile one with thousands
    // is checked through a set, not pair by pair.
    bool duplicate = false;
    if (attrs.size() < kLinearKeyCheck) {
      for (const NamedAttr& a : attrs) duplicate = duplicate || a.key == key.text;
    } else {
      if (keys.empty())
        for (const NamedAttr& a : attrs) keys.insert(a.key);
      duplicate = !keys.insert(key.text).second;
    }
    if (duplicate) diag_.error(offsetOf(key), "duplicate attribute '" + std::string(key.text) + "'");
    attrs.push_back(NamedAttr{ctx_.intern(key.text), value});
    return true;
  });
  if (!read) return false;
  leaveNesting();
  return true;
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

int64_t Parser::numberOf(std::string_view name) {
  // `%N` written the canonical way (`%0123` is another name than `%123`).
  // Nine digits at most: no overflow to check.
  std::string_view digits = name.substr(std::min<size_t>(1, name.size()));
  if (digits.empty() || digits.size() > 9 || (digits[0] == '0' && digits.size() > 1)) return -1;
  int64_t n = 0;
  for (char c : digits) {
    if (!isDigit(c)) return -1;
    n = n * 10 + (c - '0');
  }
  return n;
}

Parser::ValueEntry* Parser::lookupEntry(std::string_view name, bool create) {
  if (int64_t n = numberInText(name); n >= 0) {
    // A number that once fell outside the dense table's window lives in
    // named_ for good, though the window has grown past it since.
    if (numbersInNamed_)
      if (auto it = named_.find(name); it != named_.end()) return &it->second;
    // A dense table for `%N` while N stays near the number of ops read, so
    // a hostile `%999999999` cannot make it huge. The table never holds
    // more than the window, so what is outside it was never in it.
    // (A chunk's table starts at the first number it defines.)
    if (n >= numberBase_ && n - numberBase_ < 4 * static_cast<int64_t>(numOpsRead_) + 4096) {
      auto i = static_cast<size_t>(n - numberBase_);
      if (i < numbered_.size()) return &numbered_[i];
      if (!create) return nullptr;
      if (i >= numbered_.capacity()) numbered_.reserve(std::max<size_t>(i + 1, numbered_.capacity() * 2));
      if (i == numbered_.size())
        numbered_.emplace_back();  // values are mostly numbered in order
      else
        numbered_.resize(i + 1);
      return &numbered_[i];
    }
    // Not in the window: named_ was looked in above, or holds no number
    // (a chunk's operands defined by earlier chunks all end here).
    if (!create) return nullptr;
    numbersInNamed_ = true;
  }
  if (create) return &named_[name];
  auto it = named_.find(name);
  return it == named_.end() ? nullptr : &it->second;
}

Value* Parser::resolveOperand(const Token& name, Block& block, bool /*hasAttrs*/) {
  if (ValueEntry* e = lookupEntry(name.text, false); e && e->value) return e->value;
  // Paddle never declares positional block arguments: the first use, which
  // prints the argument's attributes, introduces it. A program's own block
  // has none (its inputs are kwargs), so there `%arg_N` is just undefined.
  if (name.text.starts_with("%arg_") && block.parentOp()) {
    if (chunk_) chunk_->argsMade.push_back(name.text);  // unless an earlier chunk defines it
    BlockArgument* arg = block.addArgument(ctx_, nullptr);
    defineValue(name, arg);
    return arg;
  }
  // A chunk defers it (Parser::Deferred); the join finds it, or gives up.
  if (!chunk_) pending_[name.text].push_back(offsetOf(name));
  return nullptr;
}

void Parser::defineValue(const Token& name, Value* v) {
  ValueEntry* e = lookupEntry(name.text, true);
  if (e->value) {
    Diagnostic& d = diag_.error(offsetOf(name), "redefinition of value '" + std::string(name.text) + "'");
    d.notes.push_back(Diagnostic{Severity::Note, e->offset, "previously defined here", {}});
    return;
  }
  e->value = v;
  e->offset = offsetOf(name);
  if (pending_.empty()) return;
  auto it = pending_.find(name.text);
  if (it == pending_.end()) return;
  for (int64_t use : it->second) {
    Diagnostic& d = diag_.error(use, "value '" + std::string(name.text) + "' is used before its definition");
    d.notes.push_back(Diagnostic{Severity::Note, offsetOf(name), "defined here", {}});
  }
  pending_.erase(it);
}

void Parser::reportUndefinedValues() {
  for (auto& [name, uses] : pending_)
    for (int64_t use : uses) diag_.error(use, "undefined value '" + std::string(name) + "'");
  pending_.clear();
}

void Parser::checkOperandTypes(Operation& op, std::span<const Type* const> types, const Token& at,
                               const std::vector<Token>& operandNames) {
  if (types.size() != op.numOperands()) {
    diag_.error(offsetOf(at), "operation has " + std::to_string(op.numOperands()) + " operand(s) but lists " +
                                  std::to_string(types.size()) + " operand type(s)");
    return;
  }
  for (uint32_t i = 0; i < op.numOperands(); ++i) {
    Value* v = op.operandValue(i);
    if (!v) continue;
    if (!v->type()) {
      v->setType(types[i]);  // a block argument or kwarg learns its type at its first use
      continue;
    }
    if (!typesEqual(v->type(), types[i])) {
      std::string message = "type of operand " + std::to_string(i) + " ('" + std::string(operandNames[i].text) +
                            "') does not match its definition: defined as '" + typeToString(v->type(), *style_) +
                            "', used as '" + typeToString(types[i], *style_) + "'";
      if (options_.staleOperandTypesWarn)
        diag_.add(
            Diagnostic{Severity::Warning, offsetOf(operandNames[i]), message + " (the definition's is kept)", {}});
      else
        diag_.error(offsetOf(operandNames[i]), std::move(message));
    }
  }
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

namespace {
Status summary(DiagnosticEngine& diag) {
  diag.sortByPosition();
  size_t n = 0;
  for (const Diagnostic& d : diag.diagnostics())
    if (d.severity == Severity::Error) ++n;
  return Status::error(std::to_string(n) + " error(s)");
}
}  // namespace

std::unique_ptr<Program> parseChunked(Context& ctx, std::string_view text, const ParseOptions& options,
                                      int64_t& offset);

Result<std::vector<ParsedProgram>> parseFile(Context& ctx, const SourceFile& source, DiagnosticEngine& diag,
                                             const ParseOptions& options) {
  if (options.threads > 1) {
    int64_t offset = 0;
    if (std::unique_ptr<Program> program = parseChunked(ctx, source.text(), options, offset)) {
      std::vector<ParsedProgram> programs(1);
      programs[0].offset = offset;
      programs[0].program = std::move(program);
      return programs;
    }
  }
  Parser p(ctx, source.text(), diag, options);
  std::vector<ParsedProgram> programs;
  bool ok = p.parseFile(programs);
  if (!ok || diag.hasErrors()) return summary(diag);
  return programs;
}

Result<std::unique_ptr<Program>> parseProgram(Context& ctx, const SourceFile& source, DiagnosticEngine& diag) {
  auto r = parseFile(ctx, source, diag);
  if (!r) return r.takeStatus();
  if (r->size() != 1) {
    diag.error((*r)[1].offset, "multiple programs; use --split-input-file");
    return summary(diag);
  }
  return std::move((*r)[0].program);
}

Result<const Type*> parseType(Context& ctx, std::string_view text, DiagnosticEngine& diag) {
  Parser p(ctx, text, diag);
  const Type* t = nullptr;
  if (!p.parseTypeOnly(t) || diag.hasErrors()) return summary(diag);
  return t;
}

Result<const Attribute*> parseAttribute(Context& ctx, std::string_view text, DiagnosticEngine& diag) {
  Parser p(ctx, text, diag);
  const Attribute* a = nullptr;
  if (!p.parseAttributeOnly(a) || diag.hasErrors()) return summary(diag);
  return a;
}

std::string_view jobNameOfMarker(std::string_view markerLine) {
  std::string_view rest = markerLine.substr(std::min(markerLine.size(), std::string_view("// -----").size()));
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  if (!rest.starts_with("job:")) return {};
  rest.remove_prefix(4);
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\r')) rest.remove_suffix(1);
  return rest;
}

}  // namespace pir::parser
