{
    (%0) = "pd_op.full" () {dtype:int64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xi64>
    (%1) = "pd_op.full" () {dtype:int64,place:Place(cpu),shape:[1],stop_gradient:[true],value:3} : () -> tensor<1xi64>
    (%2) = "pd_op.less_than" (%0, %1) {stop_gradient:[true]} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
    (%3) = "pd_op.while" (cond=%2, inputs=%0) { 
    ^%arg_0 {stop_gradient:true}
        (%4) = "pd_op.less_than" (%0, %arg_0) {stop_gradient:[true]} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
        (%5) = "pd_op.while" (cond=%4, inputs=%0) { 
        ^%arg_1 {stop_gradient:true}
            (%6) = "pd_op.full" () {dtype:int64,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xi64>
            (%7) = "pd_op.add" (%arg_1, %6) {stop_gradient:[true]} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
            (%8) = "pd_op.less_than" (%7, %arg_0) {stop_gradient:[true]} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
            () = "cf.yield" (%8, %7) {} : (tensor<1xb>, tensor<1xi64>) -> 
        }
        (%9) = "pd_op.full" () {dtype:int64,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xi64>
        (%10) = "pd_op.add" (%arg_0, %9) {stop_gradient:[true]} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
        (%11) = "pd_op.less_than" (%10, %1) {stop_gradient:[true]} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
        () = "cf.yield" (%11, %10) {} : (tensor<1xb>, tensor<1xi64>) -> 
    }
    () = "builtin.shadow_output" (%3) {output_name:"i"} : (tensor<1xi64>) -> 
}
