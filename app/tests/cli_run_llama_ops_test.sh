#!/usr/bin/env bash
# The transformer ops through pir-run (issue 30): testdata/run/llama_ops.pir (a decoder block with embedding,
# c_embedding, rms_norm, rope, causal grouped flash_attn, swiglu, dropout p = 0, silu, and every grad) and
# testdata/run/attention_decomposed.pir (causal attention as transpose/matmul/scale/triu/where/softmax and as
# flash_attn), run with --dump-values and checked against numpy written here: the forward values directly, the
# parameter and input gradients against f64 central differences of the numpy forward, so that neither the
# kernels nor hand-derived gradients are the reference. See cli_lib.sh for the driver.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
PY=/usr/bin/python3  # Debian's, where python3-numpy is installed

need_numpy() {
  "$PY" -c 'import numpy' 2> /dev/null || skip "no numpy for $PY (python3-numpy)"
}

# check PYTHON: runs the numpy check PYTHON (inputs in in/, values in v/) with close(got, want, what), the
# tolerance of f32 against f64 (1e-6 abs + 1e-5 rel), and fd(f, x), the f64 central difference of scalar f in x.
check() {
  "$PY" - "$1" > check.out 2>&1 <<'PY' || fail "numpy: $(cat check.out)"
import sys, numpy as np
def v(n): return np.load(f"v/{n}.npy")
def inp(name): return np.load(f"in/{name}.npy")
def close(got, want, what, atol=1e-6, rtol=1e-5):
    want = np.asarray(want)
    if got.shape != want.shape:
        sys.exit(f"{what}: shape {got.shape}, numpy {want.shape}")
    bad = np.abs(got - want) > atol + rtol * np.abs(want)
    if bad.any():
        i = np.unravel_index(np.argmax(np.abs(got - want) - rtol * np.abs(want)), got.shape)
        sys.exit(f"{what}: {bad.sum()} of {got.size} differ, worst at {i}: {got[i]} vs numpy {want[i]}")
def fd(f, x, h=1e-6):
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        keep = x[i]
        x[i] = keep + h; up = f()
        x[i] = keep - h; down = f()
        x[i] = keep
        g[i] = (up - down) / (2 * h)
    return g
def silu(x): return x / (1 + np.exp(-x))
exec(sys.argv[1])
PY
}

