#!/usr/bin/env bash
# gen-program --model mlp (issue 33, the benchmark of scripts/bench-run.sh bench_mlp): the seed MLP's SGD step, its
# dense run against the same step in PyTorch (scripts/mlp_torch.py compare), and its data- and tensor-parallel
# layouts against their serial meaning (pir-run --check) in process (under mpirun: cli_run_mpi_test.sh), with the
# collectives the benchmark's PyTorch side makes. Tiny sizes. See cli_lib.sh for the driver.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
TORCH_REF=$HERE/../../scripts/mlp_torch.py
SIZES="--layers 3 --hidden 16 --batch 8"

# mlp OUT ARGS... : writes the program (SIZES unless ARGS override them) to OUT.
mlp() { gen_model mlp "$@"; }

test_mlp_matches_pytorch() {
  /usr/bin/python3 -c 'import torch, numpy' 2> /dev/null || skip "no python3-torch"
  mlp p.pir --write-inputs in
  prun p.pir --inputs in --dump-values dump --output-dir o
  [ "$rc" = 0 ] || fail "pir-run: $(head -3 err)"
  /usr/bin/python3 "$TORCH_REF" compare $SIZES --inputs in p.pir dump o > cmp.out 2>&1 ||
    fail "against PyTorch: $(cat cmp.out)"
  # both spellings (functional, module): the loss; 3 weight gradients and the input's; 3 weights after the update
  [ "$(grep -c '^loss: 1 match' cmp.out)" = 2 ] && [ "$(grep -c '^gradients: 4 match' cmp.out)" = 2 ] &&
    [ "$(grep -c '^weights after the step: 3 match' cmp.out)" = 2 ] || fail "not everything compared: $(cat cmp.out)"
  # Without --dump-values each sgd_ is made by its matmul_grad's GEMM (runtime/update_fusion.h): the weights
  # that run leaves, against PyTorch too (the gradients from the run above).
  prun p.pir --inputs in --output-dir fused
  [ "$rc" = 0 ] || fail "pir-run, fused: $(head -3 err)"
  grep -q '^    fused_updates: 3$' fused/summary.yaml || fail "not 3 updates fused: $(grep fused fused/summary.yaml)"
  grep -q '^    fused_updates: 0$' o/summary.yaml || fail "fused beside --dump-values"
  # the loss's square and square_grad are made by its sum and sum_grad (runtime/loss_fusion.h), bitwise as op by op
  grep -q '^    fused_loss_ops: 2$' fused/summary.yaml || fail "the loss not fused: $(grep fused fused/summary.yaml)"
  grep -q '^    fused_loss_ops: 0$' o/summary.yaml || fail "the loss fused beside --dump-values"
  cmp -s fused/loss_0.npy o/loss_0.npy || fail "the fused loss is not the op-by-op loss bit for bit"
  /usr/bin/python3 "$TORCH_REF" compare $SIZES --inputs in p.pir dump fused > cmp.out 2>&1 ||
    fail "fused, against PyTorch: $(cat cmp.out)"
  [ "$(grep -c '^weights after the step: 3 match' cmp.out)" = 2 ] || fail "fused: not compared: $(cat cmp.out)"
}

