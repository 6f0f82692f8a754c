#!/usr/bin/env bash
# gen-program --model llama (issue 30): the Llama training step in every layout, read and split by pir-opt, run by
# pir-run --check in process (under mpirun: cli_run_llama_mpi_test.sh), and its dense run against the same step in
# PyTorch (scripts/llama_torch.py). Tiny sizes (llama_lib.sh). See cli_lib.sh for the driver.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
source "$HERE/llama_lib.sh"
TORCH_REF=$HERE/../../scripts/llama_torch.py

test_llama_programs_read_and_round_trip() {
  local m
  for m in "" "--mesh 1" "--mesh 2" "--mesh 2x2" "--mesh 2 --attention decomposed" "--attention decomposed" \
    "--mesh 2 --stages 2" "--mesh 2 --stages 2 --vpp 2 --layers 4" "--stages 2"; do
    llama p.pir $m
    run p.pir
    [ "$rc" = 0 ] || fail "does not verify ($m): $(head -3 err)"
    cmp -s out p.pir || fail "does not print back byte for byte ($m)"
  done
  # the newest era: bare numbers, process_ids in every type, chunk_id inside op_dist_attr
  llama p.pir --mesh 2 --stages 2
  grep -q 'epsilon:1e-06' p.pir && ! grep -q '(Float)' p.pir || fail "numbers are not bare"
  grep -q 'process_ids:\[2,3\],dims_mappings' p.pir || fail "no process_ids in a stage-1 type"
  grep -q ',chunk_id:0},op_role:0' p.pir || fail "no chunk_id inside op_dist_attr"
}

test_llama_program_ops() {
  # What a Llama step is made of, as PaddleNLP's auto-parallel Llama prints it.
  llama p.pir
  local op
  for op in embedding rms_norm matmul reshape slice fused_rotary_position_embedding flash_attn add swiglu \
    cross_entropy_with_softmax mean cross_entropy_with_softmax_grad matmul_grad rms_norm_grad swiglu_grad add_grad \
    add_n reshape_grad flash_attn_grad fused_rotary_position_embedding_grad embedding_grad adamw_; do
    grep -q "\"pd_op.$op\" " p.pir || fail "no pd_op.$op"
  done
  # rope reads each layer's cos/sin cache (a builtin.parameter, sliced to the sequence) as PaddleNLP passes them;
  # a value's grads are summed by add_n over a builtin.combine (4 per layer), never by add
  [ "$(grep -c 'parameter_name:"llama.layers.[0-9]*.self_attn.rotary_emb.\(cos\|sin\)_cached",persistable:\[true\],stop_gradient:\[true\]' p.pir)" = 4 ] ||
    fail "not 2 layers x cos, sin caches"
  grep '"pd_op.fused_rotary_position_embedding\(_grad\)\?" ' p.pir | grep -q '<<NULL VALUE>>, <<NULL VALUE>>, <<NULL VALUE>>' &&
    fail "a rope without its sin and cos"
  [ "$(grep -c '"pd_op.add_n" ' p.pir)" = 8 ] && [ "$(grep -c '"builtin.combine" ' p.pir)" = 8 ] ||
    fail "$(grep -c '"pd_op.add_n" ' p.pir) add_n, not 8"
  [ "$(grep -c '"pd_op.add" ' p.pir)" = 4 ] || fail "$(grep -c '"pd_op.add" ' p.pir) add, not the 2 x 2 residuals"
  # 2 layers x 9 weights, the embedding, the final norm, the lm head: one adamw_ each, epsilon 1e-6
  [ "$(grep -c '"pd_op.adamw_" ' p.pir)" = 21 ] || fail "$(grep -c '"pd_op.adamw_" ' p.pir) adamw_, not 21"
  grep '"pd_op.adamw_" ' p.pir | grep -vq 'epsilon:1e-06' && fail "an adamw_ without epsilon 1e-6"
  llama d.pir --attention decomposed
  for op in transpose scale triu softmax softmax_grad transpose_grad; do
    grep -q "\"pd_op.$op\" " d.pir || fail "decomposed: no pd_op.$op"
  done
  ! grep -q '"pd_op.flash_attn' d.pir || fail "decomposed: a flash_attn"
}

