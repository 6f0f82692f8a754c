// RUN: pir-opt %s --pass-pipeline=split-matmul-grad
// RULE: split-matmul-grad, rank(x)=3 with rank-2 y: x_grad = matmul(out_grad, y, false, true); y_grad = reshape(matmul(reshape(x,[d0*d1,k]), reshape(out_grad,[d0*d1,n]), true, false), y dims), each shape from a full_int_array (dtype int64, place cpu); reshape has one result; order as Paddle inserts them
{
    (%0) = "pd_op.data" () {chunk_id:(Int64)0,dtype:(pd_op.DataType)float32,name:"x",op_role:(Int32)0,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[2,4,16],stop_gradient:[true]} : () -> builtin.tensor<2x4x16xf32>
    (%1) = "builtin.parameter" () {chunk_id:(Int64)0,is_distributed:[false],is_parameter:[true],need_clip:[true],op_role:(Int32)0,parameter_name:"w",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> builtin.tensor<16x8xf32>
    (%2) = "pd_op.relu" (%0) {chunk_id:(Int64)0,op_role:(Int32)0,stop_gradient:[false]} : (builtin.tensor<2x4x16xf32>) -> builtin.tensor<2x4x16xf32>
    (%3) = "pd_op.matmul" (%2, %1) {chunk_id:(Int64)0,op_role:(Int32)0,stop_gradient:[false],transpose_x:false,transpose_y:false} : (builtin.tensor<2x4x16xf32>, builtin.tensor<16x8xf32>) -> builtin.tensor<2x4x8xf32>
    (%4) = "pd_op.mean" (%3) {axis:(pd_op.IntArray)[],chunk_id:(Int64)0,keepdim:false,op_role:(Int32)0,stop_gradient:[false]} : (builtin.tensor<2x4x8xf32>) -> builtin.tensor<f32>
    () = "builtin.shadow_output" (%4) {chunk_id:(Int64)0,op_role:(Int32)0,output_name:"loss_0"} : (builtin.tensor<f32>) -> 
    (%5) = "pd_op.full" () {chunk_id:(Int64)0,dtype:(pd_op.DataType)float32,op_role:(Int32)1,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:[true],value:(Float)1} : () -> builtin.tensor<1xf32>
    (%6) = "pd_op.full_like" (%4, %5) {chunk_id:(Int64)0,dtype:(pd_op.DataType)float32,op_role:(Int32)1,place:(pd_op.Place)Place(undefined:0),stop_gradient:[false]} : (builtin.tensor<f32>, builtin.tensor<1xf32>) -> builtin.tensor<f32>
    (%7) = "pd_op.mean_grad" (%3, %6) {axis:(pd_op.IntArray)[],chunk_id:(Int64)0,keepdim:false,op_role:(Int32)1,reduce_all:false,stop_gradient:[false]} : (builtin.tensor<2x4x8xf32>, builtin.tensor<f32>) -> builtin.tensor<2x4x8xf32>
    (%8, %9) = "pd_op.matmul_grad" (%2, %1, %7) {chunk_id:(Int64)0,op_role:(Int32)1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (builtin.tensor<2x4x16xf32>, builtin.tensor<16x8xf32>, builtin.tensor<2x4x8xf32>) -> builtin.tensor<2x4x16xf32>, builtin.tensor<16x8xf32>
    (%10) = "pd_op.relu_grad" (%2, %8) {chunk_id:(Int64)0,op_role:(Int32)1,stop_gradient:[false]} : (builtin.tensor<2x4x16xf32>, builtin.tensor<2x4x16xf32>) -> builtin.tensor<2x4x16xf32>
    () = "builtin.shadow_output" (%9) {chunk_id:(Int64)0,op_role:(Int32)1,output_name:"w@GRAD"} : (builtin.tensor<16x8xf32>) -> 
}
