//===- parser_dist.cpp - op_dist_attr, tensor dist attrs, meshes ----------===//
//
// Older eras print less than the model holds. On reading, the gaps are
// filled: an op attr entry without a mesh (`dims_maping` era) is on its op's
// mesh; a type that prints only `mesh_shape` is on the mesh of `hint` (the
// producer's op mesh for results, the value's mesh for operands) when the
// shapes agree, and otherwise on ids 0..n-1 (block arguments and kwargs).
//
//===----------------------------------------------------------------------===//
#include <tuple>

#include "parser/parser_impl.h"

namespace pir::parser {

namespace {
constexpr int64_t kMaxMeshSize = int64_t{1} << 24;  // process ids in one mesh
// Process ids made up for meshes given only by their shape, in one parse.
constexpr int64_t kMaxSequentialIds = int64_t{1} << 22;

/// Where element `k` of the integer list whose `[` is at `open` starts (the
/// list was read, so it holds that many elements).
const char* intListElement(const char* open, size_t k) {
  const char* p = open + 1;
  for (; k > 0; ++p)
    if (*p == ',') --k;
  while (*p == ' ' || *p == '\t') ++p;
  return p;
}

bool sameShape(const ProcessMesh* m, const std::vector<int64_t>& shape) {
  return m && std::equal(m->shape().begin(), m->shape().end(), shape.begin(), shape.end());
}
}  // namespace

void Parser::noteDistEra(DistEra era) {
  if (sawDistEra_ || !style_) return;
  sawDistEra_ = true;
  style_->distEra = era;
}

// mesh-dict ::= `{` `shape` `:` int-list `,` `process_ids` `:` int-list
//               (`,` `dim_names` `:` `[` (name (`,` name)* `,`?)? `]`)? `}`
bool Parser::parseMeshDict(const ProcessMesh*& out) {
  Token open = tok_;
  if (!expect(TokenKind::LBrace, "'{' to start the mesh")) return false;
  std::vector<int64_t> shape, ids;
  std::vector<std::string_view> names;
  if (!tok_.isIdent("shape")) return unexpected("'shape' in the mesh");
  consume();
  if (!expect(TokenKind::Colon, "':' after 'shape'")) return false;
  const char* shapeAt = tok_.text.data();
  if (!parseIntList(shape, "the mesh shape", "mesh dimension")) return false;
  if (!expect(TokenKind::Comma, "',' after the mesh shape")) return false;
  if (!tok_.isIdent("process_ids")) return unexpected("'process_ids' in the mesh");
  consume();
  if (!expect(TokenKind::Colon, "':' after 'process_ids'")) return false;
  const char* idsAt = tok_.text.data();
  if (!parseIntList(ids, "the process ids", "process id")) return false;
  checkMesh(shape, shapeAt, ids, idsAt);
  if (consumeIf(TokenKind::Comma)) {
    if (!tok_.isIdent("dim_names")) return unexpected("'dim_names' or '}' in the mesh");
    consume();
    if (!expect(TokenKind::Colon, "':' after 'dim_names'") || !expect(TokenKind::LBracket, "'['")) return false;
    auto name = [&] {
      if (!tok_.is(TokenKind::Identifier) && !tok_.is(TokenKind::String)) return unexpected("a mesh dim name");
      names.push_back(tok_.text);
      consume();
      return true;
    };
    if (!parseCommaList<TrailingComma::Allowed>(TokenKind::RBracket, "']' after the dim names", name)) return false;
  }
  if (!expect(TokenKind::RBrace, "'}' to close the mesh")) return false;
  (void)open;
  out = ctx_.processMesh(shape, ids, names);
  return true;
}

void Parser::checkMesh(std::span<const int64_t> shape, const char* shapeAt, std::span<const int64_t> ids,
                       const char* idsAt) {
  if (auto fault = meshFault(shape, ids))
    diag_.error(offsetOf(intListElement(fault->inShape ? shapeAt : idsAt, fault->index)), fault->message);
}

// op-dist-attr ::= `{` `mesh` `:` mesh-dict (`,` entry)* `}`
// entry ::= (`operand` | `result`) `(` integer `)` `:` `{` entry-value `}`
//         | `chunk_id` `:` integer
// The mesh is read as the first of the comma-separated fields.
bool Parser::parseOpDistAttr(const Attribute*& out, const ProcessMesh*& opMesh) {
  const char* start = tok_.text.data();
  const char* end = extentOf(start, true);
  if (!end) return parseOpDistAttrUncached(out, opMesh);
  std::string_view key(start, static_cast<size_t>(end - start));
  if (auto it = opDistCache_.find(key); it != opDistCache_.end()) {
    std::tie(out, opMesh) = it->second;
    lex_.resetTo(end);
    consume();
    return true;
  }
  size_t diagsBefore = diag_.size();
  if (!parseOpDistAttrUncached(out, opMesh)) return false;
  // An attr that drew a diagnostic (a refused mesh or placement) draws it each time.
  if (prevEnd_ == end && diag_.size() == diagsBefore) opDistCache_.emplace(key, std::make_pair(out, opMesh));
  return true;
}

bool Parser::parseOpDistAttrUncached(const Attribute*& out, const ProcessMesh*& opMesh) {
  if (!enterNesting(tok_)) return false;
  consume();  // {
  const ProcessMesh* mesh = nullptr;
  std::vector<const Attribute*> operands, results;
  int64_t chunkId = -1;
  bool hasChunk = false;
  bool read = parseCommaSeparated([&] {
    if (!mesh) {  // the first field
      if (!tok_.isIdent("mesh")) return unexpected("'mesh' to start op_dist_attr");
      consume();
      if (!expect(TokenKind::Colon, "':' after 'mesh'") || !parseMeshDict(mesh)) return false;
      opMesh = mesh;
      return true;
    }
    Token key = tok_;
    if (key.isIdent("chunk_id")) {
      consume();
      if (!expect(TokenKind::Colon, "':' after 'chunk_id'")) return false;
      if (!tok_.is(TokenKind::Integer)) return unexpected("an integer chunk id");
      if (!parseInt64(tok_, chunkId, "chunk id")) return false;
      hasChunk = true;
      consume();
      return true;
    }
    bool isOperand = key.isIdent("operand");
    if (!isOperand && !key.isIdent("result")) return unexpected("'operand(N)', 'result(N)' or 'chunk_id'");
    std::vector<const Attribute*>& list = isOperand ? operands : results;
    consume();
    if (!expect(TokenKind::LParen, "'('")) return false;
    int64_t index = 0;
    if (!tok_.is(TokenKind::Integer) || !parseInt64(tok_, index, "index")) return unexpected("an index");
    if (index != static_cast<int64_t>(list.size()))
      return syntaxError(tok_, "expected " + std::string(key.text) + "(" + std::to_string(list.size()) +
                                   ") here; entries must be numbered in order from 0");
    consume();
    if (!expect(TokenKind::RParen, "')'") || !expect(TokenKind::Colon, "':'")) return false;
    if (!expect(TokenKind::LBrace, "'{' before the dist attribute")) return false;
    const Attribute* entry = nullptr;
    if (!parseOpDistEntry(entry, mesh)) return false;
    if (!expect(TokenKind::RBrace, "'}' after the dist attribute")) return false;
    list.push_back(entry);
    return true;
  });
  if (!read || !expect(TokenKind::RBrace, "',' or '}' in op_dist_attr")) return false;
  leaveNesting();
  if (!sawChunkStyle_ && style_) {
    sawChunkStyle_ = true;
    style_->opDistChunkId = hasChunk;
  }
  out = ctx_.opDistAttr(mesh, operands, results, chunkId, hasChunk);
  return true;
}

// entry-value ::= tensor-dist-attr | `[` (tensor-dist-attr (`,` tensor-dist-attr)*)? `]`
//               | `null` | `<#AttrNull>`
bool Parser::parseOpDistEntry(const Attribute*& out, const ProcessMesh* opMesh) {
  // Each era spells a missing entry its own way, and prints it that way:
  // a program whose only dist attrs are nulls keeps its era too.
  if (consumeIf(TokenKind::AttrNull)) {
    noteDistEra(DistEra::Full);
    out = ctx_.nullAttr(false);
    return true;
  }
  if (tok_.isIdent("null")) {
    consume();
    noteDistEra(DistEra::DimsMaping);
    out = ctx_.nullAttr(true);
    return true;
  }
  if (tok_.is(TokenKind::LBracket)) {
    if (!enterNesting(tok_)) return false;
    consume();
    std::vector<const Attribute*> elems;
    bool read = parseCommaList(TokenKind::RBracket, "',' or ']' in the list of dist attributes", [&] {
      const Attribute* e = nullptr;
      if (!parseOpDistEntry(e, opMesh)) return false;
      elems.push_back(e);
      return true;
    });
    if (!read) return false;
    leaveNesting();
    out = ctx_.arrayAttr(elems);
    return true;
  }
  const TensorDistAttr* tda = nullptr;
  if (!parseTensorDistAttr(tda, opMesh, /*inType=*/false)) return false;
  out = tda;
  return true;
}

// tensor-dist-attr ::= field (`,` field)*
// field ::= `mesh_shape` `:` int-list | `process_ids` `:` int-list | `mesh` `:` mesh-dict
//         | (`dims_mappings` | `dims_maping`) `:` int-list
//         | `partial` `(` integer `,` reduce-type `)` | `placements` `:` placements
bool Parser::parseTensorDistAttr(const TensorDistAttr*& out, const ProcessMesh* hint, bool inType) {
  Token start = tok_;
  std::vector<int64_t> shape, ids, dims;
  bool hasShape = false, hasIds = false, hasDims = false, oldSpelling = false;
  const ProcessMesh* mesh = nullptr;
  std::vector<PartialEntry> partial;
  const PlacementsAttr* placements = nullptr;
  const char *shapeAt = nullptr, *idsAt = nullptr;
  auto field = [&] {
    Token name = tok_;
    if (!name.is(TokenKind::Identifier)) return unexpected("a dist attribute field such as 'dims_mappings'");
    std::string_view f = name.text;
    consume();
    if (f == "partial") {
      if (!expect(TokenKind::LParen, "'(' after 'partial'")) return false;
      int64_t dim = 0;
      if (!tok_.is(TokenKind::Integer)) return unexpected("a mesh dim in partial(...)");
      if (!parseInt64(tok_, dim, "mesh dim")) return false;
      consume();
      if (!expect(TokenKind::Comma, "',' in partial(...)")) return false;
      if (!tok_.is(TokenKind::Identifier)) return unexpected("a reduce type");
      auto reduce = parseReduceType(tok_.text);
      if (!reduce)
        return syntaxError(tok_, "unknown reduce type '" + std::string(tok_.text) +
                                     "' (expected SUM, MAX, MIN, PRODUCT, AVG, ANY or ALL)");
      consume();
      if (!expect(TokenKind::RParen, "')' after the reduce type")) return false;
      partial.push_back(PartialEntry{dim, *reduce});
    } else {
      if (!tok_.is(TokenKind::Colon)) return unexpected("':' after '" + std::string(f) + "'");
      consume();
      if (f == "mesh_shape" && !hasShape) {
        shapeAt = tok_.text.data();
        if (!parseIntList(shape, "mesh_shape", "mesh dimension")) return false;
        hasShape = true;
      } else if (f == "process_ids" && !hasIds) {
        idsAt = tok_.text.data();
        if (!parseIntList(ids, "process_ids", "process id")) return false;
        hasIds = true;
      } else if (f == "mesh" && !mesh) {
        if (!parseMeshDict(mesh)) return false;
      } else if ((f == "dims_mappings" || f == "dims_maping") && !hasDims) {
        if (!parseIntList(dims, "dims_mapping", "dims_mapping entry")) return false;
        hasDims = true;
        oldSpelling = f == "dims_maping";
      } else if (f == "placements" && !placements) {
        if (!parsePlacements(placements)) return false;
      } else {
        return syntaxError(name, "unexpected dist attribute field '" + std::string(f) + "'");
      }
    }
    return true;
  };
  // In a list, `,mesh_shape`, `,dims_maping` or `,null` starts the next entry.
  auto continues = [&] {
    Token next = peek();
    return next.is(TokenKind::Identifier) && next.text != "null" && !(next.text == "mesh_shape" && hasShape) &&
           !(next.text == "dims_maping" && hasDims) && !(next.text == "mesh" && mesh);
  };
  if (!parseCommaSeparated(field, continues)) return false;
  if (!hasDims) return syntaxError(start, "dist attribute has no dims_mapping");

  if (!mesh) {
    if (hasShape && hasIds) {
      checkMesh(shape, shapeAt, ids, idsAt);
      mesh = ctx_.processMesh(shape, ids);
    } else if (hasShape) {
      if (sameShape(hint, shape)) {
        mesh = hint;
      } else if (auto it = sequentialMeshes_.find(shape); it != sequentialMeshes_.end()) {
        mesh = it->second;
      } else {
        if (auto fault = meshFault(shape, {}))
          return syntaxErrorAt(intListElement(shapeAt, fault->index), fault->message);
        int64_t n = 1;
        for (int64_t d : shape) {
          if (n > kMaxMeshSize / d)
            return syntaxError(start, "mesh_shape holds more than " + std::to_string(kMaxMeshSize) + " processes");
          n *= d;
        }
        // The text spells none of these ids: a few bytes of input must not
        // make gigabytes of them.
        sequentialIds_ += n;
        if (sequentialIds_ > kMaxSequentialIds)
          return syntaxError(start, "meshes without process_ids add up to more than " +
                                        std::to_string(kMaxSequentialIds) + " process ids");
        std::vector<int64_t> seq(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) seq[static_cast<size_t>(i)] = i;
        mesh = ctx_.processMesh(shape, seq);
        sequentialMeshes_.emplace(shape, mesh);
      }
    } else if (hint && !inType) {
      mesh = hint;
    } else {
      return syntaxError(start, "dist attribute has no mesh");
    }
  }
  noteDistEra(oldSpelling || (inType && hasShape && !hasIds) ? DistEra::DimsMaping : DistEra::Full);
  if (placements)
    if (auto fault = placementsFault(mesh->ndim(), dims, partial, placements->placements()))
      diag_.error(offsetOf(fault->index == PlacementFault::kWholeList ? placementsAt_.front()
                                                                      : placementsAt_[fault->index + 1]),
                  "placements contradict the dist attribute: " + fault->message);
  out = ctx_.tensorDistAttr(mesh, dims, partial, placements);
  return true;
}

// placements ::= `[` placement (`,` placement)* `,`? `]`   (a trailing comma has always been taken)
// placement  ::= `Shard` `(` `dim` `=` int (`,` `split_factor` `=` int)? `)`
//              | `Replicate` `(` `)` | `Partial` `(` `reduce_type` `=` reduce-type `)`
bool Parser::parsePlacements(const PlacementsAttr*& out) {
  placementsAt_.assign(1, tok_.text.data());
  if (!expect(TokenKind::LBracket, "'[' to start the placements")) return false;
  std::vector<Placement> list;
  auto placement = [&] {
    Placement p;
    Token kind = tok_;
    placementsAt_.push_back(kind.text.data());
    consume();
    if (!expect(TokenKind::LParen, "'(' after the placement kind")) return false;
    auto keyValue = [&](std::string_view key, int64_t& v) {
      if (!tok_.isIdent(key)) return unexpected("'" + std::string(key) + "='");
      consume();
      if (!expect(TokenKind::Equal, "'='")) return false;
      if (!tok_.is(TokenKind::Integer)) return unexpected("an integer");
      if (!parseInt64(tok_, v, key)) return false;
      consume();
      return true;
    };
    if (kind.isIdent("Shard")) {
      p.kind = Placement::Kind::Shard;
      if (!keyValue("dim", p.dim)) return false;
      if (consumeIf(TokenKind::Comma) && !keyValue("split_factor", p.splitFactor)) return false;
    } else if (kind.isIdent("Replicate")) {
      p.kind = Placement::Kind::Replicate;
    } else if (kind.isIdent("Partial")) {
      p.kind = Placement::Kind::Partial;
      if (!tok_.isIdent("reduce_type")) return unexpected("'reduce_type='");
      consume();
      if (!expect(TokenKind::Equal, "'='")) return false;
      auto reduce = tok_.is(TokenKind::Identifier) ? parseReduceType(tok_.text) : std::nullopt;
      if (!reduce) return syntaxError(tok_, "unknown reduce type '" + std::string(tok_.text) + "'");
      p.reduce = *reduce;
      consume();
    } else {
      return syntaxError(kind,
                         "unknown placement '" + std::string(kind.text) + "' (expected Shard, Replicate or Partial)");
    }
    if (!expect(TokenKind::RParen, "')' after the placement")) return false;
    list.push_back(p);
    return true;
  };
  if (!parseCommaList<TrailingComma::Allowed>(TokenKind::RBracket, "']' after the placements", placement)) return false;
  if (list.empty()) return syntaxError(tok_, "placements must not be empty");
  out = ctx_.placementsAttr(list);
  return true;
}

}  // namespace pir::parser
