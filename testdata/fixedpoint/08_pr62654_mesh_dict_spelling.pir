{
    (%0) = "pd_op.data" () {name:"x",op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},result(0):{mesh: {shape: [2], process_ids: [0,1], dim_names: [x]}, dims_mappings: [-1,0]}}} : () -> pd_dist.tensor<4x8xf32, mesh: {shape: [2], process_ids: [0,1], dim_names: [x]}, dims_mappings: [-1,0]>
}
