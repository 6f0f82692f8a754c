{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",op_dist_attr:{mesh:{shape:[2,0],process_ids:[]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1], placements:[Replicate()]},chunk_id:0},place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> pd_dist.tensor<4xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1], placements:[Replicate()]>
}
