{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> builtin.tensor<4xf32>
    (%1) = "pd_op.relu" (%0) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1,2]}},stop_gradient:[true]} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
}
