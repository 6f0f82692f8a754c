// RUN: pir-opt %s --pass-pipeline=drop-dist
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},result(0):{dims_maping:[0]}},place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4],stop_gradient:[true]} : () -> pd_dist.tensor<4xf32, mesh_shape:[2],dims_mappings:[0]>
    (%1) = "dist_op.reshard" (%0) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{dims_maping:[0]},result(0):{dims_maping:[-1]}}} : (pd_dist.tensor<4xf32, mesh_shape:[2],dims_mappings:[0]>) -> pd_dist.tensor<4xf32, mesh_shape:[2],dims_mappings:[-1]>
    () = "builtin.shadow_output" (%1) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{dims_maping:[-1]}},output_name:"y"} : (pd_dist.tensor<4xf32, mesh_shape:[2],dims_mappings:[-1]>) -> 
}
