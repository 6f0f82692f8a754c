//===- program_folder.h - a folder pir-opt --output-dir wrote -----*- C++ -*-===//
//
// DIR/programs.yaml (manifest.h), DIR/ranks.yaml (rank_layout.h) when
// split-ranks wrote one, and every program the manifest lists, parsed
// (parser/program_file.h), for the tools that check such a folder
// (`pir-opt schedule --check --programs DIR`, `pir-opt verify-comm DIR`).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/process_group.h"
#include "core/status.h"
#include "parser/program_file.h"
#include "passes/manifest.h"
#include "passes/rank_layout.h"
#include "passes/schedule/comm_check.h"

namespace pir::passes {

struct ProgramFolder {
  std::string dir;
  Manifest manifest;
  std::optional<RankLayout> layout;                         // none: the folder has no ranks.yaml
  std::vector<std::unique_ptr<parser::ProgramFile>> files;  // one per manifest program, in order
};

/// Reads the folder at `dir`. A failure is the first file's that failed,
/// rendered or located in its source.
core::Status loadProgramFolder(const std::string& dir, ProgramFolder& out);

/// What the communication check reads of a folder: each program with its
/// rank (0 when it has none) and stage (the manifest's, else the layout's,
/// else 0), and the layout's rings with the world ring 0 added
/// (RingTable::addWorld).
struct FolderComm {
  std::vector<schedule::CommProgram> programs;
  core::RingTable rings;
};
FolderComm folderComm(const ProgramFolder& folder);

}  // namespace pir::passes
