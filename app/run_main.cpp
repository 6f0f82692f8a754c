//===- run_main.cpp - pir-run: execute PIR programs on CPU ----------------===//
#include "app/run_command.h"

int main(int argc, char** argv) { return pir::app::runRun(argc, argv); }
