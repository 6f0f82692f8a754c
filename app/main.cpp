//===- main.cpp - pir-opt: read, transform and print PIR programs ---------===//
#include <cstdio>
#include <cstring>
#include <string>

#include "app/opt_driver.h"
#include "app/schedule_command.h"

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "schedule") == 0) return pir::app::runSchedule(argc - 1, argv + 1);
  return pir::app::runOpt(argc, argv);
}