# A hand-written backward of shapes gen-program does not write: y transposed with x's batch folded into rows, x
# transposed, an f64 weight. Each sgd_ is made by its matmul_grad's GEMM (runtime/update_fusion.h); the weights and
# input gradients against numpy.
test_fused_updates_hand_written_match_numpy() {
  /usr/bin/python3 -c 'import numpy' 2> /dev/null || skip "no python3-numpy"
  cat > p.pir << 'EOF'
{
    (%0) = "pd_op.data" () {dtype:float32,name:"lr",shape:[]} : () -> tensor<f32>
    (%1) = "builtin.parameter" () {parameter_name:"w1"} : () -> tensor<6x4xf32>
    (%2) = "builtin.parameter" () {parameter_name:"w2"} : () -> tensor<5x2xf32>
    (%3) = "builtin.parameter" () {parameter_name:"w3"} : () -> tensor<3x3xf64>
    (%4) = "pd_op.data" () {name:"x1"} : () -> tensor<2x3x4xf32>
    (%5) = "pd_op.data" () {name:"d1"} : () -> tensor<2x3x6xf32>
    (%6) = "pd_op.data" () {name:"x2"} : () -> tensor<5x3xf32>
    (%7) = "pd_op.data" () {name:"d2"} : () -> tensor<3x2xf32>
    (%8) = "pd_op.data" () {name:"x3"} : () -> tensor<4x3xf64>
    (%9) = "pd_op.data" () {name:"d3"} : () -> tensor<4x3xf64>
    (%10, %11) = "pd_op.matmul_grad" (%4, %1, %5) {transpose_x:false,transpose_y:true} : (tensor<2x3x4xf32>, tensor<6x4xf32>, tensor<2x3x6xf32>) -> tensor<2x3x4xf32>, tensor<6x4xf32>
    (%12, %13) = "pd_op.matmul_grad" (%6, %2, %7) {transpose_x:true,transpose_y:false} : (tensor<5x3xf32>, tensor<5x2xf32>, tensor<3x2xf32>) -> tensor<5x3xf32>, tensor<5x2xf32>
    (%14, %15) = "pd_op.matmul_grad" (%8, %3, %9) {transpose_x:false,transpose_y:false} : (tensor<4x3xf64>, tensor<3x3xf64>, tensor<4x3xf64>) -> tensor<4x3xf64>, tensor<3x3xf64>
    (%16, %17) = "pd_op.sgd_" (%1, %0, %11, <<NULL VALUE>>) {multi_precision:false} : (tensor<6x4xf32>, tensor<f32>, tensor<6x4xf32>, <<NULL TYPE>>) -> tensor<6x4xf32>, <<NULL TYPE>>
    (%18, %19) = "pd_op.sgd_" (%2, %0, %13, <<NULL VALUE>>) {multi_precision:false} : (tensor<5x2xf32>, tensor<f32>, tensor<5x2xf32>, <<NULL TYPE>>) -> tensor<5x2xf32>, <<NULL TYPE>>
    (%20, %21) = "pd_op.sgd_" (%3, %0, %15, <<NULL VALUE>>) {multi_precision:false} : (tensor<3x3xf64>, tensor<f32>, tensor<3x3xf64>, <<NULL TYPE>>) -> tensor<3x3xf64>, <<NULL TYPE>>
    () = "builtin.shadow_output" (%10) {output_name:"dx1"} : (tensor<2x3x4xf32>) -> 
    () = "builtin.shadow_output" (%12) {output_name:"dx2"} : (tensor<5x3xf32>) -> 
    () = "builtin.shadow_output" (%14) {output_name:"dx3"} : (tensor<4x3xf64>) -> 
}
EOF
  mkdir -p in
  /usr/bin/python3 - << 'PY' || fail "could not write the inputs"
import numpy as np
r = np.random.default_rng(7)
f = lambda *s: r.standard_normal(s).astype(np.float32)
arrays = dict(lr=np.array(0.1, np.float32), w1=f(6, 4), w2=f(5, 2), w3=r.standard_normal((3, 3)), x1=f(2, 3, 4),
              d1=f(2, 3, 6), x2=f(5, 3), d2=f(3, 2), x3=r.standard_normal((4, 3)), d3=r.standard_normal((4, 3)))
for name, a in arrays.items():
    np.save("in/%s.npy" % name, a)
PY
  prun p.pir --inputs in --output-dir o
  [ "$rc" = 0 ] || fail "pir-run: $(head -3 err)"
  grep -q '^    fused_updates: 3$' o/summary.yaml || fail "not 3 updates fused: $(grep fused o/summary.yaml)"
  /usr/bin/python3 - << 'PY' > cmp.out 2>&1 || fail "against numpy: $(cat cmp.out)"
import numpy as np
i = {n: np.load("in/%s.npy" % n).astype(np.float64) for n in ["lr", "w1", "w2", "w3", "x1", "d1", "x2", "d2", "x3", "d3"]}
X1, D1 = i["x1"].reshape(-1, 4), i["d1"].reshape(-1, 6)  # out = X1 @ w1.T, its batch folded into rows
want = dict(w1=i["w1"] - i["lr"] * (D1.T @ X1), dx1=(D1 @ i["w1"]).reshape(2, 3, 4),
            w2=i["w2"] - i["lr"] * (i["x2"] @ i["d2"]), dx2=i["w2"] @ i["d2"].T,  # out = x2.T @ w2
            w3=i["w3"] - i["lr"] * (i["x3"].T @ i["d3"]), dx3=i["d3"] @ i["w3"].T)
for n, w in want.items():
    got = np.load("o/%s.npy" % n)
    ok = got.shape == w.shape and np.allclose(got, w, rtol=1e-5, atol=1e-6)
    print(n, "match" if ok else "differs by %s" % np.max(np.abs(got - w)))
    assert ok, n
PY
}

