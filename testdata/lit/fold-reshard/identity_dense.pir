// RUN: pir-opt %s --pass-pipeline=fold-reshard | FileCheck %s
// A reshard between two identical dense types is an identity: it goes, and
// its consumer reads the reshard's input.

// CHECK:     ([[X:%[0-9]+]]) = "pd_op.data"
// CHECK-NOT: dist_op.reshard
// CHECK:     "pd_op.relu" ([[X]])
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,16],stop_gradient:[true]} : () -> builtin.tensor<4x16xf32>
    (%1) = "dist_op.reshard" (%0) {} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>
    (%2) = "pd_op.relu" (%1) {stop_gradient:[false]} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>
}
