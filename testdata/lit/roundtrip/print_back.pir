// RUN: pir-opt %s | FileCheck %s
// Parse, verify and print: the program comes back as Paddle prints it, and
// the comments (these RUN and CHECK lines) are not printed.

// CHECK-LABEL: {
// CHECK-NEXT:  [[X:%[0-9]+]]) = "pd_op.data" ()
// CHECK-SAME:  name:"x"
// CHECK-NEXT:  ([[R:%[0-9]+]]) = "pd_op.relu" ([[X]])
// CHECK-NEXT:  "pd_op.exp" ([[R]])
// CHECK-NEXT:  {{^}$}}
// CHECK-NOT:   {{RUN}}:
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,16],stop_gradient:[true]} : () -> builtin.tensor<4x16xf32>
    (%1) = "pd_op.relu" (%0) {stop_gradient:[false]} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>  // a trailing comment
    // a comment line between ops
    (%2) = "pd_op.exp" (%1) {stop_gradient:[false]} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>
}
