// RUN: pir-opt %s --pass-pipeline=lower-reshard{rank=0}
// RULE: GlobalToSubMesh: [0,1] S(0) -> [0] R: all_gather on [0,1] (NdMesh to replicated), then share_data_ onto [0]
{
    (%0) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]},chunk_id:0},parameter_name:"w0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> pd_dist.tensor<8x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]>
    (%1) = "dist_op.reshard" (%0) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]},result(0):{mesh_shape:[1],process_ids:[0],dims_mappings:[-1,-1]},chunk_id:0}} : (pd_dist.tensor<8x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]>) -> pd_dist.tensor<8x8xf32, mesh_shape:[1],process_ids:[0],dims_mappings:[-1,-1]>
    () = "builtin.shadow_output" (%1) {op_dist_attr:{mesh:{shape:[1],process_ids:[0]},operand(0):{mesh_shape:[1],process_ids:[0],dims_mappings:[-1,-1]},chunk_id:0},output_name:"out"} : (pd_dist.tensor<8x8xf32, mesh_shape:[1],process_ids:[0],dims_mappings:[-1,-1]>) -> 
}
