//===- comm_test.cpp - the in-process communicator, by hand ---------------===//
#include <catch2/catch.hpp>
#include <chrono>
#include <cstring>
#include <thread>

#include "runtime/comm/in_process.h"
#include "runtime/tests/traffic_cases.h"

using namespace pir::runtime;
using pir::core::Status;

namespace {

Tensor floats(std::vector<int64_t> shape, std::vector<float> v) {
  Tensor t = Tensor::allocate(DataType::F32, shape);
  std::copy(v.begin(), v.end(), t.data<float>());
  return t;
}

std::vector<float> values(const Tensor& t) { return {t.data<float>(), t.data<float>() + t.numel()}; }

constexpr auto kTimeout = std::chrono::milliseconds(5000);

}  // namespace

TEST_CASE("all_reduce combines every reduce type in ring order", "[comm]") {
  RingTable rings{{12, {2, 0, 1}}};
  for (auto [op, want] : std::vector<std::pair<ReduceType, std::vector<float>>>{{ReduceType::Sum, {6, -6}},
                                                                                {ReduceType::Max, {3, -1}},
                                                                                {ReduceType::Min, {1, -3}},
                                                                                {ReduceType::Product, {6, -6}},
                                                                                {ReduceType::Avg, {2, -2}}}) {
    InProcessWorld world(3, rings, kTimeout);
    std::vector<std::vector<float>> got(3);
    auto outcome = world.run([&, reduce = op](int64_t r, Communicator& c) {  // clang 14: no binding captured
      Tensor x = floats({2}, {float(r + 1), -float(r + 1)});
      Tensor out;
      Status s = c.allReduce(12, x, out, reduce);
      if (s) got[r] = values(out);
      return s;
    });
    REQUIRE(outcome.kind == WorldOutcome::Kind::Ok);
    for (auto& g : got) CHECK(g == want);
  }
}

namespace {

/// Rank r's element i: magnitudes 1e-4..1e4 so that f32 sums depend on
/// their order.
float elementOf(int64_t r, int64_t i) {
  float mag[] = {1e4f, 1e-4f, 3.0f, -1e4f};
  return mag[(r + i) % 4] * (1.0f + 0.123f * float((i * 7 + r * 13) % 17));
}

}  // namespace

// Each member reduces its 1/n chunk; the chunks must still hold the sum in
// ring order (position 0 first), on every rank, for sizes that do not divide.
TEST_CASE("a chunked all_reduce over 3 and 4 ranks gives the ring-order sum bitwise", "[comm]") {
  for (std::vector<int64_t> order : {std::vector<int64_t>{2, 0, 1}, std::vector<int64_t>{3, 1, 0, 2}}) {
    int64_t n = int64_t(order.size());
    for (int64_t size : {int64_t(1), int64_t(2), int64_t(7), int64_t(3001)})
      for (bool inPlace : {false, true}) {
        INFO(n << " ranks, " << size << " elements, in place " << inPlace);
        std::vector<float> want(static_cast<size_t>(size)), reversed(static_cast<size_t>(size));
        for (int64_t i = 0; i < size; ++i) {
          float acc = elementOf(order[0], i), back = elementOf(order[n - 1], i);
          for (int64_t k = 1; k < n; ++k) {
            acc += elementOf(order[k], i);
            back += elementOf(order[n - 1 - k], i);
          }
          want[size_t(i)] = acc;
          reversed[size_t(i)] = back;
        }
        InProcessWorld world(n, {{12, order}}, kTimeout);
        std::vector<std::vector<float>> got(static_cast<size_t>(n));
        auto outcome = world.run([&](int64_t r, Communicator& c) {
          Tensor x = Tensor::allocate(DataType::F32, {size});
          for (int64_t i = 0; i < size; ++i) x.data<float>()[i] = elementOf(r, i);
          Tensor out = inPlace ? x : Tensor();
          Status s = c.allReduce(12, x, out, ReduceType::Sum);
          if (s) got[size_t(r)] = values(out);
          return s;
        });
        REQUIRE(outcome.kind == WorldOutcome::Kind::Ok);
        for (auto& g : got) CHECK(std::memcmp(g.data(), want.data(), want.size() * sizeof(float)) == 0);
        if (size == 3001)  // the order shows in the bits: a test that could not tell would be vacuous
          CHECK(std::memcmp(want.data(), reversed.data(), want.size() * sizeof(float)) != 0);
      }
  }
}

