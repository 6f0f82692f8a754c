"""Whole-pipeline training programs of the shapes Paddle's partition pass leaves (issue 27).

Imported by scripts/gen-program (`--pipeline-shapes SEED`); standard library only.

A program here is one block in Paddle's `dims_maping` printer era (as testdata/pipeline/32_pp_mlp_fthenb.pir):
every stage's ops in one program, stage s on its own mesh ([s], or [2s,2s+1] with tensor parallelism), every op with
op_role and chunk_id. Unlike `gen-program --stages`, no `pd_op.assign` marks a crossing: an op reads a value of
another stage directly (its operand attr on its own mesh), so apply-partition inserts the cross-mesh reshard right
before it, in whatever job the reader is. The backward is reverse-mode over the forward ops: each op's grad op on
the op's stage and chunk, reading the forward values it needs directly; a value with several grads gets them summed
(`pd_op.add`) on its producer's stage, reading each directly.

Shapes (any combination):
- backward reads forward: always (matmul_grad/relu_grad/add_grad read the forward values they need, also across
  stages);
- residual: the output of layer group 0 is added into the last group's input (through a matmul to the right width
  when the widths differ);
- multi: at a stage crossing, the group before ends with two branches whose outputs both cross and are added on
  the next stage (and their two grads cross back);
- tied: one parameter (on stage 0, chunk 0) is the first layer's weight and, transposed, the last layer's; the last
  stage reads it across meshes, its two grads are added on stage 0 before its sgd_;
- tensor parallelism (mesh of 2 a stage): column-parallel then row-parallel matmul, the partial result read
  replicated (a P->R reshard on the stage); with `tp_entry` each group starts with a tanh, so the column matmul's
  partial input grad is reduced on its own stage, without it the partial grad crosses stages.
"""
import random

IND = "    "


def _j(xs):
    return ",".join(str(x) for x in xs)


class Value:
    __slots__ = ("id", "shape", "stage", "chunk", "dims", "partial", "op", "kind", "name")

    def __init__(self, vid, shape, stage, chunk, dims, partial):
        self.id = vid
        self.shape = tuple(shape)
        self.stage = stage
        self.chunk = chunk
        self.dims = tuple(dims)
        self.partial = tuple(partial)
        self.op = None  # the forward node making it (None for leaves)
        self.kind = None  # "data", "param" for leaves
        self.name = None

    @property
    def ref(self):
        return "%%%d" % self.id


def R(rank):
    return (-1,) * rank


class Builder:
    """Prints ops as Paddle's dims_maping-era printer does."""

    def __init__(self, meshes):
        self.meshes = meshes  # process ids of each stage's mesh
        self.n = 0
        self.lines = []

    def mesh(self, s):
        ids = self.meshes[s]
        return "mesh:{shape:[%d],process_ids:[%s]}" % (len(ids), _j(ids))

    def ty(self, v, dims=None, partial=None):
        if v is None:
            return "<<NULL TYPE>>"
        dims = v.dims if dims is None else dims
        partial = v.partial if partial is None else partial
        shape = "".join("%dx" % d for d in v.shape) + "f32"
        return "pd_dist.tensor<%s, mesh_shape:[%d],dims_mappings:[%s]%s>" % (
            shape, len(self.meshes[v.stage]), _j(dims), "".join(", partial(%d,SUM)" % p for p in partial))

    @staticmethod
    def tda(dims, partial=()):
        return "{dims_maping:[%s]%s}" % (_j(dims), "".join(",partial(%d,SUM)" % p for p in partial))

    def op(self, name, operands, results, attrs, stage, role, chunk, wants=None):
        """operands: Values or None; wants: per operand (dims, partial) on this op's mesh (default the value's own);
        results: (shape, dims, partial) or None; returns the result Values (None for null ones)."""
        wants = wants or [None] * len(operands)
        outs, ids = [], []
        for r in results:  # a null result has a number too, as Paddle prints it
            ids.append(self.n)
            self.n += 1
            outs.append(None if r is None else Value(ids[-1], r[0], stage, chunk, r[1], r[2]))
        od = [self.mesh(stage)]
        for i, (v, w) in enumerate(zip(operands, wants)):
            if v is None:
                od.append("operand(%d):{null}" % i)
            else:
                d, p = w if w is not None else (v.dims, v.partial)
                od.append("operand(%d):%s" % (i, self.tda(d, p)))
        for i, v in enumerate(outs):
            od.append("result(%d):%s" % (i, "{null}" if v is None else self.tda(v.dims, v.partial)))
        a = dict(attrs)
        a["op_dist_attr"] = "{" + ",".join(od) + "}"
        a["op_role"] = "(Int32)%d" % role
        a["chunk_id"] = "(Int64)%d" % chunk
        attr_s = ",".join("%s:%s" % (k, a[k]) for k in sorted(a))
        res_s = ", ".join("%%%d" % i for i in ids)
        self.lines.append('%s(%s) = "%s" (%s) {%s} : (%s) -> %s\n' % (
            IND, res_s, name, ", ".join(v.ref if v is not None else "<<NULL VALUE>>" for v in operands), attr_s,
            ", ".join(self.ty(v) for v in operands), ", ".join(self.ty(v) for v in outs)))
        return outs

    def text(self, comment=None):
        head = "// SHAPE: %s\n" % comment if comment else ""
        return head + "{\n" + "".join(self.lines) + "}\n"


