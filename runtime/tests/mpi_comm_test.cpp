//===- mpi_comm_test.cpp - the MPI communicator against the in-process one ===//
//
// Run under `mpirun -np 3` (runtime/tests/CMakeLists.txt): every process runs
// every test case, as its own rank of one MpiWorld, and computes the
// in-process world's answer locally (three threads) to compare bit for bit.
//
//===----------------------------------------------------------------------===//
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <cstring>

#include "runtime/comm/in_process.h"
#include "runtime/comm/mpi_world.h"
#include "runtime/tests/traffic_cases.h"

using namespace pir::runtime;
using pir::core::Status;

namespace {

constexpr auto kTimeout = std::chrono::milliseconds(10000);
constexpr int64_t kRanks = 3;
// Ring 12 is not in rank order: reductions go 2, 0, 1.
const RingTable kRings{{12, {2, 0, 1}}, {13, {1, 2}}};

MpiWorld& world() {
  static MpiWorld w(kRings, kTimeout);
  return w;
}

/// Values whose f32 sum depends on the order they are added in.
Tensor input(int64_t rank, int64_t n) {
  Tensor t = Tensor::allocate(DataType::F32, {n});
  for (int64_t i = 0; i < n; ++i)
    t.data<float>()[i] = float(std::ldexp(1.0 + 0.37 * double(i % 7), int(rank * 11 - 12))) * (i % 2 ? -1.f : 1.f);
  return t;
}

bool sameBits(const Tensor& a, const Tensor& b) {
  return a.dtype() == b.dtype() && a.bytes() == b.bytes() && std::memcmp(a.raw(), b.raw(), a.bytes()) == 0;
}

using Call = std::function<Status(Communicator&, int64_t rank, Tensor& out)>;

/// `call` on this process's rank over MPI and on every rank in-process:
/// this rank's results agree bit for bit.
void sameAsInProcess(const Call& call) {
  Tensor mine;
  REQUIRE(call(world().comm(), world().rank(), mine).isOk());
  InProcessWorld local(kRanks, kRings, kTimeout);
  std::vector<Tensor> outs(kRanks);
  auto outcome = local.run([&](int64_t r, Communicator& c) { return call(c, r, outs[r]); });
  REQUIRE(outcome.kind == WorldOutcome::Kind::Ok);
  CHECK(mine.typeText() == outs[world().rank()].typeText());
  CHECK(sameBits(mine, outs[world().rank()]));
}

}  // namespace

TEST_CASE("mpi all_reduce sums in ring order like in-process", "[mpi]") {
  for (ReduceType op : {ReduceType::Sum, ReduceType::Avg, ReduceType::Max, ReduceType::Product})
    sameAsInProcess([op](Communicator& c, int64_t r, Tensor& out) { return c.allReduce(12, input(r, 1000), out, op); });
  // The order matters for these values: ring order is not rank order.
  Tensor out;
  REQUIRE(world().comm().allReduce(12, input(world().rank(), 1000), out, ReduceType::Sum).isOk());
  Tensor p2 = input(2, 1000), p0 = input(0, 1000), p1 = input(1, 1000);
  CHECK(out.data<float>()[3] == (p2.data<float>()[3] + p0.data<float>()[3]) + p1.data<float>()[3]);
}

TEST_CASE("mpi all_reduce in place", "[mpi]") {
  Tensor x = input(world().rank(), 64);
  Tensor want = Tensor::allocate(DataType::F32, {64});
  Tensor p2 = input(2, 64), p0 = input(0, 64), p1 = input(1, 64);
  std::vector<const Tensor*> parts{&p2, &p0, &p1};
  reduceInto(parts, want, ReduceType::Sum);
  Tensor out = x;  // all_reduce_: the result in x's buffer
  REQUIRE(world().comm().allReduce(12, x, out, ReduceType::Sum).isOk());
  CHECK(out.sharesStorageWith(x));
  CHECK(sameBits(x, want));
}

