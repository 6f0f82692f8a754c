//===- program_file.cpp - one program read from a file, with its source ---===//
#include "parser/program_file.h"

#include "parser/parser.h"

namespace pir::parser {

core::Status loadProgramFile(const std::string& path, ProgramFile& out) {
  if (core::Status s = out.file.open(path); !s) return s;
  out.source = std::make_unique<core::SourceFile>(path, out.file.text());
  core::DiagnosticEngine diag(out.source.get());
  auto parsed = parseProgram(out.ctx, *out.source, diag);
  if (!parsed) return core::Status::rendered(core::ErrorKind::User, diag.render());
  out.program = std::move(parsed.value());
  return core::Status::ok();
}

}  // namespace pir::parser
