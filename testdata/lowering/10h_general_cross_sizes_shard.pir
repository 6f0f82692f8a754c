// RUN: pir-opt %s --pass-pipeline=lower-reshard{rank=2}
// RULE: [0,1] S(1) -> [2,3,4] S(0): gather on [0,1], sends round robin (0->2, 1->3, 0->4), then rank 2 slices its rows [0,3)
{
    (%0) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]},chunk_id:0},parameter_name:"w0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> pd_dist.tensor<9x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]>
    (%1) = "dist_op.reshard" (%0) {op_dist_attr:{mesh:{shape:[5],process_ids:[0,1,2,3,4]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]},result(0):{mesh_shape:[3],process_ids:[2,3,4],dims_mappings:[0,-1]},chunk_id:0}} : (pd_dist.tensor<9x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]>) -> pd_dist.tensor<9x8xf32, mesh_shape:[3],process_ids:[2,3,4],dims_mappings:[0,-1]>
    () = "builtin.shadow_output" (%1) {op_dist_attr:{mesh:{shape:[3],process_ids:[2,3,4]},operand(0):{mesh_shape:[3],process_ids:[2,3,4],dims_mappings:[0,-1]},chunk_id:0},output_name:"out"} : (pd_dist.tensor<9x8xf32, mesh_shape:[3],process_ids:[2,3,4],dims_mappings:[0,-1]>) -> 
}
