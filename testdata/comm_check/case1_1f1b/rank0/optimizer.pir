{
    ^kw:
        %kwarg_learning_rate_0 {}
        %kwarg_linear_0.w_0 {}
        %kwarg_linear_0.w_0@GRAD@MERGE {persistable:true}
        %kwarg_linear_1.w_0 {}
        %kwarg_linear_1.w_0@GRAD@MERGE {persistable:true}
    (%0) = "pd_op.full" () {chunk_id:(Int64)0,dtype:(pd_op.DataType)float32,op_role:(Int32)2,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:[true],value:(Float)0.5} : () -> builtin.tensor<1xf32>
    (%1) = "pd_op.scale_" (%kwarg_linear_0.w_0@GRAD@MERGE, %0) {bias:(Float)0,bias_after_scale:false,chunk_id:(Int64)0,op_role:(Int32)2,stop_gradient:[false]} : (builtin.tensor<8x8xf32>, builtin.tensor<1xf32>) -> builtin.tensor<8x8xf32>
    (%2, %3) = "pd_op.sgd_" (%kwarg_linear_0.w_0, %kwarg_learning_rate_0, %1, <<NULL VALUE>>) {chunk_id:(Int64)0,multi_precision:false,op_role:(Int32)2,stop_gradient:[false,false]} : (builtin.tensor<8x8xf32>, builtin.tensor<f32>, builtin.tensor<8x8xf32>, <<NULL TYPE>>) -> builtin.tensor<8x8xf32>, <<NULL TYPE>>
    (%4) = "pd_op.full" () {chunk_id:(Int64)0,dtype:(pd_op.DataType)float32,op_role:(Int32)2,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:[true],value:(Float)0.5} : () -> builtin.tensor<1xf32>
    (%5) = "pd_op.scale_" (%kwarg_linear_1.w_0@GRAD@MERGE, %4) {bias:(Float)0,bias_after_scale:false,chunk_id:(Int64)0,op_role:(Int32)2,stop_gradient:[false]} : (builtin.tensor<8x8xf32>, builtin.tensor<1xf32>) -> builtin.tensor<8x8xf32>
    (%6, %7) = "pd_op.sgd_" (%kwarg_linear_1.w_0, %kwarg_learning_rate_0, %5, <<NULL VALUE>>) {chunk_id:(Int64)0,multi_precision:false,op_role:(Int32)2,stop_gradient:[false,false]} : (builtin.tensor<8x8xf32>, builtin.tensor<f32>, builtin.tensor<8x8xf32>, <<NULL TYPE>>) -> builtin.tensor<8x8xf32>, <<NULL TYPE>>
    (%8) = "pd_op.full" () {chunk_id:(Int64)0,dtype:(pd_op.DataType)float32,op_role:(Int32)2,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:[true],value:(Float)0} : () -> builtin.tensor<1xf32>
    (%9) = "pd_op.full_int_array" () {chunk_id:(Int64)0,dtype:(pd_op.DataType)int64,op_role:(Int32)2,place:(pd_op.Place)Place(cpu),stop_gradient:[true],value:[]} : () -> builtin.tensor<0xi64>
    (%10) = "pd_op.full_int_array" () {chunk_id:(Int64)0,dtype:(pd_op.DataType)int64,op_role:(Int32)2,place:(pd_op.Place)Place(cpu),stop_gradient:[true],value:[]} : () -> builtin.tensor<0xi64>
    (%11) = "pd_op.full_int_array" () {chunk_id:(Int64)0,dtype:(pd_op.DataType)int64,op_role:(Int32)2,place:(pd_op.Place)Place(cpu),stop_gradient:[true],value:[]} : () -> builtin.tensor<0xi64>
    (%12) = "pd_op.set_value_with_tensor_" (%kwarg_linear_0.w_0@GRAD@MERGE, %8, %9, %10, %11) {axes:[],chunk_id:(Int64)0,decrease_axes:[],none_axes:[],op_role:(Int32)2,stop_gradient:[false]} : (builtin.tensor<8x8xf32>, builtin.tensor<1xf32>, builtin.tensor<0xi64>, builtin.tensor<0xi64>, builtin.tensor<0xi64>) -> builtin.tensor<8x8xf32>
    (%13) = "pd_op.full" () {chunk_id:(Int64)0,dtype:(pd_op.DataType)float32,op_role:(Int32)2,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:[true],value:(Float)0} : () -> builtin.tensor<1xf32>
    (%14) = "pd_op.full_int_array" () {chunk_id:(Int64)0,dtype:(pd_op.DataType)int64,op_role:(Int32)2,place:(pd_op.Place)Place(cpu),stop_gradient:[true],value:[]} : () -> builtin.tensor<0xi64>
    (%15) = "pd_op.full_int_array" () {chunk_id:(Int64)0,dtype:(pd_op.DataType)int64,op_role:(Int32)2,place:(pd_op.Place)Place(cpu),stop_gradient:[true],value:[]} : () -> builtin.tensor<0xi64>
    (%16) = "pd_op.full_int_array" () {chunk_id:(Int64)0,dtype:(pd_op.DataType)int64,op_role:(Int32)2,place:(pd_op.Place)Place(cpu),stop_gradient:[true],value:[]} : () -> builtin.tensor<0xi64>
    (%17) = "pd_op.set_value_with_tensor_" (%kwarg_linear_1.w_0@GRAD@MERGE, %13, %14, %15, %16) {axes:[],chunk_id:(Int64)0,decrease_axes:[],none_axes:[],op_role:(Int32)2,stop_gradient:[false]} : (builtin.tensor<8x8xf32>, builtin.tensor<1xf32>, builtin.tensor<0xi64>, builtin.tensor<0xi64>, builtin.tensor<0xi64>) -> builtin.tensor<8x8xf32>
}
