{
    (%0) = "pd_op.recv_v2" () {chunk_id:(Int64)0,dtype:(pd_op.DataType)float32,dynamic_shape:false,op_role:(Int32)0,out_shape:[(Int32)4,(Int32)8],peer:(Int32)0,ring_id:(Int32)14,stop_gradient:[false],use_calc_stream:true} : () -> builtin.tensor<4x8xf32>
    () = "builtin.shadow_output" (%0) {chunk_id:(Int64)0,op_role:(Int32)0,output_name:"var_2_pd_op.recv_v2_0"} : (builtin.tensor<4x8xf32>) -> 
}
