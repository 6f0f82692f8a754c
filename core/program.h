//===- program.h - programs and named sets of programs ----------*- C++ -*-===//
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/operation.h"

namespace pir::core {

class Context;

/// How the program's era spells things, recorded when it is read, so that
/// what a pass creates prints like its neighbours.
enum class DistEra : uint8_t {
  Full,        // TDA prints mesh_shape, process_ids, dims_mappings (2024-05 on)
  DimsMaping,  // PR #63072 era: op attrs print `dims_maping:[..]`, types no ids
};

struct PrintStyle {
  DistEra distEra = DistEra::Full;
  bool taggedNumbers = true;         // `(Int32)-1` rather than `-1`
  bool opDistChunkId = true;         // op_dist_attr prints `chunk_id:N`
  std::string_view tensorSpelling = "builtin.tensor";
};

class Program {
 public:
  explicit Program(Context& ctx);
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  Context& context() const { return *ctx_; }
  Block& body() const { return *body_; }
  PrintStyle& style() { return style_; }
  const PrintStyle& style() const { return style_; }

 private:
  Context* ctx_;
  Region* region_;
  Block* body_;
  PrintStyle style_;
};

/// Programs with names, in order: what a split pass produces and what a
/// `// ----- job: NAME` stream holds.
struct NamedProgram {
  std::string name;
  std::unique_ptr<Program> program;
};

struct ProgramSet {
  std::vector<NamedProgram> programs;
};

}  // namespace pir::core
