//===- main.cpp - pir-opt: read, transform and print PIR programs ---------===//
#include <climits>
#include <cstdio>
#include <cstring>
#include <string>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "app/explain_command.h"
#include "app/opt_driver.h"
#include "app/schedule_command.h"
#include "app/verify_comm_command.h"

int main(int argc, char** argv) {
#if defined(__GLIBC__)
  // Keep what one phase frees for the next: the parser's tables go as the
  // passes start allocating, and reusing those pages is far cheaper than
  // faulting in fresh ones (by ~10% of a pass at 1M ops on our VM). Blocks
  // up to 32 MB come from the heap, and the heap is never trimmed.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, INT_MAX);
#endif
  if (argc > 1 && std::strcmp(argv[1], "schedule") == 0) return pir::app::runSchedule(argc - 1, argv + 1);
  if (argc > 1 && std::strcmp(argv[1], "verify-comm") == 0) return pir::app::runVerifyComm(argc - 1, argv + 1);
  if (argc > 1 && std::strcmp(argv[1], "explain-reshard") == 0) return pir::app::runExplainReshard(argc - 1, argv + 1);
  return pir::app::runOpt(argc, argv);
}
