{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[16,16],stop_gradient:[false]} : () -> tensor<16x16xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"y",place:Place(undefined:0),shape:[16,16],stop_gradient:[true]} : () -> tensor<16x16xf32>
    (%2) = "cinn_op.fusion" (%0, %1) {} : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    {
        (%3) = "pd_op.add" (%arg_0 {}, %arg_1 {stop_gradient:true}) {stop_gradient:[false]} : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
        (%4) = "pd_op.relu" (%3) {stop_gradient:[false]} : (tensor<16x16xf32>) -> tensor<16x16xf32>
        (%5) = "pd_op.multiply" (%4, %arg_0) {stop_gradient:[false]} : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
        () = "cf.yield" (%5) {} : (tensor<16x16xf32>) -> 
    }

    () = "cinn_op.group" () {} : () -> 
    {
        () = "builtin.shadow_output" (%2) {output_name:"out"} : (tensor<16x16xf32>) -> 
    }

}
