// RUN: pir-opt %s --pass-pipeline=split-matmul-grad
// RULE: a rank-4 x cannot be folded: the matmul_grad is left alone, and no op is left behind (the shapes are checked before anything is built)
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",op_role:(Int32)0,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[2,3,4,16],stop_gradient:[false]} : () -> builtin.tensor<2x3x4x16xf32>
    (%1) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"w",op_role:(Int32)0,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[16,8],stop_gradient:[false]} : () -> builtin.tensor<16x8xf32>
    (%2) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"og",op_role:(Int32)1,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[2,3,4,8],stop_gradient:[false]} : () -> builtin.tensor<2x3x4x8xf32>
    (%3, %4) = "pd_op.matmul_grad" (%0, %1, %2) {op_role:(Int32)1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (builtin.tensor<2x3x4x16xf32>, builtin.tensor<16x8xf32>, builtin.tensor<2x3x4x8xf32>) -> builtin.tensor<2x3x4x16xf32>, builtin.tensor<16x8xf32>
    () = "builtin.shadow_output" (%3) {op_role:(Int32)1,output_name:"dx"} : (builtin.tensor<2x3x4x16xf32>) -> 
    () = "builtin.shadow_output" (%4) {op_role:(Int32)1,output_name:"dy"} : (builtin.tensor<16x8xf32>) -> 
}
