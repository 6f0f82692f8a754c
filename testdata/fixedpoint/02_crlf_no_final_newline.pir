{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4],stop_gradient:[true]} : () -> builtin.tensor<4xf32>
    (%1) = "pd_op.exp" (%0) {stop_gradient:[true]} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    (%2) = "pd_op.sum" (%1) {axis:(pd_op.IntArray)[],dtype:(pd_op.DataType)float32,keepdim:false,stop_gradient:[true]} : (builtin.tensor<4xf32>) -> builtin.tensor<f32>
    () = "builtin.shadow_output" (%2) {output_name:"total"} : (builtin.tensor<f32>) ->
}