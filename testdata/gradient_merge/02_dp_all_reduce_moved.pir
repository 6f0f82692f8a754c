// RUN: pir-opt %s '--pass-pipeline=gradient-merge{k=2 avg=false}' --pass-statistics
// RULE: a per-rank program whose gradient reaches sgd_ through an all_reduce (op_role 1): the all_reduce carries only that gradient, so it moves to the optimizer (op_role 2) and reads the buffer, running once per step on the merged sum (Paddle's _move_used_grad_op); add_ accumulates the unreduced gradient; avg=false: no scale_
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"learning_rate_1",op_role:(Int32)0,persistable:[true],place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[],stop_gradient:[true]} : () -> builtin.tensor<f32>
    (%1) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:(Int32)0,parameter_name:"parameter_1",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> builtin.tensor<8x8xf32>
    (%2) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:(Int32)0,parameter_name:"parameter_0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> builtin.tensor<16x8xf32>
    (%3) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"input0",op_role:(Int32)0,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,16],stop_gradient:[true]} : () -> builtin.tensor<4x16xf32>
    (%4) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"label0",op_role:(Int32)0,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,8],stop_gradient:[true]} : () -> builtin.tensor<4x8xf32>
    (%5) = "pd_op.relu" (%3) {op_role:(Int32)0,stop_gradient:[false]} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>
    (%6) = "pd_op.matmul" (%5, %2) {op_role:(Int32)0,stop_gradient:[false],transpose_x:false,transpose_y:false} : (builtin.tensor<4x16xf32>, builtin.tensor<16x8xf32>) -> builtin.tensor<4x8xf32>
    (%7) = "pd_op.relu" (%6) {op_role:(Int32)0,stop_gradient:[false]} : (builtin.tensor<4x8xf32>) -> builtin.tensor<4x8xf32>
    (%8) = "pd_op.matmul" (%7, %1) {op_role:(Int32)0,stop_gradient:[false],transpose_x:false,transpose_y:false} : (builtin.tensor<4x8xf32>, builtin.tensor<8x8xf32>) -> builtin.tensor<4x8xf32>
    (%9) = "pd_op.all_reduce" (%8) {op_role:(Int32)0,reduce_type:(Int32)0,ring_id:(Int32)12,stop_gradient:[false]} : (builtin.tensor<4x8xf32>) -> builtin.tensor<4x8xf32>
    (%10) = "pd_op.relu" (%9) {op_role:(Int32)0,stop_gradient:[false]} : (builtin.tensor<4x8xf32>) -> builtin.tensor<4x8xf32>
    (%11) = "pd_op.subtract" (%10, %4) {op_role:(Int32)0,stop_gradient:[false]} : (builtin.tensor<4x8xf32>, builtin.tensor<4x8xf32>) -> builtin.tensor<4x8xf32>
    (%12) = "pd_op.square" (%11) {op_role:(Int32)0,stop_gradient:[false]} : (builtin.tensor<4x8xf32>) -> builtin.tensor<4x8xf32>
    (%13) = "pd_op.mean" (%12) {axis:(pd_op.IntArray)[],keepdim:false,op_role:(Int32)0,stop_gradient:[false]} : (builtin.tensor<4x8xf32>) -> builtin.tensor<f32>
    () = "builtin.shadow_output" (%13) {op_role:(Int32)0,output_name:"loss_0"} : (builtin.tensor<f32>) -> 
    (%14) = "pd_op.full" () {dtype:(pd_op.DataType)float32,op_role:(Int32)1,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:[true],value:(Float)1} : () -> builtin.tensor<1xf32>
    (%15) = "pd_op.full_like" (%13, %14) {dtype:(pd_op.DataType)float32,op_role:(Int32)1,place:(pd_op.Place)Place(undefined:0),stop_gradient:[false]} : (builtin.tensor<f32>, builtin.tensor<1xf32>) -> builtin.tensor<f32>
    (%16) = "pd_op.mean_grad" (%12, %15) {axis:(pd_op.IntArray)[],keepdim:false,op_role:(Int32)1,reduce_all:false,stop_gradient:[false]} : (builtin.tensor<4x8xf32>, builtin.tensor<f32>) -> builtin.tensor<4x8xf32>
    (%17) = "pd_op.square_grad" (%11, %16) {op_role:(Int32)1,stop_gradient:[false]} : (builtin.tensor<4x8xf32>, builtin.tensor<4x8xf32>) -> builtin.tensor<4x8xf32>
    (%18, %19) = "pd_op.subtract_grad" (%10, %4, %17) {axis:(Int32)-1,op_role:(Int32)1,stop_gradient:[false,false]} : (builtin.tensor<4x8xf32>, builtin.tensor<4x8xf32>, builtin.tensor<4x8xf32>) -> builtin.tensor<4x8xf32>, <<NULL TYPE>>
    (%20) = "pd_op.relu_grad" (%10, %18) {op_role:(Int32)1,stop_gradient:[false]} : (builtin.tensor<4x8xf32>, builtin.tensor<4x8xf32>) -> builtin.tensor<4x8xf32>
    (%21, %22) = "pd_op.matmul_grad" (%7, %1, %20) {op_role:(Int32)1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (builtin.tensor<4x8xf32>, builtin.tensor<8x8xf32>, builtin.tensor<4x8xf32>) -> builtin.tensor<4x8xf32>, builtin.tensor<8x8xf32>
    (%23) = "pd_op.relu_grad" (%7, %21) {op_role:(Int32)1,stop_gradient:[false]} : (builtin.tensor<4x8xf32>, builtin.tensor<4x8xf32>) -> builtin.tensor<4x8xf32>
    (%24, %25) = "pd_op.matmul_grad" (%5, %2, %23) {op_role:(Int32)1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (builtin.tensor<4x16xf32>, builtin.tensor<16x8xf32>, builtin.tensor<4x8xf32>) -> builtin.tensor<4x16xf32>, builtin.tensor<16x8xf32>
    (%26) = "pd_op.all_reduce" (%24) {op_role:(Int32)1,reduce_type:(Int32)0,ring_id:(Int32)12,stop_gradient:[false]} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>
    (%27) = "pd_op.relu_grad" (%5, %26) {op_role:(Int32)1,stop_gradient:[false]} : (builtin.tensor<4x16xf32>, builtin.tensor<4x16xf32>) -> <<NULL TYPE>>
    (%28) = "pd_op.all_reduce" (%22) {op_role:(Int32)1,reduce_type:(Int32)0,ring_id:(Int32)14,stop_gradient:[false]} : (builtin.tensor<8x8xf32>) -> builtin.tensor<8x8xf32>
    (%29, %30) = "pd_op.sgd_" (%1, %0, %28, <<NULL VALUE>>) {multi_precision:false,op_role:(Int32)2,stop_gradient:[false,false]} : (builtin.tensor<8x8xf32>, builtin.tensor<f32>, builtin.tensor<8x8xf32>, <<NULL TYPE>>) -> builtin.tensor<8x8xf32>, <<NULL TYPE>>
    (%31, %32) = "pd_op.sgd_" (%2, %0, %25, <<NULL VALUE>>) {multi_precision:false,op_role:(Int32)2,stop_gradient:[false,false]} : (builtin.tensor<16x8xf32>, builtin.tensor<f32>, builtin.tensor<16x8xf32>, <<NULL TYPE>>) -> builtin.tensor<16x8xf32>, <<NULL TYPE>>
}
