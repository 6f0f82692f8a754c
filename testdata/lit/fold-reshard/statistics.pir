// RUN: pir-opt %s --pass-pipeline=fold-reshard --pass-statistics -o /dev/null 2>&1 | FileCheck %s
// --pass-statistics says what each pass changed.

// CHECK:      Pass statistics report
// CHECK:      fold-reshard
// CHECK-NEXT:   (S) 1 identity reshard removed
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,16],stop_gradient:[true]} : () -> builtin.tensor<4x16xf32>
    (%1) = "dist_op.reshard" (%0) {} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>
    (%2) = "pd_op.relu" (%1) {stop_gradient:[false]} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>
}
