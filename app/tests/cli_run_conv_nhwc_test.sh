#!/usr/bin/env bash
# conv2d, pool2d and their grads with data_format NHWC (issue 29), through pir-run: a program of
# conv2d -> pool2d (max, ceil_mode) -> pool2d_grad -> conv2d_grad in NHWC must give what numpy
# computes on its own (sliding windows over the padded NHWC image, the first maximum of a window
# taking its gradient), and exactly what the same program in NCHW gives on the transposed inputs.
# See cli_lib.sh for the driver.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
PY=/usr/bin/python3  # Debian's, where python3-numpy is installed

need_numpy() {
  "$PY" -c 'import numpy' 2> /dev/null || skip "no numpy for $PY (python3-numpy)"
}

# write_conv_net FILE FORMAT: x [2,6,5,3] (NHWC) or [2,3,6,5] (NCHW), w [4,3,3,3] (both), dy the
# pool's out_grad; y = conv2d(x, w) (stride 1, pad 1), p = pool2d(y) (max 2x2, stride 2, ceil_mode),
# gy = pool2d_grad(y, p, dy), (gx, gw) = conv2d_grad(x, w, gy).
write_conv_net() {
  local f=$2 x y p
  if [ "$f" = NHWC ]; then x=2x6x5x3 y=2x6x5x4 p=2x3x3x4; else x=2x3x6x5 y=2x4x6x5 p=2x4x3x3; fi
  local t="builtin.tensor" conv pool
  conv="data_format:\"$f\",dilations:[(Int32)1,(Int32)1],groups:(Int32)1,padding_algorithm:\"EXPLICIT\",paddings:[(Int32)1,(Int32)1],stop_gradient:[false],strides:[(Int32)1,(Int32)1]"
  pool="adaptive:false,ceil_mode:true,data_format:\"$f\",exclusive:true,global_pooling:false,padding_algorithm:\"EXPLICIT\",paddings:[(Int32)0,(Int32)0],pooling_type:\"max\",stop_gradient:[false],strides:[(Int32)2,(Int32)2]"
  data() { echo "{dtype:(pd_op.DataType)float32,name:\"$1\",place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[${2//x/,}],stop_gradient:[false]} : () -> $t<${2}xf32>"; }
  cat > "$1" <<PIR
{
    (%0) = "pd_op.data" () $(data x $x)
    (%1) = "pd_op.data" () $(data w 4x3x3x3)
    (%2) = "pd_op.data" () $(data dy $p)
    (%3) = "pd_op.conv2d" (%0, %1) {$conv} : ($t<${x}xf32>, $t<4x3x3x3xf32>) -> $t<${y}xf32>
    (%4) = "pd_op.full_int_array" () {dtype:(pd_op.DataType)int64,place:(pd_op.Place)Place(cpu),stop_gradient:[true],value:[(Int64)2,(Int64)2]} : () -> $t<2xi64>
    (%5) = "pd_op.pool2d" (%3, %4) {$pool} : ($t<${y}xf32>, $t<2xi64>) -> $t<${p}xf32>
    (%6) = "pd_op.pool2d_grad" (%3, %5, %2, %4) {$pool} : ($t<${y}xf32>, $t<${p}xf32>, $t<${p}xf32>, $t<2xi64>) -> $t<${y}xf32>
    (%7, %8) = "pd_op.conv2d_grad" (%0, %1, %6) {$conv} : ($t<${x}xf32>, $t<4x3x3x3xf32>, $t<${y}xf32>) -> $t<${x}xf32>, $t<4x3x3x3xf32>
    () = "builtin.shadow_output" (%3) {output_name:"y"} : ($t<${y}xf32>) -> 
    () = "builtin.shadow_output" (%5) {output_name:"p"} : ($t<${p}xf32>) -> 
    () = "builtin.shadow_output" (%7) {output_name:"gx"} : ($t<${x}xf32>) -> 
    () = "builtin.shadow_output" (%8) {output_name:"gw"} : ($t<4x3x3x3xf32>) -> 
}
PIR
}

