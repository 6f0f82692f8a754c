{
    ^kw:
        %kwarg_var_24_pd_op.matmul_grad_0 {}
    () = "pd_op.send_v2" (%kwarg_var_24_pd_op.matmul_grad_0) {chunk_id:(Int64)0,dynamic_shape:false,op_role:(Int32)1,peer:(Int32)1,ring_id:(Int32)15,use_calc_stream:true} : (builtin.tensor<4x8xf32>) -> 
}
