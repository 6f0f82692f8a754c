// RUN: pir-opt %s '--pass-pipeline=gradient-merge{k=2 avg=true}' --pass-statistics
// RULE: rank 1 of a 2-stage pipeline program (apply-partition,split-ranks{rank=1} of 05's input: recv_v2 from stage 0, send_v2 of the activation gradient back): only the parameter gradient w1's is merged; the send_v2 and recv_v2 are left alone
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"learning_rate_1",op_role:(Int32)0,persistable:[true],place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[],stop_gradient:[true]} : () -> builtin.tensor<f32>
    (%1) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:(Int32)0,parameter_name:"w1",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> builtin.tensor<8x8xf32>
    (%2) = "pd_op.recv_v2" () {dtype:(pd_op.DataType)float32,dynamic_shape:false,op_role:(Int32)0,out_shape:[(Int32)4,(Int32)8],peer:(Int32)0,ring_id:(Int32)12,stop_gradient:[false],use_calc_stream:true} : () -> builtin.tensor<4x8xf32>
    (%3) = "pd_op.matmul" (%2, %1) {op_role:(Int32)0,stop_gradient:[false],transpose_x:false,transpose_y:false} : (builtin.tensor<4x8xf32>, builtin.tensor<8x8xf32>) -> builtin.tensor<4x8xf32>
    (%4) = "pd_op.mean" (%3) {axis:(pd_op.IntArray)[],keepdim:false,op_role:(Int32)0,stop_gradient:[false]} : (builtin.tensor<4x8xf32>) -> builtin.tensor<f32>
    () = "builtin.shadow_output" (%4) {op_role:(Int32)0,output_name:"loss_0"} : (builtin.tensor<f32>) -> 
    (%5) = "pd_op.full" () {dtype:(pd_op.DataType)float32,op_role:(Int32)1,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:[true],value:(Float)1} : () -> builtin.tensor<1xf32>
    (%6) = "pd_op.full_like" (%4, %5) {dtype:(pd_op.DataType)float32,op_role:(Int32)1,place:(pd_op.Place)Place(undefined:0),stop_gradient:[false]} : (builtin.tensor<f32>, builtin.tensor<1xf32>) -> builtin.tensor<f32>
    (%7) = "pd_op.mean_grad" (%3, %6) {axis:(pd_op.IntArray)[],keepdim:false,op_role:(Int32)1,reduce_all:false,stop_gradient:[false]} : (builtin.tensor<4x8xf32>, builtin.tensor<f32>) -> builtin.tensor<4x8xf32>
    (%8, %9) = "pd_op.matmul_grad" (%2, %1, %7) {op_role:(Int32)1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (builtin.tensor<4x8xf32>, builtin.tensor<8x8xf32>, builtin.tensor<4x8xf32>) -> builtin.tensor<4x8xf32>, builtin.tensor<8x8xf32>
    () = "pd_op.send_v2" (%8) {dynamic_shape:false,op_role:(Int32)1,peer:(Int32)1,ring_id:(Int32)13,use_calc_stream:true} : (builtin.tensor<4x8xf32>) -> 
    (%10, %11) = "pd_op.sgd_" (%1, %0, %9, <<NULL VALUE>>) {multi_precision:false,op_role:(Int32)2,stop_gradient:[false,false]} : (builtin.tensor<8x8xf32>, builtin.tensor<f32>, builtin.tensor<8x8xf32>, <<NULL TYPE>>) -> builtin.tensor<8x8xf32>, <<NULL TYPE>>
}
