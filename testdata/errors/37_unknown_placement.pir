{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1], placements:[Shard2(dim=0), Replicate()]},chunk_id:0},op_role:0,place:Place(undefined:0),shape:[8,16],stop_gradient:[true]} : () -> pd_dist.tensor<8x16xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1], placements:[Shard(dim=0), Replicate()]>
}
