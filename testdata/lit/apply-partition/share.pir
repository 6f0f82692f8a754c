// RUN: pir-opt %s --pass-pipeline='apply-partition{share=true}' | FileCheck %s
// RUN: pir-opt %s --pass-pipeline=apply-partition | FileCheck %s --check-prefix=NOSHARE
// share=true: consumers needing one value in one attr share one reshard,
// placed before the pd_op.if that holds some of them.

// CHECK:      ([[X:%[0-9]+]]) = "pd_op.data" {{.*}}name:"x"
// CHECK:      ([[S:%[0-9]+]]) = "dist_op.reshard" ([[X]])
// CHECK-NEXT: "pd_op.if"
// CHECK-NEXT:     "pd_op.relu" ([[S]])
// CHECK:      } else {
// CHECK-NEXT:     "pd_op.exp" ([[S]])
// CHECK:      "pd_op.gelu" ([[S]])

// NOSHARE:     "pd_op.if"
// NOSHARE-NEXT:  dist_op.reshard
// NOSHARE-NEXT:  "pd_op.relu"

{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]},chunk_id:0},op_role:0,place:Place(undefined:0),shape:[4,8],stop_gradient:[true]} : () -> pd_dist.tensor<4x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]>
    (%1) = "pd_op.data" () {dtype:bool,name:"flag",op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1]},chunk_id:0},op_role:0,place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> pd_dist.tensor<1xb, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1]>
    (%2) = "pd_op.if" (%1) {stop_gradient:[false]} -> pd_dist.tensor<4x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]> {
        (%3) = "pd_op.relu" (%0) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]},chunk_id:0},op_role:0,stop_gradient:[false]} : (pd_dist.tensor<4x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]>) -> pd_dist.tensor<4x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]>
        (%4) = "pd_op.tanh" (%0) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]},chunk_id:0},op_role:0,stop_gradient:[false]} : (pd_dist.tensor<4x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]>) -> pd_dist.tensor<4x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]>
        (%5) = "pd_op.sigmoid" (%0) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]},chunk_id:0},op_role:0,stop_gradient:[false]} : (pd_dist.tensor<4x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]>) -> pd_dist.tensor<4x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]>
        (%6) = "pd_op.multiply" (%4, %5) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]},operand(1):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]},chunk_id:0},op_role:0,stop_gradient:[false]} : (pd_dist.tensor<4x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]>, pd_dist.tensor<4x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]>) -> pd_dist.tensor<4x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]>
        (%7) = "pd_op.add" (%3, %6) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]},operand(1):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]},chunk_id:0},op_role:0,stop_gradient:[false]} : (pd_dist.tensor<4x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]>, pd_dist.tensor<4x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]>) -> pd_dist.tensor<4x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]>
        () = "cf.yield" (%7) {} : (pd_dist.tensor<4x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]>) -> 
    } else {
        (%8) = "pd_op.exp" (%0) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]},chunk_id:0},op_role:0,stop_gradient:[false]} : (pd_dist.tensor<4x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]>) -> pd_dist.tensor<4x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]>
        () = "cf.yield" (%8) {} : (pd_dist.tensor<4x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]>) -> 
    }
    (%9) = "pd_op.gelu" (%0) {approximate:false,op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]},chunk_id:0},op_role:0,stop_gradient:[false]} : (pd_dist.tensor<4x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]>) -> pd_dist.tensor<4x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]>
    () = "builtin.shadow_output" (%2) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]},chunk_id:0},op_role:0,output_name:"out"} : (pd_dist.tensor<4x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]>) -> 
    () = "builtin.shadow_output" (%9) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]},chunk_id:0},op_role:0,output_name:"out_gelu"} : (pd_dist.tensor<4x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]>) -> 
}
