{
    ^kw:
        %kwarg_linear_2.w_0 {}
        %kwarg_linear_3.w_0 {}
        %kwarg_loss_0 {}
        %kwarg_var_4_pd_op.relu_0 {}
        %kwarg_var_7_pd_op.relu_0 {}
    (%0) = "pd_op.full" () {chunk_id:(Int64)0,dtype:(pd_op.DataType)float32,op_role:(Int32)1,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:[true],value:(Float)1} : () -> builtin.tensor<1xf32>
    (%1) = "pd_op.full_like" (%kwarg_loss_0, %0) {chunk_id:(Int64)0,dtype:(pd_op.DataType)float32,op_role:(Int32)1,place:(pd_op.Place)Place(undefined:0),stop_gradient:[false]} : (builtin.tensor<f32>, builtin.tensor<1xf32>) -> builtin.tensor<f32>
    (%2) = "pd_op.mean_grad" (%kwarg_var_7_pd_op.relu_0, %1) {axis:(pd_op.IntArray)[],chunk_id:(Int64)0,keepdim:false,op_role:(Int32)1,reduce_all:false,stop_gradient:[false]} : (builtin.tensor<4x8xf32>, builtin.tensor<f32>) -> builtin.tensor<4x8xf32>
    (%3) = "pd_op.relu_grad" (%kwarg_var_7_pd_op.relu_0, %2) {chunk_id:(Int64)0,op_role:(Int32)1,stop_gradient:[false]} : (builtin.tensor<4x8xf32>, builtin.tensor<4x8xf32>) -> builtin.tensor<4x8xf32>
    (%4, %5) = "pd_op.matmul_grad" (%kwarg_var_4_pd_op.relu_0, %kwarg_linear_3.w_0, %3) {chunk_id:(Int64)0,op_role:(Int32)1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (builtin.tensor<4x8xf32>, builtin.tensor<8x8xf32>, builtin.tensor<4x8xf32>) -> builtin.tensor<4x8xf32>, builtin.tensor<8x8xf32>
    () = "builtin.shadow_output" (%5) {chunk_id:(Int64)0,op_role:(Int32)1,output_name:"var_14_pd_op.matmul_grad_1"} : (builtin.tensor<8x8xf32>) -> 
    (%6) = "pd_op.relu_grad" (%kwarg_var_4_pd_op.relu_0, %4) {chunk_id:(Int64)0,op_role:(Int32)1,stop_gradient:[false]} : (builtin.tensor<4x8xf32>, builtin.tensor<4x8xf32>) -> builtin.tensor<4x8xf32>
    (%7) = "pd_op.recv_v2" () {chunk_id:(Int64)0,dtype:(pd_op.DataType)float32,dynamic_shape:false,op_role:(Int32)1,out_shape:[(Int32)4,(Int32)8],peer:(Int32)0,ring_id:(Int32)12,stop_gradient:[false],use_calc_stream:true} : () -> builtin.tensor<4x8xf32>
    (%8, %9) = "pd_op.matmul_grad" (%7, %kwarg_linear_2.w_0, %6) {chunk_id:(Int64)0,op_role:(Int32)1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (builtin.tensor<4x8xf32>, builtin.tensor<8x8xf32>, builtin.tensor<4x8xf32>) -> builtin.tensor<4x8xf32>, builtin.tensor<8x8xf32>
    () = "builtin.shadow_output" (%9) {chunk_id:(Int64)0,op_role:(Int32)1,output_name:"var_18_pd_op.matmul_grad_1"} : (builtin.tensor<8x8xf32>) -> 
    () = "pd_op.send_v2" (%8) {chunk_id:(Int64)0,dynamic_shape:false,op_role:(Int32)1,peer:(Int32)1,ring_id:(Int32)13,use_calc_stream:true} : (builtin.tensor<4x8xf32>) -> 
}