test_llama_layout_megatron() {
  # q/k/v/gate/up column-parallel, o/down row-parallel, the embedding vocab-sharded, the batch over dp
  llama p.pir --mesh 2x2
  grep -q 'parameter_name:"llama.layers.0.self_attn.q_proj.weight".*-> pd_dist.tensor<16x16xf32, mesh_shape:\[2,2\],process_ids:\[0,1,2,3\],dims_mappings:\[-1,1\]>' p.pir ||
    fail "q_proj is not column-parallel"
  grep -q 'parameter_name:"llama.layers.0.mlp.down_proj.weight".*dims_mappings:\[1,-1\]>$' p.pir ||
    fail "down_proj is not row-parallel"
  grep -q 'parameter_name:"llama.embed_tokens.weight".*-> pd_dist.tensor<32x16xf32, .*dims_mappings:\[1,-1\]>$' p.pir ||
    fail "the embedding is not vocab-sharded"
  grep -q 'name:"input_ids".*dims_mappings:\[0,-1\]>$' p.pir || fail "the batch is not over dp"
  # split per rank: the embedding on a vocab shard becomes c_embedding at the rank's first row
  run p.pir --pass-pipeline=apply-partition,split-ranks --pass-statistics --output-dir split
  [ "$rc" = 0 ] || fail "split-ranks: $(head -3 err)"
  grep -q 'vocab-parallel embeddings made c_embedding' err || fail "no c_embedding made: $(cat err)"
  grep -q '"pd_op.c_embedding" .*start_index:0,' split/rank0.pir || fail "rank 0 does not start at row 0"
  grep -q '"pd_op.c_embedding" .*start_index:16,' split/rank1.pir || fail "rank 1 does not start at row 16"
  grep -q '"pd_op.c_embedding_grad" .*start_index:16,' split/rank3.pir || fail "rank 3's grad does not start at 16"
  ! grep -q '"pd_op.embedding' split/rank2.pir || fail "an embedding left on rank 2"
}

test_llama_stages_crossings() {
  # No op marks a crossing: apply-partition inserts the cross-mesh reshards, pipeline-split cuts each stage.
  llama p.pir --mesh 2 --stages 2
  ! grep -q '"pd_op.assign"' p.pir || fail "an assign marks a crossing"
  run p.pir --pass-pipeline=apply-partition --pass-statistics -o /dev/null
  grep -q 'cross-mesh' err || fail "no cross-mesh reshard: $(cat err)"
  local mode
  for mode in "mode=1F1B" "mode=ZBH1"; do
    run p.pir "--pass-pipeline=apply-partition,split-ranks,gradient-merge{k=4 avg=true},pipeline-split{$mode}" \
      --output-dir "d$mode"
    [ "$rc" = 0 ] || fail "pipeline-split $mode: $(head -3 err)"
  done
  llama v.pir --mesh 2 --stages 2 --vpp 2 --layers 4
  run v.pir "--pass-pipeline=apply-partition,split-ranks,gradient-merge{k=4 avg=true},pipeline-split{mode=VPP vpp=2}" \
    --output-dir dv
  [ "$rc" = 0 ] || fail "pipeline-split VPP: $(head -3 err)"
}

