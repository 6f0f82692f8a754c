#!/usr/bin/env bash
# pir-run on the seed program (testdata/seeds/reshard_*.pir) on 2 ranks: one
# SGD step's loss and parameters against numpy computing the formulas, and
# --check on both seeds (issue 18). See cli_lib.sh for the driver.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
PY=/usr/bin/python3   # Debian's, where python3-numpy is installed

need_numpy() {
  "$PY" -c 'import numpy' 2>/dev/null || skip "no numpy for $PY (python3-numpy)"
}

# The seed, per its text: h0 = relu(input0); h1 = relu(h0 @ parameter_0);
# c = relu(h1 @ parameter_1) (the partial sum all-reduced); loss_0 =
# mean((c - label0)^2) over the 4x8 elements; the grads by the chain rule
# (relu_grad masks by its output > 0); sgd_: w - lr * grad, lr the state
# learning_rate_1, initialised to 0.1 (not given in --inputs).
test_run_seed_sgd_step_by_hand() {
  need_numpy
  mkdir in
  "$PY" - <<'PY' || fail "cannot write the inputs"
import numpy as np
rng = np.random.default_rng(18)
for name, shape in [('input0', (4, 16)), ('label0', (4, 8)), ('parameter_0', (16, 16)), ('parameter_1', (16, 8))]:
    scale = 0.25 if name.startswith('parameter') else 1.0
    np.save('in/%s.npy' % name, (rng.standard_normal(shape) * scale).astype(np.float32))
PY
  prun "$SEED" --ranks 2 --steps 1 --inputs in --output-dir o
  expect_rc 0
  "$PY" - "$(cat out)" <<'PY' || fail "pir-run's step differs from the formulas: $(cat out)"
import sys
import numpy as np
ld = lambda d, n: np.load('%s/%s.npy' % (d, n)).astype(np.float64)
x, y, w0, w1 = (ld('in', n) for n in ('input0', 'label0', 'parameter_0', 'parameter_1'))
lr = 0.1
h0 = np.maximum(x, 0)
h1 = np.maximum(h0 @ w0, 0)
c = np.maximum(h1 @ w1, 0)
d = c - y
loss = np.mean(d * d)
g_c = 2 * d / d.size
g_b = g_c * (c > 0)
g_w1 = h1.T @ g_b
g_a = (g_b @ w1.T) * (h1 > 0)
g_w0 = h0.T @ g_a
want = {'loss_0': loss, 'parameter_0': w0 - lr * g_w0, 'parameter_1': w1 - lr * g_w1}
assert 0 < (c > 0).mean() < 1 and 0 < (h1 > 0).mean() < 1, 'the inputs should exercise the relu masks'
assert np.abs(g_w0).max() > 1e-3 and np.abs(g_w1).max() > 1e-3, 'the step should move both parameters'
for name, ref in want.items():
    got = np.load('o/%s.npy' % name)
    assert got.dtype == np.float32 and got.shape == np.shape(ref), (name, got.dtype, got.shape)
    err = np.abs(got - ref) - (1e-6 + 1e-5 * np.abs(ref))
    assert (err <= 0).all(), '%s: index %d: %r, by hand %r' % (
        name, err.argmax(), got.flat[err.argmax()], np.ravel(ref)[err.argmax()])
lr_out = np.load('o/learning_rate_1.npy')
assert abs(float(lr_out.reshape(())) - 0.1) < 1e-7, lr_out
line = sys.argv[1].splitlines()[0]
assert line.startswith('step 1: loss_0 '), line
printed = float(line.split()[-1])
assert abs(printed - loss) <= 1e-5 * abs(loss) + 1e-6, (printed, loss)
PY
}

test_run_seed_check_before_and_after() {
  for p in "$SEED" "$SEED_AFTER"; do
    prun "$p" --ranks 2 --steps 2 --check
    expect_rc 0
    grep -q '^check: [0-9]* tensors match' out || fail "$(basename "$p"): no check line: $(cat out err)"
  done
}

cli_main
