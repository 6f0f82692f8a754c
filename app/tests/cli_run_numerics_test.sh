#!/usr/bin/env bash
# pir-run's numbers when they are not finite (issue 28): NaN propagates through the kernels as numpy
# computes it (relu(NaN) is NaN, not 0: a NaN input no longer ends in a finite loss); --check-finite
# fails at the first op that makes a NaN or an infinity from finite operands, or at the feed that holds
# one, in process, on every rank of a distributed run, in every job of a pipeline and under mpirun; a
# kernel's result that is not its op's declared type is an error at that op, not at a later consumer
# (arange's: a static length its operands contradict). See cli_lib.sh for the driver.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
PY=/usr/bin/python3  # Debian's, where python3-numpy is installed
TWO=$TESTDATA/gradient_merge/05_dist_two_stages.pir  # stage 0 on [0], stage 1 on [1], sgd_

need_numpy() {
  "$PY" -c 'import numpy' 2> /dev/null || skip "no numpy for $PY (python3-numpy)"
}

# A dense program: y = relu(x), g = relu_grad(y, d), loss = mean(y).
write_relu() {
  cat > p.pir <<'PIR'
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[2,3],stop_gradient:[true]} : () -> builtin.tensor<2x3xf32>
    (%1) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"d",place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[2,3],stop_gradient:[true]} : () -> builtin.tensor<2x3xf32>
    (%2) = "pd_op.relu" (%0) {stop_gradient:[false]} : (builtin.tensor<2x3xf32>) -> builtin.tensor<2x3xf32>
    (%3) = "pd_op.relu_grad" (%2, %1) {stop_gradient:[false]} : (builtin.tensor<2x3xf32>, builtin.tensor<2x3xf32>) -> builtin.tensor<2x3xf32>
    (%4) = "pd_op.mean" (%2) {axis:(pd_op.IntArray)[],keepdim:false,stop_gradient:[false]} : (builtin.tensor<2x3xf32>) -> builtin.tensor<f32>
    () = "builtin.shadow_output" (%4) {output_name:"loss"} : (builtin.tensor<f32>) -> 
    () = "builtin.shadow_output" (%2) {output_name:"y"} : (builtin.tensor<2x3xf32>) -> 
    () = "builtin.shadow_output" (%3) {output_name:"g"} : (builtin.tensor<2x3xf32>) -> 
}
PIR
}

# A dense program whose line 4 divides by zero: loss = mean(x / (x - x)).
write_divide() {
  cat > q.pir <<'PIR'
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[4],stop_gradient:[true]} : () -> builtin.tensor<4xf32>
    (%1) = "pd_op.subtract" (%0, %0) {stop_gradient:[false]} : (builtin.tensor<4xf32>, builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    (%2) = "pd_op.divide" (%0, %1) {stop_gradient:[false]} : (builtin.tensor<4xf32>, builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    (%3) = "pd_op.mean" (%2) {axis:(pd_op.IntArray)[],keepdim:false,stop_gradient:[false]} : (builtin.tensor<4xf32>) -> builtin.tensor<f32>
    () = "builtin.shadow_output" (%3) {output_name:"loss"} : (builtin.tensor<f32>) -> 
}
PIR
}

# Independent of the kernels: numpy computes relu, relu_grad and the mean from NaN and infinite
# inputs; pir-run's outputs must be those, NaN where numpy's are.
test_run_nan_propagates_as_numpy() {
  need_numpy
  write_relu
  mkdir in
  "$PY" -c "
import numpy as np
np.save('in/x.npy', np.array([[np.nan, -1, 2], [-np.inf, np.inf, 0.5]], np.float32))
np.save('in/d.npy', np.array([[1, 2, np.nan], [np.inf, 3, -4]], np.float32))
"
  prun p.pir --inputs in --output-dir o
  expect_rc 0
  grep -Eqx 'step 1: loss -?nan' out || fail "a NaN input ended in a finite loss: $(cat out)"
  "$PY" -c "
import numpy as np, warnings
warnings.simplefilter('ignore')
x, d = np.load('in/x.npy'), np.load('in/d.npy')
y = np.maximum(x, np.float32(0))
g = np.where(np.isnan(y), np.float32(np.nan), d * (y > 0))
for name, want in (('y', y), ('g', g), ('loss', y.mean())):
    got = np.load('o/%s.npy' % name)
    assert got.dtype == np.float32 and got.shape == np.shape(want), (name, got.dtype, got.shape)
    assert np.array_equal(got, want, equal_nan=True), (name, got, want)
" || fail "pir-run's relu/relu_grad/mean differ from numpy's"
}

