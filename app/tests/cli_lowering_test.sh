#!/usr/bin/env bash
# lower-reshard through the binary: statistics by function, the rank option.
source "$(dirname "$0")/cli_lib.sh" "$@"

LOWERING=$TESTDATA/lowering

test_lower_reshard_statistics() {
  run "$SEED" '--pass-pipeline=apply-partition,lower-reshard{rank=1}' --pass-statistics
  expect_rc 0
  stderr_has '^  \(S\) 2 reshards lowered: PToR$'
  run "$LOWERING/09a_nd_cross_pp_to_rr_rank0.pir" '--pass-pipeline=lower-reshard{rank=0}' --pass-statistics
  expect_rc 0
  stderr_has '^  \(S\) 1 reshards lowered: SameStatus\+NdMesh$'
  run "$LOWERING/10h_general_cross_sizes_shard.pir" '--pass-pipeline=lower-reshard{rank=3}' --pass-statistics
  expect_rc 0
  stderr_has '^  \(S\) 1 reshards lowered: general$'
}

test_lower_reshard_needs_rank() {
  # The seed names no rank: without rank=R there is nothing to lower for.
  run "$SEED" '--pass-pipeline=apply-partition,lower-reshard'
  expect_rc 1
  stderr_has 'lower-reshard needs a rank: lower-reshard\{rank=R\}'
  run "$SEED" '--pass-pipeline=lower-reshard{rank=-2}'
  expect_rc 1
}

test_lower_reshard_same_rings_every_rank() {
  # The ring ids of a 2-D lowering are the same whichever rank asks.
  for r in 0 1 2 3; do
    run "$LOWERING/08a_nd_pp_to_rr_rank0.pir" "--pass-pipeline=lower-reshard{rank=$r}"
    expect_rc 0
    grep -o 'process_ids:\[[0-9,]*\]},operand(0)[^}]*},result(0)[^}]*},chunk_id:0},reduce_type:(Int32)0,ring_id:(Int32)[0-9]*' out \
      | sed -E 's/^process_ids:(\[[0-9,]*\]).*ring_id:\(Int32\)/\1 /' >> rings
  done
  sort -u rings > got
  printf '%s\n' '[0,1] 14' '[0,2] 12' '[1,3] 13' '[2,3] 15' > want
  same want got "rings of pp->rr over ranks 0..3"
}

cli_main
