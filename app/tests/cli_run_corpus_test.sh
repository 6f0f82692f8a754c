#!/usr/bin/env bash
# Real dumps from Paddle's documentation run (issue 29): ../shared/corpus/, read in place (never
# copied). Each test runs a dump with pir-run --dump-values (every value its top block makes, as
# N.npy for %N) and recomputes those values with numpy, written here from the dump's text:
# control flow (07 if, 08 while), a CINN group (11), the kernel dialect (13), fetch (22), pd_op.max
# (30), the operator dialect (15), combine/concat (24), split (25). 14 holds a compiled CINN kernel, a
# located error. f32 tolerance: 1e-6 + 1e-5 relative; values that only move data are bitwise. See
# cli_lib.sh for the driver.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
CORPUS=${PIR_CORPUS:-$HERE/../../../shared/corpus}

need_corpus() {
  [ -d "$CORPUS" ] || skip "no corpus at $CORPUS"
  /usr/bin/python3 -c 'import numpy' 2> /dev/null || skip "no python3-numpy"
}

# numpy_inputs DIR NAME=SHAPE[:f64]...: DIR/NAME.npy, f32 (or f64) normal draws of SHAPE (seeded).
numpy_inputs() {
  local dir=$1
  shift
  mkdir -p "$dir"
  /usr/bin/python3 - "$dir" "$@" <<'PY' || fail "cannot write the inputs"
import sys, numpy as np
rng = np.random.default_rng(7)
for spec in sys.argv[2:]:
    name, shape = spec.split("=")
    shape, _, dtype = shape.partition(":")
    dims = [int(d) for d in shape.split("x")] if shape else []
    np.save(f"{sys.argv[1]}/{name}.npy", rng.standard_normal(dims).astype({"f64": np.float64}.get(dtype, np.float32)))
PY
}

# numpy_check DIR PYTHON: runs PYTHON with v(N) (DIR/N.npy) and close(got, want); exit 1 on a mismatch.
numpy_check() {
  /usr/bin/python3 - "$1" "$2" > check.out 2>&1 <<'PY' || fail "numpy: $(cat check.out)"
import sys, numpy as np
d = sys.argv[1]
def v(n): return np.load(f"{d}/{n}.npy")
def inp(name): return np.load(f"in/{name}.npy")
def close(got, want, what):
    want = np.asarray(want)
    if got.shape != want.shape or got.dtype != want.dtype:
        sys.exit(f"{what}: {got.dtype}{got.shape}, numpy {want.dtype}{want.shape}")
    if not np.allclose(got, want, rtol=1e-5, atol=1e-6, equal_nan=True):
        sys.exit(f"{what}: {got} differs from numpy's {want}")
def same(got, want, what):
    want = np.asarray(want)
    if got.shape != want.shape or got.dtype != want.dtype or not np.array_equal(got, want):
        sys.exit(f"{what}: {got!r} is not numpy's {want!r}")
exec(sys.argv[2])
PY
}

test_run_corpus_07_if_both_branches() {
  need_corpus
  local i
  for i in 5 1; do  # i >= 3 takes the then branch (a + a), else a - a
    mkdir -p in
    /usr/bin/python3 -c "import numpy as np; np.save('in/i.npy', np.array([$i], np.float32)); np.save('in/a.npy', np.array([1.25], np.float32))"
    prun "$CORPUS/07_if_pd_op_tensor_unquoted_name.pir" --inputs in --dump-values v
    expect_rc 0 "i=$i"
    numpy_check v "
i, a = inp('i'), inp('a')
same(v(2), np.float32(3), '%2')
same(v(3), i >= 3, '%3')
same(v(4), a + a if i[0] >= 3 else a - a, '%4 (the if)')
same(v(7), np.mean(v(4)), '%7')
import os
sys.exit('branch values escaped: ' + str(sorted(os.listdir(d)))) if os.path.exists(f'{d}/5.npy') or os.path.exists(f'{d}/6.npy') else None
"
  done
}

test_run_corpus_08_while_counts_to_ten() {
  need_corpus
  prun "$CORPUS/08_while_block_args_fragment.pir" --dump-values v
  expect_rc 0
  numpy_check v "
i = np.zeros(1, np.int64)
while (i < 10).all(): i = i + 1
same(v(3), np.array([True]), '%3')
same(v(4), i, '%4 (the while)')
"
}

# --trace shows each iteration's ops: 10 adds and 11 less_thans (one before the loop).
test_run_corpus_08_trace_has_every_iteration() {
  need_corpus
  prun "$CORPUS/08_while_block_args_fragment.pir" --trace t.json
  expect_rc 0
  /usr/bin/python3 -c "
import json, sys
from collections import Counter
d = json.load(open('t.json'))
n = Counter(e.get('name') for e in (d['traceEvents'] if isinstance(d, dict) else d))
sys.exit(0 if n['pd_op.add'] == 10 and n['pd_op.less_than'] == 11 else f'spans: {dict(n)}')" || fail "not every iteration"
}