/// x of `n` elements of `dtype` from input()'s values.
Tensor typedInput(int64_t rank, int64_t n, DataType dtype) {
  Tensor f = input(rank, n), t = Tensor::allocate(dtype, {n});
  for (int64_t i = 0; i < n; ++i) {
    float v = f.data<float>()[i];
    switch (dtype) {
      case DataType::F64:
        t.data<double>()[i] = double(v) * (1.0 + 1e-9 * double(i));
        break;
      case DataType::BF16:
        t.data<BFloat16>()[i] = BFloat16::fromFloat(v);
        break;
      case DataType::I64:
        t.data<int64_t>()[i] = int64_t(i * 7 + rank * 3) - 5;
        break;
      case DataType::Bool:
        t.data<bool>()[i] = (i + rank) % 3 == 0;
        break;
      default:
        t.data<float>()[i] = v;
    }
  }
  return t;
}

TEST_CASE("mpi chunked all_reduce has in-process bits at every size and dtype", "[mpi]") {
  // Chunks of 1 element and of none (1 and 2 elements on 3 ranks), uneven
  // chunks (7, 3001), and a chunk past one reduction block (3001 / 3).
  for (int64_t n : {1, 2, 7, 3001})
    for (DataType dtype : {DataType::F32, DataType::F64, DataType::BF16, DataType::I64, DataType::Bool})
      for (bool inPlace : {false, true}) {
        CAPTURE(n, int(dtype), inPlace);
        sameAsInProcess([=](Communicator& c, int64_t r, Tensor& out) {
          Tensor x = typedInput(r, n, dtype);
          if (inPlace) out = x;
          Status s = c.allReduce(12, x, out, ReduceType::Sum);
          if (inPlace && !out.sharesStorageWith(x)) return Status::error("not in place");
          return s;
        });
      }
}

TEST_CASE("mpi reduce_scatter and all_to_all move chunks as in-process", "[mpi]") {
  for (int64_t rows : {3, 30, 3003}) {
    CAPTURE(rows);
    sameAsInProcess([=](Communicator& c, int64_t r, Tensor& out) {
      return c.reduceScatter(12, input(r, rows).view(std::vector<int64_t>{rows}), out, ReduceType::Avg);
    });
    sameAsInProcess([=](Communicator& c, int64_t r, Tensor& out) { return c.allToAll(12, input(r, rows), out); });
    sameAsInProcess([=](Communicator& c, int64_t r, Tensor& out) { return c.broadcast(12, 2, input(r, rows), out); });
  }
}

TEST_CASE("mpi collectives report ring and bytes for the trace as in-process", "[mpi]") {
  Communicator& c = world().comm();
  std::vector<OpEvent> events;
  EventRecorder trace(events);
  c.setTraceSink(&trace);
  Traffic before = c.traffic()[12];
  Tensor out;
  REQUIRE(c.allReduce(12, input(world().rank(), 10), out, ReduceType::Sum).isOk());
  c.setTraceSink(nullptr);
  trace.op(0, 0, 1);
  REQUIRE(!events.empty());
  CHECK(events[0].ring == 12);
  CHECK(events[0].bytes == 40);
  Traffic after = c.traffic()[12];
  // Each member's chunk from both others and back reduced, the others' chunks out (traffic_cases.h).
  uint64_t chunk = world().rank() == 1 ? 16 : 12;
  CHECK(after.sent - before.sent == 40 + chunk);
  CHECK(after.received - before.received == 40 + chunk);
}

TEST_CASE("mpi counts each collective's payload bytes as computed by hand", "[mpi]") {
  MpiWorld& w = world();
  for (const testing::TrafficCase& tc : testing::trafficCases()) {
    CAPTURE(tc.name);
    TrafficByRing before = w.comm().traffic();
    REQUIRE(tc.call(w.comm(), w.rank()).isOk());
    Tensor sync;  // on the world's ring 0: every call of the case is done on every rank
    REQUIRE(w.comm().allReduce(0, input(w.rank(), 1), sync, ReduceType::Sum).isOk());
    TrafficByRing after = w.comm().traffic();
    Traffic want = tc.want[size_t(w.rank())];
    CHECK(after[tc.ring].sent - before[tc.ring].sent == want.sent);
    CHECK(after[tc.ring].received - before[tc.ring].received == want.received);
  }
}