# Paddle's mse_loss as users write it, mean(square(input - label)) with mean_grad, beside a loss gen-program does not
# write: a per-row sum over axis 1 with keepdim of an f64 difference, each with its own upstream gradient. Both
# chains are fused (runtime/loss_fusion.h): the losses and input gradients against numpy, and bit for bit against
# the op-by-op run (--check-finite fuses nothing).
test_fused_mse_loss_hand_written_match_numpy() {
  /usr/bin/python3 -c 'import numpy' 2> /dev/null || skip "no python3-numpy"
  cat > p.pir << 'EOF'
{
    (%1) = "pd_op.data" () {name:"x"} : () -> tensor<6x10xf32>
    (%2) = "pd_op.data" () {name:"label"} : () -> tensor<6x10xf32>
    (%3) = "pd_op.data" () {name:"g"} : () -> tensor<f32>
    (%4) = "pd_op.subtract" (%1, %2) {} : (tensor<6x10xf32>, tensor<6x10xf32>) -> tensor<6x10xf32>
    (%5) = "pd_op.square" (%4) {} : (tensor<6x10xf32>) -> tensor<6x10xf32>
    (%6) = "pd_op.mean" (%5) {axis:(pd_op.IntArray)[],keepdim:false} : (tensor<6x10xf32>) -> tensor<f32>
    (%7) = "pd_op.mean_grad" (%5, %3) {axis:(pd_op.IntArray)[],keepdim:false,reduce_all:false} : (tensor<6x10xf32>, tensor<f32>) -> tensor<6x10xf32>
    (%8) = "pd_op.square_grad" (%4, %7) {} : (tensor<6x10xf32>, tensor<6x10xf32>) -> tensor<6x10xf32>
    (%9, %10) = "pd_op.subtract_grad" (%1, %2, %8) {axis:-1} : (tensor<6x10xf32>, tensor<6x10xf32>, tensor<6x10xf32>) -> tensor<6x10xf32>, tensor<6x10xf32>
    (%11) = "pd_op.data" () {name:"y"} : () -> tensor<5x9xf64>
    (%12) = "pd_op.data" () {name:"rows"} : () -> tensor<5x1xf64>
    (%13) = "pd_op.square" (%11) {} : (tensor<5x9xf64>) -> tensor<5x9xf64>
    (%14) = "pd_op.full_int_array" () {dtype:int64,value:[1]} : () -> tensor<1xi64>
    (%15) = "pd_op.sum" (%13, %14) {dtype:float64,keepdim:true} : (tensor<5x9xf64>, tensor<1xi64>) -> tensor<5x1xf64>
    (%16) = "pd_op.sum_grad" (%13, %12, %14) {keepdim:true,reduce_all:false} : (tensor<5x9xf64>, tensor<5x1xf64>, tensor<1xi64>) -> tensor<5x9xf64>
    (%17) = "pd_op.square_grad" (%11, %16) {} : (tensor<5x9xf64>, tensor<5x9xf64>) -> tensor<5x9xf64>
    () = "builtin.shadow_output" (%6) {output_name:"mse"} : (tensor<f32>) -> 
    () = "builtin.shadow_output" (%9) {output_name:"dx"} : (tensor<6x10xf32>) -> 
    () = "builtin.shadow_output" (%10) {output_name:"dlabel"} : (tensor<6x10xf32>) -> 
    () = "builtin.shadow_output" (%15) {output_name:"row_sums"} : (tensor<5x1xf64>) -> 
    () = "builtin.shadow_output" (%17) {output_name:"dy"} : (tensor<5x9xf64>) -> 
}
EOF
  mkdir -p in
  /usr/bin/python3 - << 'PY' || fail "could not write the inputs"
import numpy as np
r = np.random.default_rng(11)
f = lambda *s: r.standard_normal(s).astype(np.float32)
for name, a in dict(x=f(6, 10), label=f(6, 10), g=np.array(0.75, np.float32), y=r.standard_normal((5, 9)),
                    rows=r.standard_normal((5, 1))).items():
    np.save("in/%s.npy" % name, a)
PY
  prun p.pir --inputs in --output-dir fused
  [ "$rc" = 0 ] || fail "pir-run: $(head -3 err)"
  grep -q '^    fused_loss_ops: 4$' fused/summary.yaml || fail "not both losses fused: $(grep fused fused/summary.yaml)"
  prun p.pir --inputs in --output-dir plain --check-finite
  [ "$rc" = 0 ] || fail "pir-run, op by op: $(head -3 err)"
  grep -q '^    fused_loss_ops: 0$' plain/summary.yaml || fail "fused beside --check-finite"
  local n
  for n in mse dx dlabel row_sums dy; do
    cmp -s fused/$n.npy plain/$n.npy || fail "$n: the fused run is not the op-by-op run bit for bit"
  done
  /usr/bin/python3 - << 'PY' > cmp.out 2>&1 || fail "against numpy: $(cat cmp.out)"
import numpy as np
i = {n: np.load("in/%s.npy" % n).astype(np.float64) for n in ["x", "label", "g", "y", "rows"]}
d = i["x"] - i["label"]
dx = 2 * d * i["g"] / d.size
want = dict(mse=np.mean(d * d), dx=dx, dlabel=-dx, row_sums=np.sum(i["y"] ** 2, axis=1, keepdims=True),
            dy=2 * i["y"] * i["rows"])
for n, w in want.items():
    got = np.load("fused/%s.npy" % n)
    ok = got.shape == np.shape(w) and np.allclose(got, w, rtol=1e-5, atol=1e-6)
    print(n, "match" if ok else "differs by %s" % np.max(np.abs(got - w)))
    assert ok, n
PY
}

