// RUN: pir-opt %s --pass-pipeline=export-gradients
// RULE: a parameter updated by two optimizer ops would export two gradients under one name: a located error at the second
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",op_role:(Int32)0,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[-1,3],stop_gradient:[true]} : () -> builtin.tensor<-1x3xf32>
    (%1) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"label",op_role:(Int32)0,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[-1,2],stop_gradient:[true]} : () -> builtin.tensor<-1x2xf32>
    (%2) = "builtin.parameter" () {op_role:(Int32)0,parameter_name:"w",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> builtin.tensor<3x2xf32>
    (%3) = "builtin.parameter" () {op_role:(Int32)0,parameter_name:"b",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> builtin.tensor<2xf32>
    (%4) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"learning_rate",op_role:(Int32)0,persistable:[true],place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[],stop_gradient:[true]} : () -> builtin.tensor<f32>
    (%5) = "pd_op.matmul" (%0, %2) {op_role:(Int32)0,stop_gradient:[false],transpose_x:false,transpose_y:false} : (builtin.tensor<-1x3xf32>, builtin.tensor<3x2xf32>) -> builtin.tensor<-1x2xf32>
    (%6) = "pd_op.add" (%5, %3) {op_role:(Int32)0,stop_gradient:[false]} : (builtin.tensor<-1x2xf32>, builtin.tensor<2xf32>) -> builtin.tensor<-1x2xf32>
    (%7) = "pd_op.relu" (%6) {op_role:(Int32)0,stop_gradient:[false]} : (builtin.tensor<-1x2xf32>) -> builtin.tensor<-1x2xf32>
    (%8) = "pd_op.multiply" (%7, %1) {op_role:(Int32)0,stop_gradient:[false]} : (builtin.tensor<-1x2xf32>, builtin.tensor<-1x2xf32>) -> builtin.tensor<-1x2xf32>
    (%9) = "pd_op.mean" (%8) {axis:(pd_op.IntArray)[],keepdim:false,op_role:(Int32)0,stop_gradient:[false]} : (builtin.tensor<-1x2xf32>) -> builtin.tensor<f32>
    () = "builtin.shadow_output" (%9) {op_role:(Int32)0,output_name:"loss"} : (builtin.tensor<f32>) -> 
    (%10) = "pd_op.full" () {dtype:(pd_op.DataType)float32,op_role:(Int32)1,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:[true],value:(Float)1} : () -> builtin.tensor<1xf32>
    (%11) = "pd_op.full_like" (%9, %10) {dtype:(pd_op.DataType)float32,op_role:(Int32)1,place:(pd_op.Place)Place(undefined:0),stop_gradient:[false]} : (builtin.tensor<f32>, builtin.tensor<1xf32>) -> builtin.tensor<f32>
    (%12) = "pd_op.mean_grad" (%8, %11) {axis:(pd_op.IntArray)[],keepdim:false,op_role:(Int32)1,reduce_all:false,stop_gradient:[false]} : (builtin.tensor<-1x2xf32>, builtin.tensor<f32>) -> builtin.tensor<-1x2xf32>
    (%13, %14) = "pd_op.multiply_grad" (%7, %1, %12) {axis:(Int32)-1,op_role:(Int32)1,stop_gradient:[false,false]} : (builtin.tensor<-1x2xf32>, builtin.tensor<-1x2xf32>, builtin.tensor<-1x2xf32>) -> builtin.tensor<-1x2xf32>, builtin.tensor<-1x2xf32>
    (%15) = "pd_op.relu_grad" (%7, %13) {op_role:(Int32)1,stop_gradient:[false]} : (builtin.tensor<-1x2xf32>, builtin.tensor<-1x2xf32>) -> builtin.tensor<-1x2xf32>
    (%16, %17) = "pd_op.add_grad" (%5, %3, %15) {axis:(Int32)-1,op_role:(Int32)1,stop_gradient:[false,false]} : (builtin.tensor<-1x2xf32>, builtin.tensor<2xf32>, builtin.tensor<-1x2xf32>) -> builtin.tensor<-1x2xf32>, builtin.tensor<2xf32>
    (%18, %19) = "pd_op.matmul_grad" (%0, %2, %16) {op_role:(Int32)1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (builtin.tensor<-1x3xf32>, builtin.tensor<3x2xf32>, builtin.tensor<-1x2xf32>) -> builtin.tensor<-1x3xf32>, builtin.tensor<3x2xf32>
    (%20, %21) = "pd_op.sgd_" (%2, %4, %19, <<NULL VALUE>>) {multi_precision:false,op_role:(Int32)2,stop_gradient:[false,false]} : (builtin.tensor<3x2xf32>, builtin.tensor<f32>, builtin.tensor<3x2xf32>, <<NULL TYPE>>) -> builtin.tensor<3x2xf32>, <<NULL TYPE>>
    (%90, %91) = "pd_op.sgd_" (%2, %4, %19, <<NULL VALUE>>) {multi_precision:false,op_role:(Int32)2,stop_gradient:[false,false]} : (builtin.tensor<3x2xf32>, builtin.tensor<f32>, builtin.tensor<3x2xf32>, <<NULL TYPE>>) -> builtin.tensor<3x2xf32>, <<NULL TYPE>>
    (%22) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"b_moment1",op_role:(Int32)2,persistable:[true],place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[2],stop_gradient:[true]} : () -> builtin.tensor<2xf32>
    (%23) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"b_moment2",op_role:(Int32)2,persistable:[true],place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[2],stop_gradient:[true]} : () -> builtin.tensor<2xf32>
    (%24) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"b_beta1_pow",op_role:(Int32)2,persistable:[true],place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[1],stop_gradient:[true]} : () -> builtin.tensor<1xf32>
    (%25) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"b_beta2_pow",op_role:(Int32)2,persistable:[true],place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[1],stop_gradient:[true]} : () -> builtin.tensor<1xf32>
    (%26, %27, %28, %29, %30, %31) = "pd_op.adamw_" (%3, %17, %4, %22, %23, %24, %25, <<NULL VALUE>>, <<NULL VALUE>>) {beta1:(Float)0.9,beta2:(Float)0.999,coeff:(Float)0.01,epsilon:(Float)1e-06,lazy_mode:false,lr_ratio:(Float)1,min_row_size_to_use_multithread:(Int64)1000,multi_precision:false,op_role:(Int32)2,stop_gradient:[false,false,false,false,false,false],use_global_beta_pow:false,with_decay:true} : (builtin.tensor<2xf32>, builtin.tensor<2xf32>, builtin.tensor<f32>, builtin.tensor<2xf32>, builtin.tensor<2xf32>, builtin.tensor<1xf32>, builtin.tensor<1xf32>, <<NULL TYPE>>, <<NULL TYPE>>) -> builtin.tensor<2xf32>, builtin.tensor<2xf32>, builtin.tensor<2xf32>, builtin.tensor<1xf32>, builtin.tensor<1xf32>, <<NULL TYPE>>
}