SG1, SG2 = "[false]", "[false,false]"


class Config:
    """What a program holds. Layer group g (of P*V) sits on place(g) = (stage, chunk)."""

    def __init__(self, P, V=1, vshape=False, tp=False, tp_entry=False, widths=None, layers=1, residual=False,
                 multi=(), tied=False, batch=4):
        self.P, self.V, self.vshape, self.tp, self.tp_entry = P, V, vshape, tp, tp_entry
        self.G = P * V
        self.layers = layers  # layers a group
        nl = self.G * layers
        self.widths = list(widths) if widths else [8] * (nl + 1)  # layer i maps widths[i] -> widths[i+1]
        assert len(self.widths) == nl + 1, (len(self.widths), nl + 1)
        self.residual = residual
        self.multi = tuple(multi)  # group boundaries b (group b -> b+1) where two values cross
        self.tied = tied
        self.batch = batch

    def place(self, g):
        P = self.P
        if self.vshape:
            return (g, 0) if g < P else (2 * P - 1 - g, 1)
        return g % P, g // P

    def meshes(self):
        n = 2 if self.tp else 1
        return [list(range(s * n, (s + 1) * n)) for s in range(self.P)]

    def modes(self):
        """pir-run flags of the modes that apply, one entry each."""
        P = self.P
        if self.V == 1:
            return ["--mode FThenB --micro-batches 4", "--mode 1F1B --micro-batches 4",
                    "--mode ZBH1 --micro-batches 4", "--mode ZB1P --micro-batches 4"]
        # Chunk ids 1 are refused by the one-chunk modes (pipeline-split: chunk ids lie in [0, vpp)).
        if self.vshape:
            return ["--mode ZBVPP --micro-batches %d" % P, "--mode ZBVPP --micro-batches %d" % (2 * P),
                    "--mode ZBV --micro-batches %d" % (2 * P), "--mode DualPipeV --micro-batches %d" % (2 * P)]
        return ["--mode VPP --vpp 2 --micro-batches 4", "--mode VPP --vpp 2 --split-bw --micro-batches %d" % P]

    def describe(self):
        parts = ["%d stages (stage s on %s)" % (self.P, "[2s,2s+1]" if self.tp else "[s]")]
        parts.append("%d chunks a stage (%s placement)" % (self.V, "V" if self.vshape else "VPP")
                     if self.V > 1 else "1 chunk")
        if self.tp:
            parts.append("tensor parallel on a mesh of 2 a stage (column then row parallel matmuls), partial "
                         + ("grads reduced on their stage (a tanh starts each group)" if self.tp_entry
                            else "input grads crossing stages"))
        w = self.widths
        parts.append("widths " + ("all %d" % w[0] if len(set(w)) == 1 else "/".join(str(x) for x in w)))
        parts.append("%d layer%s a group" % (self.layers, "s" if self.layers > 1 else ""))
        parts.append("no pd_op.assign at crossings: backward ops read forward values of other stages directly")
        if self.residual:
            parts.append("residual: group 0's output added into group %d's input%s" % (
                self.G - 1, "" if w[self.layers] == w[-1 - self.layers] else " through a matmul"))
        for b in self.multi:
            parts.append("two values cross from group %d to %d (stage %d to %d) and are added" % (
                b, b + 1, self.place(b)[0], self.place(b + 1)[0]))
        if self.tied:
            parts.append("tied parameter: stage 0's first weight is the last layer's (transposed) on stage %d, "
                         "its grads added on stage 0" % self.place(self.G - 1)[0])
        return "; ".join(parts)


