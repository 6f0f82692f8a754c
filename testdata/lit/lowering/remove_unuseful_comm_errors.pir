// RUN: not pir-opt %s --pass-pipeline=remove-unuseful-comm 2>&1 | FileCheck %s
// Run alone, remove-unuseful-comm cannot know who is on ring 12 without a
// ring table (split-ranks hands it one; rings=FILE gives one).

// CHECK: error:
// CHECK-SAME: ring
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,16],stop_gradient:[true]} : () -> builtin.tensor<4x16xf32>
    (%1) = "pd_op.all_reduce" (%0) {reduce_type:0,ring_id:12,stop_gradient:[false]} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>
    () = "builtin.shadow_output" (%1) {output_name:"y"} : (builtin.tensor<4x16xf32>) -> 
}