TEST_CASE("an in-place all_reduce writes its operand's buffer", "[comm]") {
  InProcessWorld world(2, {{12, {0, 1}}}, kTimeout);
  std::vector<float> got[2];
  auto outcome = world.run([&](int64_t r, Communicator& c) {
    Tensor x = floats({3}, {1.0f + r, 2.0f, 3.0f * r});
    Tensor alias = x;
    Status s = c.allReduce(12, x, alias, ReduceType::Sum);
    got[r] = values(x);
    return s;
  });
  REQUIRE(outcome.kind == WorldOutcome::Kind::Ok);
  CHECK(got[0] == std::vector<float>{3, 4, 3});
  CHECK(got[1] == std::vector<float>{3, 4, 3});
}

TEST_CASE("all_gather concatenates dim 0 in ring order, reduce_scatter keeps a chunk", "[comm]") {
  InProcessWorld world(2, {{13, {1, 0}}}, kTimeout);
  std::vector<float> gathered[2], scattered[2];
  std::vector<int64_t> shapes[2];
  auto outcome = world.run([&](int64_t r, Communicator& c) {
    Tensor x = floats({1, 2}, {10.0f * r, 10.0f * r + 1});
    Tensor g, rs;
    if (Status s = c.allGather(13, x, g); !s) return s;
    gathered[r] = values(g);
    shapes[r].assign(g.shape().begin(), g.shape().end());
    Tensor y = floats({4}, {1.0f + r, 2, 3, 4.0f * r});
    if (Status s = c.reduceScatter(13, y, rs, ReduceType::Sum); !s) return s;
    scattered[r] = values(rs);
    return Status::ok();
  });
  REQUIRE(outcome.kind == WorldOutcome::Kind::Ok);
  CHECK(gathered[0] == std::vector<float>{10, 11, 0, 1});  // rank 1 is position 0
  CHECK(gathered[1] == gathered[0]);
  CHECK(shapes[0] == std::vector<int64_t>{2, 2});
  CHECK(scattered[1] == std::vector<float>{3, 4});  // position 0: the first chunk of {3, 4, 6, 4}
  CHECK(scattered[0] == std::vector<float>{6, 4});
}

TEST_CASE("broadcast copies the root position, all_to_all swaps chunks", "[comm]") {
  InProcessWorld world(3, {{12, {0, 1, 2}}}, kTimeout);
  std::vector<float> b[3], a[3];
  auto outcome = world.run([&](int64_t r, Communicator& c) {
    Tensor x = floats({3}, {float(r), float(r) + 0.5f, float(r) + 0.25f});
    Tensor bo, ao;
    if (Status s = c.broadcast(12, 2, x, bo); !s) return s;
    b[r] = values(bo);
    if (Status s = c.allToAll(12, x, ao); !s) return s;
    a[r] = values(ao);
    return Status::ok();
  });
  REQUIRE(outcome.kind == WorldOutcome::Kind::Ok);
  for (int r = 0; r < 3; ++r) CHECK(b[r] == std::vector<float>{2, 2.5f, 2.25f});
  CHECK(a[0] == std::vector<float>{0, 1, 2});
  CHECK(a[1] == std::vector<float>{0.5f, 1.5f, 2.5f});
  CHECK(a[2] == std::vector<float>{0.25f, 1.25f, 2.25f});
}

