#!/usr/bin/env bash
# pir-run --check catches a wrong distributed program (issue 18): testdata/run/wrong_partial.pir
# declares a matmul over a sharded contraction dim replicated instead of partial, so its lowering
# has no all-reduce; right_partial.pir is the same program declared right. Also --trace's ring and
# bytes on the collective. See cli_lib.sh for the driver.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"

test_run_check_catches_a_missing_all_reduce() {
  prun "$TESTDATA/run/wrong_partial.pir"
  expect_rc 0 "without --check the wrong program runs"
  prun "$TESTDATA/run/wrong_partial.pir" --check
  expect_rc 1 "--check on the wrong program"
  grep -Eq "^check: 'out' differs at flat index [0-9]+: [-+.e0-9]+, serially [-+.e0-9]+ \(.* times the tolerance; [0-9]+ of 64 elements beyond it\)$" err ||
    fail "no mismatch line naming 'out': $(cat err)"
  grep -q 'tensors match' out && fail "a match was reported: $(cat out)"
  return 0
}

test_run_check_passes_the_right_partial() {
  prun "$TESTDATA/run/right_partial.pir" --check
  expect_rc 0
  grep -Eq '^check: 3 tensors match, and 0 gradients and 2 updates at each of 1 step \(worst: .*\)$' out || fail "no match line: $(cat out err)"
}

test_run_trace_names_ring_and_bytes() {
  prun "$TESTDATA/run/right_partial.pir" --trace t.json
  expect_rc 0
  # The P -> S(0) reshard is a reduce_scatter of the 8x8 f32 addend (256 bytes) on ring 12, on both ranks.
  [ "$(grep -c '"name": "pd_op.reduce_scatter", .*"args": {"ring": 12, "bytes": 256}}' t.json)" = 2 ] ||
    fail "the reduce_scatter events lack ring 12 and 256 bytes: $(cat t.json)"
  grep '"name": "pd_op.matmul"' t.json | grep -q args && fail "a matmul event has communication args"
  # A wait for the peer (when a rank came first) is an event of its own, with its ring.
  grep '"name": "wait"' t.json | grep -Ev '"args": \{"ring": 12\}\},?$' && fail "a wait event lacks its ring"
  return 0
}

cli_main
