// Causal attention in the decomposed form (transpose, matmul with transpose_y, scale, triu/full/where
// masking, softmax) and as flash_attn, forward and backward by hand (issue 30), dense, newest printer era.
// app/tests/cli_run_llama_ops_test.sh checks both against numpy and each other.
{
    (%0) = "pd_op.data" () {dtype:float32,name:"q",place:Place(cpu),shape:[1,4,2,4],stop_gradient:[true]} : () -> tensor<1x4x2x4xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"k",place:Place(cpu),shape:[1,4,2,4],stop_gradient:[true]} : () -> tensor<1x4x2x4xf32>
    (%2) = "pd_op.data" () {dtype:float32,name:"v",place:Place(cpu),shape:[1,4,2,4],stop_gradient:[true]} : () -> tensor<1x4x2x4xf32>
    (%3) = "pd_op.data" () {dtype:float32,name:"w",place:Place(cpu),shape:[1,4,2,4],stop_gradient:[true]} : () -> tensor<1x4x2x4xf32>
    (%4) = "pd_op.transpose" (%0) {perm:[0,2,1,3],stop_gradient:[false]} : (tensor<1x4x2x4xf32>) -> tensor<1x2x4x4xf32>
    (%5) = "pd_op.transpose" (%1) {perm:[0,2,1,3],stop_gradient:[false]} : (tensor<1x4x2x4xf32>) -> tensor<1x2x4x4xf32>
    (%6) = "pd_op.transpose" (%2) {perm:[0,2,1,3],stop_gradient:[false]} : (tensor<1x4x2x4xf32>) -> tensor<1x2x4x4xf32>
    (%7) = "pd_op.matmul" (%4, %5) {stop_gradient:[false],transpose_x:false,transpose_y:true} : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
    (%8) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%9) = "pd_op.scale" (%7, %8) {bias:0,bias_after_scale:true,stop_gradient:[false]} : (tensor<1x2x4x4xf32>, tensor<1xf32>) -> tensor<1x2x4x4xf32>
    (%10) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[4,4],stop_gradient:[true],value:1} : () -> tensor<4x4xf32>
    (%11) = "pd_op.triu" (%10) {diagonal:1,stop_gradient:[true]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    (%12) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%13) = "pd_op.greater_than" (%11, %12) {stop_gradient:[true]} : (tensor<4x4xf32>, tensor<1xf32>) -> tensor<4x4xb>
    (%14) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:-1e+09} : () -> tensor<1xf32>
    (%15) = "pd_op.where" (%13, %14, %9) {stop_gradient:[false]} : (tensor<4x4xb>, tensor<1xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
    (%16) = "pd_op.softmax" (%15) {axis:-1,stop_gradient:[false]} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
    (%17) = "pd_op.matmul" (%16, %6) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
    (%18) = "pd_op.transpose" (%17) {perm:[0,2,1,3],stop_gradient:[false]} : (tensor<1x2x4x4xf32>) -> tensor<1x4x2x4xf32>
    (%19, %20, %21, %22) = "pd_op.flash_attn" (%0, %1, %2, <<NULL VALUE>>, <<NULL VALUE>>) {causal:true,dropout:0,is_test:false,return_softmax:false,rng_name:"",stop_gradient:[false]} : (tensor<1x4x2x4xf32>, tensor<1x4x2x4xf32>, tensor<1x4x2x4xf32>, <<NULL TYPE>>, <<NULL TYPE>>) -> tensor<1x4x2x4xf32>, <<NULL TYPE>>, tensor<1x2x128xf32>, tensor<2xi64>
    (%23) = "pd_op.multiply" (%18, %3) {stop_gradient:[false]} : (tensor<1x4x2x4xf32>, tensor<1x4x2x4xf32>) -> tensor<1x4x2x4xf32>
    (%24) = "pd_op.mean" (%23) {axis:[],keepdim:false,stop_gradient:[false]} : (tensor<1x4x2x4xf32>) -> tensor<f32>
    (%25) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[],stop_gradient:[false],value:1} : () -> tensor<f32>
    (%26) = "pd_op.mean_grad" (%23, %25) {axis:[],keepdim:false,reduce_all:false,stop_gradient:[false]} : (tensor<1x4x2x4xf32>, tensor<f32>) -> tensor<1x4x2x4xf32>
    (%27, %28) = "pd_op.multiply_grad" (%18, %3, %26) {axis:-1,stop_gradient:[false]} : (tensor<1x4x2x4xf32>, tensor<1x4x2x4xf32>, tensor<1x4x2x4xf32>) -> tensor<1x4x2x4xf32>, <<NULL TYPE>>
    (%29) = "pd_op.transpose_grad" (%27) {perm:[0,2,1,3],stop_gradient:[false]} : (tensor<1x4x2x4xf32>) -> tensor<1x2x4x4xf32>
    (%30, %31) = "pd_op.matmul_grad" (%16, %6, %29) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
    (%32) = "pd_op.softmax_grad" (%16, %30) {axis:-1,stop_gradient:[false]} : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
    (%33, %34) = "pd_op.where_grad" (%13, %14, %9, %32) {stop_gradient:[false]} : (tensor<4x4xb>, tensor<1xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> <<NULL TYPE>>, tensor<1x2x4x4xf32>
    (%35) = "pd_op.scale" (%34, %8) {bias:0,bias_after_scale:true,stop_gradient:[false]} : (tensor<1x2x4x4xf32>, tensor<1xf32>) -> tensor<1x2x4x4xf32>
    (%36, %37) = "pd_op.matmul_grad" (%4, %5, %35) {stop_gradient:[false],transpose_x:false,transpose_y:true} : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
    (%38) = "pd_op.transpose_grad" (%36) {perm:[0,2,1,3],stop_gradient:[false]} : (tensor<1x2x4x4xf32>) -> tensor<1x4x2x4xf32>
    (%39) = "pd_op.transpose_grad" (%37) {perm:[0,2,1,3],stop_gradient:[false]} : (tensor<1x2x4x4xf32>) -> tensor<1x4x2x4xf32>
    (%40) = "pd_op.transpose_grad" (%31) {perm:[0,2,1,3],stop_gradient:[false]} : (tensor<1x2x4x4xf32>) -> tensor<1x4x2x4xf32>
    (%41, %42, %43) = "pd_op.flash_attn_grad" (%0, %1, %2, %19, %21, %22, <<NULL VALUE>>, %27) {causal:true,dropout:0,stop_gradient:[false]} : (tensor<1x4x2x4xf32>, tensor<1x4x2x4xf32>, tensor<1x4x2x4xf32>, tensor<1x4x2x4xf32>, tensor<1x2x128xf32>, tensor<2xi64>, <<NULL TYPE>>, tensor<1x4x2x4xf32>) -> tensor<1x4x2x4xf32>, tensor<1x4x2x4xf32>, tensor<1x4x2x4xf32>
    () = "builtin.shadow_output" (%24) {output_name:"loss"} : (tensor<f32>) -> 
}
