// RUN: pir-opt %s --pass-pipeline=lower-reshard{rank=0}
// RULE: 10g_s0_to_s1 on the mesh [1,0]: the collective runs over its ring in mesh order [1,0], so piece i is mesh rank i's (Paddle's sorted ring [0,1] would swap the pieces); pir-run --check proves it (scripts/lowering-check.sh)
{
    (%0) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],op_dist_attr:{mesh:{shape:[2],process_ids:[1,0]},result(0):{mesh_shape:[2],process_ids:[1,0],dims_mappings:[0,-1]},chunk_id:0},parameter_name:"w0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> pd_dist.tensor<8x8xf32, mesh_shape:[2],process_ids:[1,0],dims_mappings:[0,-1]>
    (%1) = "dist_op.reshard" (%0) {op_dist_attr:{mesh:{shape:[2],process_ids:[1,0]},operand(0):{mesh_shape:[2],process_ids:[1,0],dims_mappings:[0,-1]},result(0):{mesh_shape:[2],process_ids:[1,0],dims_mappings:[-1,0]},chunk_id:0}} : (pd_dist.tensor<8x8xf32, mesh_shape:[2],process_ids:[1,0],dims_mappings:[0,-1]>) -> pd_dist.tensor<8x8xf32, mesh_shape:[2],process_ids:[1,0],dims_mappings:[-1,0]>
    () = "builtin.shadow_output" (%1) {op_dist_attr:{mesh:{shape:[2],process_ids:[1,0]},operand(0):{mesh_shape:[2],process_ids:[1,0],dims_mappings:[-1,0]},chunk_id:0},output_name:"out"} : (pd_dist.tensor<8x8xf32, mesh_shape:[2],process_ids:[1,0],dims_mappings:[-1,0]>) -> 
}
