// RUN: pir-opt %s --pass-pipeline=lower-reshard{rank=0}
// RULE: GlobalToSubMesh: R on [0,1] -> R on [0]: the value's only use is the reshard, so it is retyped in place (its producer's op_dist_attr too); no op
{
    (%0) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]},chunk_id:0},parameter_name:"w0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> pd_dist.tensor<4x4xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]>
    (%1) = "dist_op.reshard" (%0) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]},result(0):{mesh_shape:[1],process_ids:[0],dims_mappings:[-1,-1]},chunk_id:0}} : (pd_dist.tensor<4x4xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]>) -> pd_dist.tensor<4x4xf32, mesh_shape:[1],process_ids:[0],dims_mappings:[-1,-1]>
    () = "builtin.shadow_output" (%1) {op_dist_attr:{mesh:{shape:[1],process_ids:[0]},operand(0):{mesh_shape:[1],process_ids:[0],dims_mappings:[-1,-1]},chunk_id:0},output_name:"out"} : (pd_dist.tensor<4x4xf32, mesh_shape:[1],process_ids:[0],dims_mappings:[-1,-1]>) -> 
}
