{
    ^kw:
        %kwarg_linear_5.w_0 {}
        %kwarg_linear_5.w_0@GRAD@MERGE {persistable:true}
        %kwarg_loss_0 {}
        %kwarg_var_11_pd_op.relu_0 {}
        %kwarg_var_6_pd_op.recv_v2_0 {}
        %kwarg_var_7_pd_op.recv_v2_0 {}
        %kwarg_var_8_pd_op.add_0 {}
    (%0) = "pd_op.full" () {chunk_id:(Int64)1,dtype:(pd_op.DataType)float32,op_role:(Int32)1,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:[true],value:(Float)1} : () -> builtin.tensor<1xf32>
    (%1) = "pd_op.full_like" (%kwarg_loss_0, %0) {chunk_id:(Int64)1,dtype:(pd_op.DataType)float32,op_role:(Int32)1,place:(pd_op.Place)Place(undefined:0),stop_gradient:[false]} : (builtin.tensor<f32>, builtin.tensor<1xf32>) -> builtin.tensor<f32>
    (%2) = "pd_op.mean_grad" (%kwarg_var_11_pd_op.relu_0, %1) {axis:(pd_op.IntArray)[],chunk_id:(Int64)1,keepdim:false,op_role:(Int32)1,reduce_all:false,stop_gradient:[false]} : (builtin.tensor<4x8xf32>, builtin.tensor<f32>) -> builtin.tensor<4x8xf32>
    (%3) = "pd_op.relu_grad" (%kwarg_var_11_pd_op.relu_0, %2) {chunk_id:(Int64)1,op_role:(Int32)1,stop_gradient:[false]} : (builtin.tensor<4x8xf32>, builtin.tensor<4x8xf32>) -> builtin.tensor<4x8xf32>
    (%4, %5) = "pd_op.matmul_grad" (%kwarg_var_8_pd_op.add_0, %kwarg_linear_5.w_0, %3) {chunk_id:(Int64)1,op_role:(Int32)1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (builtin.tensor<4x8xf32>, builtin.tensor<8x8xf32>, builtin.tensor<4x8xf32>) -> builtin.tensor<4x8xf32>, builtin.tensor<8x8xf32>
    (%6) = "pd_op.add_" (%kwarg_linear_5.w_0@GRAD@MERGE, %5) {chunk_id:(Int64)1,grad_merge_add:true,op_role:(Int32)1,stop_gradient:[false]} : (builtin.tensor<8x8xf32>, builtin.tensor<8x8xf32>) -> builtin.tensor<8x8xf32>
    (%7, %8) = "pd_op.add_grad" (%kwarg_var_6_pd_op.recv_v2_0, %kwarg_var_7_pd_op.recv_v2_0, %4) {axis:(Int32)-1,chunk_id:(Int64)1,op_role:(Int32)1,stop_gradient:[false,false]} : (builtin.tensor<4x8xf32>, builtin.tensor<4x8xf32>, builtin.tensor<4x8xf32>) -> builtin.tensor<4x8xf32>, builtin.tensor<4x8xf32>
    () = "builtin.shadow_output" (%7) {chunk_id:(Int64)1,op_role:(Int32)1,output_name:"var_20_pd_op.add_grad_0"} : (builtin.tensor<4x8xf32>) -> 
    () = "builtin.shadow_output" (%8) {chunk_id:(Int64)1,op_role:(Int32)1,output_name:"var_20_pd_op.add_grad_1"} : (builtin.tensor<4x8xf32>) -> 
}
