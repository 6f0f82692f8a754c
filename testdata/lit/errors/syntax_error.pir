// RUN: not pir-opt %s 2>&1 | FileCheck %s
// A syntax error is located (file:line:col, the line, a caret) and the
// run fails with nothing on stdout.

// CHECK:      syntax_error.pir:[[@LINE+6]]:26: error: unexpected character '@'
// CHECK-NEXT: {{^}}    (%1) = "pd_op.relu" (@0) {} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: {{^                         \^$}}
// CHECK-NOT:  pd_op.full
{
    (%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[4],value:1} : () -> tensor<4xf32>
    (%1) = "pd_op.relu" (@0) {} : (tensor<4xf32>) -> tensor<4xf32>
}
