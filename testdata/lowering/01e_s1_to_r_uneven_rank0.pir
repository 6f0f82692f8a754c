// RUN: pir-opt %s --pass-pipeline=lower-reshard{rank=0}
// RULE: Paddle case B shard 1, rank 0: the same list as shard 0; pieces of 9x5 gathered to 18x5, split on dim 0, the last cut [4,1] on dim 1, concat on dim 1
{
    (%0) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]},chunk_id:0},parameter_name:"w0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> pd_dist.tensor<9x9xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]>
    (%1) = "dist_op.reshard" (%0) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]},chunk_id:0}} : (pd_dist.tensor<9x9xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]>) -> pd_dist.tensor<9x9xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]>
    () = "builtin.shadow_output" (%1) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]},chunk_id:0},output_name:"out"} : (pd_dist.tensor<9x9xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]>) -> 
}
