{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,8],stop_gradient:[true]} : () -> tensor<2x8xf32>
    (%1) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf32>
    (%2) = "pd_op.scale" (%0, %1) {bias:0.5,bias_after_scale:true,stop_gradient:[true]} : (tensor<2x8xf32>, tensor<1xf32>) -> tensor<2x8xf32>
    (%3) = "pd_op.softmax" (%2) {axis:-1,stop_gradient:[true]} : (tensor<2x8xf32>) -> tensor<2x8xf32>
    (%4) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[16]} : () -> tensor<1xi64>
    (%5) = "pd_op.reshape" (%3, %4) {stop_gradient:[true]} : (tensor<2x8xf32>, tensor<1xi64>) -> tensor<16xf32>
    (%6) = "pd_op.cast" (%5) {dtype:float16,stop_gradient:[true]} : (tensor<16xf32>) -> tensor<16xf16>
    (%7) = "pd_op.mean" (%6) {axis:[],keepdim:false,stop_gradient:[true]} : (tensor<16xf16>) -> tensor<f16>
    (%8) = "pd_op.print" (%7) {first_n:-1,is_forward:true,message:"mean of \"x\" after softmax",print_phase:"BOTH",print_tensor_layout:true,print_tensor_lod:true,print_tensor_name:true,print_tensor_shape:true,print_tensor_type:true,stop_gradient:[true],summarize:20} : (tensor<f16>) -> tensor<f16>
    () = "builtin.shadow_output" (%8) {output_name:"out"} : (tensor<f16>) -> 
}
