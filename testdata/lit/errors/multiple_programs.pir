// RUN: not pir-opt %s 2>&1 | FileCheck %s
// RUN: pir-opt %s --split-input-file | FileCheck %s --check-prefix=SPLIT
// Two programs need --split-input-file.

// CHECK:     multiple_programs.pir:[[@LINE+8]]:1: error: multiple programs; use --split-input-file
// SPLIT:      "pd_op.full"
// SPLIT-NEXT: {{^}$}}
// SPLIT-NEXT: // -----
{
    (%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[4],value:1} : () -> tensor<4xf32>
}
// -----
{
    (%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[4],value:1} : () -> tensor<4xf32>
}