TEST_CASE("sends do not block and arrive in order, copied", "[comm]") {
  InProcessWorld world(2, {{14, {0, 1}}, {15, {1, 0}}}, kTimeout);
  std::vector<float> got;
  auto outcome = world.run([&](int64_t r, Communicator& c) {
    if (r == 0) {
      Tensor x = floats({1}, {1});
      if (Status s = c.send(14, 1, x, {}); !s) return s;
      x.data<float>()[0] = 2;  // written after the send: the peer still gets 1
      if (Status s = c.send(14, 1, x, {}); !s) return s;
      for (int i = 0; i < 2; ++i) {
        Tensor back = Tensor::allocate(DataType::F32, {1});
        if (Status s = c.recv(15, 0, back, {}); !s) return s;  // ring [1,0]: position 0 is rank 1
        got.push_back(back.data<float>()[0]);
      }
      return Status::ok();
    }
    for (int i = 0; i < 2; ++i) {
      Tensor y = Tensor::allocate(DataType::F32, {1});
      if (Status s = c.recv(14, 0, y, {}); !s) return s;
      if (Status s = c.send(15, 1, y, {}); !s) return s;
    }
    return Status::ok();
  });
  REQUIRE(outcome.kind == WorldOutcome::Kind::Ok);
  CHECK(got == std::vector<float>{1, 2});
  // Two floats out on ring 14, two back on ring 15.
  CHECK(world.comm(0).traffic() == TrafficByRing{{14, {8, 0}}, {15, {0, 8}}});
}

// core/message_key.h: a keyed message is taken by its key, whatever order
// the two sides run in; an ordered one must be of the receiver's
// micro-batch; one nobody takes fails the run.
TEST_CASE("keyed messages pair by index and micro-batch, in any order", "[comm]") {
  InProcessWorld world(2, {{14, {0, 1}}}, kTimeout);
  std::vector<float> got;
  auto outcome = world.run([&](int64_t r, Communicator& c) {
    if (r == 0) {
      for (float v : {1.f, 2.f, 3.f, 4.f}) {  // (index, micro-batch): (0,0) (1,0) (0,1) (1,1)
        int64_t k = int64_t(v) - 1;
        c.setMicroBatch(k / 2);
        if (Status s = c.send(14, 1, floats({1}, {v}), c.messageKey(k % 2)); !s) return s;
      }
      return Status::ok();
    }
    for (int64_t k : {3, 0, 2, 1}) {  // taken in another order
      c.setMicroBatch(k / 2);
      Tensor y = Tensor::allocate(DataType::F32, {1});
      if (Status s = c.recv(14, 0, y, c.messageKey(k % 2)); !s) return s;
      got.push_back(y.data<float>()[0]);
    }
    return Status::ok();
  });
  REQUIRE(outcome.kind == WorldOutcome::Kind::Ok);
  CHECK(got == std::vector<float>{4, 1, 3, 2});
}

TEST_CASE("an ordered receive of another micro-batch's message is an error", "[comm]") {
  InProcessWorld world(2, {{14, {0, 1}}}, kTimeout);
  auto outcome = world.run([&](int64_t r, Communicator& c) {
    c.setMicroBatch(r == 0 ? 1 : 0);  // rank 0 sends micro-batch 1 first, rank 1 expects 0
    if (r == 0) return c.send(14, 1, floats({1}, {1}), c.messageKey(-1));
    Tensor y = Tensor::allocate(DataType::F32, {1});
    return c.recv(14, 0, y, c.messageKey(-1));
  });
  REQUIRE(outcome.kind == WorldOutcome::Kind::Failed);
  CHECK_THAT(outcome.perRank[1].message(),
             Catch::Matchers::Contains("in micro-batch 0 would take the message rank 0 sent in micro-batch 1"));
}

TEST_CASE("a message nobody receives fails the run", "[comm]") {
  InProcessWorld world(2, {{14, {0, 1}}}, kTimeout);
  auto outcome = world.run([&](int64_t r, Communicator& c) {
    c.setMicroBatch(2);
    return r == 0 ? c.send(14, 1, floats({1}, {1}), c.messageKey(5)) : Status::ok();
  });
  REQUIRE(outcome.kind == WorldOutcome::Kind::Failed);
  CHECK(outcome.failedRank == 0);
  CHECK(outcome.perRank[0].message() ==
        "rank 0's send_v2 to rank 1 on ring 14 (message_index 5 of micro-batch 2) was never received");
}