test_run_check_finite_names_the_op() {
  write_divide
  prun q.pir
  expect_rc 0 "without --check-finite"
  prun q.pir --check-finite
  expect_rc 1
  expect_located q.pir 4
  stderr_has '^q\.pir:4:[0-9]+: error: (rank 0: )?pd_op\.divide: result 0 tensor<4xf32> holds (-?inf|nan) at flat index 0, made from finite operands \(--check-finite\)$'
  sed -n 2p err | grep -q '"pd_op.divide"' || fail "the source line is not the divide's: $(sed -n 2p err)"
}

test_run_check_finite_a_nan_feed() {
  need_numpy
  write_relu
  mkdir in
  "$PY" -c "
import numpy as np
np.save('in/x.npy', np.ones((2, 3), np.float32))
np.save('in/d.npy', np.array([[1, 2, 3], [4, np.nan, 6]], np.float32))
"
  prun p.pir --inputs in --check-finite
  expect_rc 1
  expect_located p.pir 3
  stderr_has "^p\.pir:3:[0-9]+: error: (rank 0: )?pd_op\.data: 'd' tensor<2x3xf32> holds nan at flat index 4 \(--check-finite\)$"
  # Finite inputs run as without the flag.
  "$PY" -c "import numpy as np; np.save('in/d.npy', np.ones((2, 3), np.float32))"
  prun p.pir --inputs in --check-finite
  expect_rc 0
  grep -qx 'step 1: loss 1' out || fail "no loss line: $(cat out err)"
}

# x (4 elements) sharded over two ranks: the NaN at index 3 is rank 1's element 1.
write_split_nan() {
  write_split
  mkdir in
  "$PY" -c "import numpy as np; np.save('in/x.npy', np.array([1, 2, 3, np.nan], np.float32))"
}

test_run_check_finite_on_every_rank() {
  need_numpy
  write_split_nan
  prun d.pir --inputs in
  expect_rc 0 "without --check-finite"
  prun d.pir --inputs in --check-finite
  expect_rc 1
  expect_located d.pir 2
  stderr_has "^d\.pir:2:[0-9]+: error: rank 1: pd_op\.data: 'x' tensor<2xf32> holds nan at flat index 1 \(--check-finite\)$"
  # The same from the folder pir-opt wrote: located in rank 1's program.
  prun --programs dd --inputs in --check-finite
  expect_rc 1
  stderr_has "rank 1: pd_op\.data: 'x' tensor<2xf32> holds nan at flat index 1 \(--check-finite\)$"
}

test_run_check_finite_under_mpirun() {
  need_numpy
  need_mpirun
  write_split_nan
  mpi 2 d.pir --inputs in --check-finite
  expect_rc 1
  grep -Eq "^d\.pir:2:[0-9]+: error: rank 1: pd_op\.data: 'x' tensor<2xf32> holds nan at flat index 1 \(--check-finite\)$" \
    err.mpirun || fail "rank 1 did not report the NaN: $(head -c 1500 err.mpirun)"
}

# A pipeline (FThenB, 2 micro-batches): w1 (stage 1, rank 1) is finite but large, so stage 1's matmul
# (line 12) overflows to inf in its forward job; rank 0's jobs are finite.
test_run_check_finite_in_a_pipeline_job() {
  need_numpy
  mkdir in
  "$PY" -c "
import numpy as np
np.save('in/x.npy', np.ones((8, 8), np.float32))
np.save('in/w0.npy', np.ones((8, 8), np.float32))
np.save('in/w1.npy', np.full((8, 8), 1e38, np.float32))
np.save('in/learning_rate_0.npy', np.array(0.1, np.float32))
np.save('in/learning_rate_1.npy', np.array(0.1, np.float32))
"
  prun "$TWO" --mode FThenB --micro-batches 2 --inputs in --timeout 10
  expect_rc 0 "without --check-finite"
  prun "$TWO" --mode FThenB --micro-batches 2 --inputs in --timeout 10 --check-finite
  expect_rc 1
  expect_located "$TWO" 12
  stderr_has "error: rank 1: job forward:0: pd_op\.matmul: result 0 tensor<4x8xf32> holds inf at flat index 0, made from finite operands \(--check-finite\)$"
}

