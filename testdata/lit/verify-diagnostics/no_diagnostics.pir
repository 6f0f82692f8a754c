// RUN: pir-opt %s --verify-diagnostics | FileCheck %s
// A good program has nothing to verify and prints as ever.

// CHECK: "pd_op.full"
{
    (%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[4],value:1} : () -> tensor<4xf32>
}
