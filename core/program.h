//===- program.h - programs and named sets of programs ----------*- C++ -*-===//
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/op_runs.h"
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
  bool taggedNumbers = true;  // `(Int32)-1` rather than `-1`
  bool opDistChunkId = true;  // op_dist_attr prints `chunk_id:N`
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
  /// Where the program starts in its source (its `{`, or its first op for
  /// a fragment), for errors about the program as a whole; -1: unknown.
  int64_t location() const { return loc_; }
  void setLocation(int64_t offset) { loc_ = offset; }
  /// Where threads start in the body (core/op_runs.h); kept by whoever
  /// walks it first, so const programs keep it too. Like the rest of a
  /// program, used by one thread at a time (the threaded verifier and
  /// printer ask for it before they start theirs).
  OpLandmarks& bodyLandmarks() const { return landmarks_; }

 private:
  Context* ctx_;
  Region* region_;
  Block* body_;
  PrintStyle style_;
  int64_t loc_ = -1;
  mutable OpLandmarks landmarks_;
};

/// A program of a set, with what it is for: made by a splitting pass from
/// `rank0` into jobs, it is `rank0.forward` with rank 0 and job `forward`
/// (printed after `// ----- job: rank0.forward`). Unset fields are -1 / "".
struct NamedProgram {
  NamedProgram() = default;
  NamedProgram(std::string programName, std::unique_ptr<Program> ir)
      : name(std::move(programName)), program(std::move(ir)) {}

  std::string name;
  /// Owns the Context `program` lives in when the program has one of its
  /// own (a Context per rank); null when it lives in a Context owned
  /// elsewhere (pir-opt's one shared Context). Declared before `program`
  /// so that the program goes first.
  std::shared_ptr<Context> context;
  std::unique_ptr<Program> program;
  int rank = -1;    // the global rank the program runs on
  int stage = -1;   // the pipeline stage it belongs to
  std::string job;  // the job type it implements (`forward`, `backward_b1`, ...)
};

struct ProgramSet {
  std::vector<NamedProgram> programs;
};

/// Whether any op carries an op dist attr or any result a dist type (a
/// distributed program, as opposed to a dense one).
bool hasDistTypes(const Program& p);

}  // namespace pir::core
