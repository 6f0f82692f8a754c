//===- main.cpp - pir-opt: read, transform and print PIR programs ---------===//
#include <cstdio>
#include <string>

#include "app/opt_driver.h"

int main(int argc, char** argv) { return pir::app::runOpt(argc, argv); }
