// RUN: pir-opt %s --pass-pipeline=pipeline-split{mode=FThenB}
// RULE: FThenB: programs forward, backward, optimizer by op_role; missing op_roles completed (data -> 0, full -> 1); crossing values handed over by shadow_output + ^kw kwargs
{
    (%0) = "builtin.parameter" () {chunk_id:(Int64)0,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:(Int32)0,parameter_name:"w0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> builtin.tensor<16x16xf32>
    (%1) = "builtin.parameter" () {chunk_id:(Int64)0,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:(Int32)0,parameter_name:"b0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> builtin.tensor<16xf32>
    (%2) = "builtin.parameter" () {chunk_id:(Int64)0,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:(Int32)0,parameter_name:"w1",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> builtin.tensor<16x16xf32>
    (%3) = "pd_op.data" () {chunk_id:(Int64)0,dtype:(pd_op.DataType)float32,name:"learning_rate",persistable:[true],place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[],stop_gradient:[true]} : () -> builtin.tensor<f32>
    (%4) = "pd_op.recv_v2" () {chunk_id:(Int64)0,dtype:(pd_op.DataType)float32,dynamic_shape:false,op_role:(Int32)0,out_shape:[(Int32)4,(Int32)16],peer:(Int32)0,ring_id:(Int32)11,stop_gradient:[false],use_calc_stream:true} : () -> builtin.tensor<4x16xf32>
    (%5) = "pd_op.matmul" (%4, %0) {chunk_id:(Int64)0,op_role:(Int32)0,stop_gradient:[false],transpose_x:false,transpose_y:false} : (builtin.tensor<4x16xf32>, builtin.tensor<16x16xf32>) -> builtin.tensor<4x16xf32>
    (%6) = "pd_op.add" (%5, %1) {chunk_id:(Int64)0,op_role:(Int32)0,stop_gradient:[false]} : (builtin.tensor<4x16xf32>, builtin.tensor<16xf32>) -> builtin.tensor<4x16xf32>
    (%7) = "pd_op.relu" (%6) {chunk_id:(Int64)0,op_role:(Int32)0,stop_gradient:[false]} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>
    (%8) = "pd_op.matmul" (%7, %2) {chunk_id:(Int64)0,op_role:(Int32)0,stop_gradient:[false],transpose_x:false,transpose_y:false} : (builtin.tensor<4x16xf32>, builtin.tensor<16x16xf32>) -> builtin.tensor<4x16xf32>
    (%9) = "pd_op.relu" (%8) {chunk_id:(Int64)0,op_role:(Int32)0,stop_gradient:[false]} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>
    (%10) = "pd_op.mean" (%9) {axis:(pd_op.IntArray)[],chunk_id:(Int64)0,keepdim:false,op_role:(Int32)0,stop_gradient:[false]} : (builtin.tensor<4x16xf32>) -> builtin.tensor<f32>
    () = "builtin.shadow_output" (%10) {chunk_id:(Int64)0,op_role:(Int32)0,output_name:"loss_0"} : (builtin.tensor<f32>) -> 
    (%11) = "pd_op.full" () {chunk_id:(Int64)0,dtype:(pd_op.DataType)float32,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:[true],value:(Float)1} : () -> builtin.tensor<1xf32>
    (%12) = "pd_op.full_like" (%10, %11) {chunk_id:(Int64)0,dtype:(pd_op.DataType)float32,op_role:(Int32)1,place:(pd_op.Place)Place(undefined:0),stop_gradient:[false]} : (builtin.tensor<f32>, builtin.tensor<1xf32>) -> builtin.tensor<f32>
    (%13) = "pd_op.mean_grad" (%9, %12) {axis:(pd_op.IntArray)[],chunk_id:(Int64)0,keepdim:false,op_role:(Int32)1,reduce_all:false,stop_gradient:[false]} : (builtin.tensor<4x16xf32>, builtin.tensor<f32>) -> builtin.tensor<4x16xf32>
    (%14) = "pd_op.relu_grad" (%9, %13) {chunk_id:(Int64)0,op_role:(Int32)1,stop_gradient:[false]} : (builtin.tensor<4x16xf32>, builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>
    (%15, %16) = "pd_op.matmul_grad" (%7, %2, %14) {chunk_id:(Int64)0,op_role:(Int32)1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (builtin.tensor<4x16xf32>, builtin.tensor<16x16xf32>, builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>, builtin.tensor<16x16xf32>
    (%17) = "pd_op.relu_grad" (%7, %15) {chunk_id:(Int64)0,op_role:(Int32)1,stop_gradient:[false]} : (builtin.tensor<4x16xf32>, builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>
    (%18, %19) = "pd_op.add_grad" (%5, %1, %17) {axis:(Int32)-1,chunk_id:(Int64)0,op_role:(Int32)1,stop_gradient:[false,false]} : (builtin.tensor<4x16xf32>, builtin.tensor<16xf32>, builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>, builtin.tensor<16xf32>
    (%20, %21) = "pd_op.matmul_grad" (%4, %0, %18) {chunk_id:(Int64)0,op_role:(Int32)1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (builtin.tensor<4x16xf32>, builtin.tensor<16x16xf32>, builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>, builtin.tensor<16x16xf32>
    () = "pd_op.send_v2" (%20) {chunk_id:(Int64)0,dynamic_shape:false,op_role:(Int32)1,peer:(Int32)0,ring_id:(Int32)11,use_calc_stream:true} : (builtin.tensor<4x16xf32>) -> 
    (%22, %23) = "pd_op.sgd_" (%0, %3, %21, <<NULL VALUE>>) {chunk_id:(Int64)0,multi_precision:false,op_role:(Int32)2,stop_gradient:[false,false]} : (builtin.tensor<16x16xf32>, builtin.tensor<f32>, builtin.tensor<16x16xf32>, <<NULL TYPE>>) -> builtin.tensor<16x16xf32>, <<NULL TYPE>>
    (%24, %25) = "pd_op.sgd_" (%1, %3, %19, <<NULL VALUE>>) {chunk_id:(Int64)0,multi_precision:false,op_role:(Int32)2,stop_gradient:[false,false]} : (builtin.tensor<16xf32>, builtin.tensor<f32>, builtin.tensor<16xf32>, <<NULL TYPE>>) -> builtin.tensor<16xf32>, <<NULL TYPE>>
    (%26, %27) = "pd_op.sgd_" (%2, %3, %16, <<NULL VALUE>>) {chunk_id:(Int64)0,multi_precision:false,op_role:(Int32)2,stop_gradient:[false,false]} : (builtin.tensor<16x16xf32>, builtin.tensor<f32>, builtin.tensor<16x16xf32>, <<NULL TYPE>>) -> builtin.tensor<16x16xf32>, <<NULL TYPE>>
}
