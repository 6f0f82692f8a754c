{
    (%0) = "pd_op.data" () {chunk_id:(Int64)0,dtype:(pd_op.DataType)float32,name:"learning_rate_1",op_role:(Int32)0,persistable:[true],place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[],stop_gradient:[true]} : () -> builtin.tensor<f32>
    (%1) = "builtin.parameter" () {chunk_id:(Int64)0,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:(Int32)0,parameter_name:"linear_2.w_0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> builtin.tensor<8x8xf32>
    (%2) = "pd_op.recv_v2" () {chunk_id:(Int64)0,dtype:(pd_op.DataType)float32,dynamic_shape:false,op_role:(Int32)0,out_shape:[(Int32)4,(Int32)8],peer:(Int32)0,ring_id:(Int32)12,stop_gradient:[false],use_calc_stream:true} : () -> builtin.tensor<4x8xf32>
    (%3) = "pd_op.matmul" (%2, %1) {chunk_id:(Int64)0,op_role:(Int32)0,stop_gradient:[false],transpose_x:false,transpose_y:false} : (builtin.tensor<4x8xf32>, builtin.tensor<8x8xf32>) -> builtin.tensor<4x8xf32>
    (%4) = "pd_op.relu" (%3) {chunk_id:(Int64)0,op_role:(Int32)0,stop_gradient:[false]} : (builtin.tensor<4x8xf32>) -> builtin.tensor<4x8xf32>
    () = "builtin.shadow_output" (%4) {chunk_id:(Int64)0,op_role:(Int32)0,output_name:"var_4_pd_op.relu_0"} : (builtin.tensor<4x8xf32>) -> 
    (%5) = "builtin.parameter" () {chunk_id:(Int64)0,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:(Int32)0,parameter_name:"linear_3.w_0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> builtin.tensor<8x8xf32>
    (%6) = "pd_op.matmul" (%4, %5) {chunk_id:(Int64)0,op_role:(Int32)0,stop_gradient:[false],transpose_x:false,transpose_y:false} : (builtin.tensor<4x8xf32>, builtin.tensor<8x8xf32>) -> builtin.tensor<4x8xf32>
    (%7) = "pd_op.relu" (%6) {chunk_id:(Int64)0,op_role:(Int32)0,stop_gradient:[false]} : (builtin.tensor<4x8xf32>) -> builtin.tensor<4x8xf32>
    () = "builtin.shadow_output" (%7) {chunk_id:(Int64)0,op_role:(Int32)0,output_name:"var_7_pd_op.relu_0"} : (builtin.tensor<4x8xf32>) -> 
    (%8) = "pd_op.mean" (%7) {axis:(pd_op.IntArray)[],chunk_id:(Int64)0,keepdim:false,op_role:(Int32)0,stop_gradient:[false]} : (builtin.tensor<4x8xf32>) -> builtin.tensor<f32>
    () = "builtin.shadow_output" (%8) {chunk_id:(Int64)0,op_role:(Int32)0,output_name:"loss_0"} : (builtin.tensor<f32>) -> 
}
