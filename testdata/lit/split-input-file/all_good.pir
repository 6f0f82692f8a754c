// RUN: pir-opt %s --split-input-file | FileCheck %s
// Chunks that all succeed print, each after its marker line as it was read.

// CHECK:      "pd_op.full" () {{.*}}value:1}
// CHECK-NEXT: {{^}$}}
// CHECK-NEXT: // ----- job: b
// CHECK-NEXT: {
// CHECK-NEXT:     "pd_op.full" () {{.*}}value:2}
// CHECK-NEXT: {{^}$}}
// CHECK-NEXT: // -----
// CHECK-NEXT: {
// CHECK-NEXT:     "pd_op.full" () {{.*}}value:3}
{
    (%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[4],value:1} : () -> tensor<4xf32>
}
// ----- job: b
{
    (%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[4],value:2} : () -> tensor<4xf32>
}
// -----
{
    (%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[4],value:3} : () -> tensor<4xf32>
}