class Model:
    def __init__(self, cfg):
        self.c = cfg
        self.b = Builder(cfg.meshes())
        self.tape = []  # forward nodes: (kind, inputs, outputs, info)
        self.params = []
        self.grads = {}  # value id -> [grad values]
        self.nparam = 0

    # -- forward ----------------------------------------------------------
    def node(self, kind, name, ins, results, attrs, stage, chunk, wants=None, info=None):
        outs = self.b.op(name, ins, results, attrs, stage, 0, chunk, wants)
        for o in outs:
            if o is not None:
                o.op = len(self.tape)
        self.tape.append((kind, ins, outs, dict(info or {}, stage=stage, chunk=chunk, wants=wants)))
        return outs

    def parameter(self, shape, dims, stage, chunk, name=None):
        if name is None:
            name = "linear_%d.w_0" % self.nparam
            self.nparam += 1
        attrs = {"is_distributed": "[false]", "is_parameter": "[true]", "need_clip": "[true]",
                 "parameter_name": '"%s"' % name, "persistable": "[true]", "stop_gradient": SG1,
                 "trainable": "[true]"}
        (v,) = self.b.op("builtin.parameter", [], [(shape, dims, ())], attrs, stage, 0, chunk)
        v.kind, v.name = "param", name
        self.params.append(v)
        return v

    def data(self, name, shape, stage, persistable=False):
        attrs = {"dtype": "(pd_op.DataType)float32", "name": '"%s"' % name, "place": "(pd_op.Place)Place(undefined:0)",
                 "shape": "(pd_op.IntArray)[%s]" % _j(shape), "stop_gradient": "[true]"}
        if persistable:
            attrs["persistable"] = "[true]"
        (v,) = self.b.op("pd_op.data", [], [(shape, R(len(shape)), ())], attrs, stage, 0, 0)
        v.kind, v.name = "data", name
        return v

    def matmul(self, x, w, out_dims, out_partial, stage, chunk, x_want=None, ty=False):
        B = self.c.batch
        n = w.shape[0] if ty else w.shape[1]
        attrs = {"stop_gradient": SG1, "transpose_x": "false", "transpose_y": "true" if ty else "false"}
        (o,) = self.node("matmul", "pd_op.matmul", [x, w], [((B, n), out_dims, out_partial)], attrs, stage, chunk,
                         [x_want or (x.dims, ()), (w.dims, ())], {"ty": ty})
        return o

    def unary(self, kind, x, stage, chunk, want=None):
        (o,) = self.node(kind, "pd_op." + kind, [x], [(x.shape, (want or (x.dims, ()))[0], ())], {"stop_gradient": SG1},
                         stage, chunk, [want or (x.dims, ())])
        return o

    def add(self, x, y, stage, chunk):
        d = R(len(x.shape))
        (o,) = self.node("add", "pd_op.add", [x, y], [(x.shape, d, ())], {"stop_gradient": SG1}, stage, chunk,
                         [(d, ()), (d, ())])
        return o

    def layer(self, x, win, wout, stage, chunk, weight=None, ty=False):
        """One layer, x replicated in, replicated out."""
        if self.c.tp and weight is None:
            mid = max(2, 2 * ((win + wout) // 4))
            w1 = self.parameter((win, mid), (-1, 0), stage, chunk)
            a = self.matmul(x, w1, (-1, 0), (), stage, chunk, x_want=((-1, -1), ()))
            h = self.unary("relu", a, stage, chunk)
            w2 = self.parameter((mid, wout), (0, -1), stage, chunk)
            p = self.matmul(h, w2, (-1, -1), (0,), stage, chunk)
            return self.unary("relu", p, stage, chunk, want=((-1, -1), ()))
        w = weight or self.parameter((win, wout), (-1, -1), stage, chunk)
        a = self.matmul(x, w, (-1, -1), (), stage, chunk, x_want=((-1, -1), ()), ty=ty)
        return self.unary("relu", a, stage, chunk)

    def forward(self):
        c = self.c
        B, L, W = c.batch, c.layers, c.widths
        self.lrs = [self.data("learning_rate_%d" % s, (), s, True) for s in range(c.P)]
        x = self.data("input0", (B, W[0]), 0)
        self.tied_w = None
        carry = None  # the two branch outputs crossing a multi boundary
        res = None
        for g in range(c.G):
            s, ch = c.place(g)
            if carry is not None:
                x = self.add(carry[0], carry[1], s, ch)
                carry = None
            if c.residual and g == c.G - 1:
                r = res
                if r.shape[1] != x.shape[1]:
                    wr = self.parameter((r.shape[1], x.shape[1]), (-1, -1), s, ch)
                    r = self.matmul(r, wr, (-1, -1), (), s, ch, x_want=((-1, -1), ()))
                x = self.add(x, r, s, ch)
            if c.tp and c.tp_entry:
                x = self.unary("tanh", x, s, ch, want=((-1, -1), ()))
            for k in range(L):
                i = g * L + k
                weight, ty = None, False
                if c.tied and i == 0:
                    self.tied_w = weight = self.parameter((W[0], W[1]), (-1, -1), s, ch, name="embedding_0.w_0")
                elif c.tied and i == c.G * L - 1:
                    assert W[i] == W[1] and W[i + 1] == W[0]
                    weight, ty = self.tied_w, True
                if k == L - 1 and g in c.multi:
                    a = self.layer(x, W[i], W[i + 1], s, ch)
                    b = self.layer(x, W[i], W[i + 1], s, ch)
                    carry = (a, b)
                    x = None
                else:
                    x = self.layer(x, W[i], W[i + 1], s, ch, weight, ty)
            if g == 0:
                res = x if x is not None else carry[0]
        s, ch = c.place(c.G - 1)
        (loss,) = self.node("mean", "pd_op.mean", [x], [((), (), ())],
                            {"axis": "(pd_op.IntArray)[]", "keepdim": "false", "stop_gradient": SG1}, s, ch,
                            [(R(2), ())])
        self.b.op("builtin.shadow_output", [loss], [], {"output_name": '"loss_0"'}, s, 0, ch)
        return loss

    # -- backward ---------------------------------------------------------
    def grad_of(self, v, stage, chunk):
        """The grad of v summed on (stage, chunk), or None."""
        gs = self.grads.get(v.id)
        if not gs:
            return None
        acc = gs[0]
        for g in gs[1:]:
            d = R(len(v.shape))
            (acc,) = self.b.op("pd_op.add", [acc, g], [(v.shape, d, ())], {"stop_gradient": SG1}, stage, 1, chunk,
                               [(d, ()), (d, ())])
        self.grads[v.id] = [acc]
        return acc

    def give(self, v, g):
        if v is not None and g is not None and v.kind != "data":
            self.grads.setdefault(v.id, []).append(g)

    def backward(self, loss):
        b = self.b
        st, ch = loss.stage, loss.chunk
        (one,) = b.op("pd_op.full", [], [((1,), (-1,), ())],
                      {"dtype": "(pd_op.DataType)float32", "place": "(pd_op.Place)Place(cpu)",
                       "shape": "(pd_op.IntArray)[1]", "stop_gradient": "[true]", "value": "(Float)1"}, st, 1, ch)
        (gl,) = b.op("pd_op.full_like", [loss, one], [((), (), ())],
                     {"dtype": "(pd_op.DataType)float32", "place": "(pd_op.Place)Place(undefined:0)",
                      "stop_gradient": SG1}, st, 1, ch)
        self.grads[loss.id] = [gl]
        for idx in range(len(self.tape) - 1, -1, -1):
            kind, ins, outs, info = self.tape[idx]
            s, c = info["stage"], info["chunk"]
            # leaves read here first: the tied parameter's grads are summed once its last reader is done
            g = self.grad_of(outs[0], s, c)
            if g is None:
                continue
            out = outs[0]
            od = (out.dims, ())
            if kind == "mean":
                x = ins[0]
                (gx,) = b.op("pd_op.mean_grad", [x, g], [(x.shape, R(2), ())],
                             {"axis": "(pd_op.IntArray)[]", "keepdim": "false", "reduce_all": "false",
                              "stop_gradient": SG1}, s, 1, c, [(R(2), ()), ((), ())])
                self.give(x, gx)
            elif kind in ("relu", "tanh"):
                x = ins[0]
                (gx,) = b.op("pd_op.%s_grad" % kind, [out, g], [(x.shape, info["wants"][0][0], ())],
                             {"stop_gradient": SG1}, s, 1, c, [od, od])
                self.give(x, gx)
            elif kind == "add":
                x, y = ins
                d = R(len(x.shape))
                gx, gy = b.op("pd_op.add_grad", [x, y, g], [(x.shape, d, ()), (y.shape, d, ())],
                              {"axis": "(Int32)-1", "stop_gradient": SG2}, s, 1, c, [(d, ()), (d, ()), (d, ())])
                self.give(x, gx)
                self.give(y, gy)
            elif kind == "matmul":
                x, w = ins
                xw = info["wants"][0]
                # column parallel (w [-1,0]): x's grad is partial; row parallel (w [0,-1]): x's grad is sharded
                if w.dims == (-1, 0):
                    gxd, gxp = (-1, -1), (0,)
                else:
                    gxd, gxp = xw[0], ()
                attrs = {"stop_gradient": SG2, "transpose_x": "false",
                         "transpose_y": "true" if info["ty"] else "false"}
                gx, gw = b.op("pd_op.matmul_grad", [x, w, g], [(x.shape, gxd, gxp), (w.shape, w.dims, ())], attrs,
                              s, 1, c, [xw, (w.dims, ()), od])
                self.give(x, gx)
                self.give(w, gw)
            # parameters read by this op: sum their grads where the parameter lives once every reader is done
            for v in ins:
                if v.kind == "param" and len(self.grads.get(v.id, [])) > 1 and self.last_reader(v) == idx:
                    self.grad_of(v, v.stage, v.chunk)

    def last_reader(self, v):
        first = None
        for i, (_, ins, _, _) in enumerate(self.tape):
            if any(x is v for x in ins):
                first = i if first is None else min(first, i)
        return first  # the backward visits the first reader last

    def optimizer(self):
        for p in self.params:
            (g,) = self.grads[p.id]
            self.b.op("pd_op.sgd_", [p, self.lrs[p.stage], g, None], [(p.shape, p.dims, ()), None],
                      {"multi_precision": "false", "stop_gradient": SG2}, p.stage, 2, p.chunk,
                      [(p.dims, ()), ((), ()), (p.dims, ()), None])

    def build(self, comment=None):
        loss = self.forward()
        self.backward(loss)
        self.optimizer()
        return self.b.text(comment if comment is not None else self.c.describe())


def program(cfg, comment=None):
    return Model(cfg).build(comment)


# -- the hand-picked cases of testdata/pipeline_shapes/ ------------------------
CASES = {
    "02_three_stage_residual_vpp": Config(3, V=2, residual=True),
    "03_three_stage_residual_uneven": Config(3, V=2, residual=True, widths=[8, 6, 4, 6, 8, 6, 4]),
    "04_tp_in_vpp": Config(2, V=2, tp=True, tp_entry=True),
    "05_three_stage_1f1b": Config(3, layers=2),
    "06_tied_embedding": Config(3, tied=True, layers=2, widths=[8, 6, 6, 6, 6, 6, 8]),
    "07_several_crossings": Config(2, layers=2, multi=(0,)),
    "08_partial_grads_cross_stage_tp": Config(2, layers=2, tp=True),
    # the last stage has no parameter of its own, so no optimizer op (refused by gradient-merge before issue 27)
    "09_tied_last_stage_without_parameters": Config(2, tied=True, widths=[8, 6, 8]),
}


def random_config(seed):
    rng = random.Random(seed)
    P = rng.randint(2, 4)
    V = rng.choice([1, 2])
    vshape = V == 2 and rng.random() < 0.4
    tp = rng.random() < 0.5
    tp_entry = tp and rng.random() < 0.5
    layers = rng.choice([1, 1, 2])
    tied = rng.random() < 0.3
    # with one layer a group and V = 1 the last stage holds only the tied layer, no parameter of its own
    # (testdata/pipeline_shapes/09_*): gradient-merge leaves such a rank's program unchanged
    G = P * V
    nl = G * layers
    if rng.random() < 0.5:
        widths = [8] * (nl + 1)
    else:
        widths = [rng.choice([4, 6, 8, 10]) for _ in range(nl + 1)]
    if tied:
        widths[-2] = widths[1]
        widths[-1] = widths[0]
        if nl < 2:
            tied = False
    # the residual is read 2+ stages on: P*V groups, from group 0 to the last
    residual = G >= 3 and rng.random() < 0.5
    cross = [b for b in range(G - 1) if Config(P, V, vshape).place(b)[0] != Config(P, V, vshape).place(b + 1)[0]]
    multi = tuple(sorted(rng.sample(cross, rng.randint(1, min(2, len(cross)))))) if cross and rng.random() < 0.5 \
        else ()
    if tied and layers == 1:
        multi = tuple(b for b in multi if b != 0)  # the tied first layer is no branch
    return Config(P, V=V, vshape=vshape, tp=tp, tp_entry=tp_entry, widths=widths, layers=layers, residual=residual,
                  multi=multi, tied=tied)
