// RUN: pir-opt %s --pass-pipeline=split-matmul-grad
// RULE: a tagged flag `transpose_x:(Bool)true` is read as true: the (T,F) formulas, x_grad = matmul(y, og, F, T) and y_grad = matmul(x, og, F, F)
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",op_role:(Int32)0,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[8,8],stop_gradient:[false]} : () -> builtin.tensor<8x8xf32>
    (%1) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"w",op_role:(Int32)0,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[8,8],stop_gradient:[false]} : () -> builtin.tensor<8x8xf32>
    (%2) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"og",op_role:(Int32)1,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[8,8],stop_gradient:[false]} : () -> builtin.tensor<8x8xf32>
    (%3, %4) = "pd_op.matmul_grad" (%0, %1, %2) {op_role:(Int32)1,stop_gradient:[false,false],transpose_x:(Bool)true,transpose_y:false} : (builtin.tensor<8x8xf32>, builtin.tensor<8x8xf32>, builtin.tensor<8x8xf32>) -> builtin.tensor<8x8xf32>, builtin.tensor<8x8xf32>
    () = "builtin.shadow_output" (%3) {op_role:(Int32)1,output_name:"dx"} : (builtin.tensor<8x8xf32>) -> 
    () = "builtin.shadow_output" (%4) {op_role:(Int32)1,output_name:"dy"} : (builtin.tensor<8x8xf32>) -> 
}
