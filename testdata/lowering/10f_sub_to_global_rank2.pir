// RUN: pir-opt %s --pass-pipeline=lower-reshard{rank=2}
// RULE: the same, rank 2: share_data_ of its value, then the broadcast
{
    (%0) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],op_dist_attr:{mesh:{shape:[1],process_ids:[2]},result(0):{mesh_shape:[1],process_ids:[2],dims_mappings:[-1,-1]},chunk_id:0},parameter_name:"w0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> pd_dist.tensor<4x4xf32, mesh_shape:[1],process_ids:[2],dims_mappings:[-1,-1]>
    (%1) = "dist_op.reshard" (%0) {op_dist_attr:{mesh:{shape:[2],process_ids:[1,2]},operand(0):{mesh_shape:[1],process_ids:[2],dims_mappings:[-1,-1]},result(0):{mesh_shape:[2],process_ids:[1,2],dims_mappings:[-1,-1]},chunk_id:0}} : (pd_dist.tensor<4x4xf32, mesh_shape:[1],process_ids:[2],dims_mappings:[-1,-1]>) -> pd_dist.tensor<4x4xf32, mesh_shape:[2],process_ids:[1,2],dims_mappings:[-1,-1]>
    () = "builtin.shadow_output" (%1) {op_dist_attr:{mesh:{shape:[2],process_ids:[1,2]},operand(0):{mesh_shape:[2],process_ids:[1,2],dims_mappings:[-1,-1]},chunk_id:0},output_name:"out"} : (pd_dist.tensor<4x4xf32, mesh_shape:[2],process_ids:[1,2],dims_mappings:[-1,-1]>) -> 
}
