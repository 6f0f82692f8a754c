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
  /usr/bin/python3 "$TORCH_REF" compare $SIZES --inputs in p.pir dump fused > cmp.out 2>&1 ||
    fail "fused, against PyTorch: $(cat cmp.out)"
  [ "$(grep -c '^weights after the step: 3 match' cmp.out)" = 2 ] || fail "fused: not compared: $(cat cmp.out)"
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
  check_passes "--mesh 2x1" p.pir --steps 2
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