# The seed program of Paddle's PR 63072 (a real dump) ends in Paddle's mse_loss: square, mean, mean_grad,
# square_grad. Split into its 2 ranks, each fuses it (runtime/loss_fusion.h) and --check compares them with the
# serial meaning, which runs op by op; the loss bit for bit against --check-finite's op-by-op run.
test_seed_mse_loss_fused_on_its_ranks() {
  prun "$SEED" --check --steps 2 --output-dir o
  [ "$rc" = 0 ] || fail "pir-run --check: $(head -3 err)"
  grep -Eq '^check: [0-9]+ tensors match' out || fail "no 'tensors match': $(cat out err)"
  [ "$(grep -c '^    fused_loss_ops: 2$' o/summary.yaml)" = 2 ] || fail "not fused on each rank: $(grep fused o/summary.yaml)"
  prun "$SEED" --output-dir fused
  [ "$rc" = 0 ] || fail "pir-run: $(head -3 err)"
  prun "$SEED" --output-dir plain --check-finite
  [ "$rc" = 0 ] || fail "pir-run --check-finite: $(head -3 err)"
  grep -q '^    fused_loss_ops: 0$' plain/summary.yaml || fail "fused beside --check-finite"
  cmp -s fused/loss_0.npy plain/loss_0.npy || fail "the fused loss is not the op-by-op loss bit for bit"
}

