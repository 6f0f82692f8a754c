{
    ^kw:
        %kwarg_var_6_pd_op.recv_v2_0 {}
        %kwarg_var_7_pd_op.recv_v2_0 {}
    (%0) = "pd_op.add" (%kwarg_var_6_pd_op.recv_v2_0, %kwarg_var_7_pd_op.recv_v2_0) {chunk_id:(Int64)1,op_role:(Int32)0,stop_gradient:[false]} : (builtin.tensor<4x8xf32>, builtin.tensor<4x8xf32>) -> builtin.tensor<4x8xf32>
    () = "builtin.shadow_output" (%0) {chunk_id:(Int64)1,op_role:(Int32)0,output_name:"var_8_pd_op.add_0"} : (builtin.tensor<4x8xf32>) -> 
    (%1) = "builtin.parameter" () {chunk_id:(Int64)1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:(Int32)0,parameter_name:"linear_5.w_0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> builtin.tensor<8x8xf32>
    (%2) = "pd_op.matmul" (%0, %1) {chunk_id:(Int64)1,op_role:(Int32)0,stop_gradient:[false],transpose_x:false,transpose_y:false} : (builtin.tensor<4x8xf32>, builtin.tensor<8x8xf32>) -> builtin.tensor<4x8xf32>
    (%3) = "pd_op.relu" (%2) {chunk_id:(Int64)1,op_role:(Int32)0,stop_gradient:[false]} : (builtin.tensor<4x8xf32>) -> builtin.tensor<4x8xf32>
    () = "builtin.shadow_output" (%3) {chunk_id:(Int64)1,op_role:(Int32)0,output_name:"var_11_pd_op.relu_0"} : (builtin.tensor<4x8xf32>) -> 
    (%4) = "pd_op.mean" (%3) {axis:(pd_op.IntArray)[],chunk_id:(Int64)1,keepdim:false,op_role:(Int32)0,stop_gradient:[false]} : (builtin.tensor<4x8xf32>) -> builtin.tensor<f32>
    () = "builtin.shadow_output" (%4) {chunk_id:(Int64)1,op_role:(Int32)0,output_name:"loss_0"} : (builtin.tensor<f32>) -> 
}
