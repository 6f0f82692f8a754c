#!/usr/bin/env bash
# pir-run --check on scripts/gen-program's programs (issue 18): a 2000-op program on a 1-D mesh of 2
# and a 2x2 mesh (data x model parallel), with sgd and adamw, over 3 steps. The loss must change (a
# constant loss has zero grads and makes the check vacuous). See cli_lib.sh for the driver.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
GEN=$HERE/../../scripts/gen-program

# check_gen MESH OPTIMIZER: generates, runs --steps 3 --check, asserts the check line and a moving loss.
check_gen() {
  "$GEN" --ops 2000 --mesh "$1" --optimizer "$2" -o p.pir || { fail "gen-program --mesh $1 --optimizer $2"; return; }
  timeout 100 "$PIR_RUN" p.pir --steps 3 --check > out 2> err
  rc=$?
  check_no_crash
  expect_rc 0 "--mesh $1 --optimizer $2"
  grep -Eq '^check: [0-9]+ tensors match \(max rel err [-+.e0-9]+\)$' out ||
    fail "--mesh $1 --optimizer $2: no 'check: N tensors match' line: $(grep check out)"
  local l1 l3
  l1=$(sed -n 's/^step 1: loss_0 //p' out)
  l3=$(sed -n 's/^step 3: loss_0 //p' out)
  [ -n "$l1" ] && [ -n "$l3" ] || { fail "--mesh $1 --optimizer $2: no loss for step 1 or 3: $(cat out)"; return; }
  [ "$l1" != "$l3" ] || fail "--mesh $1 --optimizer $2: the loss does not change ($l1 at steps 1 and 3)"
}

test_check_gen_mesh2_sgd() { check_gen 2 sgd; }
test_check_gen_mesh2_adamw() { check_gen 2 adamw; }
test_check_gen_mesh2x2_sgd() { check_gen 2x2 sgd; }
test_check_gen_mesh2x2_adamw() { check_gen 2x2 adamw; }

cli_main