test_run_llama_ops_match_numpy() {
  need_numpy
  mkdir in
  "$PY" -c "
import numpy as np
rng = np.random.default_rng(30)
B, S, H, NH, NK, D, V, I = 2, 4, 8, 2, 1, 4, 10, 6
f = lambda *s: (rng.standard_normal(s) * 0.5).astype(np.float32)
np.save('in/ids.npy', np.array([[1, 4, 9, 4], [0, 3, 7, 2]], np.int64))
inv = 10000.0 ** (-np.arange(0, D, 2) / D)
ang = np.outer(np.arange(S), inv)
ang = np.concatenate([ang, ang], -1)[None, :, None, :]  # the halves layout: cat(freqs, freqs)
np.save('in/sin.npy', np.sin(ang).astype(np.float32)); np.save('in/cos.npy', np.cos(ang).astype(np.float32))
np.save('in/ce_grad.npy', f(B, S, H))
for name, shape in dict(emb=(V, H), wq=(H, NH * D), wk=(H, NK * D), wv=(H, NK * D), wo=(NH * D, H),
                        wgu=(H, 2 * I), wd=(I, H)).items():
    np.save(f'in/{name}.npy', f(*shape))
np.save('in/ln.npy', (1 + f(H)).astype(np.float32))
" || fail "cannot write the inputs"
  prun "$TESTDATA/run/llama_ops.pir" --inputs in --dump-values v
  expect_rc 0
  check "
B, S, H, NH, NK, D, V, I = 2, 4, 8, 2, 1, 4, 10, 6
ids = inp('ids')
P = {n: inp(n).astype(np.float64) for n in ['emb', 'ln', 'wq', 'wk', 'wv', 'wo', 'wgu', 'wd']}
sin, cos = inp('sin').astype(np.float64), inp('cos').astype(np.float64)
def forward():
    x = P['emb'][ids]
    inv = 1 / np.sqrt((x * x).mean(-1) + 1e-6)
    h = x * inv[..., None] * P['ln']
    def rope(t):  # rotate_half: (-second half, first half)
        return t * cos + np.concatenate([-t[..., D // 2:], t[..., :D // 2]], -1) * sin
    q = rope((h @ P['wq']).reshape(B, S, NH, D))
    k = rope((h @ P['wk']).reshape(B, S, NK, D))
    vv = (h @ P['wv']).reshape(B, S, NK, D)
    kk, vv = np.repeat(k, NH // NK, 2), np.repeat(vv, NH // NK, 2)
    s = np.einsum('bqhd,bkhd->bhqk', q, kk) / np.sqrt(D) + np.where(np.triu(np.ones((S, S)), 1) > 0, -np.inf, 0)
    mx = s.max(-1, keepdims=True)
    e = np.exp(s - mx)
    lse = (mx + np.log(e.sum(-1, keepdims=True)))[..., 0]
    o = np.einsum('bhqk,bkhd->bqhd', e / e.sum(-1, keepdims=True), vv)
    r = x + o.reshape(B, S, NH * D) @ P['wo']
    g = r @ P['wgu']
    sg = silu(g[..., :I]) * g[..., I:]
    z = r + sg @ P['wd']
    return silu(z).mean(), dict(x=x, h=h, inv=inv, q=q, k=k, o=o, lse=lse, sg=sg, y=sg @ P['wd'])
loss, f = forward()
close(v(12), f['x'], '%12 embedding')
ce = np.where(((ids >= 3) & (ids < 13))[..., None], P['emb'][np.clip(ids - 3, 0, V - 1)], 0)
close(v(13), ce, '%13 c_embedding')
close(v(14), f['h'], '%14 rms_norm')
close(v(16), f['inv'], '%16 rms_norm inv_var')
close(v(26), f['q'], '%26 rope q')
close(v(27), f['k'], '%27 rope k')
close(v(29), f['o'], '%29 flash_attn')
lse = v(31)
assert lse.shape == (B, NH, 128) and not lse[..., S:].any(), 'softmax_lse is not [2, 2, 128] padded with 0'
close(lse[..., :S], f['lse'], '%31 softmax_lse')
close(v(38), f['sg'], '%38 swiglu')
close(v(40), f['y'], '%40 dropout p=0')
m = v(41)
assert m.dtype == np.uint8 and (m == 1).all(), f'dropout mask {m.dtype} {m}'
close(v(44), loss, '%44 loss')
for n, name in [(84, 'emb'), (81, 'ln'), (73, 'wq'), (75, 'wk'), (77, 'wv'), (61, 'wo'), (56, 'wgu'), (52, 'wd')]:
    close(v(n), fd(lambda: forward()[0], P[name]), f'%{n} grad of {name}')
dce = np.zeros((V, H))
for (b, s), i in np.ndenumerate(ids):
    if 3 <= i < 13: dce[i - 3] += inp('ce_grad')[b, s]
close(v(85), dce, '%85 c_embedding_grad')
"
}

test_run_attention_decomposed_matches_flash_attn_and_numpy() {
  need_numpy
  mkdir in
  "$PY" -c "
import numpy as np
rng = np.random.default_rng(31)
for n in 'qkvw': np.save(f'in/{n}.npy', rng.standard_normal((1, 4, 2, 4)).astype(np.float32))
" || fail "cannot write the inputs"
  prun "$TESTDATA/run/attention_decomposed.pir" --inputs in --dump-values v
  expect_rc 0
  check "
X = {n: inp(n).astype(np.float64) for n in 'qkv'}
w = inp('w').astype(np.float64)
def forward():
    s = np.einsum('bqhd,bkhd->bhqk', X['q'], X['k']) / 2 + np.where(np.triu(np.ones((4, 4)), 1) > 0, -np.inf, 0)
    e = np.exp(s - s.max(-1, keepdims=True))
    return np.einsum('bhqk,bkhd->bqhd', e / e.sum(-1, keepdims=True), X['v'])
o = forward()
close(v(18), o, '%18 decomposed attention')
close(v(19), o, '%19 flash_attn')
close(v(24), (o * w).mean(), '%24 loss')
for n, fn, name in [(38, 41, 'q'), (39, 42, 'k'), (40, 43, 'v')]:
    want = fd(lambda: (forward() * w).mean(), X[name])
    close(v(n), want, f'%{n} d{name} decomposed')
    close(v(fn), want, f'%{fn} d{name} flash_attn_grad')
"
}

cli_main