test_llama_generator_refuses() {
  "$GEN" --model llama --layers 2 --hidden 16 --heads 3 --seq 8 --vocab 32 > /dev/null 2> err &&
    fail "heads not dividing hidden accepted"
  grep -q 'multiple of --heads' err || fail "no reason: $(cat err)"
  "$GEN" --model llama $SIZES --mesh 4 > /dev/null 2> err && fail "2 heads on 4 ranks accepted"
  grep -q -- '--heads (2) must be a multiple of 4' err || fail "no reason: $(cat err)"
  "$GEN" --model llama $SIZES --stages 2 --vpp 2 > /dev/null 2> err && fail "2 layers on 4 groups accepted"
  "$GEN" --model llama --layers 2 > /dev/null 2> err && fail "no --hidden accepted"
  return 0
}

test_llama_check_one_rank() {
  llama p.pir --mesh 1
  inputs in 2
  prun p.pir --inputs in --check
  check_ok
  # dense: its own serial meaning, so run twice and compared bit for bit
  llama d.pir
  prun d.pir --inputs in --check-determinism
  [ "$rc" = 0 ] && grep -Eq '^check: [0-9]+ tensors match' out || fail "dense --check-determinism: $(cat out err)"
}

test_llama_check_mesh2() {
  llama p.pir --mesh 2
  inputs in 2
  prun p.pir --inputs in --check
  check_ok
  llama d.pir --mesh 2 --attention decomposed
  prun d.pir --inputs in --check
  check_ok
}

test_llama_check_uneven_vocab_and_mlp() {
  # a vocabulary of 33 (rows 0-16 and 17-32) and an MLP width of 45 (23 and 22 columns) on 2 ranks
  llama p.pir --mesh 2 --vocab 33 --intermediate 45
  inputs in 2 --vocab 33 --intermediate 45
  prun p.pir --inputs in --check
  check_ok
  run p.pir --pass-pipeline=apply-partition,split-ranks --output-dir split
  [ "$rc" = 0 ] || fail "split-ranks: $(head -3 err)"
  grep -q '"pd_op.c_embedding" .*start_index:17,' split/rank1.pir || fail "rank 1 does not start at row 17"
  grep -q 'parameter_name:"llama.layers.0.mlp.up_proj.weight".*-> builtin.tensor<16x22xf32>' split/rank1.pir ||
    fail "rank 1's up_proj is not 16x22"
}

test_llama_check_mesh2x2() {
  llama p.pir --mesh 2x2
  inputs in 2
  prun p.pir --inputs in --check
  check_ok
}

test_llama_check_pipelines() {
  # --mesh 2 --stages 2: tensor parallel inside each of two stages, 4 micro-batches
  llama p.pir --mesh 2 --stages 2
  inputs in 8
  local mode
  for mode in 1F1B ZBH1; do
    prun p.pir --inputs in --mode $mode --micro-batches 4 --check --timeout 20
    check_ok
  done
  llama v.pir --mesh 2 --stages 2 --vpp 2 --layers 4
  inputs iv 8 --layers 4
  prun v.pir --inputs iv --mode VPP --vpp 2 --micro-batches 4 --check --timeout 20
  check_ok
}

test_llama_matches_pytorch() {
  /usr/bin/python3 -c 'import torch, numpy' 2> /dev/null || skip "no python3-torch"
  local a cases=()
  inputs in 3
  for a in flash decomposed; do
    llama $a.pir --attention $a --batch 3
    prun $a.pir --inputs in --dump-values dump-$a --output-dir o-$a
    [ "$rc" = 0 ] || fail "pir-run ($a): $(head -3 err)"
    cases+=(--case $a $a.pir dump-$a o-$a)
  done
  /usr/bin/python3 "$TORCH_REF" compare $SIZES --batch 3 --inputs in "${cases[@]}" > cmp.out 2>&1 ||
    fail "against PyTorch: $(cat cmp.out)"
  [ "$(grep -c '^loss: 1 match' cmp.out)" = 2 ] && [ "$(grep -c '^gradients: 21 match' cmp.out)" = 2 ] &&
    [ "$(grep -c '^parameters and moments: 63 match' cmp.out)" = 2 ] ||
    fail "not every loss, gradient and parameter compared: $(cat cmp.out)"
}

cli_main
