// RUN: pir-opt %s --split-input-file --pass-pipeline=fold-reshard --print-ir-after-all --pass-statistics 2>&1 -o /dev/null | FileCheck %s
// Under --split-input-file, IR dumps and statistics say which chunk (and
// the line it starts on) they belong to.

// CHECK:      // -----// IR Dump After fold-reshard (chunk 1, line 1) //----- //
// CHECK:      // -----// IR Dump After fold-reshard (chunk 2, line [[@LINE+13]]) //----- //
// CHECK:      Pass statistics report
// CHECK:      chunk 1 (line 1):
// CHECK-NEXT: fold-reshard
// CHECK-NEXT:   (S) 1 identity reshard removed
// CHECK-NEXT: chunk 2 (line [[@LINE+8]]):
// CHECK-NEXT: fold-reshard
// CHECK-NEXT:   (no changes)
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,16],stop_gradient:[true]} : () -> builtin.tensor<4x16xf32>
    (%1) = "dist_op.reshard" (%0) {} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>
    (%2) = "pd_op.relu" (%1) {stop_gradient:[false]} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>
}
// -----
{
    (%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[4],value:1} : () -> tensor<4xf32>
}
