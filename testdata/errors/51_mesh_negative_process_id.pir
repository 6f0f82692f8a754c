{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> pd_dist.tensor<4xf32, mesh_shape:[2],process_ids:[-1,0],dims_mappings:[-1], placements:[Replicate()]>
}
