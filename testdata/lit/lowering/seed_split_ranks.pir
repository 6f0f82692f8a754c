// RUN: pir-opt %S/../../seeds/reshard_before.pir --pass-pipeline='apply-partition,split-ranks' | FileCheck %s
// RUN: pir-opt %S/../../seeds/reshard_before.pir --pass-pipeline='apply-partition,lower-reshard{rank=1},partition-rank{rank=1},dist-to-dense{rank=1}' | FileCheck %s --check-prefix=RANK1
// The seed through apply-partition and split-ranks: one dense program per
// rank, each partial matmul result summed by an all_reduce on ring 12, no
// dist type or reshard left.

// CHECK-LABEL: // ----- job: rank0
// CHECK-NOT:   pd_dist.tensor
// CHECK:       ([[MM:%[0-9]+]]) = "pd_op.matmul" ({{%[0-9]+}}, %1)
// CHECK-NEXT:  ([[AR:%[0-9]+]]) = "pd_op.all_reduce" ([[MM]]) {reduce_type:(Int32)0,ring_id:(Int32)12,
// CHECK-NEXT:  ({{%[0-9]+}}) = "pd_op.relu" ([[AR]])
// CHECK-NOT:   dist_op.reshard
// CHECK:       "pd_op.sgd_"
// CHECK-LABEL: // ----- job: rank1
// CHECK-NOT:   pd_dist.tensor
// CHECK:       "pd_op.all_reduce"
// CHECK-SAME:  ring_id:(Int32)12

// RANK1-NOT:   pd_dist
// RANK1-NOT:   op_dist_attr
// RANK1:       "pd_op.all_reduce" ({{%[0-9]+}}) {reduce_type:(Int32)0,ring_id:(Int32)12,
// RANK1-NOT:   dist_op.reshard