TEST_CASE("a receive of the wrong shape names both", "[comm]") {
  InProcessWorld world(2, {{12, {0, 1}}}, kTimeout);
  auto outcome = world.run([&](int64_t r, Communicator& c) {
    if (r == 0) return c.send(12, 1, floats({2}, {1, 2}), {});
    Tensor y = Tensor::allocate(DataType::F32, {3});
    return c.recv(12, 0, y, {});
  });
  REQUIRE(outcome.kind == WorldOutcome::Kind::Failed);
  CHECK(outcome.failedRank == 1);
  CHECK(outcome.perRank[1].message() == "recv_v2 on ring 12 expects tensor<3xf32>, rank 0 sent tensor<2xf32>");
}

TEST_CASE("a failing rank stops the others at once", "[comm]") {
  InProcessWorld world(3, {{12, {0, 1, 2}}}, std::chrono::milliseconds(60000));
  auto start = std::chrono::steady_clock::now();
  auto outcome = world.run([&](int64_t r, Communicator& c) {
    if (r == 1) return Status::error("kernel failed");
    Tensor out;
    return c.allReduce(12, floats({1}, {1}), out, ReduceType::Sum);
  });
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  REQUIRE(outcome.kind == WorldOutcome::Kind::Failed);
  CHECK(outcome.failedRank == 1);
  CHECK(outcome.perRank[0].isCancelled());
  CHECK(outcome.perRank[1].message() == "kernel failed");
}

TEST_CASE("a deadlock makes every waiting rank say what it waits on", "[comm]") {
  InProcessWorld world(3, {{12, {0, 1}}, {13, {1, 0}}}, std::chrono::milliseconds(200));
  auto outcome = world.run([&](int64_t r, Communicator& c) {
    if (r == 2) return Status::ok();
    Tensor y = Tensor::allocate(DataType::F32, {1});
    return r == 0 ? c.recv(13, 0, y, {}) : c.recv(12, 0, y, {});  // each waits on the other
  });
  REQUIRE(outcome.kind == WorldOutcome::Kind::Deadlock);
  CHECK(outcome.perRank[0].message() == "rank 0 waits on recv_v2 from rank 1 on ring 13");
  CHECK(outcome.perRank[1].message() == "rank 1 waits on recv_v2 from rank 0 on ring 12");
  CHECK(outcome.perRank[2].isOk());
}

TEST_CASE("collective errors: shapes, membership, rings", "[comm]") {
  InProcessWorld world(2, {{12, {0, 1}}, {20, {1}}}, kTimeout);
  auto outcome = world.run([&](int64_t r, Communicator& c) {
    Tensor out;
    if (r == 0) {
      if (Status s = c.allReduce(20, floats({1}, {1}), out, ReduceType::Sum); s)
        return Status::error("no error");
      else if (s.message() != "all_reduce: rank 0 is not in ring 20")
        return s;
      if (Status s = c.allReduce(99, floats({1}, {1}), out, ReduceType::Sum); s)
        return Status::error("no error");
      else if (s.message() != "all_reduce: ring 99 is in no ring table")
        return s;
    }
    return c.allGather(12, floats({1 + r}, {1, 2}), out);
  });
  REQUIRE(outcome.kind == WorldOutcome::Kind::Failed);
  CHECK(outcome.perRank[outcome.failedRank].message().find("all_gather on ring 12: rank ") == 0);
}

#include "runtime/tests/run_helpers.h"

