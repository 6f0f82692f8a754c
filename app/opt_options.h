//===- opt_options.h - what the pir-opt command line says -------*- C++ -*-===//
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace pir::app {

struct OptOptions {
  std::string input = "-";
  std::string output = "-";
  std::string outputDir;
  std::string passPipeline;
  std::string configFile;
  bool listPasses = false;
  bool noVerify = false;
  bool verifyDist = false;
  std::vector<std::string> printIrBefore, printIrAfter;
  // --print-ir-before-re/-after-re: an RE2 regex a pass's whole name must
  // match; it must match a pass of the pipeline.
  std::optional<std::string> printIrBeforeRe, printIrAfterRe;
  bool printIrAfterAll = false;
  bool printIrBeforeAll = false;
  bool printIrAfterChange = false;   // only passes whose structural fingerprint changed
  bool printIrAfterFailure = false;  // what a failing pass left
  bool printLocations = false;       // `// loc: FILE:LINE` after each op line
  bool dumpPassPipeline = false;     // the pipeline with every option's value, on stderr
  bool verifyDiagnostics = false;    // check diagnostics against `// expected-error {{..}}`
  std::string printIrTreeDir;
  bool splitInputFile = false;
  bool passStatistics = false;
  bool timing = false;
  unsigned threads = 0;  // --threads: reading, verifying, printing, split-ranks (0: the cores present)
  std::string logLevel = "warn";
  std::string printEra = "input";  // input, 2024 or newest (core/print_era.h)
};

}  // namespace pir::app
