"""A dense MLP's SGD training step as Paddle prints it, for the runner's benchmarks against PyTorch (issue 33).

Imported by scripts/gen-program (`--model mlp`) and scripts/mlp_torch.py; standard library only.

The model is the seed MLP (testdata/seeds/reshard_before.pir: matmuls without bias, each followed by relu, a squared
error against a `label` feed) made L layers deep at width H and batch B:

    h_0 = input [B, H];  h_{i+1} = relu(h_i @ W_i)  (W_i [H, H], i < L);  loss = sum((h_L - label)^2) / (B H)

then the backward in reverse with Paddle's grad ops (scale, sum_grad, square_grad, subtract_grad, relu_grad,
matmul_grad: the first layer's matmul_grad computes the input's gradient too, as Paddle's does when its x-grad has a
type) and `sgd_` per weight with the `learning_rate_0` feed (pir-run's default 0.1). The loss is `sum` then `scale`
by 1/(B H) (what `x.sum() / (B * H)` traces to), the mean written so that under data parallelism each rank sums its
rows (a partial scalar: one float all-reduced) instead of reading the whole activation, as `mean` here would.

Layouts (`--mesh`):
- none: dense, plain `tensor<..>` types;
- `N`: tensor parallel on N ranks, Megatron's pairs: even layers column-parallel (W [-1, mp]), odd layers
  row-parallel (W [mp, -1], the matmul's result partial: all-reduced before its relu); in the backward the
  column-parallel layer's input gradient is partial (all-reduced where the previous layer reads it);
- `DPx1`: data parallel on DP ranks, the batch split, every weight's gradient partial (all-reduced before sgd_),
  the loss a partial scalar (all-reduced for the output);
- `DPxMP`: both.
"""
import os
import random

import llama_program as lp

F32 = lp.F32
SG = lp.SG


class Config:
    def __init__(self, layers, hidden, batch, mesh=None):
        self.L, self.H, self.B = layers, hidden, batch
        self.mesh = mesh  # None: dense
        self.staged, self.P = False, 1

    def check(self):
        """An error message, or None."""
        if self.mesh is None:
            return None
        if len(self.mesh) > 2:
            return "--mesh takes N (tensor parallel) or DPxMP"
        mp = self.mesh[-1]
        dp = self.mesh[0] if len(self.mesh) > 1 else 1
        if self.H % mp:
            return "--hidden (%d) must be a multiple of %d" % (self.H, mp)
        if self.B % dp:
            return "--batch (%d) must be a multiple of %d" % (self.B, dp)
        return None

    def meshes(self):
        n = 1
        for d in self.mesh:
            n *= d
        return [list(range(n))]

    def place(self, g):
        return 0, 0


def weight(i):
    return "linear_%d.w_0" % i  # Paddle's name for nn.Linear(bias_attr=False)'s weight


