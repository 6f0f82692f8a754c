// RUN: pir-opt %s --pass-pipeline=split-ranks
// RULE: the input already communicates on ring 5, whose ranks its text does not give: split-ranks refuses it at the op (split-ranks{rings=FILE} would give them)
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]}},place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,8],stop_gradient:[true]} : () -> pd_dist.tensor<4x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]>
    (%1) = "pd_op.all_reduce" (%0) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]}},reduce_type:(Int32)0,ring_id:(Int32)5} : (pd_dist.tensor<4x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]>) -> pd_dist.tensor<4x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]>
    () = "builtin.shadow_output" (%1) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]}},output_name:"y"} : (pd_dist.tensor<4x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]>) -> 
}
