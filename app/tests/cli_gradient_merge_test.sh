#!/usr/bin/env bash
# gradient-merge through pir-opt and pir-run. See cli_lib.sh for the driver.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
STEP=$TESTDATA/gradient_merge/01_dense_sgd_adamw.pir

# The dense step of gradient_merge/01 with a static batch of 8 (pir-run
# draws feeds of static shapes).
write_step() {
  tail -n +3 "$STEP" | sed 's/-1x3/8x3/g; s/-1x2/8x2/g; s/\[-1,3\]/[8,3]/; s/\[-1,2\]/[8,2]/' > plain.pir
}

# Run whole, a k=1 merge is the plain step: the buffers are state, zero at
# the start (persistable kwargs), and zeroed again after every step, so two
# steps update the parameters byte for byte as the plain program does.
test_gradient_merge_k1_runs_as_plain_step() {
  write_step
  run plain.pir '--pass-pipeline=gradient-merge{k=1 avg=true}' -o merged.pir
  expect_rc 0
  timeout 60 "$PIR_RUN" plain.pir --steps 2 --output-dir a > out 2> err || fail "plain run: $(cat err)"
  timeout 60 "$PIR_RUN" merged.pir --steps 2 --output-dir b > out2 2> err || fail "merged run: $(cat err)"
  cmp -s out out2 || fail "losses differ: $(cat out) / $(cat out2)"
  for f in w b b_moment1 b_moment2; do
    cmp -s "a/$f.npy" "b/$f.npy" || fail "$f differs after two steps"
  done
  # 8x4-byte zeros after the 128-byte header: the buffer was zeroed.
  [ "$(tail -c 24 "b/w@GRAD@MERGE.npy" | od -An -tx1 | tr -d ' \n')" = "$(printf '0%.0s' {1..48})" ] ||
    fail "w@GRAD@MERGE is not zero after the step"
}

# On the distributed seed (2 ranks): ranks.yaml lists the persistable buffers
# as data, so pir-run feeds them zeros; with k=1 the losses are the plain
# program's and --check finds every rank's tensors equal to the serial run.
test_gradient_merge_k1_dist_seed_check() {
  run "$SEED_AFTER" '--pass-pipeline=gradient-merge{k=1}' -o merged.pir
  expect_rc 0
  timeout 60 "$PIR_RUN" "$SEED_AFTER" --steps 2 > plain.out 2> err || fail "plain run: $(cat err)"
  timeout 60 "$PIR_RUN" merged.pir --steps 2 --check > out 2> err || fail "merged run: $(cat err)"
  grep -q '^check: 6 tensors match' out || fail "no check of the 6 tensors: $(cat out)"
  grep '^step' out | cmp -s - plain.out || fail "losses differ: $(cat out) / $(cat plain.out)"
}
cli_main
