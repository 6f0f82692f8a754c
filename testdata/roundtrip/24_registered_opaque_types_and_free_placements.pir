{
    (%0) = "pd_op.create_array" () {dtype:(pd_op.DataType)float32} : () -> pd_op.tensor_array<f32>
    (%1) = "pd_op.embedding_grad_sparse" () {} : () -> pd_op.selectedrows<10x4xf32>
    (%2) = "pd_op.to_sparse_coo" () {} : () -> pd_op.sparsecootensor<4x4xf32>
    (%3, %4, %5) = "cf.stack_create" () {} : () -> cf.stack<>, cf.inlet<>, cf.outlet<>
    (%6) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",op_dist_attr:{mesh:{shape:[2,2],process_ids:[0,1,2,3]},result(0):{mesh_shape:[2,2],process_ids:[0,1,2,3],dims_mappings:[0,-1], placements:[Shard(dim=0), Shard(dim=0)]},chunk_id:0},place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[8,16],stop_gradient:[true]} : () -> pd_dist.tensor<8x16xf32, mesh_shape:[2,2],process_ids:[0,1,2,3],dims_mappings:[0,-1], placements:[Shard(dim=0), Shard(dim=0)]>
    (%7) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"y",op_dist_attr:{mesh:{shape:[2,2],process_ids:[0,1,2,3]},result(0):{mesh_shape:[2,2],process_ids:[0,1,2,3],dims_mappings:[-1,1], partial(0,SUM), placements:[Partial(reduce_type=SUM), Shard(dim=1, split_factor=3)]},chunk_id:0},place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[8,48],stop_gradient:[true]} : () -> pd_dist.tensor<8x48xf32, mesh_shape:[2,2],process_ids:[0,1,2,3],dims_mappings:[-1,1], partial(0,SUM), placements:[Partial(reduce_type=SUM), Shard(dim=1, split_factor=3)]>
}