TEST_CASE("two ranks run programs that all_reduce_ in place and send", "[comm]") {
  using pir::runtime::testing::block;
  using pir::runtime::testing::runText;
  std::string text[2];
  std::string head =
      R"x((%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[2],stop_gradient:[true]} : () -> builtin.tensor<2xf32>)x";
  std::string reduce =
      R"x((%1) = "pd_op.all_reduce_" (%0) {reduce_type:(Int32)4,ring_id:(Int32)12} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>)x";
  text[0] = block(
      {head, reduce,
       R"x(() = "pd_op.send_v2" (%1) {dynamic_shape:false,peer:(Int32)1,ring_id:(Int32)12,use_calc_stream:true} : (builtin.tensor<2xf32>) -> )x"});
  text[1] = block(
      {head, reduce,
       R"x((%2) = "pd_op.recv_v2" () {dtype:(pd_op.DataType)float32,dynamic_shape:false,out_shape:[(Int64)2],peer:(Int32)0,ring_id:(Int32)12,use_calc_stream:true} : () -> builtin.tensor<2xf32>)x",
       R"x(() = "builtin.shadow_output" (%2) {output_name:"got"} : (builtin.tensor<2xf32>) -> )x"});
  InProcessWorld world(2, {{12, {0, 1}}}, kTimeout);
  TensorMap feeds[2] = {{{"x", testing::f32({2}, {1, 2})}}, {{"x", testing::f32({2}, {3, 8})}}};
  TensorMap fetches[2];
  std::vector<OpEvent> events[2];
  EventRecorder recorders[2] = {EventRecorder(events[0]), EventRecorder(events[1])};
  RunStats stats[2];
  auto outcome = world.run([&](int64_t r, Communicator& c) {
    std::string err;
    stats[r].trace = &recorders[r];
    fetches[r] = runText(text[r], feeds[r], &err, &c, &stats[r]);
    return err.empty() ? Status::ok() : Status::error(err);
  });
  REQUIRE(outcome.kind == WorldOutcome::Kind::Ok);
  CHECK(testing::values(feeds[0]["x"]) == std::vector<float>{2, 5});  // in place: the fed tensor is the result
  CHECK(testing::values(fetches[1]["got"]) == std::vector<float>{2, 5});
  // --trace's events: the collective and the p2p ops carry their ring and
  // payload bytes (2 f32): all_reduce_, then send_v2 (rank 0) or recv_v2.
  for (int r = 0; r < 2; ++r) {
    INFO("rank " << r);
    std::vector<OpEvent> ops;  // the waits within them aside (the next test)
    for (const OpEvent& e : events[r])
      if (e.step != OpEvent::kWait) ops.push_back(e);
    REQUIRE(ops.size() == 2);  // kernels only: feeds and fetches are not events
    for (const OpEvent& e : ops) {
      CHECK(e.ring == 12);
      CHECK(e.bytes == 8);
    }
  }
  // A rank that comes late makes the other wait: the wait is an event
  // within the collective's, on its ring.
  events[0].clear();
  events[1].clear();
  outcome = world.run([&](int64_t r, Communicator& c) {
    if (r == 0) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::string err;
    runText(text[r], feeds[r], &err, &c, &stats[r]);
    return err.empty() ? Status::ok() : Status::error(err);
  });
  REQUIRE(outcome.kind == WorldOutcome::Kind::Ok);
  REQUIRE(events[1].size() >= 2);
  const OpEvent& reduced = events[1][0];
  CHECK(reduced.step != OpEvent::kWait);
  const OpEvent* wait = nullptr;
  for (const OpEvent& e : events[1])
    if (e.step == OpEvent::kWait && (!wait || e.durationNs > wait->durationNs)) wait = &e;
  REQUIRE(wait != nullptr);
  CHECK(wait->ring == 12);
  CHECK(wait->durationNs > 50'000'000);
  CHECK(wait->startNs >= reduced.startNs);
  CHECK(wait->startNs + wait->durationNs <= reduced.startNs + reduced.durationNs);
}

TEST_CASE("each collective counts the bytes it copies between ranks", "[comm]") {
  for (const testing::TrafficCase& tc : testing::trafficCases()) {
    CAPTURE(tc.name);
    InProcessWorld world(3, testing::kTrafficRings, kTimeout);
    auto outcome = world.run([&](int64_t r, Communicator& c) { return tc.call(c, r); });
    REQUIRE(outcome.kind == WorldOutcome::Kind::Ok);
    for (int64_t r = 0; r < 3; ++r) {
      CAPTURE(r);
      Traffic want = tc.want[size_t(r)];
      TrafficByRing expected;  // nothing on another ring
      if (want.sent || want.received) expected[tc.ring] = want;
      CHECK(world.comm(r).traffic() == expected);
    }
  }
}
