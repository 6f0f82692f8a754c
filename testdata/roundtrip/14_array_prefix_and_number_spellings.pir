{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[2,3,4],stop_gradient:(Array)[true]} : () -> builtin.tensor<2x3x4xf32>
    (%1) = "pd_op.full" () {dtype:(pd_op.DataType)float32,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:(Array)[true],value:(Float)-0.5} : () -> builtin.tensor<1xf32>
    (%2) = "pd_op.scale" (%0, %1) {bias:(Float)1e+10,bias_after_scale:false,stop_gradient:(Array)[true]} : (builtin.tensor<2x3x4xf32>, builtin.tensor<1xf32>) -> builtin.tensor<2x3x4xf32>
    (%3) = "pd_op.leaky_relu" (%2) {negative_slope:(Float)0.01,stop_gradient:(Array)[true]} : (builtin.tensor<2x3x4xf32>) -> builtin.tensor<2x3x4xf32>
    (%4) = "pd_op.full" () {dtype:(pd_op.DataType)float64,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:(Array)[true],value:(Double)1e-06} : () -> builtin.tensor<1xf64>
    (%5) = "pd_op.full" () {dtype:(pd_op.DataType)float64,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:(Array)[true],value:(Double)-2.5e-08} : () -> builtin.tensor<1xf64>
    (%6) = "pd_op.add" (%4, %5) {stop_gradient:(Array)[true]} : (builtin.tensor<1xf64>, builtin.tensor<1xf64>) -> builtin.tensor<1xf64>
    (%7) = "pd_op.transpose" (%3) {perm:(Array)[(Int32)2,(Int32)0,(Int32)1],stop_gradient:(Array)[true]} : (builtin.tensor<2x3x4xf32>) -> builtin.tensor<4x2x3xf32>
    (%8) = "pd_op.full_int_array" () {dtype:(pd_op.DataType)int64,place:(pd_op.Place)Place(cpu),stop_gradient:(Array)[true],value:(Array)[(Int64)1]} : () -> builtin.tensor<1xi64>
    (%9) = "pd_op.full_int_array" () {dtype:(pd_op.DataType)int64,place:(pd_op.Place)Place(cpu),stop_gradient:(Array)[true],value:(Array)[(Int64)2147483647]} : () -> builtin.tensor<1xi64>
    (%10) = "pd_op.slice" (%7, %8, %9) {axes:(Array)[(Int64)0],decrease_axis:(Array)[],infer_flags:(Array)[(Int64)1],stop_gradient:(Array)[true]} : (builtin.tensor<4x2x3xf32>, builtin.tensor<1xi64>, builtin.tensor<1xi64>) -> builtin.tensor<3x2x3xf32>
    (%11) = "pd_op.label_smooth" (%10, <<NULL VALUE>>) {epsilon:(Float)0.1,stop_gradient:(Array)[true]} : (builtin.tensor<3x2x3xf32>, <<NULL TYPE>>) -> builtin.tensor<3x2x3xf32>
    (%12) = "pd_op.uniform" () {dtype:(pd_op.DataType)float32,max:(Float)1,min:(Float)-1,place:(pd_op.Place)Place(undefined:0),seed:(Int32)-1,shape:(pd_op.IntArray)[2],stop_gradient:(Array)[true]} : () -> builtin.tensor<2xf32>
    () = "builtin.shadow_output" (%11) {output_name:"out"} : (builtin.tensor<3x2x3xf32>) -> 
    () = "builtin.shadow_output" (%6) {output_name:"eps"} : (builtin.tensor<1xf64>) -> 
}
