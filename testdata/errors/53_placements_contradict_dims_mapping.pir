{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[4,16],stop_gradient:[true]} : () -> pd_dist.tensor<4x16xf32, mesh_shape:[2,2],process_ids:[0,1,2,3],dims_mappings:[0,-1], placements:[Replicate(), Replicate()]>
}
