{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[1],stop_gradient:[true]} : () -> builtin.tensor<1xf32>
    (%1) = "pd_op.full" () {dtype:(pd_op.DataType)float32,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:[true],value:(Float)0} : () -> builtin.tensor<1xf32>
    (%2) = "pd_op.greater_than" (%0, %1) {stop_gradient:[true]} : (builtin.tensor<1xf32>, builtin.tensor<1xf32>) -> builtin.tensor<1xb>
    (%3, %4) = "pd_op.if" (%2) {stop_gradient:[true,true]} -> builtin.tensor<1xf32>, builtin.tensor<1xb> {
        (%5) = "pd_op.full" () {dtype:(pd_op.DataType)float32,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:[true],value:(Float)10} : () -> builtin.tensor<1xf32>
        (%6) = "pd_op.less_than" (%0, %5) {stop_gradient:[true]} : (builtin.tensor<1xf32>, builtin.tensor<1xf32>) -> builtin.tensor<1xb>
        (%7) = "pd_op.if" (%6) {stop_gradient:[true]} -> builtin.tensor<1xf32> {
            (%8) = "pd_op.multiply" (%0, %0) {stop_gradient:[true]} : (builtin.tensor<1xf32>, builtin.tensor<1xf32>) -> builtin.tensor<1xf32>
            () = "cf.yield" (%8) {} : (builtin.tensor<1xf32>) -> 
        } else {
            () = "cf.yield" (%5) {} : (builtin.tensor<1xf32>) -> 
        }
        () = "cf.yield" (%7, %6) {} : (builtin.tensor<1xf32>, builtin.tensor<1xb>) -> 
    } else {
        (%9) = "pd_op.abs" (%0) {stop_gradient:[true]} : (builtin.tensor<1xf32>) -> builtin.tensor<1xf32>
        () = "cf.yield" (%9, %2) {} : (builtin.tensor<1xf32>, builtin.tensor<1xb>) -> 
    }
    (%10) = "pd_op.cast" (%4) {dtype:(pd_op.DataType)float32,stop_gradient:[true]} : (builtin.tensor<1xb>) -> builtin.tensor<1xf32>
    (%11) = "pd_op.add" (%3, %10) {stop_gradient:[true]} : (builtin.tensor<1xf32>, builtin.tensor<1xf32>) -> builtin.tensor<1xf32>
    () = "builtin.shadow_output" (%11) {output_name:"out"} : (builtin.tensor<1xf32>) -> 
}
