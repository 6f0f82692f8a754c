{
    ^kw:
        %kwarg_var_7_pd_op.recv_v2_0 {}
    (%0) = "builtin.parameter" () {chunk_id:(Int64)1,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:(Int32)0,parameter_name:"linear_3.w_0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> builtin.tensor<8x8xf32>
    (%1) = "pd_op.matmul" (%kwarg_var_7_pd_op.recv_v2_0, %0) {chunk_id:(Int64)1,op_role:(Int32)0,stop_gradient:[false],transpose_x:false,transpose_y:false} : (builtin.tensor<4x8xf32>, builtin.tensor<8x8xf32>) -> builtin.tensor<4x8xf32>
    (%2) = "pd_op.relu" (%1) {chunk_id:(Int64)1,op_role:(Int32)0,stop_gradient:[false]} : (builtin.tensor<4x8xf32>) -> builtin.tensor<4x8xf32>
    () = "builtin.shadow_output" (%2) {chunk_id:(Int64)1,op_role:(Int32)0,output_name:"var_9_pd_op.relu_0"} : (builtin.tensor<4x8xf32>) -> 
    () = "pd_op.send_v2" (%2) {chunk_id:(Int64)1,dynamic_shape:false,op_role:(Int32)0,peer:(Int32)1,ring_id:(Int32)12,use_calc_stream:true} : (builtin.tensor<4x8xf32>) -> 
}
