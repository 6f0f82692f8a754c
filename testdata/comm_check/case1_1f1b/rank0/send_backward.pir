{
    ^kw:
        %kwarg_var_7_pd_op.relu_0 {}
    () = "pd_op.send_v2" (%kwarg_var_7_pd_op.relu_0) {chunk_id:(Int64)0,dynamic_shape:false,op_role:(Int32)1,peer:(Int32)1,ring_id:(Int32)12,use_calc_stream:true} : (builtin.tensor<4x8xf32>) -> 
}
