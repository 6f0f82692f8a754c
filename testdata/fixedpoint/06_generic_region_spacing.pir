{

    (%0) = "pd_op.data" [id:3] () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[64,128],stop_gradient:[false]} : () -> builtin.tensor<64x128xf32>


    (%1) = "cinn_op.fusion" [id:4] (%0) {} : (builtin.tensor<64x128xf32>) -> builtin.tensor<64x128xf32>
    {
        (%2) = "cinn_op.reduce_sum" [id:5] (%arg_0) {dim:[(Int64)-1],keep_dim:true,stop_gradient:[false]} : (builtin.tensor<64x128xf32>) -> builtin.tensor<64x1xf32>
        (%3) = "pd_op.divide" [id:6] (%arg_0, %2) {stop_gradient:[false]} : (builtin.tensor<64x128xf32>, builtin.tensor<64x1xf32>) -> builtin.tensor<64x128xf32>
        () = "cf.yield" [id:7] (%3) {} : (builtin.tensor<64x128xf32>) -> 
    }
    () = "builtin.shadow_output" [id:8] (%1) {output_name:"y"} : (builtin.tensor<64x128xf32>) -> 
}
