//===- traffic_cases.h - each collective's bytes, computed by hand -*- C++ -*-===//
//
// What every communicator must count (communicator.h, Traffic) for one call
// of each collective on ring 12 = [2, 0, 1] of 3 ranks (positions: rank 2
// is 0, rank 0 is 1, rank 1 is 2), and for one send on ring 13 = [1, 2].
// comm_test.cpp checks the in-process world against it, mpi_comm_test.cpp
// the MPI one under mpirun -np 3.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <array>
#include <functional>
#include <string>
#include <vector>

#include "runtime/comm/communicator.h"

namespace pir::runtime::testing {

struct TrafficCase {
  std::string name;
  std::function<core::Status(Communicator&, int64_t rank)> call;
  int64_t ring;
  std::array<Traffic, 3> want;  // by global rank
};

inline Tensor filled(int64_t n, float v) {
  Tensor t = Tensor::allocate(DataType::F32, {n});
  for (int64_t i = 0; i < n; ++i) t.data<float>()[i] = v + float(i);
  return t;
}

inline std::vector<TrafficCase> trafficCases() {
  return {
      // 10 floats (40 bytes) cut in chunks [0,3) [3,6) [6,10): position p
      // gets the 12, 12 or 16 bytes of its chunk from both others and
      // sends them its reduced chunk (2 x its chunk), and sends each other
      // member that member's chunk (40 - its own chunk): 40 + its chunk.
      {"all_reduce",
       [](Communicator& c, int64_t r) {
         Tensor out;
         return c.allReduce(12, filled(10, float(r)), out, ReduceType::Max);
       },
       12,
       {{{52, 52}, {56, 56}, {52, 52}}}},
      // 40 bytes to each of 2 others, 40 from each.
      {"all_gather",
       [](Communicator& c, int64_t r) {
         Tensor out;
         return c.allGather(12, filled(10, float(r)), out);
       },
       12,
       {{{80, 80}, {80, 80}, {80, 80}}}},
      // 6 floats cut in 3 chunks of 8 bytes: each other member's chunk in,
      // theirs out.
      {"reduce_scatter",
       [](Communicator& c, int64_t r) {
         Tensor out;
         return c.reduceScatter(12, filled(6, float(r)), out, ReduceType::Sum);
       },
       12,
       {{{16, 16}, {16, 16}, {16, 16}}}},
      {"all_to_all",
       [](Communicator& c, int64_t r) {
         Tensor out;
         return c.allToAll(12, filled(6, float(r)), out);
       },
       12,
       {{{16, 16}, {16, 16}, {16, 16}}}},
      // Root position 1 is rank 0: 40 bytes to each of 2 others.
      {"broadcast",
       [](Communicator& c, int64_t r) {
         Tensor out;
         return c.broadcast(12, 1, filled(10, float(r)), out);
       },
       12,
       {{{80, 0}, {0, 40}, {0, 40}}}},
      // Rank 1 sends 3 floats to rank 2; rank 0 is in no part of it.
      {"send_v2",
       [](Communicator& c, int64_t r) {
         if (r == 1) return c.send(13, 1, filled(3, 1), {});
         if (r == 2) {
           Tensor got = Tensor::allocate(DataType::F32, {3});
           return c.recv(13, 0, got, {});
         }
         return core::Status::ok();
       },
       13,
       {{{0, 0}, {12, 0}, {0, 12}}}},
  };
}

inline const RingTable kTrafficRings{{12, {2, 0, 1}}, {13, {1, 2}}};

}  // namespace pir::runtime::testing
