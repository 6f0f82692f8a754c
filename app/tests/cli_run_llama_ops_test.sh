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

# llama_tied_gqa.pir: shapes the generator does not design (a tied, vocab-sharded embedding and lm head over an
# uneven split, grouped-query attention with heads over the mesh, rope by position_ids, an MLP width of 9 on 2
# ranks, add_n for summed grads).
write_tied_gqa_inputs() {
  mkdir in
  "$PY" -c "
import numpy as np
rng = np.random.default_rng(7)
B, S, H, A, KV, D, V, F = 2, 4, 16, 4, 2, 4, 7, 9
np.save('in/input_ids.npy', rng.integers(0, V, (B, S)).astype(np.int64))
np.save('in/labels.npy', rng.integers(0, V, (B, S, 1)).astype(np.int64))
np.save('in/position_ids.npy', np.array([[0, 1, 2, 3], [3, 1, 0, 2]], np.int64))
ang = np.outer(np.arange(S), 10000.0 ** (-np.arange(0, D, 2) / D))
ang = np.concatenate([ang, ang], -1)[None, :, None, :]
np.save('in/sin.npy', np.sin(ang).astype(np.float32)); np.save('in/cos.npy', np.cos(ang).astype(np.float32))
f = lambda *s: (rng.standard_normal(s) * 0.3).astype(np.float32)
for n, s in dict(embed_and_lm_head=(V, H), wq=(H, A * D), wk=(H, KV * D), wv=(H, KV * D), wo=(A * D, H),
                 wg=(H, F), wu=(H, F), wd=(F, H)).items():
    np.save(f'in/{n}.npy', f(*s))
for n in ('ln1', 'ln2', 'lnf'): np.save(f'in/{n}.npy', (1 + f(H)).astype(np.float32))
" || fail "cannot write the inputs"
}

test_run_llama_tied_gqa_check_two_ranks() {
  need_numpy
  write_tied_gqa_inputs
  prun "$TESTDATA/run/llama_tied_gqa.pir" --inputs in --check
  expect_rc 0
  grep -Eq '^check: [0-9]+ tensors match, and 11 gradients and [0-9]+ updates' out || fail "no check line: $(cat out err)"
  # the loss against numpy in f64 (rope rows by position_ids, query head i reading kv head i // 2)
  loss=$(sed -nE 's/^step 1: loss (.*)$/\1/p' out)
  check "
B, S, H, A, KV, D, V, F = 2, 4, 16, 4, 2, 4, 7, 9
P = {n: inp(n).astype(np.float64) for n in ['embed_and_lm_head', 'ln1', 'wq', 'wk', 'wv', 'wo', 'ln2', 'wg', 'wu',
                                            'wd', 'lnf']}
ids, labels, pos = inp('input_ids'), inp('labels')[..., 0], inp('position_ids')
sin, cos = inp('sin')[0, :, 0][pos][:, :, None], inp('cos')[0, :, 0][pos][:, :, None]
def norm(x, w): return x / np.sqrt((x * x).mean(-1, keepdims=True) + 1e-6) * w
def rope(t): return t * cos + np.concatenate([-t[..., D // 2:], t[..., :D // 2]], -1) * sin
x = P['embed_and_lm_head'][ids]
h = norm(x, P['ln1'])
q = rope((h @ P['wq']).reshape(B, S, A, D))
k = np.repeat(rope((h @ P['wk']).reshape(B, S, KV, D)), A // KV, 2)
v_ = np.repeat((h @ P['wv']).reshape(B, S, KV, D), A // KV, 2)
s = np.einsum('bqhd,bkhd->bhqk', q, k) / np.sqrt(D) + np.where(np.triu(np.ones((S, S)), 1) > 0, -np.inf, 0)
e = np.exp(s - s.max(-1, keepdims=True))
x = x + np.einsum('bhqk,bkhd->bqhd', e / e.sum(-1, keepdims=True), v_).reshape(B, S, A * D) @ P['wo']
h = norm(x, P['ln2'])
x = x + (silu(h @ P['wg']) * (h @ P['wu'])) @ P['wd']
z = norm(x, P['lnf']) @ P['embed_and_lm_head'].T
z = z - z.max(-1, keepdims=True)
lp = z - np.log(np.exp(z).sum(-1, keepdims=True))
close(np.float64($loss), -np.take_along_axis(lp, labels[..., None], -1).mean(), 'loss')
"
  # each rank's c_embedding starts at its first row (0, then 4 of 7), the logits' uneven vocab is all-gathered
  run "$TESTDATA/run/llama_tied_gqa.pir" --pass-pipeline=apply-partition,split-ranks
  expect_rc 0
  [ "$(grep -o '"pd_op.c_embedding" ([^)]*) {[^}]*start_index:[0-9]*' out | grep -o 'start_index:[0-9]*' | tr '\n' ' ')" = \
    "start_index:0 start_index:4 " ] || fail "c_embedding start indices: $(grep -o 'start_index:[0-9]*' out)"
  grep -q '"pd_op.all_gather"' out || fail "no all_gather of the vocab-parallel logits"
  # --check fails when the tied lm head's input grad is declared replicated where it is partial
  awk '/matmul_grad/ && /transpose_y:true/ {gsub(/, partial\(0,SUM\)/, ""); tied = 1}
       /rms_norm_grad/ && tied {sub(/, partial\(0,SUM\)>\) ->/, ">) ->"); tied = 0} {print}' \
    "$TESTDATA/run/llama_tied_gqa.pir" > bad.pir
  prun bad.pir --inputs in --check
  expect_rc 1
  grep -q "replicas of '[a-z0-9_]*' on ranks 0 and 1 differ" err || fail "bad.pir: $(cat out err)"
}

cli_main
