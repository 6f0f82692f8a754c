// dist_op.shard_tensor of a dense value (issue 29): x[5,7], fed whole, sharded on dim 1 over 2 ranks (uneven:
// 4 and 3 columns); apply-partition reshards it from replicated, so each rank slices its piece.
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[5,7],stop_gradient:[true]} : () -> builtin.tensor<5x7xf32>
    (%1) = "dist_op.shard_tensor" (%0) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]},chunk_id:0},stop_gradient:[true]} : (builtin.tensor<5x7xf32>) -> pd_dist.tensor<5x7xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]>
    (%2) = "pd_op.relu" (%1) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]},chunk_id:0},stop_gradient:[true]} : (pd_dist.tensor<5x7xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]>) -> pd_dist.tensor<5x7xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]>
    () = "builtin.shadow_output" (%2) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]},chunk_id:0},output_name:"y"} : (pd_dist.tensor<5x7xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]>) -> 
}
