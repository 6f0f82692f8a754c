{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[16,32],stop_gradient:[false]} : () -> pd_op.tensor<16x32xf32>
    (%1) = "pd_op.data" () {dtype:(pd_op.DataType)bool,name:"flag",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[1],stop_gradient:[true]} : () -> pd_op.tensor<1xb>
    (%2) = "pd_op.if" (%1) {stop_gradient:[false]} -> pd_op.tensor<16x32xf32> {
        (%3) = "cinn_op.group" () {} : () -> pd_op.tensor<16x32xf32>
        {
            (%4) = "pd_op.exp" (%0) {stop_gradient:[false]} : (pd_op.tensor<16x32xf32>) -> pd_op.tensor<16x32xf32>
            (%5) = "cinn_op.scale" (%4) {bias:(Float)0,bias_after_scale:true,scale:(Float)0.5,stop_gradient:[false]} : (pd_op.tensor<16x32xf32>) -> pd_op.tensor<16x32xf32>
            () = "cf.yield" (%5) {} : (pd_op.tensor<16x32xf32>) -> 
        }

        () = "cf.yield" (%3) {} : (pd_op.tensor<16x32xf32>) -> 
    } else {
        (%6) = "cinn_op.group" () {} : () -> pd_op.tensor<16x32xf32>
        {
            (%7) = "pd_op.tanh" (%0) {stop_gradient:[false]} : (pd_op.tensor<16x32xf32>) -> pd_op.tensor<16x32xf32>
            () = "cf.yield" (%7) {} : (pd_op.tensor<16x32xf32>) -> 
        }

        () = "cf.yield" (%6) {} : (pd_op.tensor<16x32xf32>) -> 
    }
    () = "builtin.set_parameter" (%2) {parameter_name:"output_0"} : (pd_op.tensor<16x32xf32>) -> 
}