TEST_CASE("mpi all_gather, reduce_scatter, broadcast and all_to_all as in-process", "[mpi]") {
  sameAsInProcess([](Communicator& c, int64_t r, Tensor& out) { return c.allGather(12, input(r, 6), out); });
  sameAsInProcess(
      [](Communicator& c, int64_t r, Tensor& out) { return c.reduceScatter(12, input(r, 6), out, ReduceType::Sum); });
  sameAsInProcess([](Communicator& c, int64_t r, Tensor& out) { return c.broadcast(12, 1, input(r, 6), out); });
  sameAsInProcess([](Communicator& c, int64_t r, Tensor& out) { return c.allToAll(12, input(r, 6), out); });
}

TEST_CASE("mpi send never blocks and keeps the order per peer", "[mpi]") {
  // Ring 13 is [1, 2]: rank 1 sends 4 MiB pieces (past any eager limit) to
  // rank 2 before rank 2 receives any; rank 0 is in no part of it.
  int64_t me = world().rank();
  if (me == 1)
    for (int k = 0; k < 3; ++k) {
      Tensor x = Tensor::allocate(DataType::F32, {1 << 20});
      std::fill(x.data<float>(), x.data<float>() + x.numel(), float(k));
      auto start = std::chrono::steady_clock::now();
      REQUIRE(world().comm().send(13, 1, x, {}).isOk());
      x.data<float>()[0] = -1;  // the peer still gets what was sent
      CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(2));
    }
  if (me == 2)
    for (int k = 0; k < 3; ++k) {
      Tensor got = Tensor::allocate(DataType::F32, {1 << 20});
      REQUIRE(world().comm().recv(13, 0, got, {}).isOk());
      CHECK(got.data<float>()[0] == float(k));
      CHECK(got.data<float>()[(1 << 20) - 1] == float(k));
    }
  Tensor sync;
  REQUIRE(world().comm().allReduce(12, input(me, 1), sync, ReduceType::Sum).isOk());
}

TEST_CASE("mpi recv of another shape names both", "[mpi]") {
  int64_t me = world().rank();
  if (me == 1) REQUIRE(world().comm().send(13, 1, input(1, 3), {}).isOk());
  if (me == 2) {
    Tensor want = Tensor::allocate(DataType::F32, {4});
    Status s = world().comm().recv(13, 0, want, {});
    REQUIRE(!s.isOk());
    CHECK(s.message() == "recv_v2 on ring 13 expects tensor<4xf32>, rank 1 sent tensor<3xf32>");
  }
  if (me == 0) {
    Status s = world().comm().send(13, 0, input(0, 1), {});
    CHECK(s.message() == "send_v2: rank 0 is not in ring 13");
  }
  Tensor sync;
  REQUIRE(world().comm().allReduce(12, input(me, 1), sync, ReduceType::Sum).isOk());
}

TEST_CASE("mpi collective of differing shapes names both ranks", "[mpi]") {
  int64_t me = world().rank();
  if (me != 0) {
    Tensor out;
    Status s = world().comm().allGather(13, input(me, me == 1 ? 4 : 5), out);
    REQUIRE(!s.isOk());
    CHECK(s.message() == "all_gather on ring 13: rank " + std::to_string(me) + " has tensor<" + (me == 1 ? "4" : "5") +
                             "xf32>, rank " + std::to_string(3 - me) + " has tensor<" + (me == 1 ? "5" : "4") +
                             "xf32>");
  }
  Tensor sync;
  REQUIRE(world().comm().allReduce(12, input(me, 1), sync, ReduceType::Sum).isOk());
}

int main(int argc, char** argv) {
  if (!mpiInit()) return 2;
  if (world().size() != kRanks) {
    std::fprintf(stderr, "run under mpirun -np %lld\n", (long long)kRanks);
    return 2;
  }
  return Catch::Session().run(argc, argv);
}
