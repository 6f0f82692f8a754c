// RUN: not pir-opt %s 2>&1 | FileCheck %s
// An operand's type must be its definition's.

// CHECK: type_mismatch.pir:[[@LINE+3]]:26: error: type of operand 0 ('%0') does not match its definition
{
    (%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[4],value:1} : () -> tensor<4xf32>
    (%1) = "pd_op.relu" (%0) {} : (tensor<4xf16>) -> tensor<4xf16>
}
