{
    (%10_991) = "pd_op.full" () {dtype:(pd_op.DataType)int64,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:[true],value:(Float)0} : () -> builtin.tensor<1xi64>
    (%11_992) = "pd_op.full" () {dtype:(pd_op.DataType)int64,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:[true],value:(Float)5} : () -> builtin.tensor<1xi64>
    (%14_993) = "pd_op.less_than" (%10_991, %11_992) {stop_gradient:[true]} : (builtin.tensor<1xi64>, builtin.tensor<1xi64>) -> builtin.tensor<1xb>
    (%15_1000) = "pd_op.while" (cond=%14_993, inputs=%10_991) { 
    ^%arg_7 {}
        (%16_1001) = "pd_op.full" () {dtype:(pd_op.DataType)int64,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:[true],value:(Float)1} : () -> builtin.tensor<1xi64>
        (%21_1002) = "pd_op.add" (%arg_7, %16_1001) {stop_gradient:[true]} : (builtin.tensor<1xi64>, builtin.tensor<1xi64>) -> builtin.tensor<1xi64>
        (%3_1003) = "pd_op.less_than" (%21_1002, %11_992) {stop_gradient:[true]} : (builtin.tensor<1xi64>, builtin.tensor<1xi64>) -> builtin.tensor<1xb>
        () = "cf.yield" (%3_1003, %21_1002) {} : (builtin.tensor<1xb>, builtin.tensor<1xi64>) -> 
    }
    () = "builtin.shadow_output" (%15_1000) {output_name:"i"} : (builtin.tensor<1xi64>) -> 
}
