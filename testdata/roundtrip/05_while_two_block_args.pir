{
    (%0) = "pd_op.full" () {dtype:(pd_op.DataType)int64,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:[true],value:(Float)0} : () -> builtin.tensor<1xi64>
    (%1) = "pd_op.full" () {dtype:(pd_op.DataType)float32,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:[true],value:(Float)1} : () -> builtin.tensor<1xf32>
    (%2) = "pd_op.full" () {dtype:(pd_op.DataType)int64,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:[true],value:(Float)10} : () -> builtin.tensor<1xi64>
    (%3) = "pd_op.less_than" (%0, %2) {stop_gradient:[true]} : (builtin.tensor<1xi64>, builtin.tensor<1xi64>) -> builtin.tensor<1xb>
    (%4, %5) = "pd_op.while" (cond=%3, inputs=%0, %1) { 
    ^%arg_0 {}, %arg_1 {}
        (%6) = "pd_op.full" () {dtype:(pd_op.DataType)int64,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:[true],value:(Float)1} : () -> builtin.tensor<1xi64>
        (%7) = "pd_op.add" (%arg_0, %6) {stop_gradient:[true]} : (builtin.tensor<1xi64>, builtin.tensor<1xi64>) -> builtin.tensor<1xi64>
        (%8) = "pd_op.multiply" (%arg_1, %arg_1) {stop_gradient:[true]} : (builtin.tensor<1xf32>, builtin.tensor<1xf32>) -> builtin.tensor<1xf32>
        (%9) = "pd_op.less_than" (%7, %2) {stop_gradient:[true]} : (builtin.tensor<1xi64>, builtin.tensor<1xi64>) -> builtin.tensor<1xb>
        () = "cf.yield" (%9, %7, %8) {} : (builtin.tensor<1xb>, builtin.tensor<1xi64>, builtin.tensor<1xf32>) -> 
    }
    () = "builtin.shadow_output" (%5) {output_name:"y"} : (builtin.tensor<1xf32>) -> 
}
