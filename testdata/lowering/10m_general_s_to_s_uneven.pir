// RUN: pir-opt %s --pass-pipeline=lower-reshard{rank=0}
// RULE: S(0)->S(1) of 9x8: uneven, where Paddle's SToS reshapes would mix rows: the general path, all_gather then slice
{
    (%0) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]},chunk_id:0},parameter_name:"w0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> pd_dist.tensor<9x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]>
    (%1) = "dist_op.reshard" (%0) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]},chunk_id:0}} : (pd_dist.tensor<9x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]>) -> pd_dist.tensor<9x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]>
    () = "builtin.shadow_output" (%1) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]},chunk_id:0},output_name:"out"} : (pd_dist.tensor<9x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]>) -> 
}
