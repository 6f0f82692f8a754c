//===- opt_driver.cpp - parse, (transform,) print -------------------------===//
#include "app/opt_driver.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <string>

#include "app/input_file.h"
#include "app/output_file.h"
#include "core/context.h"
#include "core/diagnostics.h"
#include "core/printer.h"
#include "parser/parser.h"

namespace pir::app {

namespace {

struct OptOptions {
  std::string input = "-";
  std::string output = "-";
  bool splitInputFile = false;
};

int reportError(const std::string& message) {
  std::fprintf(stderr, "pir-opt: error: %s\n", message.c_str());
  return 1;
}

int process(const OptOptions& opts) {
  InputFile input;
  if (core::Status s = input.open(opts.input); !s) return reportError(s.message());
  std::string displayName = opts.input == "-" ? "<stdin>" : opts.input;
  core::SourceFile source(displayName, input.text());
  core::DiagnosticEngine diag(&source);
  core::Context ctx;

  auto parsed = parser::parseFile(ctx, source, diag);
  if (!parsed) {
    std::fputs(diag.render().c_str(), stderr);
    return 1;
  }
  if (parsed->size() > 1 && !opts.splitInputFile) {
    diag.error((*parsed)[1].offset, "multiple programs; use --split-input-file");
    std::fputs(diag.render().c_str(), stderr);
    return 1;
  }
  for (const parser::ParsedProgram& p : *parsed) {
    if (core::Status s = core::checkPrintable(*p.program); !s) {
      diag.error(s.offset(), s.message());
      std::fputs(diag.render().c_str(), stderr);
      return 1;
    }
  }

  OutputFile out;
  if (core::Status s = out.open(opts.output); !s) return reportError(s.message());
  core::OutputSink sink = [&](std::string_view chunk) { return out.write(chunk); };
  for (const parser::ParsedProgram& p : *parsed) {
    if (!p.marker.empty()) {
      out.write(p.marker);
      out.write("\n");
    }
    (void)core::printProgram(*p.program, sink);
  }
  if (core::Status s = out.commit(); !s) return reportError(s.message());
  return 0;
}

}  // namespace

int runOpt(int argc, char** argv) {
  OptOptions opts;
  CLI::App app{"pir-opt: read, transform and print PaddlePaddle PIR programs"};
  app.add_option("input", opts.input, "input file, or - for stdin")->capture_default_str();
  app.add_option("-o,--output", opts.output, "output file, or - for stdout")->capture_default_str();
  app.add_flag("--split-input-file", opts.splitInputFile, "handle programs separated by '// -----' one by one");
  app.set_version_flag("--version", "pir-opt 0.1.0");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 1;
  }
  try {
    return process(opts);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pir-opt: internal error: %s\n", e.what());
    return 2;
  }
}

}  // namespace pir::app
