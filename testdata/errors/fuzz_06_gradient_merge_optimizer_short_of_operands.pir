// RUN: pir-opt %s '--pass-pipeline=gradient-merge{k=2}'
// Found by fuzz_passes: an optimizer op short of its gradient operand had it read past its operands.
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",op_role:(Int32)0,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,3],stop_gradient:[true]} : () -> builtin.tensor<4x3xf32>
    (%1) = "builtin.parameter" () {op_role:(Int32)0,parameter_name:"w",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> builtin.tensor<3x2xf32>
    (%2) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"learning_rate",op_role:(Int32)0,persistable:[true],place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[],stop_gradient:[true]} : () -> builtin.tensor<f32>
    (%3) = "pd_op.matmul" (%0, %1) {op_role:(Int32)0,stop_gradient:[false],transpose_x:false,transpose_y:false} : (builtin.tensor<4x3xf32>, builtin.tensor<3x2xf32>) -> builtin.tensor<4x2xf32>
    (%4) = "pd_op.mean" (%3) {axis:(pd_op.IntArray)[],keepdim:false,op_role:(Int32)0,stop_gradient:[false]} : (builtin.tensor<4x2xf32>) -> builtin.tensor<f32>
    () = "builtin.shadow_output" (%4) {op_role:(Int32)0,output_name:"loss"} : (builtin.tensor<f32>) -> 
    (%5) = "pd_op.full" () {dtype:(pd_op.DataType)float32,op_role:(Int32)1,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:[true],value:(Float)1} : () -> builtin.tensor<1xf32>
    (%6) = "pd_op.full_like" (%4, %5) {dtype:(pd_op.DataType)float32,op_role:(Int32)1,place:(pd_op.Place)Place(undefined:0),stop_gradient:[false]} : (builtin.tensor<f32>, builtin.tensor<1xf32>) -> builtin.tensor<f32>
    (%7) = "pd_op.mean_grad" (%3, %6) {axis:(pd_op.IntArray)[],keepdim:false,op_role:(Int32)1,reduce_all:false,stop_gradient:[false]} : (builtin.tensor<4x2xf32>, builtin.tensor<f32>) -> builtin.tensor<4x2xf32>
    (%8, %9) = "pd_op.matmul_grad" (%0, %1, %7) {op_role:(Int32)1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (builtin.tensor<4x3xf32>, builtin.tensor<3x2xf32>, builtin.tensor<4x2xf32>) -> builtin.tensor<4x3xf32>, builtin.tensor<3x2xf32>
    (%10) = "pd_op.sgd_" (%1, %2) {multi_precision:false,op_role:(Int32)2,stop_gradient:[false]} : (builtin.tensor<3x2xf32>, builtin.tensor<f32>) -> builtin.tensor<3x2xf32>
}
