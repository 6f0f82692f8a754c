"""A Llama decoder training step as Paddle's auto-parallel Llama prints it (issue 30).

Imported by scripts/gen-program (`--model llama`); standard library only.

The program follows PaddleNLP's `modeling_auto.py` (LlamaForCausalLM3DAuto) traced to static PIR:

    embedding -> L x [rms_norm, q/k/v matmuls, reshape, fused_rotary_position_embedding (the layer's cos/sin caches,
    builtin.parameters sliced to the sequence, as LlamaRotaryEmbedding passes them), causal attention
    (flash_attn, or transpose/scale/matmul/full+triu mask/softmax/matmul), reshape, o matmul, residual add,
    rms_norm, gate/up matmuls, swiglu, down matmul, residual add] -> rms_norm -> lm head matmul
    -> cross_entropy_with_softmax -> mean

then the backward with Paddle's grad ops in reverse order (a value's several grads summed by add_n over a
builtin.combine), then `adamw_` (epsilon 1e-6) per parameter. It is
printed in the newest printer era (bare numbers and dialect values, `process_ids` in every type and attribute entry,
`chunk_id` inside `op_dist_attr`, `tensor<..>` for dense types).

Layouts:
- dense (no --mesh): plain `tensor<..>` types, no dist attributes: what pir-run --dump-values and the PyTorch
  reference (scripts/llama_torch.py) compare.
- `--mesh N` (tensor parallel) or `--mesh DPxMP`: Megatron layout. q/k/v/gate/up weights column-parallel
  (`[-1,mp]`), o/down row-parallel (`[mp,-1]`: their outputs partial, apply-partition all-reduces them), the lm head
  column-parallel on the vocab, the embedding weight vocab-sharded (`[mp,-1]`: an `embedding` whose result is
  partial, which dist-to-dense turns into `c_embedding` with the rank's `start_index`), batch on mesh dim 0 (dp).
  `cross_entropy_with_softmax` reads the logits whole (an all-gather of the vocab), the loss's `mean` its operand
  fully replicated (so its grad divides by the global count, as the serial program).
- `--stages P [--vpp V]`: stage s on its own mesh (the --mesh shape, ids s*n .. s*n+n-1); the decoder layers in P*V
  contiguous groups, group g on stage g % P, chunk g // P (Paddle's VPP placement); the embedding with group 0, the
  final norm, lm head and loss with the last group. No op marks a crossing: an op reads the value of another stage
  directly, its operand attr on its own mesh, as Paddle's partition pass leaves it (apply-partition inserts the
  cross-mesh reshard); each parameter's grad and optimizer on its own stage, each stage's `learning_rate_S`.

`--write-inputs DIR` also writes every feed and parameter as DIR/NAME.npy (ids and labels uniform in [0, V),
weights normal x 0.02 as PaddleNLP initializes them, norm weights 1, the rope caches): what `pir-run --inputs DIR` and the PyTorch
reference read. `describe()` names every parameter with its shape for the reference.
"""
import math
import random
import struct

IND = "    "


def _j(xs):
    return ",".join(str(x) for x in xs)


def _f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def fnum(x):
    """A float attribute as Paddle's printer spells it (C++ ostream's 6 significant digits, `1e-06`), with more
    digits where 6 would not give back the same f32: `full`'s 1/sqrt(head_dim) must be the f32 the model uses."""
    for digits in range(6, 10):
        s = "%.*g" % (digits, x)
        if _f32(float(s)) == _f32(x):
            return s
    return "%.9g" % x


class Value:
    __slots__ = ("id", "shape", "dtype", "stage", "dims", "partial")

    def __init__(self, vid, shape, dtype, stage, dims, partial):
        self.id, self.shape, self.dtype, self.stage = vid, tuple(shape), dtype, stage
        self.dims, self.partial = tuple(dims), tuple(partial)

    @property
    def ref(self):
        return "%%%d" % self.id


class Vec:
    """builtin.combine's result: a vec of Values (its type and operand entries list theirs)."""
    __slots__ = ("id", "items")

    def __init__(self, vid, items):
        self.id, self.items = vid, list(items)

    @property
    def ref(self):
        return "%%%d" % self.id


