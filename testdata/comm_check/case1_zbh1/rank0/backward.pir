{
    ^kw:
        %kwarg_input0 {}
        %kwarg_linear_0.w_0 {}
        %kwarg_linear_0.w_0@GRAD@MERGE {persistable:true}
        %kwarg_linear_1.w_0 {}
        %kwarg_linear_1.w_0@GRAD@MERGE {persistable:true}
        %kwarg_var_4_pd_op.relu_0 {}
        %kwarg_var_7_pd_op.relu_0 {}
    () = "pd_op.send_v2" (%kwarg_var_7_pd_op.relu_0) {chunk_id:(Int64)0,dynamic_shape:false,op_role:(Int32)1,peer:(Int32)1,ring_id:(Int32)12,use_calc_stream:true} : (builtin.tensor<4x8xf32>) -> 
    (%0) = "pd_op.recv_v2" () {chunk_id:(Int64)0,dtype:(pd_op.DataType)float32,dynamic_shape:false,op_role:(Int32)1,out_shape:[(Int32)4,(Int32)8],peer:(Int32)0,ring_id:(Int32)13,stop_gradient:[false],use_calc_stream:true} : () -> builtin.tensor<4x8xf32>
    (%1) = "pd_op.relu_grad" (%kwarg_var_7_pd_op.relu_0, %0) {chunk_id:(Int64)0,op_role:(Int32)1,stop_gradient:[false]} : (builtin.tensor<4x8xf32>, builtin.tensor<4x8xf32>) -> builtin.tensor<4x8xf32>
    (%2, %3) = "pd_op.matmul_grad" (%kwarg_var_4_pd_op.relu_0, %kwarg_linear_1.w_0, %1) {chunk_id:(Int64)0,op_role:(Int32)1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (builtin.tensor<4x8xf32>, builtin.tensor<8x8xf32>, builtin.tensor<4x8xf32>) -> builtin.tensor<4x8xf32>, builtin.tensor<8x8xf32>
    (%4) = "pd_op.add_" (%kwarg_linear_1.w_0@GRAD@MERGE, %3) {chunk_id:(Int64)0,grad_merge_add:true,op_role:(Int32)1,stop_gradient:[false]} : (builtin.tensor<8x8xf32>, builtin.tensor<8x8xf32>) -> builtin.tensor<8x8xf32>
    (%5) = "pd_op.relu_grad" (%kwarg_var_4_pd_op.relu_0, %2) {chunk_id:(Int64)0,op_role:(Int32)1,stop_gradient:[false]} : (builtin.tensor<4x8xf32>, builtin.tensor<4x8xf32>) -> builtin.tensor<4x8xf32>
    (%6, %7) = "pd_op.matmul_grad" (%kwarg_input0, %kwarg_linear_0.w_0, %5) {chunk_id:(Int64)0,op_role:(Int32)1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (builtin.tensor<4x8xf32>, builtin.tensor<8x8xf32>, builtin.tensor<4x8xf32>) -> builtin.tensor<4x8xf32>, builtin.tensor<8x8xf32>
    (%8) = "pd_op.add_" (%kwarg_linear_0.w_0@GRAD@MERGE, %7) {chunk_id:(Int64)0,grad_merge_add:true,op_role:(Int32)1,stop_gradient:[false]} : (builtin.tensor<8x8xf32>, builtin.tensor<8x8xf32>) -> builtin.tensor<8x8xf32>
}
