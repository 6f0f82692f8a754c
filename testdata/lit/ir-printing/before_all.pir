// RUN: pir-opt %s --pass-pipeline=fold-reshard,apply-partition --print-ir-before-all -o /dev/null 2>&1 | FileCheck %s
// --print-ir-before-all dumps the IR before every pass, on stderr.

// CHECK:      // -----// IR Dump Before fold-reshard //----- //
// CHECK-NEXT: {
// CHECK-NEXT:     "pd_op.data"
// CHECK-NEXT:     "dist_op.reshard"
// CHECK:      // -----// IR Dump Before apply-partition //----- //
// CHECK-NEXT: {
// CHECK-NEXT:     "pd_op.data"
// CHECK-NEXT:     "pd_op.relu"
// CHECK-NOT:  IR Dump
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,16],stop_gradient:[true]} : () -> builtin.tensor<4x16xf32>
    (%1) = "dist_op.reshard" (%0) {} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>
    (%2) = "pd_op.relu" (%1) {stop_gradient:[false]} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>
}