# The newcomer's case: slice's result is declared [2x8] but is [0x8] (its bounds are past the end).
# The old runner failed at relu_grad, the consumer (`out_grad [0x8] does not match [2x8]`); now the
# error is at the slice, line 5.
test_run_result_not_its_declared_type() {
  cat > s.pir <<'PIR'
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[2,8],stop_gradient:[true]} : () -> builtin.tensor<2x8xf32>
    (%1) = "pd_op.full_int_array" () {dtype:(pd_op.DataType)int64,place:(pd_op.Place)Place(cpu),value:[(Int64)2]} : () -> builtin.tensor<1xi64>
    (%2) = "pd_op.full_int_array" () {dtype:(pd_op.DataType)int64,place:(pd_op.Place)Place(cpu),value:[(Int64)4]} : () -> builtin.tensor<1xi64>
    (%3) = "pd_op.slice" (%0, %1, %2) {axes:[(Int64)0],decrease_axis:[],infer_flags:[(Int64)1],stop_gradient:[false]} : (builtin.tensor<2x8xf32>, builtin.tensor<1xi64>, builtin.tensor<1xi64>) -> builtin.tensor<2x8xf32>
    (%4) = "pd_op.relu_grad" (%0, %3) {stop_gradient:[false]} : (builtin.tensor<2x8xf32>, builtin.tensor<2x8xf32>) -> builtin.tensor<2x8xf32>
    () = "builtin.shadow_output" (%4) {output_name:"g"} : (builtin.tensor<2x8xf32>) -> 
}
PIR
  prun s.pir
  expect_rc 1
  expect_located s.pir 5
  stderr_has '^s\.pir:5:[0-9]+: error: (rank 0: )?pd_op\.slice: result 0 is declared tensor<2x8xf32>, the kernel made tensor<0x8xf32>$'
  grep -q relu_grad err && fail "the error names the consumer: $(cat err)"
  return 0
}

# arange's length comes from its operands' values (issue 29): a result type of -1 takes any length, a
# static length the operands contradict is an error at the arange (line 5), whatever uses it later.
write_arange() {
  cat > a.pir <<PIR
{
    (%0) = "pd_op.full" () {dtype:(pd_op.DataType)int64,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:[true],value:(Double)0} : () -> builtin.tensor<1xi64>
    (%1) = "pd_op.full" () {dtype:(pd_op.DataType)int64,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:[true],value:(Double)10} : () -> builtin.tensor<1xi64>
    (%2) = "pd_op.full" () {dtype:(pd_op.DataType)int64,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:[true],value:(Double)3} : () -> builtin.tensor<1xi64>
    (%3) = "pd_op.arange" (%0, %1, %2) {dtype:(pd_op.DataType)int64,place:(pd_op.Place)Place(cpu),stop_gradient:[true]} : (builtin.tensor<1xi64>, builtin.tensor<1xi64>, builtin.tensor<1xi64>) -> builtin.tensor<$1xi64>
    (%4) = "pd_op.cast" (%3) {dtype:(pd_op.DataType)float32,stop_gradient:[true]} : (builtin.tensor<$1xi64>) -> builtin.tensor<$1xf32>
    () = "builtin.shadow_output" (%4) {output_name:"r"} : (builtin.tensor<$1xf32>) -> 
}
PIR
}

test_run_arange_declared_length() {
  need_numpy
  local n
  for n in -1 4; do  # np.arange(0, 10, 3) has 4 elements
    write_arange "$n"
    prun a.pir --output-dir o
    expect_rc 0 "declared $n"
    "$PY" -c "
import numpy as np
got = np.load('o/r.npy')
assert got.dtype == np.float32 and np.array_equal(got, np.arange(0, 10, 3, dtype=np.float32)), got
" || fail "declared $n: not np.arange(0, 10, 3)"
  done
  write_arange 5
  prun a.pir
  expect_rc 1
  expect_located a.pir 5
  stderr_has '^a\.pir:5:[0-9]+: error: (rank 0: )?pd_op\.arange: start 0, end 10 and step 3 make 4 elements, but its result type declares 5$'
}

test_run_check_finite_help() {
  prun --help
  expect_rc 0
  grep -q -- '--check-finite' out || fail "--help does not list --check-finite"
}

cli_main
