{
    ^kw:
        %kwarg_w {}
    (%0) = "pd_op.relu" (%kwarg_w) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]},chunk_id:0},stop_gradient:[false]} : (pd_dist.tensor<16x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[5,-1]>) -> pd_dist.tensor<16x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]>
}
