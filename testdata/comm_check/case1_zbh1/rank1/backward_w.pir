{
    ^kw:
        %kwarg_linear_2.w_0@GRAD@MERGE {persistable:true}
        %kwarg_linear_3.w_0@GRAD@MERGE {persistable:true}
        %kwarg_var_14_pd_op.matmul_grad_1 {}
        %kwarg_var_18_pd_op.matmul_grad_1 {}
    (%0) = "pd_op.add_" (%kwarg_linear_3.w_0@GRAD@MERGE, %kwarg_var_14_pd_op.matmul_grad_1) {chunk_id:(Int64)0,grad_merge_add:true,op_role:(Int32)1,stop_gradient:[false]} : (builtin.tensor<8x8xf32>, builtin.tensor<8x8xf32>) -> builtin.tensor<8x8xf32>
    (%1) = "pd_op.add_" (%kwarg_linear_2.w_0@GRAD@MERGE, %kwarg_var_18_pd_op.matmul_grad_1) {chunk_id:(Int64)0,grad_merge_add:true,op_role:(Int32)1,stop_gradient:[false]} : (builtin.tensor<8x8xf32>, builtin.tensor<8x8xf32>) -> builtin.tensor<8x8xf32>
}
