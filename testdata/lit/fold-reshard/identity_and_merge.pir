// RUN: pir-opt %s --pass-pipeline=fold-reshard | FileCheck %s
// An identity reshard goes (its uses read its input); a second reshard of
// one value to one type merges into the first; a reshard to another type
// stays.

// CHECK-LABEL: {
// CHECK-NEXT:  ([[X:%[0-9]+]]) = "pd_op.data"
// CHECK-NEXT:  ([[R:%[0-9]+]]) = "dist_op.reshard" ([[X]])
// CHECK-NEXT:  "pd_op.relu" ([[R]])
// CHECK-NEXT:  "pd_op.gelu" ([[R]])
// CHECK-NEXT:  "pd_op.tanh" ([[X]])
// CHECK-NEXT:  ([[S:%[0-9]+]]) = "dist_op.reshard" ([[X]])
// CHECK-NEXT:  "pd_op.exp" ([[S]])
// CHECK-NOT:   dist_op.reshard

{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},result(0):{dims_maping:[0,-1]}},place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[8,16],stop_gradient:[true]} : () -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[0,-1]>
    (%1) = "dist_op.reshard" (%0) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[0,-1]},result(0):{dims_maping:[-1,-1]}}} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[0,-1]>) -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>
    (%2) = "pd_op.relu" (%1) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[-1,-1]},result(0):{dims_maping:[-1,-1]}},stop_gradient:[false]} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>) -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>
    (%3) = "dist_op.reshard" (%0) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[0,-1]},result(0):{dims_maping:[-1,-1]}}} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[0,-1]>) -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>
    (%4) = "pd_op.gelu" (%3) {approximate:false,op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[-1,-1]},result(0):{dims_maping:[-1,-1]}},stop_gradient:[false]} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>) -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>
    (%5) = "dist_op.reshard" (%0) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[0,-1]},result(0):{dims_maping:[0,-1]}}} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[0,-1]>) -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[0,-1]>
    (%6) = "pd_op.tanh" (%5) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[0,-1]},result(0):{dims_maping:[0,-1]}},stop_gradient:[false]} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[0,-1]>) -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[0,-1]>
    (%7) = "dist_op.reshard" (%0) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[0,-1]},result(0):{dims_maping:[-1,0]}}} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[0,-1]>) -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,0]>
    (%8) = "pd_op.exp" (%7) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[-1,0]},result(0):{dims_maping:[-1,0]}},stop_gradient:[false]} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,0]>) -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,0]>
    () = "builtin.shadow_output" (%2) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[-1,-1]}},output_name:"out_a"} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>) -> 
    () = "builtin.shadow_output" (%4) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[-1,-1]}},output_name:"out_b"} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>) -> 
    () = "builtin.shadow_output" (%6) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[0,-1]}},output_name:"out_c"} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[0,-1]>) -> 
    () = "builtin.shadow_output" (%8) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[-1,0]}},output_name:"out_d"} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,0]>) -> 
}
