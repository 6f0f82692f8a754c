{
    (%0) = "pd_op.data" () {} : () -> pd_dist.tensor<1xf32, mesh_shape:[2000000],dims_mappings:[-1]>
    (%1) = "pd_op.data" () {} : () -> pd_dist.tensor<1xf32, mesh_shape:[1999999],dims_mappings:[-1]>
    (%2) = "pd_op.data" () {} : () -> pd_dist.tensor<1xf32, mesh_shape:[1999998],dims_mappings:[-1]>
}
