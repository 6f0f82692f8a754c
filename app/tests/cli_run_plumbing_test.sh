#!/usr/bin/env bash
# Plumbing of real programs (issue 29): dist_op.shard_tensor of a dense value cuts each rank's piece
# (apply-partition reshards it from replicated; testdata/run/shard_tensor_dense.pir, uneven on 2 ranks),
# and pir-run --check and numpy agree; pir-run --list-kernels. See cli_lib.sh for the driver.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"

test_run_shard_tensor_of_a_dense_value() {
  /usr/bin/python3 -c 'import numpy' 2> /dev/null || skip "no python3-numpy"
  mkdir -p in
  /usr/bin/python3 -c "import numpy as np; np.save('in/x.npy', np.random.default_rng(3).standard_normal((5, 7)).astype(np.float32))"
  prun "$TESTDATA/run/shard_tensor_dense.pir" --inputs in --check --output-dir o
  expect_rc 0
  grep -qx 'check: 1 tensors match (every element equal)' out || fail "no check line: $(cat out err)"
  /usr/bin/python3 -c "
import sys, numpy as np
x, y = np.load('in/x.npy'), np.load('o/y.npy')
sys.exit(0 if y.shape == (5, 7) and np.array_equal(y, np.maximum(x, 0)) else f'{y} is not relu(x)')" || fail "numpy"
  # Each rank's program slices its piece: columns [0, 4) and [4, 7).
  run "$TESTDATA/run/shard_tensor_dense.pir" --pass-pipeline=apply-partition,split-ranks
  expect_rc 0
  [ "$(grep -c '"pd_op.slice"' out)" = 2 ] || fail "not a slice per rank: $(cat out)"
  grep -q 'tensor<5x4xf32>' out && grep -q 'tensor<5x3xf32>' out || fail "not the uneven pieces: $(cat out)"
}

# pir-run --list-kernels: every op with a kernel (operands {attributes} -> results as the op table
# names them, then the dtypes it accepts), the ops the executor runs itself, and the refused ones with
# the reason; no PROGRAM needed.
test_run_list_kernels() {
  prun --list-kernels
  expect_rc 0
  grep -qx 'pd_op.matmul (x, y) {transpose_x, transpose_y} -> (out) \[f32 f64 bf16\]' out ||
    fail "no matmul line: $(head -5 out)"
  grep -qx 'pd_op.add (x, y) -> (out) \[f32 f64 bf16 i32 i64\]' out || fail "no add line"
  grep -qx 'pd_op.less_than (x, y) -> (out) \[f32 f64 bf16 i32 i64 bool\]' out || fail "no less_than line"
  grep -qx 'pd_op.one_hot (x, num_classes) -> (out) \[i32 i64\]' out || fail "no one_hot line"
  grep -qx 'pd_op.conv2d_grad (input, filter, out_grad) {strides, paddings, padding_algorithm, dilations, groups, data_format} -> (input_grad, filter_grad) \[f32 f64 bf16\]' out ||
    fail "no conv2d_grad line"
  grep -qx 'pd_op.split_grad (out_grad, axis) -> (x_grad) \[f32 f64 bf16 i32 i64 bool\]' out || fail "no split_grad line"
  grep -qx 'pd_op.while (cond, inputs...) -> (out...)' out || fail "no while line"
  grep -qx 'cinn_runtime.jit_kernel: compiled CINN kernel: its code is not in the program' out || fail "no refusal"
  # Every line under "# kernels" has a kernel: none of them is refused by a run.
  local ops
  ops=$(sed -n '/^# kernels/,/^# run by/p' out | grep -v '^#' | cut -d' ' -f1 | wc -l)
  [ "$ops" -ge 150 ] || fail "only $ops kernels listed"
  # ... and each lists its dtypes.
  local bare
  bare=$(sed -n '/^# kernels/,/^# run by/p' out | grep -v '^#' | grep -cv ' \[[a-z0-9 ]*\]$')
  [ "$bare" = 0 ] || fail "$bare kernels without dtypes"
  [ ! -s err ] || fail "stderr: $(cat err)"
}

cli_main