test_mlp_program_ops() {
  mlp p.pir --layers 2
  local op
  for op in matmul relu subtract square sum scale full_like sum_grad square_grad subtract_grad relu_grad \
    matmul_grad sgd_; do
    grep -q "\"pd_op.$op\" " p.pir || fail "no pd_op.$op"
  done
  [ "$(grep -c '"pd_op.matmul_grad" ' p.pir)" = 2 ] && [ "$(grep -c '"pd_op.sgd_" ' p.pir)" = 2 ] ||
    fail "not a matmul_grad and an sgd_ a layer"
  # the first layer's matmul_grad computes the input's gradient (a typed result 0)
  grep '"pd_op.matmul_grad" (%[0-9]*, ' p.pir | grep -q -- '-> tensor<8x16xf32>, tensor<16x16xf32>$' ||
    fail "the input's gradient is not computed"
  "$GEN" --model mlp --layers 2 --hidden 15 --batch 8 --mesh 2 > /dev/null 2> err && fail "H=15 on 2 ranks accepted"
  grep -q -- '--hidden (15) must be a multiple of 2' err || fail "no reason: $(cat err)"
  "$GEN" --model mlp --layers 2 --hidden 16 > /dev/null 2>&1 || fail "--batch has no default"
  "$GEN" --model mlp --layers 2 > /dev/null 2> err && fail "no --hidden accepted"
  return 0
}

# collectives P.pir: each rank's all_reduce count after apply-partition and split-ranks, "rank0 rank1".
collectives() {
  run "$1" --pass-pipeline=apply-partition,split-ranks --output-dir split
  [ "$rc" = 0 ] || fail "split-ranks: $(head -3 err)"
  echo "$(grep -c '"pd_op.all_reduce" ' split/rank0.pir) $(grep -c '"pd_op.all_reduce" ' split/rank1.pir)"
  grep -q '"pd_op.\(all_gather\|c_concat\|reduce_scatter\)' split/rank0.pir && fail "a collective besides all_reduce"
}

test_mlp_data_parallel() {
  mlp p.pir --layers 4 --mesh 2x1
  # mlp_torch.py's data parallel step: each weight's gradient and the loss
  [ "$(collectives p.pir)" = "5 5" ] || fail "not 4 gradients and the loss all-reduced: $(collectives p.pir)"
  # each rank's loss fused (runtime/loss_fusion.h), checked against the serial meaning, which runs op by op
  check_passes "--mesh 2x1" p.pir --steps 2 --output-dir o
  [ "$(grep -c '^    fused_loss_ops: 2$' o/summary.yaml)" = 2 ] || fail "the loss not fused on each rank under --check"
}

test_mlp_tensor_parallel() {
  mlp p.pir --layers 4 --mesh 2
  # Megatron: after each row-parallel matmul (2), the input gradient of the second column-parallel layer (1)
  [ "$(collectives p.pir)" = "3 3" ] || fail "not 3 all_reduces: $(collectives p.pir)"
  check_passes "--mesh 2" p.pir --steps 2
  # --check exports the gradients, so nothing fuses there: each rank's 4 local weight gradients fused in a run
  # without it, whose weights must be the op-by-op run's (--check-finite fuses nothing) within f32's tolerance
  prun p.pir --steps 2 --output-dir fused
  [ "$rc" = 0 ] || fail "tensor parallel, fused: $(head -3 err)"
  [ "$(grep -c '^    fused_updates: 4$' fused/summary.yaml)" = 2 ] || fail "not 4 updates fused a rank"
  [ "$(grep -c '^    fused_loss_ops: 2$' fused/summary.yaml)" = 2 ] || fail "the loss not fused on each rank"
  prun p.pir --steps 2 --output-dir plain --check-finite
  [ "$rc" = 0 ] || fail "tensor parallel, op by op: $(head -3 err)"
  grep -q '^    fused_updates: 0$' plain/summary.yaml || fail "fused beside --check-finite"
  /usr/bin/python3 - fused plain << 'PY' || fail "the fused run's weights differ from the op-by-op run's"
import glob, os, sys, numpy as np
names = [os.path.basename(f) for f in glob.glob(sys.argv[1] + "/linear_*.npy")]
assert len(names) == 4, names
for n in names:
    a, b = np.load(os.path.join(sys.argv[1], n)), np.load(os.path.join(sys.argv[2], n))
    assert np.allclose(a, b, rtol=1e-5, atol=1e-6), n
PY
  # an odd layer count ends column-parallel: gathered before the loss
  mlp q.pir --layers 3 --mesh 2
  check_passes "--mesh 2, 3 layers" q.pir
  mlp r.pir --mesh 2x2
  check_passes "--mesh 2x2" r.pir
}

cli_main