class Printer:
    """Prints ops in the newest era; `meshes` None prints a dense program (no dist types or attributes)."""

    def __init__(self, meshes, mesh_shape, staged):
        self.meshes, self.mesh_shape, self.staged = meshes, mesh_shape, staged
        self.n = 0
        self.lines = []

    def _ms(self, s):
        return "mesh_shape:[%s],process_ids:[%s]" % (_j(self.mesh_shape), _j(self.meshes[s]))

    def _entry(self, s, dims, partial):
        return "{%s,dims_mappings:[%s]%s}" % (self._ms(s), _j(dims), "".join(", partial(%d,SUM)" % p for p in partial))

    def ty(self, v):
        if v is None:
            return "<<NULL TYPE>>"
        if isinstance(v, Vec):
            return "vec[%s]" % ",".join(self.ty(x) for x in v.items)
        shape = "".join("%dx" % d for d in v.shape) + v.dtype
        if self.meshes is None:
            return "tensor<%s>" % shape
        return "pd_dist.tensor<%s, %s,dims_mappings:[%s]%s>" % (
            shape, self._ms(v.stage), _j(v.dims), "".join(", partial(%d,SUM)" % p for p in v.partial))

    def op(self, name, operands, results, attrs, stage, role, chunk, wants=None):
        """operands: Values or None; results: (shape, dtype, dims, partial) or None; wants: per operand the
        (dims, partial) the op reads it in (default the value's own). Returns the result Values."""
        outs, ids = [], []
        for r in results:  # a null result has a number too, as Paddle prints it
            ids.append(self.n)
            self.n += 1
            outs.append(None if r is None else Value(ids[-1], r[0], r[1], stage, r[2], r[3]))
        a = dict(attrs)
        if self.meshes is not None:
            wants = wants or [None] * len(operands)
            od = ["mesh:{shape:[%s],process_ids:[%s]}" % (_j(self.mesh_shape), _j(self.meshes[stage]))]
            for i, (v, w) in enumerate(zip(operands, wants)):
                if v is None:
                    od.append("operand(%d):{<#AttrNull>}" % i)
                elif isinstance(v, Vec):
                    od.append("operand(%d):{[%s]}" % (i, ",".join(self._entry(stage, x.dims, x.partial)[1:-1]
                                                                   for x in v.items)))
                else:
                    d, p = w if w is not None else (v.dims, v.partial)
                    od.append("operand(%d):%s" % (i, self._entry(stage, d, p)))
            for i, v in enumerate(outs):
                od.append("result(%d):%s" % (i, "{<#AttrNull>}" if v is None else self._entry(stage, v.dims,
                                                                                              v.partial)))
            od.append("chunk_id:%d" % (chunk if self.staged else -1))
            a["op_dist_attr"] = "{" + ",".join(od) + "}"
            if self.staged:
                a["op_role"] = str(role)
        attr_s = ",".join("%s:%s" % (k, a[k]) for k in sorted(a))
        self.lines.append('%s(%s) = "%s" (%s) {%s} : (%s) -> %s\n' % (
            IND, ", ".join("%%%d" % i for i in ids), name,
            ", ".join(v.ref if v is not None else "<<NULL VALUE>>" for v in operands), attr_s,
            ", ".join(self.ty(v) for v in operands), ", ".join(self.ty(v) for v in outs)))
        return outs

    def combine(self, items, stage, role):
        """builtin.combine of items: no op_dist_attr (Paddle gives it none), op_role in a staged program."""
        v = Vec(self.n, items)
        self.n += 1
        a = {"stop_gradient": SG(1)}
        if self.staged:
            a["op_role"] = str(role)
        attr_s = ",".join("%s:%s" % (k, a[k]) for k in sorted(a))
        self.lines.append('%s(%s) = "builtin.combine" (%s) {%s} : (%s) -> %s\n' % (
            IND, v.ref, ", ".join(x.ref for x in items), attr_s, ", ".join(self.ty(x) for x in items), self.ty(v)))
        return v


F32, I64, BOOL = "f32", "i64", "b"
SG = lambda n: "[%s]" % ",".join(["false"] * n)  # noqa: E731
TRUE_SG = "[true]"
NEG = -3.4028234663852886e38  # paddle.finfo(float32).min, the causal mask's fill


class Config:
    def __init__(self, layers, hidden, heads, seq, vocab, batch=2, intermediate=None, attention="flash",
                 mesh=None, stages=0, vpp=1, eps=1e-6):
        self.L, self.H, self.A, self.S, self.V, self.B = layers, hidden, heads, seq, vocab, batch
        self.D = hidden // heads
        # Llama's 8/3 H, a multiple of 8 (so of any tensor-parallel degree up to 8)
        self.F = intermediate or 8 * math.ceil(8 * hidden / 3 / 8)
        self.attention, self.eps = attention, eps
        self.mesh = mesh  # None: dense
        self.P = max(stages, 1)
        self.staged = stages > 0
        self.vpp = vpp
        self.G = self.P * vpp

    def check(self):
        """An error message, or None."""
        if self.H % self.A:
            return "--hidden must be a multiple of --heads"
        if self.D % 2:
            return "the head dim (--hidden / --heads) must be even for rope"
        if self.L < self.G:
            return "--layers must be at least --stages x --vpp (%d)" % self.G
        if self.mesh is not None:
            mp = self.mesh[-1]
            dp = self.mesh[0] if len(self.mesh) > 1 else 1
            if len(self.mesh) > 2:
                return "--mesh takes N (tensor parallel) or DPxMP"
            # heads split whole (each rank attends with its own); the vocabulary and the MLP width may split
            # unevenly (the first ranks one row or column more, as Paddle's uneven shards)
            for what, n, d in (("--heads", self.A, mp), ("--batch", self.B, dp)):
                if n % d:
                    return "%s (%d) must be a multiple of %d" % (what, n, d)
        return None

    def meshes(self):
        n = 1
        for d in self.mesh:
            n *= d
        return [list(range(s * n, (s + 1) * n)) for s in range(self.P)]

    def place(self, g):
        return g % self.P, g // self.P

    def group(self, layer):
        """The layer group of a decoder layer: contiguous, the longer groups first (PaddleNLP's ceil split)."""
        per, extra = divmod(self.L, self.G)
        bound = 0
        for g in range(self.G):
            bound += per + (1 if g < extra else 0)
            if layer < bound:
                return g
        raise AssertionError(layer)


