{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)int64,name:"n",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[1],stop_gradient:[true]} : () -> builtin.tensor<1xi64>
    (%1) = "pd_op.full" () {dtype:(pd_op.DataType)int64,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:[true],value:(Float)0} : () -> builtin.tensor<1xi64>
    (%2) = "pd_op.greater_than" (%0, %1) {stop_gradient:[true]} : (builtin.tensor<1xi64>, builtin.tensor<1xi64>) -> builtin.tensor<1xb>
    (%3) = "pd_op.if" (%2) {stop_gradient:[true]} -> builtin.tensor<1xi64> {
        (%4) = "pd_op.less_than" (%1, %0) {stop_gradient:[true]} : (builtin.tensor<1xi64>, builtin.tensor<1xi64>) -> builtin.tensor<1xb>
        (%5, %6) = "pd_op.while" (cond=%4, inputs=%1, %1) { 
        ^%arg_0 {}, %arg_1 {}
            (%7) = "pd_op.full" () {dtype:(pd_op.DataType)int64,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:[true],value:(Float)1} : () -> builtin.tensor<1xi64>
            (%8) = "pd_op.add" (%arg_0, %7) {stop_gradient:[true]} : (builtin.tensor<1xi64>, builtin.tensor<1xi64>) -> builtin.tensor<1xi64>
            (%9) = "pd_op.add" (%arg_1, %8) {stop_gradient:[true]} : (builtin.tensor<1xi64>, builtin.tensor<1xi64>) -> builtin.tensor<1xi64>
            (%10) = "pd_op.less_than" (%8, %0) {stop_gradient:[true]} : (builtin.tensor<1xi64>, builtin.tensor<1xi64>) -> builtin.tensor<1xb>
            () = "cf.yield" (%10, %8, %9) {} : (builtin.tensor<1xb>, builtin.tensor<1xi64>, builtin.tensor<1xi64>) -> 
        }
        () = "cf.yield" (%6) {} : (builtin.tensor<1xi64>) -> 
    } else {
        () = "cf.yield" (%1) {} : (builtin.tensor<1xi64>) -> 
    }
    (%11) = "pd_op.cast" (%3) {dtype:(pd_op.DataType)float32,stop_gradient:[true]} : (builtin.tensor<1xi64>) -> builtin.tensor<1xf32>
    () = "builtin.shadow_output" (%11) {output_name:"sum_0"} : (builtin.tensor<1xf32>) -> 
}
