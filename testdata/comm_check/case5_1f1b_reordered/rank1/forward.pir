{
    ^kw:
        %kwarg_var_2_pd_op.recv_v2_0 {}
    (%0) = "pd_op.data" () {chunk_id:(Int64)0,dtype:(pd_op.DataType)float32,name:"learning_rate_1",op_role:(Int32)0,persistable:[true],place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[],stop_gradient:[true]} : () -> builtin.tensor<f32>
    (%1) = "builtin.parameter" () {chunk_id:(Int64)0,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:(Int32)0,parameter_name:"linear_2.w_0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> builtin.tensor<8x8xf32>
    (%2) = "pd_op.matmul" (%kwarg_var_2_pd_op.recv_v2_0, %1) {chunk_id:(Int64)0,op_role:(Int32)0,stop_gradient:[false],transpose_x:false,transpose_y:false} : (builtin.tensor<4x8xf32>, builtin.tensor<8x8xf32>) -> builtin.tensor<4x8xf32>
    (%3) = "pd_op.relu" (%2) {chunk_id:(Int64)0,op_role:(Int32)0,stop_gradient:[false]} : (builtin.tensor<4x8xf32>) -> builtin.tensor<4x8xf32>
    () = "builtin.shadow_output" (%3) {chunk_id:(Int64)0,op_role:(Int32)0,output_name:"var_4_pd_op.relu_0"} : (builtin.tensor<4x8xf32>) -> 
    (%4) = "builtin.parameter" () {chunk_id:(Int64)0,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:(Int32)0,parameter_name:"linear_3.w_0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> builtin.tensor<8x8xf32>
    (%5) = "pd_op.matmul" (%3, %4) {chunk_id:(Int64)0,op_role:(Int32)0,stop_gradient:[false],transpose_x:false,transpose_y:false} : (builtin.tensor<4x8xf32>, builtin.tensor<8x8xf32>) -> builtin.tensor<4x8xf32>
    (%6) = "pd_op.relu" (%5) {chunk_id:(Int64)0,op_role:(Int32)0,stop_gradient:[false]} : (builtin.tensor<4x8xf32>) -> builtin.tensor<4x8xf32>
    () = "builtin.shadow_output" (%6) {chunk_id:(Int64)0,op_role:(Int32)0,output_name:"var_7_pd_op.relu_0"} : (builtin.tensor<4x8xf32>) -> 
    () = "pd_op.send_v2" (%6) {chunk_id:(Int64)0,dynamic_shape:false,op_role:(Int32)0,peer:(Int32)1,ring_id:(Int32)14,use_calc_stream:true} : (builtin.tensor<4x8xf32>) -> 
}
