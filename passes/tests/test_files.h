//===- test_files.h - reading test inputs -----------------------*- C++ -*-===//
#pragma once

#include <fstream>
#include <sstream>
#include <string>

namespace pir::testing {

/// The bytes of the file at `path`, or empty when it cannot be read.
inline std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace pir::testing
