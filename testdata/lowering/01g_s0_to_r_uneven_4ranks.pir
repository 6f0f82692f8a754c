// RUN: pir-opt %s --pass-pipeline=lower-reshard{rank=2}
// RULE: S(0)->R of 5 on 4 ranks (pieces 2,2,1,0): every short rank pads its own piece to 2 rows (rank 2 pads 1), and both short pieces are cut after the gather (Paddle pads only the last, by a negative size)
{
    (%0) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},result(0):{mesh_shape:[4],process_ids:[0,1,2,3],dims_mappings:[0,-1]},chunk_id:0},parameter_name:"w0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> pd_dist.tensor<5x4xf32, mesh_shape:[4],process_ids:[0,1,2,3],dims_mappings:[0,-1]>
    (%1) = "dist_op.reshard" (%0) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{mesh_shape:[4],process_ids:[0,1,2,3],dims_mappings:[0,-1]},result(0):{mesh_shape:[4],process_ids:[0,1,2,3],dims_mappings:[-1,-1]},chunk_id:0}} : (pd_dist.tensor<5x4xf32, mesh_shape:[4],process_ids:[0,1,2,3],dims_mappings:[0,-1]>) -> pd_dist.tensor<5x4xf32, mesh_shape:[4],process_ids:[0,1,2,3],dims_mappings:[-1,-1]>
    () = "builtin.shadow_output" (%1) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{mesh_shape:[4],process_ids:[0,1,2,3],dims_mappings:[-1,-1]},chunk_id:0},output_name:"out"} : (pd_dist.tensor<5x4xf32, mesh_shape:[4],process_ids:[0,1,2,3],dims_mappings:[-1,-1]>) -> 
}
