#!/usr/bin/env bash
# Control flow inside a distributed program (issue 29): testdata/run/if_distributed.pir and
# while_distributed.pir put a reshard (a reduce_scatter after split-ranks) inside an if branch and a
# while body on a 2-rank mesh. pir-run --check compares the split run with the serial meaning, and
# numpy recomputes the output from the same inputs (f32: 1e-6 + 1e-5 relative). See cli_lib.sh.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
RUN=$TESTDATA/run

need_numpy() { /usr/bin/python3 -c 'import numpy' 2> /dev/null || skip "no python3-numpy"; }

# inputs N: in/x.npy, in/w.npy (8x8 normal draws) and in/n.npy (the 0-D N).
inputs() {
  mkdir -p in
  /usr/bin/python3 -c "
import numpy as np; r = np.random.default_rng(1)
np.save('in/x.npy', r.standard_normal((8, 8)).astype(np.float32))
np.save('in/w.npy', r.standard_normal((8, 8)).astype(np.float32))
np.save('in/n.npy', np.array($1, np.float32))" || fail "cannot write the inputs"
}

# out_is PYTHON: o/out.npy against PYTHON's value of `want` (x, w, n float64 from in/).
out_is() {
  /usr/bin/python3 -c "
import sys, numpy as np
x, w, n = (np.load(f'in/{k}.npy').astype(np.float64) for k in 'xwn')
$1
got = np.load('o/out.npy')
sys.exit(0 if got.shape == want.shape and np.allclose(got, want, rtol=1e-5, atol=1e-6) else f'{got} is not {want}')
" || fail "numpy disagrees"
}

test_run_distributed_if_both_branches_check() {
  need_numpy
  inputs 1
  prun "$RUN/if_distributed.pir" --inputs in --check --output-dir o
  expect_rc 0 "n = 1"
  grep -Eq '^check: 3 tensors match' out || fail "no check line: $(cat out err)"
  out_is "want = x @ w"
  inputs -1
  prun "$RUN/if_distributed.pir" --inputs in --check --output-dir o
  expect_rc 0 "n = -1"
  grep -Eq '^check: 3 tensors match' out || fail "no check line: $(cat out err)"
  out_is "want = w"
  # The branch keeps its reduce_scatter after split-ranks.
  run "$RUN/if_distributed.pir" --pass-pipeline=apply-partition,split-ranks
  expect_rc 0
  grep -q '"pd_op.reduce_scatter"' out || fail "no reduce_scatter in the if: $(cat out)"
}

test_run_distributed_while_check() {
  need_numpy
  local n
  for n in 3 0; do
    inputs $n
    prun "$RUN/while_distributed.pir" --inputs in --check --output-dir o
    expect_rc 0 "n = $n"
    grep -qx "step 1: i $n" out || fail "not $n iterations: $(cat out)"
    grep -Eq '^check: 4 tensors match' out || fail "no check line: $(cat out err)"
    out_is "
want = w
for _ in range(int(n)): want = 0.5 * (x @ want)"
  done
}

# An output written inside a region is an output like any other: its name is checked before the run.
test_run_output_name_inside_a_region_stays_in_the_folder() {
  cat > g.pir <<'PIR'
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[2],stop_gradient:[true]} : () -> builtin.tensor<2xf32>
    (%1) = cinn_op.group () -> builtin.tensor<2xf32> {
        (%2) = "pd_op.relu" (%0) {} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>
        () = "builtin.shadow_output" (%2) {output_name:"../x"} : (builtin.tensor<2xf32>) -> 
        () = "cf.yield" (%2) {} : (builtin.tensor<2xf32>) -> 
    }
}
PIR
  mkdir -p d
  prun g.pir --output-dir d/o
  expect_rc 1
  expect_located g.pir
  stderr_has "error: '\.\./x' cannot name a file in --output-dir \(a '/'\)$"
  [ ! -e d/x.npy ] || fail "a file was written beside the folder"
}

cli_main
