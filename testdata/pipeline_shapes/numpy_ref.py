#!/usr/bin/python3
"""An independent check of a pipeline_shapes case's forward loss, in numpy.

    numpy_ref.py SHAPE [--pir-run PATH] [--micro-batches N] [--seed S] [--keep DIR] [--mode M [--vpp V]]

SHAPE is a case of this folder (`02_three_stage_residual_vpp`, with or without `.pir`) or a path to a program of
the same ops. The script draws every input itself (numpy's generator, SEED): the feed `input0` at N micro-batches on
dim 0, parameters normal x 0.25, `learning_rate_*` 0.1; writes them as `DIR/NAME.npy`, runs
`pir-run PROGRAM --inputs DIR --mode M --micro-batches N --output-dir OUT` (M: FThenB unless given), and recomputes the loss of every
micro-batch from the program's forward ops (op_role 0: matmul with its transposes, relu, tanh, add, mean,
shadow_output) with numpy, from its own reading of the text. It compares `OUT/loss_0.npy` (stacked [N]) with
pir-run's `--check` tolerance, |a-b| <= 1e-6 + 1e-5|b|, prints one line per micro-batch and exits 1 on a mismatch.

Needs numpy: Debian's python3-numpy, hence /usr/bin/python3. pir-run defaults to build/app/pir-run of this
repository (or $PIR_RUN).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

OP_RE = re.compile(r'^\s*\(([^)]*)\) = "([^"]+)" \(([^)]*)\) \{(.*)\} : \((.*)\) -> (.*)$')
TYPE_RE = re.compile(r'tensor<((?:\d+x)*)f32')


def attr(attrs, key):
    m = re.search(r'(?:^|[,{])' + re.escape(key) + r':("[^"]*"|\([^)]*\)[^,}]*|[^,}]*)', attrs)
    return m.group(1) if m else None


def shape_of(t):
    m = TYPE_RE.search(t)
    if not m:
        return None
    return tuple(int(d) for d in m.group(1).split("x") if d)


def read(path):
    ops = []
    for line in open(path):
        m = OP_RE.match(line)
        if not m:
            continue
        res, name, opnds, attrs, _, rtypes = m.groups()
        ops.append({
            "res": [r.strip() for r in res.split(",") if r.strip()],
            "name": name,
            "in": [o.strip() for o in opnds.split(",") if o.strip()],
            "attrs": attrs,
            "role": int((attr(attrs, "op_role") or "(Int32)0").split(")")[1]),
            "shapes": [shape_of(t) for t in re.split(r", (?=pd_dist|<<)", rtypes.strip())] if rtypes.strip() else [],
        })
    return ops


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("shape")
    ap.add_argument("--pir-run", default=os.environ.get("PIR_RUN", os.path.join(ROOT, "build/app/pir-run")))
    ap.add_argument("--micro-batches", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--mode", default="FThenB", help="the schedule pir-run runs (any: the loss is the same)")
    ap.add_argument("--vpp", type=int, default=0)
    ap.add_argument("--keep", help="write the inputs and outputs here instead of a temporary folder")
    a = ap.parse_args()
    path = a.shape
    if not os.path.exists(path):
        path = os.path.join(HERE, a.shape if a.shape.endswith(".pir") else a.shape + ".pir")
    ops = read(path)
    N = a.micro_batches
    rng = np.random.default_rng(a.seed)
    work = a.keep or tempfile.mkdtemp(prefix="numpy_ref.")
    inp, out = os.path.join(work, "inputs"), os.path.join(work, "out")
    os.makedirs(inp, exist_ok=True)
    feeds = {}
    for op in ops:
        name = attr(op["attrs"], "name") if op["name"] == "pd_op.data" else attr(op["attrs"], "parameter_name")
        if op["name"] not in ("pd_op.data", "builtin.parameter"):
            continue
        name = name.strip('"')
        shape = op["shapes"][0]
        if op["name"] == "builtin.parameter":
            v = (rng.standard_normal(shape) * 0.25).astype(np.float32)
        elif attr(op["attrs"], "persistable") == "[true]":
            v = np.full(shape, 0.1, dtype=np.float32)
        else:
            v = rng.standard_normal((shape[0] * N,) + shape[1:]).astype(np.float32)
        feeds[name] = v
        np.save(os.path.join(inp, name + ".npy"), v)
    cmd = [a.pir_run, path, "--inputs", inp, "--mode", a.mode, "--micro-batches", str(N), "--output-dir", out]
    if a.vpp:
        cmd += ["--vpp", str(a.vpp)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("numpy_ref: %s failed (exit %d):\n%s%s" % (" ".join(cmd), r.returncode, r.stdout, r.stderr))
    got = np.load(os.path.join(out, "loss_0.npy"))
    ok = True
    for mb in range(N):
        env, loss = {}, None
        for op in ops:
            if op["role"] != 0:
                continue
            n, ins = op["name"], [env.get(i) for i in op["in"]]
            if n == "pd_op.data":
                v = feeds[attr(op["attrs"], "name").strip('"')]
                if attr(op["attrs"], "persistable") != "[true]":
                    b = op["shapes"][0][0]
                    v = v[mb * b:(mb + 1) * b]
            elif n == "builtin.parameter":
                v = feeds[attr(op["attrs"], "parameter_name").strip('"')]
            elif n == "pd_op.matmul":
                x, y = ins
                x = x.T if attr(op["attrs"], "transpose_x") == "true" else x
                y = y.T if attr(op["attrs"], "transpose_y") == "true" else y
                v = (x.astype(np.float64) @ y.astype(np.float64)).astype(np.float32)
            elif n == "pd_op.relu":
                v = np.maximum(ins[0], 0)
            elif n == "pd_op.tanh":
                v = np.tanh(ins[0])
            elif n == "pd_op.add":
                v = ins[0] + ins[1]
            elif n == "pd_op.mean":
                v = np.float32(ins[0].astype(np.float64).mean())
            elif n == "builtin.shadow_output":
                if attr(op["attrs"], "output_name") == '"loss_0"':
                    loss = ins[0]
                continue
            else:
                sys.exit("numpy_ref: no numpy meaning for %s" % n)
            env[op["res"][0]] = v
            if v is not None and op["shapes"][0] is not None and tuple(np.shape(v)) != op["shapes"][0]:
                sys.exit("numpy_ref: %s %s: numpy shape %s, program %s" % (op["res"][0], n, np.shape(v),
                                                                           op["shapes"][0]))
        good = abs(float(got[mb]) - float(loss)) <= 1e-6 + 1e-5 * abs(float(loss))
        ok &= good
        print("numpy_ref: %s: micro-batch %d loss_0: pir-run %.9g, numpy %.9g: %s" % (
            os.path.basename(path), mb, float(got[mb]), float(loss), "ok" if good else "DIFFERS"))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
