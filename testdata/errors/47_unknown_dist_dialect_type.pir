{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> pd_dist.dense_tensor_array<4xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1]>
}
