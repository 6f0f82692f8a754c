// RUN: pir-opt %s --pass-pipeline=pipeline-split{mode=ZBH1}
// RULE: a W op (matmul to a parameter's gradient) reads a value that a later B op (add_) writes in place; backward_w runs after backward_b, so it would read the written value: a located error at the reader, with a note at the writer
{
    (%0) = "builtin.parameter" () {op_role:(Int32)0,parameter_name:"w",persistable:[true],stop_gradient:[false]} : () -> builtin.tensor<4x4xf32>
    (%1) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",op_role:(Int32)0,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,4],stop_gradient:[true]} : () -> builtin.tensor<4x4xf32>
    (%2) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"lr",op_role:(Int32)0,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[],stop_gradient:[true]} : () -> builtin.tensor<f32>
    (%3) = "pd_op.matmul" (%1, %0) {op_role:(Int32)0,stop_gradient:[false],transpose_x:false,transpose_y:false} : (builtin.tensor<4x4xf32>, builtin.tensor<4x4xf32>) -> builtin.tensor<4x4xf32>
    (%4) = "pd_op.full_like" (%3) {dtype:(pd_op.DataType)float32,op_role:(Int32)1,place:(pd_op.Place)Place(undefined:0),stop_gradient:[false],value:(Float)1} : (builtin.tensor<4x4xf32>) -> builtin.tensor<4x4xf32>
    (%5) = "pd_op.matmul" (%1, %4) {op_role:(Int32)1,stop_gradient:[false],transpose_x:true,transpose_y:false} : (builtin.tensor<4x4xf32>, builtin.tensor<4x4xf32>) -> builtin.tensor<4x4xf32>
    (%6) = "pd_op.add_" (%4, %4) {op_role:(Int32)1,stop_gradient:[false]} : (builtin.tensor<4x4xf32>, builtin.tensor<4x4xf32>) -> builtin.tensor<4x4xf32>
    () = "pd_op.send_v2" (%6) {op_role:(Int32)1,peer:(Int32)0,ring_id:(Int32)11,use_calc_stream:true,dynamic_shape:false} : (builtin.tensor<4x4xf32>) -> 
    (%7, %8) = "pd_op.sgd_" (%0, %2, %5, <<NULL VALUE>>) {multi_precision:false,op_role:(Int32)2,stop_gradient:[false,false]} : (builtin.tensor<4x4xf32>, builtin.tensor<f32>, builtin.tensor<4x4xf32>, <<NULL TYPE>>) -> builtin.tensor<4x4xf32>, <<NULL TYPE>>
}
