{
    (%0) = "pd_op.split" () {} : () -> vec[pd_dist.tensor<2xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1]>, pd_dist.tensor<2xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[3]>]
}
