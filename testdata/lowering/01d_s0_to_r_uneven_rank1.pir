// RUN: pir-opt %s --pass-pipeline=lower-reshard{rank=1}
// RULE: Paddle case B shard 0, rank 1 (piece 4 of 9): first full (zeros 1x9), full, builtin.combine, concat pad it to 5 rows, then rank 0's list; the last piece is cut [4,1]
{
    (%0) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]},chunk_id:0},parameter_name:"w0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> pd_dist.tensor<9x9xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]>
    (%1) = "dist_op.reshard" (%0) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]},chunk_id:0}} : (pd_dist.tensor<9x9xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]>) -> pd_dist.tensor<9x9xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]>
    () = "builtin.shadow_output" (%1) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]},chunk_id:0},output_name:"out"} : (pd_dist.tensor<9x9xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]>) -> 
}
