//===- program_file.h - one program read from a file, with its source -*- C++ -*-===//
//
// What a tool that reads programs from files keeps of each: the text
// (memory-mapped, InputFile), the SourceFile its diagnostics are located
// in, the Context and the Program. pir-run reads its PROGRAM and the files
// of a `--programs` folder through it, pir-opt the folders it checks.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <memory>
#include <string>

#include "core/context.h"
#include "core/diagnostics.h"
#include "core/program.h"
#include "core/status.h"
#include "parser/input_file.h"

namespace pir::parser {

struct ProgramFile {
  InputFile file;
  std::unique_ptr<core::SourceFile> source;  // named as the path was given
  core::Context ctx;
  std::unique_ptr<core::Program> program;
};

/// Reads and parses the one program at `path` ("-": stdin) into `out`. A
/// parse failure's message is its diagnostics, rendered (Status::rendered).
core::Status loadProgramFile(const std::string& path, ProgramFile& out);

}  // namespace pir::parser
