#!/usr/bin/python3
"""The Llama training step of scripts/llama_program.py in PyTorch, from primitives (issue 30).

    llama_torch.py compare --layers L --hidden H --heads A --seq S --vocab V [--batch B] --inputs DIR
                           --case ATTENTION P.pir DUMP_DIR OUTPUT_DIR [--case ...]
    llama_torch.py bench   --layers L ... [--repeat N]     # seconds of one step, best of N, on one thread

The same step as the generated program, written independently of pir-run's kernels: torch 1.13 (Debian's
python3-torch) has no scaled_dot_product_attention and no RMSNorm, so attention (scale 1/sqrt(head_dim), causal,
softmax), RMSNorm and rope are written out; the backward is autograd's; AdamW is Paddle's adamw_ (decay first,
then adam with lr_t = lr sqrt(1-b2p)/(1-b1p) and epsilon scaled by sqrt(1-b2p)), written here.

Rope as fused_rotary_position_embedding with `use_neox_rotary_style=false` (the halves) reading the program's
cos/sin caches: element j of a head at position p pairs with the other half's (x[j + D/2] negated for the first
half, x[j - D/2] for the second) at the angle p / base^(2 (j mod D/2) / D), Llama's rotation; the tables are
computed here (f64, rounded once), not read from the generator's inputs.

`compare` reads the weights and feeds from DIR (gen-program --write-inputs), pir-run's dense run of the same
program from --dump (pir-run --dump-values: each optimizer's gradient operand, found in the program) and --outputs
(pir-run --output-dir: loss_0 and every parameter and moment after the step), and compares at
|a-b| <= 1e-6 + 1e-5|b| the loss and every gradient with PyTorch's, and every updated parameter and moment with
this AdamW applied to pir-run's gradients (adam amplifies a small gradient's rounding: see compare()); it prints the
worst element of each kind, and of the parameters PyTorch's own gradients give, and exits 1 on the first tensor
beyond the bound.
"""
import argparse
import math
import os
import re
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import llama_program  # noqa: E402  (names, shapes and sizes of the program's parameters)

LR, BETA1, BETA2, EPS, COEFF = 0.1, 0.9, 0.999, 1e-6, 0.01  # pir-run's default learning rate; the program's adamw_


def rms_norm(x, w, eps):
    inv = torch.rsqrt((x * x).mean(-1, keepdim=True) + eps)
    return x * inv * w