test_run_corpus_11_cinn_group_softmax() {
  need_corpus
  numpy_inputs in _jst.0.x.0=64x128
  prun "$CORPUS/11_cinn_group_region_softmax.pir" --inputs in --dump-values v
  expect_rc 0
  numpy_check v "
x = inp('_jst.0.x.0').astype(np.float64)
e = np.exp(x - x.max(-1, keepdims=True))
close(v(1), (e / e.sum(-1, keepdims=True)).astype(np.float32), '%1 (the group)')
"
}

test_run_corpus_13_kernel_dialect() {
  need_corpus
  numpy_inputs in x=3x5 y=3x5
  prun "$CORPUS/13_kernel_dialect_add_relu.pir" --inputs in --dump-values v --output-dir o
  expect_rc 0
  numpy_check v "
x, y = inp('x'), inp('y')
same(v(1), x, '%1 (shadow_feed)')
same(v(4), x + y, '%4 (add)')
same(v(5), np.maximum(x + y, 0), '%5 (relu)')
same(np.load('o/output_0.npy'), np.maximum(x + y, 0), 'output_0')
"
}

test_run_corpus_14_compiled_kernel_is_a_located_error() {
  need_corpus
  prun "$CORPUS/14_kernel_dialect_jit_kernel.pir"
  expect_rc 1
  stderr_has "14_kernel_dialect_jit_kernel\.pir:4:2: error: cinn_runtime\.jit_kernel: compiled CINN kernel: its code is not in the program$"
  [ "$(sed -n 3p err)" = " ^" ] || fail "no caret under the op: $(cat err)"
}

test_run_corpus_15_operator_dialect() {
  need_corpus
  numpy_inputs in x=2x7 y=2x7
  prun "$CORPUS/15_operator_dialect_inline_comment.pir" --inputs in --dump-values v --output-dir o
  expect_rc 0
  numpy_check v "
x, y = inp('x'), inp('y')
same(v(2), x + y, '%2 (add)')
same(np.load('o/output_0.npy'), np.maximum(x + y, 0), 'output_0')
"
}

test_run_corpus_24_combine_concat() {
  need_corpus
  numpy_inputs in _jst.0.args.0=5x1x4x5:f64 _jst.0.args.1=5x2x4x5:f64 _jst.0.args.2=5x3x4x5:f64
  prun "$CORPUS/24_combine_concat_vec_fragment.pir" --inputs in --dump-values v
  expect_rc 0
  numpy_check v "
a = [inp(f'_jst.0.args.{i}') for i in range(3)]
same(v(3), np.array([1], np.int32), '%3')
same(v(5), np.concatenate(a, axis=1), '%5 (concat)')
"
}

test_run_corpus_25_split() {
  need_corpus
  numpy_inputs in _jst.0.args.0=4x5x6:f64
  prun "$CORPUS/25_split_builtin_split_fragment.pir" --inputs in --dump-values v
  expect_rc 0
  numpy_check v "
x = inp('_jst.0.args.0')
parts = np.split(x, [2, 3], axis=1)
for n, p in zip((4, 5, 6), parts): same(v(n), p, f'%{n} (builtin.split)')
"
}

test_run_corpus_22_fetch() {
  need_corpus
  numpy_inputs in A=4x30 fc_0.w_0=30x30 fc_0.b_0=30
  prun "$CORPUS/22_save_load_params_fetch.pir" --inputs in --dump-values v
  expect_rc 0
  numpy_check v "
A, w, b = (inp(n).astype(np.float64) for n in ('A', 'fc_0.w_0', 'fc_0.b_0'))
want = np.maximum(A @ w + b, 0).astype(np.float32)
close(v(5), want, '%5 (relu)')
close(v(8), want, '%8 (fetch of scale 1)')
"
}

test_run_corpus_30_max_softmax() {
  need_corpus
  numpy_inputs in _jst.0.x.0=64x128
  prun "$CORPUS/30_cinn_softmax_original_set_parameter.pir" --inputs in --dump-values v
  expect_rc 0
  numpy_check v "
x = inp('_jst.0.x.0')
same(v(2), x.max(-1, keepdims=True), '%2 (max)')
e = np.exp(x.astype(np.float64) - x.max(-1, keepdims=True))
close(v(7), (e / e.sum(-1, keepdims=True)).astype(np.float32), '%7')
"
}

# --dump-values is for a dense program, whose values are whole on one rank.
test_run_dump_values_needs_a_dense_program() {
  prun "$SEED" --dump-values v
  expect_rc 1
  stderr_has "^error: --dump-values runs a dense PROGRAM \(one rank, no --mode\)"
  [ ! -e v ] || fail "the folder was made"
}

cli_main
