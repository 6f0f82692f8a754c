#!/usr/bin/python3
"""The MLP training step of scripts/mlp_program.py in PyTorch (issue 33).

    mlp_torch.py compare --layers L --hidden H --batch B --inputs DIR P.pir DUMP_DIR OUTPUT_DIR
    mlp_torch.py bench   --layers L --hidden H --batch B [--mesh N|DPx1] [--runs R] [--steps K]

The step, written independently of pir-run's kernels: h = relu(h @ W) per layer from the input (which requires its
gradient, as the program computes it), loss = sum((h - label)^2) / (B H), autograd's backward, then SGD at pir-run's
default learning rate 0.1. Two spellings of it: `module`, PyTorch as one writes it (nn.Linear(bias=False) layers,
torch.optim.SGD, zero_grad(set_to_none=True)), and `functional` (the weights as tensors, h @ W, the update
W.add_(W.grad, alpha=-0.1) under no_grad: the fewest PyTorch calls). One thread (torch.set_num_threads(1); run
with OPENBLAS_NUM_THREADS=1, as pir-run).

`compare` reads the weights and feeds from DIR (gen-program --model mlp --write-inputs), pir-run's dense run of the
program from DUMP_DIR (pir-run --dump-values: each sgd_'s gradient operand and the input's gradient) and OUTPUT_DIR
(pir-run --output-dir: loss_0 and the weights after the step), and checks each at |a-b| <= 1e-6 + 1e-5|b| against
both spellings' (the module's weights transposed back); exits 1 at the first tensor beyond.

`bench` prints the seconds of one step (forward, backward, update) of each spelling, "MODULE FUNCTIONAL": the best
of K steps after one warm-up step, in each of R processes (best over all). With --mesh it runs the step on 2 processes (torch.distributed, gloo on
localhost) with the program's collectives, each an all_reduce (SUM): `--mesh 2x1` data parallel, each process half
the batch, the loss scalar and each weight's gradient all-reduced; `--mesh 2` tensor parallel as Megatron, even
layers column-parallel (W[:, half]), odd layers row-parallel (W[half, :], the matmul's result all-reduced before its
relu), a column-parallel layer's input gradient all-reduced in the backward except the first layer's (no op reads it:
the program leaves it partial too). A step's time is the slowest process's, after a barrier.
"""
import argparse
import os
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import llama_torch  # noqa: E402  (the comparison's bound and report)
import mlp_program  # noqa: E402  (the weights' names)

LR = 0.1  # pir-run's default learning_rate


def loss_of(h, label, count):
    return ((h - label) ** 2).sum() / count


class Functional:
    """The weights W[i] ([in, out] leaf tensors) used as they are."""

    def __init__(self, W):
        self.W = W

    def params(self):
        return self.W

    def layer(self, i, h):
        return h @ self.W[i]

    def zero_grad(self):
        for w in self.W:
            w.grad = None

    def update(self):
        with torch.no_grad():
            for w in self.W:
                w.add_(w.grad, alpha=-LR)


class Module:
    """nn.Linear(bias=False) layers holding W[i] transposed (as nn.Linear stores it), and torch.optim.SGD."""

    def __init__(self, W):
        self.layers = []
        for w in W:
            lin = torch.nn.Linear(w.shape[0], w.shape[1], bias=False)
            with torch.no_grad():
                lin.weight.copy_(w.detach().t())
            self.layers.append(lin)
        self.relu = torch.nn.ReLU()
        self.opt = torch.optim.SGD([lin.weight for lin in self.layers], lr=LR)

    def params(self):
        return [lin.weight for lin in self.layers]

    def layer(self, i, h):
        return self.layers[i](h)

    def zero_grad(self):
        self.opt.zero_grad(set_to_none=True)

    def update(self):
        self.opt.step()


def step(model, x, label, count, collectives=None):
    """One SGD step of `model` (Functional or Module) in place; returns the loss. `collectives` (distributed):
    hooks on layer i's input and output, the loss and the grads (see Dist)."""
    model.zero_grad()
    x.grad = None
    c = collectives
    h = x
    for i in range(len(model.params())):
        if c:
            h = c.layer_input(i, h)
        z = model.layer(i, h)
        if c:
            z = c.layer_output(i, z)
        h = torch.relu(z)
    loss = loss_of(h, label, count)
    if c:
        c.loss(loss)
    loss.backward()
    if c:
        c.grads(model.params())
    model.update()
    return loss


def compare(args):
    """Both spellings against pir-run's run (the module's weights and grads transposed back to [in, out])."""
    torch.set_num_threads(1)
    names = [mlp_program.weight(i) for i in range(args.layers)]
    load = lambda folder, n: np.load(os.path.join(folder, n + ".npy"))  # noqa: E731
    gv = llama_torch.gradient_values(args.program, "pd_op.sgd_")
    if sorted(gv) != sorted(names):
        sys.exit("the program's sgd_ gradients are of %s, the weights %s" % (sorted(gv), sorted(names)))
    for spelling in (Functional, Module):
        print("%s:" % spelling.__name__.lower())
        W = [torch.tensor(load(args.inputs, n), requires_grad=True) for n in names]
        x = torch.tensor(load(args.inputs, "input"), requires_grad=True)
        label = torch.tensor(load(args.inputs, "label"))
        model = spelling(W)
        loss = step(model, x, label, args.batch * args.hidden)
        as_w = (lambda t: t.t()) if spelling is Module else (lambda t: t)  # noqa: E731
        w = llama_torch.Worst("loss")
        w.check("loss_0", load(args.outputs, "loss_0"), loss.detach().numpy())
        w.report(1)
        w = llama_torch.Worst("gradients")
        for i, n in enumerate(names):
            w.check(n, load(args.dump, gv[n]), as_w(model.params()[i].grad).numpy())
        w.check("input", load(args.dump, input_gradient(args.program)), x.grad.numpy())
        w.report(len(names) + 1)
        w = llama_torch.Worst("weights after the step")
        for i, n in enumerate(names):
            w.check(n, load(args.outputs, n), as_w(model.params()[i]).detach().numpy())
        w.report(len(names))


