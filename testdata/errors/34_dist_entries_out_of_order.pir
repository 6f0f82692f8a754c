{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},result(0):{dims_maping:[0,-1]}},place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,8],stop_gradient:[true]} : () -> pd_dist.tensor<4x8xf32, mesh_shape:[2],dims_mappings:[0,-1]>
    (%1, %2) = "pd_op.split_with_num" (%0) {axis:(Int32)0,num:(Int32)2,op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{dims_maping:[0,-1]},result(1):{dims_maping:[0,-1]},result(0):{dims_maping:[0,-1]}},stop_gradient:[false,false]} : (pd_dist.tensor<4x8xf32, mesh_shape:[2],dims_mappings:[0,-1]>) -> pd_dist.tensor<2x8xf32, mesh_shape:[2],dims_mappings:[0,-1]>, pd_dist.tensor<2x8xf32, mesh_shape:[2],dims_mappings:[0,-1]>
}
