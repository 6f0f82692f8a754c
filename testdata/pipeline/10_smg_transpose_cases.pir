// RUN: pir-opt %s --pass-pipeline=split-matmul-grad
// RULE: split-matmul-grad, the four transpose cases (rank 2, M=4 K=16 N=8): nn dx=og*y^T dy=x^T*og; tn dx=y*og^T dy=x*og; nt dx=og*y dy=og^T*x; tt dx=y^T*og^T dy=og^T*x^T; each result shape equals the replaced one
{
    (%0) = "pd_op.data" () {chunk_id:(Int64)0,dtype:(pd_op.DataType)float32,name:"x_nn",op_role:(Int32)1,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,16],stop_gradient:[false]} : () -> builtin.tensor<4x16xf32>
    (%1) = "pd_op.data" () {chunk_id:(Int64)0,dtype:(pd_op.DataType)float32,name:"y_nn",op_role:(Int32)1,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[16,8],stop_gradient:[false]} : () -> builtin.tensor<16x8xf32>
    (%2) = "pd_op.data" () {chunk_id:(Int64)0,dtype:(pd_op.DataType)float32,name:"og_nn",op_role:(Int32)1,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,8],stop_gradient:[false]} : () -> builtin.tensor<4x8xf32>
    (%3, %4) = "pd_op.matmul_grad" (%0, %1, %2) {chunk_id:(Int64)0,op_role:(Int32)1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (builtin.tensor<4x16xf32>, builtin.tensor<16x8xf32>, builtin.tensor<4x8xf32>) -> builtin.tensor<4x16xf32>, builtin.tensor<16x8xf32>
    () = "builtin.shadow_output" (%3) {output_name:"dx_nn"} : (builtin.tensor<4x16xf32>) -> 
    () = "builtin.shadow_output" (%4) {output_name:"dy_nn"} : (builtin.tensor<16x8xf32>) -> 
    (%5) = "pd_op.data" () {chunk_id:(Int64)0,dtype:(pd_op.DataType)float32,name:"x_tn",op_role:(Int32)1,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[16,4],stop_gradient:[false]} : () -> builtin.tensor<16x4xf32>
    (%6) = "pd_op.data" () {chunk_id:(Int64)0,dtype:(pd_op.DataType)float32,name:"y_tn",op_role:(Int32)1,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[16,8],stop_gradient:[false]} : () -> builtin.tensor<16x8xf32>
    (%7) = "pd_op.data" () {chunk_id:(Int64)0,dtype:(pd_op.DataType)float32,name:"og_tn",op_role:(Int32)1,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,8],stop_gradient:[false]} : () -> builtin.tensor<4x8xf32>
    (%8, %9) = "pd_op.matmul_grad" (%5, %6, %7) {chunk_id:(Int64)0,op_role:(Int32)1,stop_gradient:[false,false],transpose_x:true,transpose_y:false} : (builtin.tensor<16x4xf32>, builtin.tensor<16x8xf32>, builtin.tensor<4x8xf32>) -> builtin.tensor<16x4xf32>, builtin.tensor<16x8xf32>
    () = "builtin.shadow_output" (%8) {output_name:"dx_tn"} : (builtin.tensor<16x4xf32>) -> 
    () = "builtin.shadow_output" (%9) {output_name:"dy_tn"} : (builtin.tensor<16x8xf32>) -> 
    (%10) = "pd_op.data" () {chunk_id:(Int64)0,dtype:(pd_op.DataType)float32,name:"x_nt",op_role:(Int32)1,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,16],stop_gradient:[false]} : () -> builtin.tensor<4x16xf32>
    (%11) = "pd_op.data" () {chunk_id:(Int64)0,dtype:(pd_op.DataType)float32,name:"y_nt",op_role:(Int32)1,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[8,16],stop_gradient:[false]} : () -> builtin.tensor<8x16xf32>
    (%12) = "pd_op.data" () {chunk_id:(Int64)0,dtype:(pd_op.DataType)float32,name:"og_nt",op_role:(Int32)1,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,8],stop_gradient:[false]} : () -> builtin.tensor<4x8xf32>
    (%13, %14) = "pd_op.matmul_grad" (%10, %11, %12) {chunk_id:(Int64)0,op_role:(Int32)1,stop_gradient:[false,false],transpose_x:false,transpose_y:true} : (builtin.tensor<4x16xf32>, builtin.tensor<8x16xf32>, builtin.tensor<4x8xf32>) -> builtin.tensor<4x16xf32>, builtin.tensor<8x16xf32>
    () = "builtin.shadow_output" (%13) {output_name:"dx_nt"} : (builtin.tensor<4x16xf32>) -> 
    () = "builtin.shadow_output" (%14) {output_name:"dy_nt"} : (builtin.tensor<8x16xf32>) -> 
    (%15) = "pd_op.data" () {chunk_id:(Int64)0,dtype:(pd_op.DataType)float32,name:"x_tt",op_role:(Int32)1,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[16,4],stop_gradient:[false]} : () -> builtin.tensor<16x4xf32>
    (%16) = "pd_op.data" () {chunk_id:(Int64)0,dtype:(pd_op.DataType)float32,name:"y_tt",op_role:(Int32)1,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[8,16],stop_gradient:[false]} : () -> builtin.tensor<8x16xf32>
    (%17) = "pd_op.data" () {chunk_id:(Int64)0,dtype:(pd_op.DataType)float32,name:"og_tt",op_role:(Int32)1,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,8],stop_gradient:[false]} : () -> builtin.tensor<4x8xf32>
    (%18, %19) = "pd_op.matmul_grad" (%15, %16, %17) {chunk_id:(Int64)0,op_role:(Int32)1,stop_gradient:[false,false],transpose_x:true,transpose_y:true} : (builtin.tensor<16x4xf32>, builtin.tensor<8x16xf32>, builtin.tensor<4x8xf32>) -> builtin.tensor<16x4xf32>, builtin.tensor<8x16xf32>
    () = "builtin.shadow_output" (%18) {output_name:"dx_tt"} : (builtin.tensor<16x4xf32>) -> 
    () = "builtin.shadow_output" (%19) {output_name:"dy_tt"} : (builtin.tensor<8x16xf32>) -> 
}