def input_gradient(program):
    """%N of the input's gradient: result 0 of the matmul_grad that reads the `input` feed."""
    import re
    feed = None
    for line in open(program):
        m = re.match(r'\s*\(%(\d+)\) = "pd_op.data" .*name:"input"', line)
        if m:
            feed = m.group(1)
        m = re.match(r'\s*\(%(\d+), %\d+\) = "pd_op.matmul_grad" \(%(\d+),', line)
        if m and m.group(2) == feed:
            return m.group(1)
    sys.exit("%s: no matmul_grad reads the input" % program)


class Dist:
    """The program's collectives on this process's shard (see the module's doc)."""

    def __init__(self, kind, layers):
        self.kind, self.layers = kind, layers

    def layer_input(self, i, h):
        if self.kind == "tp" and i % 2 == 0 and i > 0:
            return _ReduceGrad.apply(h)
        return h

    def layer_output(self, i, z):
        if self.kind == "tp" and i % 2 == 1:
            torch.distributed.all_reduce(z)
        return z

    def loss(self, loss):
        if self.kind == "dp":
            torch.distributed.all_reduce(loss.detach().clone())  # the loss_0 output

    def grads(self, W):
        if self.kind == "dp":
            for w in W:
                torch.distributed.all_reduce(w.grad)


class _ReduceGrad(torch.autograd.Function):
    """Megatron's copy to the tensor-parallel region: identity forward, gradient all-reduced."""

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, g):
        g = g.clone()
        torch.distributed.all_reduce(g)
        return g


def shard(args, rank, world):
    """This process's weights, input and label (normal draws: x and label std 1, weights x 0.25, as pir-run's)."""
    rng = np.random.default_rng(rank)
    H, B = args.hidden, args.batch
    normal = lambda shape, s=1.0: torch.tensor((rng.standard_normal(shape) * s).astype(np.float32))  # noqa: E731
    if args.kind == "dp":
        shapes = [(H, H)] * args.layers
        B //= world
    elif args.kind == "tp":
        shapes = [(H, H // world) if i % 2 == 0 else (H // world, H) for i in range(args.layers)]
    else:
        shapes = [(H, H)] * args.layers
    W = [normal(s, 0.25).requires_grad_(True) for s in shapes]
    return W, normal((B, H)).requires_grad_(True), normal((B, H))


def timed_steps(args, rank=0, world=1):
    """(module, functional): each spelling's best step after a warm-up, one after the other."""
    torch.set_num_threads(1)
    c = Dist(args.kind, args.layers) if world > 1 else None
    best = []
    for spelling in (Module, Functional):
        W, x, label = shard(args, rank, world)
        model = spelling(W)
        times = []
        for _ in range(1 + args.steps):  # the first is the warm-up
            if world > 1:
                torch.distributed.barrier()
            t = time.perf_counter()
            step(model, x, label, args.batch * args.hidden, c)
            t = torch.tensor([time.perf_counter() - t], dtype=torch.float64)
            if world > 1:
                torch.distributed.all_reduce(t, op=torch.distributed.ReduceOp.MAX)
            times.append(float(t))
        best.append(min(times[1:]))
    return best


def worker(rank, args, port, out):
    torch.distributed.init_process_group("gloo", init_method="tcp://127.0.0.1:%d" % port, rank=rank, world_size=2)
    best = timed_steps(args, rank, 2)
    if rank == 0:
        out.put(best)
    torch.distributed.destroy_process_group()


def bench(args):
    best = [float("inf")] * 2
    for _ in range(args.runs):
        if args.kind == "dense":
            best = [min(a, b) for a, b in zip(best, timed_steps(args))]
            continue
        import socket
        import torch.multiprocessing as mp
        with socket.socket() as s:  # a free port for the rendezvous
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        ctx = mp.get_context("spawn")
        out = ctx.SimpleQueue()
        mp.spawn(worker, args=(args, port, out), nprocs=2, join=True)
        best = [min(a, b) for a, b in zip(best, out.get())]
    print("%.9f %.9f" % tuple(best))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mode", choices=["compare", "bench"])
    for flag in ("--layers", "--hidden", "--batch"):
        ap.add_argument(flag, type=int, required=True)
    ap.add_argument("--mesh", choices=["2", "2x1"], help="bench: tensor parallel (2) or data parallel (2x1)")
    ap.add_argument("--runs", type=int, default=1, help="bench: processes (or process pairs) run one after another")
    ap.add_argument("--steps", type=int, default=1, help="bench: timed steps after the warm-up, in each run")
    ap.add_argument("--inputs")
    ap.add_argument("program", nargs="?")
    ap.add_argument("dump", nargs="?")
    ap.add_argument("outputs", nargs="?")
    args = ap.parse_intermixed_args()
    args.kind = {"2": "tp", "2x1": "dp", None: "dense"}[args.mesh]
    if args.mode == "compare":
        if not (args.inputs and args.outputs) or args.mesh:
            ap.error("compare needs --inputs, PROGRAM, DUMP and OUTPUTS, and no --mesh")
        compare(args)
    else:
        bench(args)


if __name__ == "__main__":
    main()
