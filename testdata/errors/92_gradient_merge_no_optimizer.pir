// RUN: pir-opt %s '--pass-pipeline=gradient-merge{k=2}'
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",op_role:(Int32)0,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,3],stop_gradient:[true]} : () -> builtin.tensor<4x3xf32>
    (%1) = "builtin.parameter" () {op_role:(Int32)0,parameter_name:"w",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> builtin.tensor<3x2xf32>
    (%2) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"learning_rate",op_role:(Int32)0,persistable:[true],place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[],stop_gradient:[true]} : () -> builtin.tensor<f32>
    (%3) = "pd_op.matmul" (%0, %1) {op_role:(Int32)0,stop_gradient:[false],transpose_x:false,transpose_y:false} : (builtin.tensor<4x3xf32>, builtin.tensor<3x2xf32>) -> builtin.tensor<4x2xf32>
    (%4) = "pd_op.mean" (%3) {axis:(pd_op.IntArray)[],keepdim:false,op_role:(Int32)0,stop_gradient:[false]} : (builtin.tensor<4x2xf32>) -> builtin.tensor<f32>
    () = "builtin.shadow_output" (%4) {op_role:(Int32)0,output_name:"loss"} : (builtin.tensor<f32>) -> 
}
