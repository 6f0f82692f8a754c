{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[8,16],stop_gradient:[true]} : () -> builtin.tensor<8x16xf32>
    (%1, %2, %3) = "pd_op.layer_norm" (%0, <<NULL VALUE>>, <<NULL VALUE>>) {begin_norm_axis:(Int32)1,epsilon:(Float)1e-05,stop_gradient:[true,true,true]} : (builtin.tensor<8x16xf32>, <<NULL TYPE>>, <<NULL TYPE>>) -> builtin.tensor<8x16xf32>, builtin.tensor<8xf32>, builtin.tensor<8xf32>
    (%4) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"linear_0.w_0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> builtin.tensor<16x4xf32>
    (%5) = "pd_op.matmul" (%1, %4) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (builtin.tensor<8x16xf32>, builtin.tensor<16x4xf32>) -> builtin.tensor<8x4xf32>
    (%6) = "pd_op.full" () {dtype:(pd_op.DataType)float32,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[8,4],stop_gradient:[true],value:(Float)1} : () -> builtin.tensor<8x4xf32>
    (%7, %8) = "pd_op.matmul_grad" (%1, %4, %6) {stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (builtin.tensor<8x16xf32>, builtin.tensor<16x4xf32>, builtin.tensor<8x4xf32>) -> <<NULL TYPE>>, builtin.tensor<16x4xf32>
    (%9) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"learning_rate_0",persistable:[true],place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[],stop_gradient:[true]} : () -> builtin.tensor<f32>
    (%10, %11) = "pd_op.sgd_" (%4, %9, %8, <<NULL VALUE>>) {multi_precision:false,stop_gradient:[false,false]} : (builtin.tensor<16x4xf32>, builtin.tensor<f32>, builtin.tensor<16x4xf32>, <<NULL TYPE>>) -> builtin.tensor<16x4xf32>, <<NULL TYPE>>
}