class Builder:
    """A training step's ops through a Printer: leaves, dims by role (batch, tensor-parallel), linear layers with
    their grads. Llama here and the MLP of scripts/mlp_program.py build on it; `cfg` gives mesh (None: dense),
    staged, meshes() and place(group)."""

    def __init__(self, cfg):
        self.c = cfg
        meshes = cfg.meshes() if cfg.mesh is not None else None
        self.p = Printer(meshes, cfg.mesh, cfg.staged)
        self.dp = 0 if cfg.mesh is not None and len(cfg.mesh) > 1 else None
        self.mp = len(cfg.mesh) - 1 if cfg.mesh is not None else None
        self.params = []  # (name, Value, stage, chunk)
        self.grads = {}  # param name -> grad Value
        self.stage, self.chunk = 0, 0

    # -- dims: "b" the batch dim (dp), "m" a tensor-parallel dim (mp), None replicated ---------------------------
    def d(self, *spec):
        out = []
        for s in spec:
            out.append(self.dp if s == "b" and self.dp is not None else self.mp if s == "m" and self.mp is not None
                       else -1)
        return tuple(out)

    def pd(self, *axes):
        """Partial mesh dims: 'b' (dp), 'm' (mp), kept only where the mesh has them."""
        return tuple(x for x in (self.dp if a == "b" else self.mp for a in axes) if x is not None)

    def op(self, name, operands, results, attrs, role, wants=None):
        return self.p.op(name, operands, results, attrs, self.stage, role, self.chunk, wants)

    def one(self, name, operands, shape, dims, attrs, role, wants=None, partial=(), dtype=F32):
        return self.op(name, operands, [(shape, dtype, dims, partial)], attrs, role, wants)[0]

    def want(self, dims, partial=()):
        return (tuple(dims), tuple(partial))

    # -- leaves -------------------------------------------------------------------------------------------------
    def parameter(self, name, shape, dims):
        attrs = {"is_distributed": "[false]", "is_parameter": "[true]", "need_clip": "[true]",
                 "parameter_name": '"%s"' % name, "persistable": "[true]", "stop_gradient": "[false]",
                 "trainable": "[true]"}
        v = self.one("builtin.parameter", [], shape, dims, attrs, 0)
        self.params.append((name, v, self.stage, self.chunk))
        return v

    def table(self, name, shape):
        """A tensor the model computed once and the traced step captures (rope's cos/sin cache): a builtin.parameter
        no gradient reaches and no optimizer updates, replicated."""
        attrs = {"is_distributed": "[false]", "is_parameter": "[true]", "need_clip": "[true]",
                 "parameter_name": '"%s"' % name, "persistable": "[true]", "stop_gradient": "[true]",
                 "trainable": "[false]"}
        return self.one("builtin.parameter", [], shape, tuple(-1 for _ in shape), attrs, 0)

    def data(self, name, shape, dims, dtype, persistable=False):
        attrs = {"dtype": {"f32": "float32", "i64": "int64"}[dtype], "name": '"%s"' % name,
                 "place": "Place(undefined:0)", "shape": "[%s]" % _j(shape), "stop_gradient": "[true]"}
        if persistable:
            attrs["persistable"] = "[true]"
        return self.one("pd_op.data", [], shape, dims, attrs, 0, dtype=dtype)

    def full_int_array(self, values, role):
        return self.one("pd_op.full_int_array", [], (len(values),), (-1,),
                        {"dtype": "int64", "place": "Place(cpu)", "stop_gradient": TRUE_SG,
                         "value": "[%s]" % _j(values)}, role, dtype=I64)

    def full(self, shape, value, role, dtype="float32"):
        return self.one("pd_op.full", [], shape, tuple(-1 for _ in shape),
                        {"dtype": dtype, "place": "Place(cpu)", "shape": "[%s]" % _j(shape), "stop_gradient": TRUE_SG,
                         "value": fnum(value)}, role)

    def to(self, g):
        """Ops from here on are layer group g's: its stage and chunk."""
        self.stage, self.chunk = self.c.place(g)

    # -- linear layers (Megatron layouts) ---------------------------------------------------------------------
    def matmul(self, x, w, out_dims, partial=()):
        shape = x.shape[:-1] + (w.shape[1],)
        return self.one("pd_op.matmul", [x, w], shape, out_dims,
                        {"stop_gradient": SG(1), "transpose_x": "false", "transpose_y": "false"}, 0, partial=partial)

    def wgrad_dims(self, w):
        return w.dims, self.pd("b")  # a weight grad: the weight's layout, partial over the batch

    def matmul_grad(self, x, w, g, x_partial=()):
        """(x_grad, w_grad); x_grad partial over mp when w is column-parallel."""
        wd, wp = self.wgrad_dims(w)
        xd = tuple(-1 if (dd == self.mp and x_partial) else dd for dd in x.dims) if x_partial else x.dims
        # out_grad read as the forward's output was laid out, but never partial
        gwant = self.want(x.dims[:-1] + (w.dims[1],))
        gx, gw = self.op("pd_op.matmul_grad", [x, w, g],
                         [(x.shape, F32, xd, x_partial), (w.shape, F32, wd, wp)],
                         {"stop_gradient": SG(2), "transpose_x": "false", "transpose_y": "false"}, 1,
                         [self.want(x.dims), self.want(w.dims), gwant])
        return gx, gw


