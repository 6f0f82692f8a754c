// RUN: pir-opt %s --pass-pipeline=lower-reshard{rank=2}
// RULE: GlobalToSubMesh: [[0,1],[2,3]] S(0) on mesh dim 1 -> R on its sub-mesh [2,3]: all_gather on [2,3] (NdMesh to replicated), then share_data_ onto [2,3]
{
    (%0) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],op_dist_attr:{mesh:{shape:[2,2],process_ids:[0,1,2,3]},result(0):{mesh_shape:[2,2],process_ids:[0,1,2,3],dims_mappings:[1,-1]},chunk_id:0},parameter_name:"w0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> pd_dist.tensor<4x4xf32, mesh_shape:[2,2],process_ids:[0,1,2,3],dims_mappings:[1,-1]>
    (%1) = "dist_op.reshard" (%0) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{mesh_shape:[2,2],process_ids:[0,1,2,3],dims_mappings:[1,-1]},result(0):{mesh_shape:[2],process_ids:[2,3],dims_mappings:[-1,-1]},chunk_id:0}} : (pd_dist.tensor<4x4xf32, mesh_shape:[2,2],process_ids:[0,1,2,3],dims_mappings:[1,-1]>) -> pd_dist.tensor<4x4xf32, mesh_shape:[2],process_ids:[2,3],dims_mappings:[-1,-1]>
    () = "builtin.shadow_output" (%1) {op_dist_attr:{mesh:{shape:[2],process_ids:[2,3]},operand(0):{mesh_shape:[2],process_ids:[2,3],dims_mappings:[-1,-1]},chunk_id:0},output_name:"out"} : (pd_dist.tensor<4x4xf32, mesh_shape:[2],process_ids:[2,3],dims_mappings:[-1,-1]>) -> 
}
