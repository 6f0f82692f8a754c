// RUN: pir-opt %s --pass-pipeline=apply-partition > %t.once
// RUN: pir-opt %t.once --pass-pipeline=apply-partition --pass-statistics 2>&1 -o %t.twice | FileCheck %s
// RUN: diff %t.once %t.twice
// A second apply-partition finds nothing to do: its output is its input.

// CHECK:     apply-partition
// CHECK-NOT: (S)

{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},result(0):{dims_maping:[-1,-1]}},op_role:(Int32)0,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[8,16],stop_gradient:[true]} : () -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>
    (%1) = "pd_op.relu" (%0) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[-1,-1]},result(0):{dims_maping:[-1,0]}},op_role:(Int32)0,stop_gradient:[false]} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>) -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>
    (%2) = "pd_op.exp" (%1) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[-1,-1]},result(0):{dims_maping:[-1,-1]}},op_role:(Int32)0,stop_gradient:[false]} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>) -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>
    (%3) = "pd_op.gelu" (%1) {approximate:false,op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[-1,0]},result(0):{dims_maping:[-1,0]}},op_role:(Int32)0,stop_gradient:[false]} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>) -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,0]>
    () = "builtin.shadow_output" (%2) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[-1,-1]}},op_role:(Int32)0,output_name:"out_a"} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>) -> 
    () = "builtin.shadow_output" (%3) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[-1,0]}},op_role:(Int32)0,output_name:"out_b"} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,0]>) -> 
}
