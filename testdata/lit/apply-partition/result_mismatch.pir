// RUN: pir-opt %s --pass-pipeline=apply-partition | FileCheck %s
// A result whose type disagrees with its op's attr is retyped; a reshard
// back goes right after the op and takes the other uses.

// CHECK:      ([[R:%[0-9]+]]) = "pd_op.relu" {{.*}}replace_all_uses_with_reshard_var:true
// CHECK-NEXT: ([[B:%[0-9]+]]) = "dist_op.reshard" ([[R]])
// CHECK-NEXT: "pd_op.exp" ([[B]])
// CHECK-NEXT: "pd_op.gelu" ([[R]])

{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},result(0):{dims_maping:[-1,-1]}},op_role:(Int32)0,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[8,16],stop_gradient:[true]} : () -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>
    (%1) = "pd_op.relu" (%0) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[-1,-1]},result(0):{dims_maping:[-1,0]}},op_role:(Int32)0,stop_gradient:[false]} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>) -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>
    (%2) = "pd_op.exp" (%1) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[-1,-1]},result(0):{dims_maping:[-1,-1]}},op_role:(Int32)0,stop_gradient:[false]} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>) -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>
    (%3) = "pd_op.gelu" (%1) {approximate:false,op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[-1,0]},result(0):{dims_maping:[-1,0]}},op_role:(Int32)0,stop_gradient:[false]} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>) -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,0]>
    () = "builtin.shadow_output" (%2) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[-1,-1]}},op_role:(Int32)0,output_name:"out_a"} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>) -> 
    () = "builtin.shadow_output" (%3) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[-1,0]}},op_role:(Int32)0,output_name:"out_b"} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,0]>) -> 
}
