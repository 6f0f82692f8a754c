#!/usr/bin/env bash
# Rebuilds the fixtures of this folder (see README.md): each DIR is pir-opt's --output-dir of a
# testdata/pipeline_shapes case split for one mode, plus DIR/schedule.yaml.
#   PIR_OPT=/path/to/pir-opt bash testdata/comm_check/make.sh
# The committed fixtures were made with main at 6be8ba4.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
shapes=$here/../pipeline_shapes
PIR_OPT=${PIR_OPT:-$here/../../build/app/pir-opt}

# fixture DIR CASE N PIPELINE SCHEDULE_ARGS...
fixture() {
  local dir=$here/$1 case=$shapes/$2.pir n=$3 pipeline=$4
  shift 4
  rm -rf "$dir"
  "$PIR_OPT" "$case" --output-dir "$dir" "--pass-pipeline=$pipeline"
  "$PIR_OPT" schedule "$@" --micro-batches "$n" -o "$dir/schedule.yaml"
}

fixture case1_zbh1 01_backward_reads_forward 2 \
  'apply-partition,split-ranks,gradient-merge{k=2 avg=true},pipeline-split{mode=ZBH1}' --mode ZBH1 --stages 2
fixture case1_1f1b 01_backward_reads_forward 2 \
  'apply-partition,split-ranks,gradient-merge{k=2 avg=true},pipeline-split{mode=1F1B}' --mode 1F1B --stages 2
fixture case3_vpp_share 02_three_stage_residual_vpp 6 \
  'apply-partition{share=true},split-ranks,gradient-merge{k=6 avg=true},pipeline-split{mode=VPP vpp=2}' \
  --mode VPP --stages 3 --vpp 2
fixture case5_1f1b_reordered 05_three_stage_1f1b 3 \
  'apply-partition,split-ranks,gradient-merge{k=3 avg=true},pipeline-split{mode=1F1B}' --mode 1F1B --stages 3
# The hand edit: stage 0 runs micro-batch 1's forward before micro-batch 0's.
s=$here/case5_1f1b_reordered/schedule.yaml
from='"recv_forward:0", "forward:0", "recv_forward:1", "forward:1"'
to='"recv_forward:1", "forward:1", "recv_forward:0", "forward:0"'
sed -i "0,/$from/s//$to/" "$s"
grep -q "jobs: \[$to" "$s" || { echo "make.sh: the schedule edit did not apply" >&2; exit 1; }
