// RUN: pir-opt %s --pass-pipeline=apply-partition,fold-reshard,fold-reshard,split-matmul-grad --print-ir-after-change -o /dev/null 2>&1 | FileCheck %s
// --print-ir-after-change dumps only after the passes that changed the IR
// (its structural fingerprint): the first fold-reshard, not apply-partition
// (nothing to partition), the second fold-reshard or split-matmul-grad.

// CHECK-NOT:  IR Dump After apply-partition
// CHECK:      // -----// IR Dump After fold-reshard //----- //
// CHECK-NEXT: {
// CHECK-NEXT:     "pd_op.data"
// CHECK-NEXT:     "pd_op.relu"
// CHECK-NEXT: {{^}$}}
// CHECK-NOT:  IR Dump
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,16],stop_gradient:[true]} : () -> builtin.tensor<4x16xf32>
    (%1) = "dist_op.reshard" (%0) {} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>
    (%2) = "pd_op.relu" (%1) {stop_gradient:[false]} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>
}
