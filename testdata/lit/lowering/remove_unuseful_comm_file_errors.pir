// RUN: printf 'version: 1\nworld_size: 2\nranks: [0, 1]\nrings:\n  - {id: 13, ranks: [0, 1]}\nvalues: []\n' > %t.yaml
// RUN: not pir-opt %s --pass-pipeline='remove-unuseful-comm{rings=%t.yaml}' 2>&1 | FileCheck %s
// A ranks.yaml given with rings=FILE may lack a ring the program uses, even
// when no ring of it holds one rank and no op is a share_data_: the pass
// still walks and says where (only split-ranks' own table holds every ring).

// CHECK: remove_unuseful_comm_file_errors.pir:[[# @LINE + 4]]:5: error: op 'pd_op.all_reduce' is on ring 12, which the ring table lacks
// CHECK-NOT: error:
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,16],stop_gradient:[true]} : () -> builtin.tensor<4x16xf32>
    (%1) = "pd_op.all_reduce" (%0) {reduce_type:0,ring_id:12,stop_gradient:[false]} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>
    (%2) = "pd_op.all_reduce" (%1) {reduce_type:0,ring_id:13,stop_gradient:[false]} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>
    () = "builtin.shadow_output" (%2) {output_name:"y"} : (builtin.tensor<4x16xf32>) -> 
}
