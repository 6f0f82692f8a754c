{
    (%0) = "pd_op.full" () {dtype:int64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xi64>
    (%1) = "pd_op.less_than" (%0, %0) {stop_gradient:[true]} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
    (%2) = "custom.loop" (%1, %0) {} : (tensor<1xb>, tensor<1xi64>) -> tensor<1xi64>
    {
        ^%arg_0 {stop_gradient:true}, %arg_1
        (%3) = "pd_op.while" (cond=%1, inputs=%0) { 
        ^%arg_2 {}
            (%4) = "pd_op.add" (%arg_2, %arg_0) {stop_gradient:[true]} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
            () = "cf.yield" (%1, %4) {} : (tensor<1xb>, tensor<1xi64>) -> 
        }
        (%5) = "pd_op.add" (%arg_0, %3) {stop_gradient:[true]} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
        () = "cf.yield" (%5) {} : (tensor<1xi64>) -> 
    }

    (%6) = "custom.pair" (%0) {} : (tensor<1xi64>) -> tensor<1xi64>
    {
        ^%arg_3, %arg_4 {stop_gradient:false}
        (%7) = "pd_op.subtract" (%arg_4, %arg_3) {} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
        () = "cf.yield" (%7) {} : (tensor<1xi64>) -> 
    }

    (%8) = "pd_op.if" (%1) {} -> tensor<1xi64> {
        (%9) = "pd_op.scale" (%arg_5 {}) {} : (tensor<1xi64>) -> tensor<1xi64>
        () = "cf.yield" (%9) {} : (tensor<1xi64>) -> 
    } else {
        ^%arg_6 {}
        () = "cf.yield" (%0) {} : (tensor<1xi64>) -> 
    }
    () = "builtin.shadow_output" (%2) {output_name:"i"} : (tensor<1xi64>) -> 
}
