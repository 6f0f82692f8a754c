{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[32,64],stop_gradient:[false]} : () -> builtin.tensor<32x64xf32>
    (%1) = "cinn_op.group" () {} : () -> builtin.tensor<32x64xf32>
    {
        (%2) = "cinn_op.reduce_max" (%0) {dim:[(Int64)-1],keep_dim:true,stop_gradient:[false]} : (builtin.tensor<32x64xf32>) -> builtin.tensor<32x1xf32>
        (%3) = "cinn_op.broadcast" (%2) {broadcast_axes:[(Int64)0,(Int64)1],out_shape:[(Int64)32,(Int64)64],stop_gradient:[false]} : (builtin.tensor<32x1xf32>) -> builtin.tensor<32x64xf32>
        (%4) = "pd_op.subtract" (%0, %3) {stop_gradient:[false]} : (builtin.tensor<32x64xf32>, builtin.tensor<32x64xf32>) -> builtin.tensor<32x64xf32>
        (%5) = "pd_op.exp" (%4) {stop_gradient:[false]} : (builtin.tensor<32x64xf32>) -> builtin.tensor<32x64xf32>
        () = "cf.yield" (%5) {} : (builtin.tensor<32x64xf32>) -> 
    }

    (%6) = "pd_op.relu" (%1) {stop_gradient:[false]} : (builtin.tensor<32x64xf32>) -> builtin.tensor<32x64xf32>
    () = "builtin.shadow_output" (%6) {output_name:"out"} : (builtin.tensor<32x64xf32>) -> 
}
