// RUN: pir-opt %s | FileCheck %s
// Values are renumbered from 0 in print order, as Paddle numbers them.

// CHECK:      (%0) = "pd_op.data"
// CHECK-NEXT: (%1) = "pd_op.relu" (%0)
// CHECK-NEXT: (%2) = "pd_op.exp" (%1)
// CHECK-NOT:  %7
{
    (%7) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4],stop_gradient:[true]} : () -> builtin.tensor<4xf32>
    (%9) = "pd_op.relu" (%7) {stop_gradient:[false]} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    (%12) = "pd_op.exp" (%9) {stop_gradient:[false]} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
}
