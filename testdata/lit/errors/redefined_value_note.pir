// RUN: not pir-opt %s 2>&1 | FileCheck %s
// A redefinition points at the first definition in a note.

// CHECK:      redefined_value_note.pir:[[@LINE+5]]:6: error: redefinition of value '%0'
// CHECK:      redefined_value_note.pir:[[@LINE+3]]:6: note: previously defined here
// CHECK-NEXT: "pd_op.full"
{
    (%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[4],value:1} : () -> tensor<4xf32>
    (%0) = "pd_op.relu" (%0) {} : (tensor<4xf32>) -> tensor<4xf32>
}
