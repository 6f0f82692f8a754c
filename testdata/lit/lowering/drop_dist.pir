// RUN: pir-opt %S/../../seeds/reshard_after.pir --pass-pipeline=drop-dist | FileCheck %s
// The serial meaning pir-run --check compares with: global dense types, the
// reshards gone (their users read their inputs), no op_dist_attr.

// CHECK-NOT:   pd_dist.tensor
// CHECK-NOT:   dist_op.reshard
// CHECK-NOT:   op_dist_attr
// CHECK:       "pd_op.matmul" ({{%[0-9]+}}, {{%[0-9]+}}) {{.*}} -> builtin.tensor<4x8xf32>
// CHECK:       "pd_op.sgd_"
