{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,16],stop_gradient:[true]} : () -> builtin.tensor<4x16xf32>
    (%1) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"linear_0.w_0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> builtin.tensor<16x32xf32>
    (%2) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"linear_0.b_0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> builtin.tensor<32xf32>
    (%3) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"linear_1.w_0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> builtin.tensor<32x8xf32>
    (%4) = "pd_op.matmul" (%0, %1) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (builtin.tensor<4x16xf32>, builtin.tensor<16x32xf32>) -> builtin.tensor<4x32xf32>
    (%5) = "pd_op.add" (%4, %2) {stop_gradient:[false]} : (builtin.tensor<4x32xf32>, builtin.tensor<32xf32>) -> builtin.tensor<4x32xf32>
    (%6) = "pd_op.gelu" (%5) {approximate:false,stop_gradient:[false]} : (builtin.tensor<4x32xf32>) -> builtin.tensor<4x32xf32>
    (%7) = "pd_op.matmul" (%6, %3) {stop_gradient:[false],transpose_x:false,transpose_y:true} : (builtin.tensor<4x32xf32>, builtin.tensor<32x8xf32>) -> builtin.tensor<4x8xf32>
    (%8) = "pd_op.softmax" (%7) {axis:(Int32)-1,stop_gradient:[false]} : (builtin.tensor<4x8xf32>) -> builtin.tensor<4x8xf32>
    (%9) = "pd_op.full" () {dtype:(pd_op.DataType)float32,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:[true],value:(Double)0.5} : () -> builtin.tensor<1xf32>
    (%10) = "pd_op.scale" (%8, %9) {bias:(Float)0,bias_after_scale:true,stop_gradient:[false]} : (builtin.tensor<4x8xf32>, builtin.tensor<1xf32>) -> builtin.tensor<4x8xf32>
    (%11) = "pd_op.mean" (%10) {axis:(pd_op.IntArray)[],keepdim:false,stop_gradient:[false]} : (builtin.tensor<4x8xf32>) -> builtin.tensor<f32>
    () = "builtin.shadow_output" (%11) {output_name:"loss_0"} : (builtin.tensor<f32>) -> 
}