class Mlp(lp.Builder):
    def __init__(self, cfg):
        super().__init__(cfg)
        if cfg.mesh is not None and cfg.mesh[-1] == 1:  # DPx1: no tensor-parallel dim
            self.mp = None

    def column(self, i):
        """Whether layer i is column-parallel (even layers; every layer without tensor parallelism)."""
        return i % 2 == 0 or self.mp is None

    def build(self):
        c = self.c
        B, H = c.B, c.H
        rep = self.d("b", None)
        lr = self.data("learning_rate_0", (), (), F32, True)
        W = [self.parameter(weight(i), (H, H), self.d(None, "m") if self.column(i) else self.d("m", None))
             for i in range(c.L)]
        x = self.data("input", (B, H), rep, F32)
        label = self.data("label", (B, H), rep, F32)
        # forward: h = relu(h @ W); a row-parallel result is partial, and relu reads it whole
        hs, zs = [x], []
        for i in range(c.L):
            h = hs[-1]
            if self.column(i):
                z = self.matmul(h, W[i], self.d("b", "m"))
            else:
                z = self.matmul(h, W[i], rep, self.pd("m"))
            zs.append(z)
            dims = z.dims if self.column(i) else rep
            hs.append(self.one("pd_op.relu", [z], (B, H), dims, {"stop_gradient": SG(1)}, 0,
                               wants=[self.want(dims)]))
        out = hs[-1]
        if out.dims != rep:  # an odd layer count under tensor parallelism ends column-parallel
            out = self.one("pd_op.assign", [out], (B, H), rep, {"stop_gradient": SG(1)}, 0, wants=[self.want(rep)])
        diff = self.one("pd_op.subtract", [out, label], (B, H), rep, {"stop_gradient": SG(1)}, 0)
        sq = self.one("pd_op.square", [diff], (B, H), rep, {"stop_gradient": SG(1)}, 0)
        axis = self.full_int_array([], 0)
        total = self.one("pd_op.sum", [sq, axis], (), (), {"dtype": "float32", "keepdim": "false",
                                                            "stop_gradient": SG(1)}, 0,
                         wants=[self.want(rep), self.want((-1,))], partial=self.pd("b"))
        inv = self.full((1,), 1.0 / (B * H), 0)
        scale = {"bias": "0", "bias_after_scale": "true", "stop_gradient": SG(1)}
        loss = self.one("pd_op.scale", [total, inv], (), (), scale, 0,
                        wants=[self.want((), self.pd("b")), self.want((-1,))], partial=self.pd("b"))
        self.op("builtin.shadow_output", [loss], [], {"output_name": '"loss_0"'}, 0, wants=[self.want(())])
        # backward
        one = self.full((1,), 1.0, 1)
        gl = self.one("pd_op.full_like", [loss, one], (), (), {"dtype": "float32", "place": "Place(undefined:0)",
                                                              "stop_gradient": SG(1)}, 1,
                      wants=[self.want((), self.pd("b")), self.want((-1,))])  # its shape only: no all-reduce
        gt = self.one("pd_op.scale", [gl, inv], (), (), scale, 1, wants=[self.want(()), self.want((-1,))])
        gsq = self.one("pd_op.sum_grad", [sq, gt, axis], (B, H), rep,
                       {"keepdim": "false", "reduce_all": "false", "stop_gradient": SG(1)}, 1,
                       wants=[self.want(rep), self.want(()), self.want((-1,))])
        gd = self.one("pd_op.square_grad", [diff, gsq], (B, H), rep, {"stop_gradient": SG(1)}, 1)
        g, _ = self.op("pd_op.subtract_grad", [out, label, gd], [((B, H), F32, rep, ()), None],
                       {"axis": "-1", "stop_gradient": SG(2)}, 1)
        for i in reversed(range(c.L)):
            h, z = hs[i + 1], zs[i]
            dims = z.dims if self.column(i) else rep
            gz = self.one("pd_op.relu_grad", [h, g], (B, H), dims, {"stop_gradient": SG(1)}, 1,
                          wants=[self.want(dims), self.want(dims)])
            # a column-parallel layer's input gradient is partial over mp
            g, self.grads[weight(i)] = self.matmul_grad(hs[i], W[i], gz,
                                                        self.pd("m") if self.column(i) and self.mp is not None
                                                        else ())
        for name, w, _, _ in self.params:
            self.op("pd_op.sgd_", [w, lr, self.grads[name], None], [(w.shape, F32, w.dims, ()), None],
                    {"multi_precision": "false", "stop_gradient": SG(2)}, 2,
                    [self.want(w.dims), self.want(()), self.want(w.dims), None])
        return "{\n" + "".join(self.p.lines) + "}\n"


def program(cfg):
    return Mlp(cfg).build()


def write_inputs(cfg, folder, seed=0, std=0.25):
    """input, label (standard normal) and the weights (normal x std, pir-run's scale for drawn parameters) as
    folder/NAME.npy; the draws depend only on seed, std and the sizes."""
    os.makedirs(folder, exist_ok=True)
    rng = random.Random(seed)
    for name, shape, s in [("input", (cfg.B, cfg.H), 1.0), ("label", (cfg.B, cfg.H), 1.0)] + \
            [(weight(i), (cfg.H, cfg.H), std) for i in range(cfg.L)]:
        lp.write_npy(os.path.join(folder, name + ".npy"), shape, "f32",
                     [rng.gauss(0.0, s) for _ in range(shape[0] * shape[1])])
