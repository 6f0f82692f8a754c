// RUN: pir-opt %s | FileCheck %s
// A pd_op.if prints its two branches in Paddle's syntax; values are numbered
// across the branches.

// CHECK:      ([[C:%[0-9]+]]) = "pd_op.less_equal"
// CHECK:      "pd_op.if" ([[C]]) {{.*}} -> pd_op.tensor<1xf32> {
// CHECK-NEXT:     "pd_op.multiply"
// CHECK-NEXT:     () = "cf.yield"
// CHECK-NEXT: } else {
// CHECK-NEXT:     "pd_op.divide"
// CHECK-NEXT:     () = "cf.yield"
// CHECK-NEXT: {{^ *}$}}
// CHECK-NEXT: "pd_op.sqrt"
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"step",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[1],stop_gradient:[true]} : () -> pd_op.tensor<1xf32>
    (%1) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"val",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[1],stop_gradient:[true]} : () -> pd_op.tensor<1xf32>
    (%2) = "pd_op.full" () {dtype:(pd_op.DataType)float32,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[],stop_gradient:[true],value:(Float)2} : () -> pd_op.tensor<f32>
    (%3) = "pd_op.less_equal" (%0, %2) {stop_gradient:[true]} : (pd_op.tensor<1xf32>, pd_op.tensor<f32>) -> pd_op.tensor<1xb>
    (%4) = "pd_op.if" (%3) {stop_gradient:[true]} -> pd_op.tensor<1xf32> {
        (%5) = "pd_op.multiply" (%1, %1) {stop_gradient:[true]} : (pd_op.tensor<1xf32>, pd_op.tensor<1xf32>) -> pd_op.tensor<1xf32>
        () = "cf.yield" (%5) {} : (pd_op.tensor<1xf32>) -> 
    } else {
        (%6) = "pd_op.divide" (%1, %0) {stop_gradient:[true]} : (pd_op.tensor<1xf32>, pd_op.tensor<1xf32>) -> pd_op.tensor<1xf32>
        () = "cf.yield" (%6) {} : (pd_op.tensor<1xf32>) -> 
    }
    (%7) = "pd_op.sqrt" (%4) {stop_gradient:[true]} : (pd_op.tensor<1xf32>) -> pd_op.tensor<1xf32>
}