test_run_conv_pool_nhwc_against_numpy_and_nchw() {
  need_numpy
  write_conv_net nhwc.pir NHWC
  write_conv_net nchw.pir NCHW
  mkdir in in_nchw
  "$PY" -c "
import numpy as np
rng = np.random.default_rng(29)
x, w, dy = (rng.standard_normal(s).astype(np.float32) for s in ((2, 6, 5, 3), (4, 3, 3, 3), (2, 3, 3, 4)))
for d, t in (('in', lambda a: a), ('in_nchw', lambda a: a.transpose(0, 3, 1, 2))):
    np.save(d + '/x.npy', t(x)); np.save(d + '/dy.npy', t(dy)); np.save(d + '/w.npy', w)
"
  prun nhwc.pir --inputs in --output-dir o
  expect_rc 0 "NHWC"
  prun nchw.pir --inputs in_nchw --output-dir o_nchw
  expect_rc 0 "NCHW"
  "$PY" - > check.out 2>&1 <<'PY' || fail "numpy: $(cat check.out)"
import sys, numpy as np
from numpy.lib.stride_tricks import sliding_window_view
x, w, dy = (np.load(f'in/{n}.npy').astype(np.float64) for n in ('x', 'w', 'dy'))
N, H, W, C = x.shape
M = w.shape[0]
# conv2d, NHWC, stride 1, pad 1: y[n,i,j,m] = sum over a, b, c of xpad[n,i+a,j+b,c]·w[m,c,a,b]
xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
win = sliding_window_view(xp, (3, 3), axis=(1, 2))  # [n, i, j, c, a, b]
y = np.einsum('nijcab,mcab->nijm', win, w)
# max pool 2x2, stride 2, ceil_mode: windows [2o, min(2o+2, dim)); its grad to each window's first maximum
Ho, Wo = -(-H // 2), -(-W // 2)
p = np.empty((N, Ho, Wo, M))
gy = np.zeros_like(y)
for oi in range(Ho):
    for oj in range(Wo):
        blk = y[:, 2 * oi:2 * oi + 2, 2 * oj:2 * oj + 2, :]
        p[:, oi, oj, :] = blk.max(axis=(1, 2))
        bw = blk.shape[2]
        for n in range(N):
            for m in range(M):
                k = int(np.argmax(blk[n, :, :, m]))  # row-major: the first maximum
                gy[n, 2 * oi + k // bw, 2 * oj + k % bw, m] += dy[n, oi, oj, m]
# conv2d_grad: gw[m,c,a,b] = sum gy[n,i,j,m]·xpad[n,i+a,j+b,c]; gx adds w's taps back over the padded image
gw = np.einsum('nijm,nijcab->mcab', gy, win)
gxp = np.zeros_like(xp)
for a in range(3):
    for b in range(3):
        gxp[:, a:a + H, b:b + W, :] += np.einsum('nijm,mc->nijc', gy, w[:, :, a, b])
gx = gxp[:, 1:-1, 1:-1, :]
to_nhwc = lambda t: t.transpose(0, 2, 3, 1)
for name, want, nchw_back in (('y', y, to_nhwc), ('p', p, to_nhwc), ('gx', gx, to_nhwc), ('gw', gw, lambda t: t)):
    got = np.load(f'o/{name}.npy')
    if got.dtype != np.float32 or got.shape != want.shape:
        sys.exit(f'{name}: {got.dtype}{got.shape}, numpy {want.shape}')
    if not np.allclose(got, want, rtol=1e-4, atol=1e-5):
        sys.exit(f'{name}: differs from numpy by {np.abs(got - want).max()}')
    # NHWC is NCHW with the channel last: the same numbers, bit for bit
    nchw = nchw_back(np.load(f'o_nchw/{name}.npy'))
    if not np.array_equal(got, nchw):
        sys.exit(f'{name}: NHWC and transposed NCHW differ by {np.abs(got - nchw).max()}')
PY
}

# A format that is neither is still a located error, at the op.
test_run_conv_unknown_data_format() {
  write_conv_net p.pir NHWC
  sed -i 's/data_format:"NHWC",dilations/data_format:"NCDHW",dilations/' p.pir
  mkdir in
  "$PY" -c "
import numpy as np
for n, s in (('x', (2, 6, 5, 3)), ('w', (4, 3, 3, 3)), ('dy', (2, 3, 3, 4))): np.save(f'in/{n}.npy', np.ones(s, np.float32))
" 2> /dev/null || skip "no numpy for $PY (python3-numpy)"
  prun p.pir --inputs in
  expect_rc 1
  expect_located p.pir 5
  stderr_has '^p\.pir:5:[0-9]+: error: (rank 0: )?pd_op\.conv2d: data_format NCDHW is not supported \(NCHW or NHWC\)$'
}

cli_main
