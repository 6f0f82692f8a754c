// RUN: pir-opt %s --pass-pipeline=lower-reshard{rank=1}
// RULE: Paddle case B shard 1, rank 1: transpose, full, full, builtin.combine, concat, reduce_scatter, full_int_array, full, split, builtin.split, transpose (7 on 2: its 3 of 4 rows)
{
    (%0) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1], partial(0,SUM)},chunk_id:0},parameter_name:"w0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> pd_dist.tensor<3x7xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1], partial(0,SUM)>
    (%1) = "dist_op.reshard" (%0) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1], partial(0,SUM)},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]},chunk_id:0}} : (pd_dist.tensor<3x7xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1], partial(0,SUM)>) -> pd_dist.tensor<3x7xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]>
    () = "builtin.shadow_output" (%1) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]},chunk_id:0},output_name:"out"} : (pd_dist.tensor<3x7xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]>) -> 
}