def rope_tables(S, D, base=10000.0):
    """sin, cos [1, S, 1, D] of p / base^(2 (j mod D/2) / D): Llama's cat(freqs, freqs), in f64 rounded once."""
    j = torch.arange(D, dtype=torch.float64) % (D // 2)
    freq = torch.arange(S, dtype=torch.float64)[:, None] / torch.pow(torch.tensor(base, dtype=torch.float64),
                                                                         2 * j / D)[None, :]
    return (torch.sin(freq).float()[None, :, None, :], torch.cos(freq).float()[None, :, None, :])


def rope(x, sin, cos):
    h = x.shape[-1] // 2
    rotated = torch.cat([-x[..., h:], x[..., :h]], dim=-1)
    return x * cos + rotated * sin


def attention(q, k, v):
    """q, k, v [B, S, A, D] -> [B, S, A, D]; causal, scale 1/sqrt(D)."""
    B, S, A, D = q.shape
    qt, kt, vt = (t.permute(0, 2, 1, 3) for t in (q, k, v))
    w = torch.matmul(qt, kt.transpose(-1, -2)) / math.sqrt(D)
    causal = torch.ones(S, S, dtype=torch.bool).tril()
    w = w.masked_fill(~causal, float("-inf"))
    return torch.matmul(torch.softmax(w, dim=-1), vt).permute(0, 2, 1, 3)


def forward(cfg, P, ids, labels):
    B, S, H, A, D = cfg.B, cfg.S, cfg.H, cfg.A, cfg.D
    sin, cos = rope_tables(S, D)
    x = P["llama.embed_tokens.weight"][ids]
    for i in range(cfg.L):
        w = lambda k: P[llama_program.layer_param(i, k)]  # noqa: E731
        h = rms_norm(x, w("ln1"), cfg.eps)
        q, k, v = ((h @ w(n)).reshape(B, S, A, D) for n in ("q", "k", "v"))
        a = attention(rope(q, sin, cos), rope(k, sin, cos), v).reshape(B, S, H)
        x = x + a @ w("o")
        h = rms_norm(x, w("ln2"), cfg.eps)
        gate, up = h @ w("gate"), h @ w("up")
        x = x + (torch.nn.functional.silu(gate) * up) @ w("down")
    logits = rms_norm(x, P["llama.norm.weight"], cfg.eps) @ P["lm_head.weight"]
    logp = torch.log_softmax(logits, dim=-1)
    return -logp.gather(-1, labels).mean()


def adamw(p, g, m1, m2, b1p, b2p):
    """Paddle's adamw_ (with_decay, lr_ratio 1) in f32, the scalars in f64 as the kernel takes them."""
    lr_t = LR * math.sqrt(1 - b2p) / (1 - b1p)
    eps_t = EPS * math.sqrt(1 - b2p)
    p = p - np.float32(LR * COEFF) * p
    m1 = np.float32(BETA1) * m1 + np.float32(1 - BETA1) * g
    m2 = np.float32(BETA2) * m2 + np.float32(1 - BETA2) * g * g
    p = p - np.float32(lr_t) * (m1 / (torch.sqrt(m2) + np.float32(eps_t)))
    return p, m1, m2


def leaves(params):
    return {n: torch.tensor(v, requires_grad=True) for n, v in params.items()}


def optimize(P, grads):
    """AdamW from pir-run's default state (moments 0, beta pows beta1 and beta2): (new params, new moments)."""
    new, moments = {}, {}
    with torch.no_grad():
        for n, t in P.items():
            z = torch.zeros_like(t)
            new[n], m1, m2 = adamw(t.detach(), grads[n], z, z, BETA1, BETA2)
            moments[n] = (m1, m2)
    return new, moments


def step(cfg, P, ids, labels):
    """One training step from the leaf tensors P: (loss, grads, new params, new moments)."""
    for t in P.values():
        t.grad = None
    loss = forward(cfg, P, ids, labels)
    loss.backward()
    grads = {n: t.grad for n, t in P.items()}
    return (loss, grads) + optimize(P, grads)


def config(args):
    return llama_program.Config(args.layers, args.hidden, args.heads, args.seq, args.vocab, batch=args.batch,
                                intermediate=args.intermediate, attention=args.attention)


def load_inputs(cfg, folder):
    params = {n: np.load(os.path.join(folder, n + ".npy")) for n, _, _ in llama_program.parameters(cfg)}
    return params, np.load(os.path.join(folder, "input_ids.npy")), np.load(os.path.join(folder, "labels.npy"))


def gradient_values(program, optimizer="pd_op.adamw_"):
    """parameter name -> %N of the gradient its optimizer op (param, grad, ...; sgd_: param, lr, grad) reads."""
    names, out = {}, {}
    for line in open(program):
        m = re.match(r'\s*\(%(\d+)\) = "builtin.parameter" .*parameter_name:"([^"]+)"', line)
        if m:
            names[m.group(1)] = m.group(2)
        m = re.match(r'\s*\(.*\) = "%s" \(%%(\d+), %%(\d+), %%(\d+),' % re.escape(optimizer), line)
        if m:
            out[names[m.group(1)]] = m.group(3 if optimizer == "pd_op.sgd_" else 2)
    return out


class Worst:
    def __init__(self, kind):
        self.kind, self.ratio, self.where = kind, 0.0, "(every element equal)"
        self.fail = True  # exit at a tensor beyond the bound

    def check(self, name, ours, ref):
        ours, ref = np.asarray(ours, dtype=np.float64), np.asarray(ref, dtype=np.float64)
        if ours.shape != ref.shape:
            sys.exit("%s %s: pir-run's shape %s, PyTorch's %s" % (self.kind, name, ours.shape, ref.shape))
        bound = 1e-6 + 1e-5 * np.abs(ref)
        r = np.abs(ours - ref) / bound
        i = int(np.argmax(r)) if r.size else 0
        if r.size and r.flat[i] > self.ratio:
            self.ratio = float(r.flat[i])
            self.where = "%s flat index %d: %.9g, PyTorch %.9g" % (name, i, ours.flat[i], ref.flat[i])
        if self.fail and r.size and r.flat[i] > 1:
            sys.exit("FAIL %s %s: %s, %.3g times the bound 1e-6 + 1e-5|b| (%d elements beyond)" % (
                self.kind, name, self.where, r.flat[i], int((r > 1).sum())))

    def report(self, count):
        print("%s: %d %s (worst %s, %.3g of the bound)" % (self.kind, count, "match" if self.fail else "compared",
                                                           self.where, self.ratio))


def compare(args):
    """Each --case (flash or decomposed: the same step in PyTorch) in one process: torch's import is most of it."""
    torch.set_num_threads(1)
    for attention, program, dump, outputs in args.case:
        if attention not in ("flash", "decomposed"):
            sys.exit("--case: the attention is flash or decomposed, not %s" % attention)
        args.attention, args.program, args.dump, args.outputs = attention, program, dump, outputs
        print("%s:" % program)
        compare_one(args)


def compare_one(args):
    cfg = config(args)
    params, ids, labels = load_inputs(cfg, args.inputs)
    loss, grads, new, moments = step(cfg, leaves(params), torch.tensor(ids), torch.tensor(labels))
    w = Worst("loss")
    w.check("loss_0", np.load(os.path.join(args.outputs, "loss_0.npy")), loss.detach().numpy())
    w.report(1)
    gv = gradient_values(args.program)
    if sorted(gv) != sorted(params):
        sys.exit("the program's adamw_ gradients are of %s, the parameters %s" % (sorted(gv), sorted(params)))
    w = Worst("gradients")
    for n in params:
        w.check(n, np.load(os.path.join(args.dump, gv[n] + ".npy")), grads[n].numpy())
    w.report(len(params))
    # The update is checked from pir-run's gradients: adam's step has slope lr eps' / (|g| + eps')^2 in g (eps' =
    # eps sqrt(1-b2p)), about 800 at |g| = 1e-5, so f32 rounding of a small gradient element (within the gradient's
    # bound) moves its parameter beyond the parameter's. The end-to-end figure is printed, not held to the bound.
    ours = {n: torch.tensor(np.load(os.path.join(args.dump, gv[n] + ".npy"))) for n in params}
    new_from_ours, moments_from_ours = optimize(leaves(params), ours)
    w = Worst("parameters and moments")
    for n in params:
        w.check(n, np.load(os.path.join(args.outputs, n + ".npy")), new_from_ours[n].numpy())
        for k, m in zip(("moment1", "moment2"), moments_from_ours[n]):
            w.check(n + "_" + k, np.load(os.path.join(args.outputs, "%s_%s_0.npy" % (n, k))), m.numpy())
    w.report(3 * len(params))
    w = Worst("end to end (PyTorch's own gradients), parameters")
    w.fail = False
    for n in params:
        w.check(n, np.load(os.path.join(args.outputs, n + ".npy")), new[n].numpy())
    w.report(len(params))


def bench(args):
    torch.set_num_threads(1)
    cfg = config(args)
    rng = np.random.default_rng(0)
    params = {n: (np.ones(s) if init == "ones" else rng.normal(0, 0.02, s)).astype(np.float32)
              for n, s, init in llama_program.parameters(cfg)}
    P = leaves(params)
    ids = torch.tensor(rng.integers(0, cfg.V, (cfg.B, cfg.S)))
    labels = torch.tensor(rng.integers(0, cfg.V, (cfg.B, cfg.S, 1)))
    best = float("inf")
    for _ in range(args.repeat):
        t = time.perf_counter()
        step(cfg, P, ids, labels)
        best = min(best, time.perf_counter() - t)
    print("%.6f" % best)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mode", choices=["compare", "bench"])
    for flag in ("--layers", "--hidden", "--heads", "--seq", "--vocab"):
        ap.add_argument(flag, type=int, required=True)
    ap.add_argument("--batch", type=int, default=2)
    ap.add_argument("--intermediate", type=int)
    ap.add_argument("--attention", choices=["flash", "decomposed"], default="flash", help="bench: the attention")
    ap.add_argument("--inputs")
    ap.add_argument("--case", nargs=4, action="append", metavar=("ATTENTION", "PROGRAM", "DUMP", "OUTPUTS"),
                    help="compare: pir-run's dense run of PROGRAM (its --dump-values DUMP, --output-dir OUTPUTS)")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    if args.mode == "compare":
        if not (args.inputs and args.case):
            ap.error("compare needs --inputs and a --case")
        compare(args)
    else:
        bench(args)


if __name__ == "__main__":
    main()