class Llama(Builder):
    # -- forward pieces -----------------------------------------------------------------------------------------
    def rms_norm(self, x, w):
        c = self.c
        B, S, H = x.shape
        attrs = {"begin_norm_axis": "2", "epsilon": fnum(c.eps), "quant_max_bound": "0", "quant_min_bound": "0",
                 "quant_round_type": "0", "quant_scale": "-1", "stop_gradient": SG(3)}
        out, _, inv = self.op("pd_op.rms_norm", [x, None, None, w, None],
                              [((B, S, H), F32, self.d("b", None, None), ()), None,
                               ((B, S), F32, self.d("b", None), ())], attrs, 0,
                              [self.want(self.d("b", None, None)), None, None, self.want((-1,)), None])
        return out, inv

    def reshape(self, x, target, dims, role=0):
        shape_op = self.full_int_array(target, role)
        shape = tuple(x.shape[i] if t == 0 else t for i, t in enumerate(target))
        return self.one("pd_op.reshape", [x, shape_op], shape, dims, {"stop_gradient": SG(1)}, role,
                        wants=[self.want(x.dims, x.partial), self.want((-1,))])

    def slice_seq(self, table):
        """table[:, :S]: pd_op.slice on axis 1 (the sequence), as the cache's __getitem__ traces."""
        starts, ends = self.full_int_array([0], 0), self.full_int_array([self.c.S], 0)
        return self.one("pd_op.slice", [table, starts, ends], table.shape, table.dims,
                        {"axes": "[1]", "decrease_axis": "[]", "infer_flags": "[1]", "stop_gradient": TRUE_SG}, 0,
                        wants=[self.want(table.dims), self.want((-1,)), self.want((-1,))])

    def attention_flash(self, q, k, v):
        B, S, A, D = q.shape
        heads = self.d("b", None, "m", None)
        attrs = {"causal": "true", "dropout": "0", "is_test": "false", "return_softmax": "false", "rng_name": '""',
                 "stop_gradient": SG(4)}
        r = lambda n: 128 * ((n + 127) // 128)  # noqa: E731  FlashAttnInferMeta rounds the softmax's dims
        out, sm, lse, seed = self.op("pd_op.flash_attn", [q, k, v, None, None],
                                     [((B, S, A, D), F32, heads, ()),
                                      ((B, A, r(S), r(S)), F32, self.d("b", "m", None, None), ()),
                                      ((B, A, r(S)), F32, self.d("b", "m", None), ()), ((2,), I64, (-1,), ())],
                                     attrs, 0)
        return out, dict(kind="flash", q=q, k=k, v=v, out=out, lse=lse, seed=seed)

    def attention_decomposed(self, q, k, v):
        B, S, A, D = q.shape
        bh = self.d("b", "m", None, None)
        tr = lambda x, perm, dims, role=0: self.one(  # noqa: E731
            "pd_op.transpose", [x], tuple(x.shape[p] for p in perm), dims,
            {"perm": "[%s]" % _j(perm), "stop_gradient": SG(1)}, role)
        qt, kt, vt = (tr(x, (0, 2, 1, 3), bh) for x in (q, k, v))
        f = self.full((1,), 1.0 / math.sqrt(D), 0)
        qs = self.one("pd_op.scale", [qt, f], qt.shape, bh, {"bias": "0", "bias_after_scale": "true",
                                                             "stop_gradient": SG(1)}, 0,
                      wants=[self.want(bh), self.want((-1,))])
        ktt = tr(kt, (0, 1, 3, 2), bh)
        w = self.one("pd_op.matmul", [qs, ktt], (B, A, S, S), bh,
                     {"stop_gradient": SG(1), "transpose_x": "false", "transpose_y": "false"}, 0)
        # get_triangle_upper_mask: full of the dtype's min, its strict upper triangle kept
        m = self.full((S, S), NEG, 0)
        mask = self.one("pd_op.triu", [m], (S, S), (-1, -1), {"diagonal": "1", "stop_gradient": TRUE_SG}, 0)
        wm = self.one("pd_op.add", [w, mask], (B, A, S, S), bh, {"stop_gradient": SG(1)}, 0)
        p = self.one("pd_op.softmax", [wm], (B, A, S, S), bh, {"axis": "-1", "stop_gradient": SG(1)}, 0)
        o = self.one("pd_op.matmul", [p, vt], (B, A, S, D), bh,
                     {"stop_gradient": SG(1), "transpose_x": "false", "transpose_y": "false"}, 0)
        out = tr(o, (0, 2, 1, 3), self.d("b", None, "m", None))
        return out, dict(kind="decomposed", qt=qt, kt=kt, vt=vt, f=f, qs=qs, ktt=ktt, w=w, mask=mask, p=p, o=o)

    def layer(self, i, x, P):
        """One decoder layer on the current stage; returns (output, what the backward reads)."""
        c = self.c
        B, S, H, A, D = c.B, c.S, c.H, c.A, c.D
        col = self.d("b", None, "m")
        rep = self.d("b", None, None)
        h, inv1 = self.rms_norm(x, P["ln1"])
        q, k, v = (self.matmul(h, P[n], col) for n in ("q", "k", "v"))
        heads = self.d("b", None, "m", None)
        q4, k4, v4 = (self.reshape(t, (0, 0, A, D), heads) for t in (q, k, v))
        rattrs = {"rotary_emb_base": "10000", "stop_gradient": SG(3), "time_major": "false",
                  "use_neox_rotary_style": "false"}
        # LlamaRotaryEmbedding.forward: its caches up to the sequence, cos first
        cos, sin = (self.slice_seq(P[n]) for n in ("cos", "sin"))
        rq, rk, _ = self.op("pd_op.fused_rotary_position_embedding", [q4, k4, None, sin, cos, None],
                            [((B, S, A, D), F32, heads, ()), ((B, S, A, D), F32, heads, ()), None], rattrs, 0)
        if c.attention == "flash":
            att, saved = self.attention_flash(rq, rk, v4)
        else:
            att, saved = self.attention_decomposed(rq, rk, v4)
        o = self.reshape(att, (0, 0, H), col)
        ao = self.matmul(o, P["o"], rep, self.pd("m"))
        x1 = self.one("pd_op.add", [x, ao], (B, S, H), rep, {"stop_gradient": SG(1)}, 0,
                      wants=[self.want(rep), self.want(rep)])
        h2, inv2 = self.rms_norm(x1, P["ln2"])
        gt = self.matmul(h2, P["gate"], col)
        up = self.matmul(h2, P["up"], col)
        s = self.one("pd_op.swiglu", [gt, up], (B, S, c.F), col, {"stop_gradient": SG(1)}, 0)
        dn = self.matmul(s, P["down"], rep, self.pd("m"))
        x2 = self.one("pd_op.add", [x1, dn], (B, S, H), rep, {"stop_gradient": SG(1)}, 0,
                      wants=[self.want(rep), self.want(rep)])
        return x2, dict(i=i, P=P, x=x, h=h, inv1=inv1, q=q, k=k, v=v, q4=q4, k4=k4, v4=v4, sin=sin, cos=cos, rq=rq, rk=rk,
                        att=att, saved=saved, o=o, ao=ao, x1=x1, h2=h2, inv2=inv2, gt=gt, up=up, s=s, dn=dn,
                        stage=self.stage, chunk=self.chunk)

    # -- backward pieces ----------------------------------------------------------------------------------------
    def rms_norm_grad(self, x, w, inv, g):
        c = self.c
        wd, wp = self.wgrad_dims(w)
        rep = self.d("b", None, None)
        gx, gw, _ = self.op("pd_op.rms_norm_grad", [x, None, None, w, None, inv, g],
                            [(x.shape, F32, rep, ()), (w.shape, F32, wd, wp), None],
                            {"begin_norm_axis": "2", "epsilon": fnum(c.eps), "quant_scale": "-1",
                             "stop_gradient": SG(3)}, 1,
                         [self.want(rep), None, None, self.want((-1,)), None, self.want(inv.dims),
                          self.want(rep)])
        return gx, gw

    def add_n(self, grads, dims, partial=()):
        """The sum of a value's grads as Paddle's backward writes it: add_n over a builtin.combine."""
        vec = self.p.combine(grads, self.stage, 1)
        return self.one("pd_op.add_n", [vec], grads[0].shape, dims, {"stop_gradient": SG(1)}, 1, partial=partial)

    def add_grad(self, x, y, g, ydims=None, null_y=False):
        rep = x.dims
        res = [(x.shape, F32, rep, ()), None if null_y else (y.shape, F32, ydims or rep, ())]
        gx, gy = self.op("pd_op.add_grad", [x, y, g], res, {"axis": "-1", "stop_gradient": SG(2)}, 1,
                         [self.want(x.dims), self.want(y.dims), self.want(g.dims)])
        return gx, gy

    def reshape_grad(self, x, g):
        return self.one("pd_op.reshape_grad", [x, g], x.shape, x.dims, {"stop_gradient": SG(1)}, 1)

    def layer_backward(self, Lr, g):
        P = Lr["P"]
        self.stage, self.chunk = Lr["stage"], Lr["chunk"]
        rep = self.d("b", None, None)
        mpp = self.pd("m")
        # x2 = x1 + down(swiglu(gate(h2), up(h2)))
        g1, gdn = self.add_grad(Lr["x1"], Lr["dn"], g)
        gs, self.grads["down"] = self.matmul_grad(Lr["s"], P["down"], gdn)
        ggt, gup = self.op("pd_op.swiglu_grad", [Lr["gt"], Lr["up"], gs],
                           [(Lr["gt"].shape, F32, Lr["gt"].dims, ()), (Lr["up"].shape, F32, Lr["up"].dims, ())],
                           {"stop_gradient": SG(2)}, 1)
        gh2u, gwu = self.matmul_grad(Lr["h2"], P["up"], gup, mpp)
        gh2g, gwg = self.matmul_grad(Lr["h2"], P["gate"], ggt, mpp)
        gh2 = self.add_n([gh2u, gh2g], rep, mpp)
        gx1n, gln2 = self.rms_norm_grad(Lr["x1"], P["ln2"], Lr["inv2"], gh2)
        gx1 = self.add_n([g1, gx1n], rep)
        # x1 = x + o(attention(rope(q), rope(k), v))
        gx, gao = self.add_grad(Lr["x"], Lr["ao"], gx1)
        go, gwo = self.matmul_grad(Lr["o"], P["o"], gao)
        gatt = self.reshape_grad(Lr["att"], go)
        sv = Lr["saved"]
        heads = self.d("b", None, "m", None)
        if sv["kind"] == "flash":
            grq, grk, gv4 = self.op("pd_op.flash_attn_grad",
                                    [sv["q"], sv["k"], sv["v"], sv["out"], sv["lse"], sv["seed"], None, gatt],
                                    [(sv["q"].shape, F32, heads, ())] * 3, {"causal": "true", "dropout": "0",
                                                                           "stop_gradient": SG(3)}, 1)
        else:
            grq, grk, gv4 = self.decomposed_backward(sv, gatt)
        rattrs = {"rotary_emb_base": "10000", "stop_gradient": SG(3), "time_major": "false",
                  "use_neox_rotary_style": "false"}
        gq4, gk4, _ = self.op("pd_op.fused_rotary_position_embedding_grad", [Lr["sin"], Lr["cos"], None, grq, grk, None],
                              [(grq.shape, F32, heads, ()), (grk.shape, F32, heads, ()), None], rattrs, 1)
        gv, gk, gq = (self.reshape_grad(Lr[n], gt) for n, gt in (("v", gv4), ("k", gk4), ("q", gq4)))
        ghv, gwv = self.matmul_grad(Lr["h"], P["v"], gv, mpp)
        ghk, gwk = self.matmul_grad(Lr["h"], P["k"], gk, mpp)
        ghq, gwq = self.matmul_grad(Lr["h"], P["q"], gq, mpp)
        gh = self.add_n([ghv, ghk, ghq], rep, mpp)
        gxn, gln1 = self.rms_norm_grad(Lr["x"], P["ln1"], Lr["inv1"], gh)
        gxt = self.add_n([gx, gxn], rep)
        i = Lr["i"]
        for k, v in (("ln1", gln1), ("q", gwq), ("k", gwk), ("v", gwv), ("o", gwo), ("ln2", gln2), ("gate", gwg),
                     ("up", gwu), ("down", self.grads.pop("down"))):
            self.grads[layer_param(i, k)] = v
        return gxt

    def decomposed_backward(self, sv, g):
        bh = self.d("b", "m", None, None)

        def tr(x, perm, dims):
            """transpose_grad of transpose(., perm): x by the inverse permutation."""
            inv = [perm.index(i) for i in range(len(perm))]
            return self.one("pd_op.transpose_grad", [x], tuple(x.shape[p] for p in inv), dims,
                            {"perm": "[%s]" % _j(perm), "stop_gradient": SG(1)}, 1)
        go = tr(g, (0, 2, 1, 3), bh)
        gp, gvt = self.op("pd_op.matmul_grad", [sv["p"], sv["vt"], go],
                          [(sv["p"].shape, F32, bh, ()), (sv["vt"].shape, F32, bh, ())],
                          {"stop_gradient": SG(2), "transpose_x": "false", "transpose_y": "false"}, 1)
        gwm = self.one("pd_op.softmax_grad", [sv["p"], gp], sv["p"].shape, bh, {"axis": "-1", "stop_gradient": SG(1)},
                       1)
        gw, _ = self.add_grad(sv["w"], sv["mask"], gwm, null_y=True)
        gqs, gktt = self.op("pd_op.matmul_grad", [sv["qs"], sv["ktt"], gw],
                            [(sv["qs"].shape, F32, bh, ()), (sv["ktt"].shape, F32, bh, ())],
                            {"stop_gradient": SG(2), "transpose_x": "false", "transpose_y": "false"}, 1)
        gkt = tr(gktt, (0, 1, 3, 2), bh)
        gqt = self.one("pd_op.scale", [gqs, sv["f"]], gqs.shape, bh, {"bias": "0", "bias_after_scale": "true",
                                                                      "stop_gradient": SG(1)}, 1,
                       wants=[self.want(bh), self.want((-1,))])
        heads = self.d("b", None, "m", None)
        return tr(gqt, (0, 2, 1, 3), heads), tr(gkt, (0, 2, 1, 3), heads), tr(gvt, (0, 2, 1, 3), heads)

    # -- the program --------------------------------------------------------------------------------------------
    def build(self):
        c = self.c
        B, S, H, V = c.B, c.S, c.H, c.V
        lrs = []
        for s in range(c.P):
            self.stage, self.chunk = s, 0
            lrs.append(self.data("learning_rate_%d" % s, (), (), F32, True))
        # parameters, each on its group's stage, in model order
        self.to(0)
        w_emb = self.parameter("llama.embed_tokens.weight", (V, H), self.d("m", None))
        layers = []
        for i in range(c.L):
            self.to(c.group(i))
            P = {}
            for k in ("ln1", "q", "k", "v", "o", "ln2", "gate", "up", "down"):
                shape, spec = param_shape(c, k)
                P[k] = self.parameter(layer_param(i, k), shape, self.d(*spec))
            for n in ("cos", "sin"):
                P[n] = self.table(rope_table(i, n), (1, c.S, 1, c.D))
            layers.append(P)
        self.to(c.G - 1)
        w_norm = self.parameter("llama.norm.weight", (H,), (-1,))
        w_lm = self.parameter("lm_head.weight", (H, V), self.d(None, "m"))
        self.to(0)
        ids = self.data("input_ids", (B, S), self.d("b", None), I64)
        self.to(c.G - 1)
        labels = self.data("labels", (B, S, 1), self.d("b", None, None), I64)
        # forward
        self.to(0)
        rep = self.d("b", None, None)
        x = self.one("pd_op.embedding", [ids, w_emb], (B, S, H), rep, {"padding_idx": "-1", "sparse": "false",
                                                                      "stop_gradient": SG(1)}, 0,
                     partial=self.pd("m"))
        saved = []
        for i in range(c.L):
            self.to(c.group(i))
            x, Lr = self.layer(i, x, layers[i])
            saved.append(Lr)
        self.to(c.G - 1)
        xn, inv = self.rms_norm(x, w_norm)
        logits = self.matmul(xn, w_lm, self.d("b", None, "m"))
        ce_attrs = {"axis": "-1", "ignore_index": "-100", "numeric_stable_mode": "true", "soft_label": "false",
                    "use_softmax": "true"}
        sm, loss = self.op("pd_op.cross_entropy_with_softmax", [logits, labels],
                           [((B, S, V), F32, rep, ()), ((B, S, 1), F32, rep, ())],
                           dict(ce_attrs, stop_gradient=SG(2)), 0, [self.want(rep), self.want(labels.dims)])
        # the mean reads the loss fully replicated: its grad divides by the global count (see gen-program)
        full_rep = (-1, -1, -1)
        mean = self.one("pd_op.mean", [loss], (), (), {"axis": "[]", "keepdim": "false", "stop_gradient": SG(1)}, 0,
                        wants=[self.want(full_rep)])
        self.op("builtin.shadow_output", [mean], [], {"output_name": '"loss_0"'}, 0)
        # backward
        one = self.full((1,), 1.0, 1)
        gl = self.one("pd_op.full_like", [mean, one], (), (), {"dtype": "float32", "place": "Place(undefined:0)",
                                                              "stop_gradient": SG(1)}, 1)
        gloss = self.one("pd_op.mean_grad", [loss, gl], (B, S, 1), full_rep,
                         {"axis": "[]", "keepdim": "false", "reduce_all": "false", "stop_gradient": SG(1)}, 1,
                         wants=[self.want(full_rep), self.want(())])
        glogits = self.one("pd_op.cross_entropy_with_softmax_grad", [labels, sm, gloss], (B, S, V), rep,
                           dict(ce_attrs, stop_gradient=SG(1)), 1,
                           wants=[self.want(labels.dims), self.want(rep), self.want(rep)])
        gxn, self.grads["lm_head.weight"] = self.matmul_grad(xn, w_lm, glogits, self.pd("m"))
        g, self.grads["llama.norm.weight"] = self.rms_norm_grad(x, w_norm, inv, gxn)
        for Lr in reversed(saved):
            g = self.layer_backward(Lr, g)
        self.to(0)
        wd, wp = self.wgrad_dims(w_emb)
        self.grads["llama.embed_tokens.weight"] = self.one("pd_op.embedding_grad", [ids, w_emb, g], (V, H), wd,
                                                 {"padding_idx": "-1", "stop_gradient": SG(1)}, 1,
                                                 partial=wp)
        # optimizer: adamw_ per parameter on its stage, in parameter order
        for name, w, stage, chunk in self.params:
            self.stage, self.chunk = stage, chunk
            self.adamw(name, w, self.grads[name], lrs[stage])
        return "{\n" + "".join(self.p.lines) + "}\n"

    def adamw(self, name, w, grad, lr):
        want = (w.dims, ())
        acc = [self.data("%s_moment1_0" % name, w.shape, w.dims, F32, True),
               self.data("%s_moment2_0" % name, w.shape, w.dims, F32, True),
               self.data("%s_beta1_pow_acc_0" % name, (1,), (-1,), F32, True),
               self.data("%s_beta2_pow_acc_0" % name, (1,), (-1,), F32, True)]
        # epsilon 1e-6 (issue 30): at |g| <~ epsilon adam's step has slope lr/epsilon in g, and a smaller epsilon
        # turns f32 rounding between sharded and whole runs into parameter differences beyond --check's bound.
        attrs = {"beta1": "0.9", "beta2": "0.999", "coeff": "0.01", "epsilon": "1e-06", "lazy_mode": "false",
                 "lr_ratio": "1", "min_row_size_to_use_multithread": "1000", "multi_precision": "false",
                 "stop_gradient": SG(6), "use_global_beta_pow": "false", "with_decay": "true"}
        res = [(w.shape, F32, w.dims, ()), (w.shape, F32, w.dims, ()), (w.shape, F32, w.dims, ()),
               ((1,), F32, (-1,), ()), ((1,), F32, (-1,), ()), None]
        self.op("pd_op.adamw_", [w, grad, lr] + acc + [None, None], res, attrs, 2,
                [want, want, ((), ()), want, want, ((-1,), ()), ((-1,), ()), None, None])


LAYER_PARAMS = {
    # name: (PaddleNLP's parameter, shape function, dims spec: "m" the tensor-parallel dim)
    "ln1": ("input_layernorm", lambda c: (c.H,), (None,)),
    "q": ("self_attn.q_proj", lambda c: (c.H, c.H), (None, "m")),
    "k": ("self_attn.k_proj", lambda c: (c.H, c.H), (None, "m")),
    "v": ("self_attn.v_proj", lambda c: (c.H, c.H), (None, "m")),
    "o": ("self_attn.o_proj", lambda c: (c.H, c.H), ("m", None)),
    "ln2": ("post_attention_layernorm", lambda c: (c.H,), (None,)),
    "gate": ("mlp.gate_proj", lambda c: (c.H, c.F), (None, "m")),
    "up": ("mlp.up_proj", lambda c: (c.H, c.F), (None, "m")),
    "down": ("mlp.down_proj", lambda c: (c.F, c.H), ("m", None)),
}


def param_shape(c, k):
    _, shape, spec = LAYER_PARAMS[k]
    return shape(c), spec


def layer_param(i, k):
    return "llama.layers.%d.%s.weight" % (i, LAYER_PARAMS[k][0])


def rope_table(i, n):
    """Layer i's rope cache n (cos or sin), named after PaddleNLP's LlamaRotaryEmbedding attribute."""
    return "llama.layers.%d.self_attn.rotary_emb.%s_cached" % (i, n)


def rope_values(c, n):
    """cos or sin of the cache [1, S, 1, D], row-major: p / 10000^(2 (j mod D/2) / D) (Llama's cat(freqs, freqs),
    the halves layout), in f64, rounded once to f32 when written."""
    f = math.cos if n == "cos" else math.sin
    half = c.D // 2
    return [f(p / 10000.0 ** (2.0 * (j % half) / c.D)) for p in range(c.S) for j in range(c.D)]


def parameters(c):
    """Every parameter (name, shape, init) in program order: init 'normal' (x 0.02) or 'ones'."""
    out = [("llama.embed_tokens.weight", (c.V, c.H), "normal")]
    for i in range(c.L):
        for k in LAYER_PARAMS:
            shape, _ = param_shape(c, k)
            out.append((layer_param(i, k), shape, "ones" if k.startswith("ln") else "normal"))
    out += [("llama.norm.weight", (c.H,), "ones"), ("lm_head.weight", (c.H, c.V), "normal")]
    return out


def program(cfg):
    return Llama(cfg).build()


# -- .npy without numpy (gen-program is standard library only) -----------------------------------------------------
def write_npy(path, shape, dtype, values):
    descr = {"f32": "<f4", "i64": "<i8"}[dtype]
    shape_s = "(%s)" % ("".join("%d, " % d for d in shape) if len(shape) != 1 else "%d," % shape[0])
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape_s)
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        f.write(struct.pack("<%d%s" % (len(values), "f" if dtype == "f32" else "q"), *values))


def write_inputs(cfg, folder, seed=0, std=0.02):
    """Every feed and parameter of the program as folder/NAME.npy; the draws depend only on seed, std and the
    sizes."""
    import os
    os.makedirs(folder, exist_ok=True)
    rng = random.Random(seed)
    n = cfg.B * cfg.S
    write_npy(os.path.join(folder, "input_ids.npy"), (cfg.B, cfg.S), "i64", [rng.randrange(cfg.V) for _ in range(n)])
    write_npy(os.path.join(folder, "labels.npy"), (cfg.B, cfg.S, 1), "i64", [rng.randrange(cfg.V) for _ in range(n)])
    for name, shape, init in parameters(cfg):
        count = 1
        for d in shape:
            count *= d
        vals = [1.0] * count if init == "ones" else [rng.gauss(0.0, std) for _ in range(count)]
        write_npy(os.path.join(folder, name + ".npy"), shape, "f32", vals)
    for i in range(cfg.L):
        for n in ("cos", "sin"):
            write_npy(os.path.join(folder, rope_table(i, n) + ".npy"), (1, cfg.S, 1, cfg.D), "f32", rope_values(cfg, n))
