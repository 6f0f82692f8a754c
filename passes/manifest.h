//===- manifest.h - programs.yaml: what each program file is ----*- C++ -*-===//
//
// `pir-opt --output-dir DIR` writes each program of the set to a file and
// lists them in DIR/programs.yaml, in order:
//
//   # pir-opt program manifest (passes/manifest.h)
//   version: 1
//   programs:
//     - name: rank0.forward
//       file: rank0/forward.pir
//       rank: 0
//       stage: 0
//       job: forward
//       imports: [x, var_4_pd_op.relu_0]    # the program's kwargs
//       exports: [loss_0]                  # its top-level shadow_outputs' names
//   mode: "1F1B"                           # optional, last: the pipeline-split that made them
//   vpp: 1
//   split_bw: false
//   gradient_merge_k: 4                    # optional: the gradient-merge that ran before it
//
// `mode` (a `pir-opt schedule --mode` name), `vpp` and `split_bw` are
// written when pipeline-split made the programs, so a runner can make the
// schedule; `gradient_merge_k` when gradient-merge did, so that a runner
// runs exactly k micro-batches a step (the merged gradient is averaged over
// k). A manifest without them reads as before; pir-run refuses to run such
// a set as a pipeline (docs/pir-run.md). rank, stage and job
// are `null` when unknown. A program with a rank and a
// job is written to rankN/JOB.pir, any other to NAME.pir. The reader takes
// exactly this: an unknown, repeated or missing key, a value of the wrong
// type, or a file that does not exist beside the manifest is an error at
// where it stands. `pir-opt schedule --check --programs DIR` and the runner
// read what pir-opt wrote through it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/program.h"
#include "core/status.h"
#include "passes/pass_results.h"
#include "passes/schedule/job.h"

namespace pir::passes {

/// The manifest's name in an output folder.
inline constexpr std::string_view kManifestName = "programs.yaml";

struct ManifestProgram {
  std::string name;
  std::string file;  // relative to the manifest's folder
  int rank = -1;     // -1: unknown
  int stage = -1;    // -1: unknown
  std::string job;   // empty: unknown
  std::vector<std::string> imports, exports;

  bool operator==(const ManifestProgram&) const = default;
};

struct Manifest {
  std::string mode;         // the schedule mode the programs are for; empty: none
  int vpp = -1;             // -1: not given
  int splitBw = -1;         // 0 or 1; -1: not given
  int gradientMergeK = -1;  // -1: not given (no gradient-merge ran, or an older pir-opt)
  /// The program the set was made from: sourceHashOf its file's bytes;
  /// empty: not given (an older pir-opt).
  std::string sourceHash;
  std::vector<ManifestProgram> programs;

  bool operator==(const Manifest&) const = default;
};

/// What pipeline-split leaves (a pass result, pass_results.h) for
/// programs.yaml: the schedule mode it split for, chunks per stage, split-bw.
struct PipelineSplitResult {
  std::string mode;
  int vpp = 1;
  bool splitBw = false;
};

/// What gradient-merge leaves for programs.yaml: the micro-batches it merges.
struct GradientMergeResult {
  int k = 1;
};

/// programs.yaml's `source_hash` of a program file's bytes: `xxh64:` and
/// 16 hex digits (core::xxh64, seed 0).
std::string sourceHashOf(std::string_view text);

/// `text`'s hash spelled as `recorded` is: XXH64, or the FNV-1a
/// (core::hashString) of programs.yaml files written before XXH64, as
/// `fnv1a64:` and 16 hex digits. Empty when `recorded` is neither.
std::string sourceHashLike(std::string_view recorded, std::string_view text);

/// programs.yaml's set-wide keys from what the passes left in `results`.
void annotateManifest(Manifest& manifest, const PassResults& results);

/// A YAML scalar for `s`: plain when it plainly is a string, else
/// double-quoted with `"`, `\` and control bytes escaped (also for ranks.yaml).
std::string yamlString(std::string_view s);

/// Where a program goes in an output folder: `rankN/JOB.pir` when it has a
/// rank and a job, `NAME.pir` otherwise.
std::string manifestFilePath(int rank, std::string_view job, std::string_view name);

/// The entry for `program`, named `name` and written to `file`: its rank,
/// stage and job, its kwargs as imports and the names of its top-level
/// shadow_outputs as exports.
ManifestProgram describeProgram(const core::NamedProgram& program, std::string name, std::string file);
/// As describeProgram, leaving the exports to `addExport`, given every
/// top-level op in order by a walk the caller makes anyway (the printer's:
/// a walk of its own over a big program costs more than the rest).
ManifestProgram describeProgramHeader(const core::NamedProgram& program, std::string name, std::string file);
void addExport(ManifestProgram& entry, const core::Operation& op);

/// programs.yaml's text for `manifest`.
std::string writeManifest(const Manifest& manifest);

/// Reads a manifest's text; files are looked for under `dir` (the
/// manifest's folder). A failure's offset is where the problem stands.
core::Result<Manifest> parseManifest(std::string_view text, const std::string& dir);

/// Reads the manifest at `path`. A failure's message is a rendered
/// diagnostic, ready to print (no final newline): `path:line:col: error:
/// ...`, the line and a caret, or `path: error: ...` when it has no place.
core::Result<Manifest> loadManifest(const std::string& path);

/// For every stage of `schedule` and job type in its list, a program of
/// `manifest` whose job is that type, on that stage or on an unknown one;
/// the problems (`stage S: ...`, `where` naming the manifest), empty when
/// every job has a program.
std::vector<std::string> checkScheduleHasPrograms(const schedule::Schedule& schedule, const Manifest& manifest,
                                                  const std::string& where);

}  // namespace pir::passes
