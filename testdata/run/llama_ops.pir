// A decoder block of the transformer ops (issue 30), forward and backward, dense and in the newest
// printer era: embedding and c_embedding, rms_norm, q/k/v projections (2 query heads, 1 kv head),
// fused_rotary_position_embedding (halves), causal flash_attn, o-projection and residual, a swiglu MLP
// with dropout p = 0 in training, silu and mean; then every grad by hand (add_n summing h's three), down
// to embedding_grad, and a c_embedding_grad of a fed gradient. app/tests/cli_run_llama_ops_test.sh
// checks the values against numpy.
{
    (%0) = "pd_op.data" () {dtype:int64,name:"ids",place:Place(cpu),shape:[2,4],stop_gradient:[true]} : () -> tensor<2x4xi64>
    (%1) = "pd_op.data" () {dtype:float32,name:"sin",place:Place(cpu),shape:[1,4,1,4],stop_gradient:[true]} : () -> tensor<1x4x1x4xf32>
    (%2) = "pd_op.data" () {dtype:float32,name:"cos",place:Place(cpu),shape:[1,4,1,4],stop_gradient:[true]} : () -> tensor<1x4x1x4xf32>
    (%3) = "pd_op.data" () {dtype:float32,name:"ce_grad",place:Place(cpu),shape:[2,4,8],stop_gradient:[true]} : () -> tensor<2x4x8xf32>
    (%4) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"emb",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<10x8xf32>
    (%5) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"ln",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8xf32>
    (%6) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"wq",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x8xf32>
    (%7) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"wk",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x4xf32>
    (%8) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"wv",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x4xf32>
    (%9) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"wo",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x8xf32>
    (%10) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"wgu",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x12xf32>
    (%11) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"wd",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<6x8xf32>
    (%12) = "pd_op.embedding" (%0, %4) {padding_idx:-1,sparse:false,stop_gradient:[false]} : (tensor<2x4xi64>, tensor<10x8xf32>) -> tensor<2x4x8xf32>
    (%13) = "pd_op.c_embedding" (%4, %0) {start_index:3,stop_gradient:[false],vocab_size:13} : (tensor<10x8xf32>, tensor<2x4xi64>) -> tensor<2x4x8xf32>
    (%14, %15, %16) = "pd_op.rms_norm" (%12, <<NULL VALUE>>, <<NULL VALUE>>, %5, <<NULL VALUE>>) {begin_norm_axis:2,epsilon:1e-06,quant_max_bound:0,quant_min_bound:0,quant_round_type:0,quant_scale:-1,stop_gradient:[false]} : (tensor<2x4x8xf32>, <<NULL TYPE>>, <<NULL TYPE>>, tensor<8xf32>, <<NULL TYPE>>) -> tensor<2x4x8xf32>, <<NULL TYPE>>, tensor<2x4xf32>
    (%17) = "pd_op.matmul" (%14, %6) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x8xf32>) -> tensor<2x4x8xf32>
    (%18) = "pd_op.matmul" (%14, %7) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x4xf32>) -> tensor<2x4x4xf32>
    (%19) = "pd_op.matmul" (%14, %8) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x4xf32>) -> tensor<2x4x4xf32>
    (%20) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[2,4,2,4]} : () -> tensor<4xi64>
    (%21) = "pd_op.reshape" (%17, %20) {stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<4xi64>) -> tensor<2x4x2x4xf32>
    (%22) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[2,4,1,4]} : () -> tensor<4xi64>
    (%23) = "pd_op.reshape" (%18, %22) {stop_gradient:[false]} : (tensor<2x4x4xf32>, tensor<4xi64>) -> tensor<2x4x1x4xf32>
    (%24) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[2,4,1,4]} : () -> tensor<4xi64>
    (%25) = "pd_op.reshape" (%19, %24) {stop_gradient:[false]} : (tensor<2x4x4xf32>, tensor<4xi64>) -> tensor<2x4x1x4xf32>
    (%26, %27, %28) = "pd_op.fused_rotary_position_embedding" (%21, %23, <<NULL VALUE>>, %1, %2, <<NULL VALUE>>) {rotary_emb_base:10000,time_major:false,use_neox_rotary_style:false,stop_gradient:[false]} : (tensor<2x4x2x4xf32>, tensor<2x4x1x4xf32>, <<NULL TYPE>>, tensor<1x4x1x4xf32>, tensor<1x4x1x4xf32>, <<NULL TYPE>>) -> tensor<2x4x2x4xf32>, tensor<2x4x1x4xf32>, <<NULL TYPE>>
    (%29, %30, %31, %32) = "pd_op.flash_attn" (%26, %27, %25, <<NULL VALUE>>, <<NULL VALUE>>) {causal:true,dropout:0,is_test:false,return_softmax:false,rng_name:"",stop_gradient:[false]} : (tensor<2x4x2x4xf32>, tensor<2x4x1x4xf32>, tensor<2x4x1x4xf32>, <<NULL TYPE>>, <<NULL TYPE>>) -> tensor<2x4x2x4xf32>, <<NULL TYPE>>, tensor<2x2x128xf32>, tensor<2xi64>
    (%33) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[2,4,8]} : () -> tensor<3xi64>
    (%34) = "pd_op.reshape" (%29, %33) {stop_gradient:[false]} : (tensor<2x4x2x4xf32>, tensor<3xi64>) -> tensor<2x4x8xf32>
    (%35) = "pd_op.matmul" (%34, %9) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x8xf32>) -> tensor<2x4x8xf32>
    (%36) = "pd_op.add" (%12, %35) {stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    (%37) = "pd_op.matmul" (%36, %10) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x12xf32>) -> tensor<2x4x12xf32>
    (%38) = "pd_op.swiglu" (%37, <<NULL VALUE>>) {stop_gradient:[false]} : (tensor<2x4x12xf32>, <<NULL TYPE>>) -> tensor<2x4x6xf32>
    (%39) = "pd_op.matmul" (%38, %11) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<2x4x6xf32>, tensor<6x8xf32>) -> tensor<2x4x8xf32>
    (%40, %41) = "pd_op.dropout" (%39, <<NULL VALUE>>) {fix_seed:false,is_test:false,mode:"upscale_in_train",p:0,seed:0,stop_gradient:[false]} : (tensor<2x4x8xf32>, <<NULL TYPE>>) -> tensor<2x4x8xf32>, tensor<2x4x8xu8>
    (%42) = "pd_op.add" (%36, %40) {stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    (%43) = "pd_op.silu" (%42) {stop_gradient:[false]} : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    (%44) = "pd_op.mean" (%43) {axis:[],keepdim:false,stop_gradient:[false]} : (tensor<2x4x8xf32>) -> tensor<f32>
    (%45) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[],stop_gradient:[false],value:1} : () -> tensor<f32>
    (%46) = "pd_op.mean_grad" (%43, %45) {axis:[],keepdim:false,reduce_all:false,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<f32>) -> tensor<2x4x8xf32>
    (%47) = "pd_op.silu_grad" (%42, %43, %46) {stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    (%48, %49) = "pd_op.add_grad" (%36, %40, %47) {axis:-1,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<2x4x8xf32>
    (%50) = "pd_op.dropout_grad" (%41, %49) {is_test:false,mode:"upscale_in_train",p:0,stop_gradient:[false]} : (tensor<2x4x8xu8>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    (%51, %52) = "pd_op.matmul_grad" (%38, %11, %50) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<2x4x6xf32>, tensor<6x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x6xf32>, tensor<6x8xf32>
    (%53, %54) = "pd_op.swiglu_grad" (%37, <<NULL VALUE>>, %51) {stop_gradient:[false]} : (tensor<2x4x12xf32>, <<NULL TYPE>>, tensor<2x4x6xf32>) -> tensor<2x4x12xf32>, <<NULL TYPE>>
    (%55, %56) = "pd_op.matmul_grad" (%36, %10, %53) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x12xf32>, tensor<2x4x12xf32>) -> tensor<2x4x8xf32>, tensor<8x12xf32>
    (%57) = "pd_op.add" (%48, %55) {stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    (%58, %59) = "pd_op.add_grad" (%12, %35, %57) {axis:-1,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<2x4x8xf32>
    (%60, %61) = "pd_op.matmul_grad" (%34, %9, %59) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<8x8xf32>
    (%62) = "pd_op.reshape_grad" (%29, %60) {stop_gradient:[false]} : (tensor<2x4x2x4xf32>, tensor<2x4x8xf32>) -> tensor<2x4x2x4xf32>
    (%63, %64, %65) = "pd_op.flash_attn_grad" (%26, %27, %25, %29, %31, %32, <<NULL VALUE>>, %62) {causal:true,dropout:0,stop_gradient:[false]} : (tensor<2x4x2x4xf32>, tensor<2x4x1x4xf32>, tensor<2x4x1x4xf32>, tensor<2x4x2x4xf32>, tensor<2x2x128xf32>, tensor<2xi64>, <<NULL TYPE>>, tensor<2x4x2x4xf32>) -> tensor<2x4x2x4xf32>, tensor<2x4x1x4xf32>, tensor<2x4x1x4xf32>
    (%66, %67, %68) = "pd_op.fused_rotary_position_embedding_grad" (%1, %2, <<NULL VALUE>>, %63, %64, <<NULL VALUE>>) {rotary_emb_base:10000,time_major:false,use_neox_rotary_style:false,stop_gradient:[false]} : (tensor<1x4x1x4xf32>, tensor<1x4x1x4xf32>, <<NULL TYPE>>, tensor<2x4x2x4xf32>, tensor<2x4x1x4xf32>, <<NULL TYPE>>) -> tensor<2x4x2x4xf32>, tensor<2x4x1x4xf32>, <<NULL TYPE>>
    (%69) = "pd_op.reshape_grad" (%17, %66) {stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x2x4xf32>) -> tensor<2x4x8xf32>
    (%70) = "pd_op.reshape_grad" (%18, %67) {stop_gradient:[false]} : (tensor<2x4x4xf32>, tensor<2x4x1x4xf32>) -> tensor<2x4x4xf32>
    (%71) = "pd_op.reshape_grad" (%19, %65) {stop_gradient:[false]} : (tensor<2x4x4xf32>, tensor<2x4x1x4xf32>) -> tensor<2x4x4xf32>
    (%72, %73) = "pd_op.matmul_grad" (%14, %6, %69) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<8x8xf32>
    (%74, %75) = "pd_op.matmul_grad" (%14, %7, %70) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x8xf32>, tensor<8x4xf32>
    (%76, %77) = "pd_op.matmul_grad" (%14, %8, %71) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<2x4x8xf32>, tensor<8x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x8xf32>, tensor<8x4xf32>
    (%78) = "builtin.combine" (%72, %74, %76) {stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>,tensor<2x4x8xf32>]
    (%79) = "pd_op.add_n" (%78) {stop_gradient:[false]} : (vec[tensor<2x4x8xf32>,tensor<2x4x8xf32>,tensor<2x4x8xf32>]) -> tensor<2x4x8xf32>
    (%80, %81, %82) = "pd_op.rms_norm_grad" (%12, <<NULL VALUE>>, <<NULL VALUE>>, %5, <<NULL VALUE>>, %16, %79) {begin_norm_axis:2,epsilon:1e-06,quant_scale:-1,stop_gradient:[false]} : (tensor<2x4x8xf32>, <<NULL TYPE>>, <<NULL TYPE>>, tensor<8xf32>, <<NULL TYPE>>, tensor<2x4xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>, tensor<8xf32>, <<NULL TYPE>>
    (%83) = "pd_op.add" (%58, %80) {stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    (%84) = "pd_op.embedding_grad" (%0, %4, %83) {padding_idx:-1,stop_gradient:[false]} : (tensor<2x4xi64>, tensor<10x8xf32>, tensor<2x4x8xf32>) -> tensor<10x8xf32>
    (%85) = "pd_op.c_embedding_grad" (%4, %0, %3) {start_index:3,stop_gradient:[false]} : (tensor<10x8xf32>, tensor<2x4xi64>, tensor<2x4x8xf32>) -> tensor<10x8xf32>
    () = "builtin.shadow_output" (%44) {output_name:"loss"} : (tensor<f32>) -> 
}
