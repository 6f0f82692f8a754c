{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[-1,-1,64],stop_gradient:[true]} : () -> builtin.tensor<-1x-1x64xf32>
    (%1) = "pd_op.cast" (%0) {dtype:(pd_op.DataType)bfloat16,stop_gradient:[true]} : (builtin.tensor<-1x-1x64xf32>) -> builtin.tensor<-1x-1x64xbf16>
    (%2) = "pd_op.cast" (%0) {dtype:(pd_op.DataType)float16,stop_gradient:[true]} : (builtin.tensor<-1x-1x64xf32>) -> builtin.tensor<-1x-1x64xf16>
    (%3) = "pd_op.cast" (%0) {dtype:(pd_op.DataType)float64,stop_gradient:[true]} : (builtin.tensor<-1x-1x64xf32>) -> builtin.tensor<-1x-1x64xf64>
    (%4) = "pd_op.cast" (%0) {dtype:(pd_op.DataType)float8_e4m3fn,stop_gradient:[true]} : (builtin.tensor<-1x-1x64xf32>) -> builtin.tensor<-1x-1x64xf8e4m3fn>
    (%5) = "pd_op.cast" (%0) {dtype:(pd_op.DataType)float8_e5m2,stop_gradient:[true]} : (builtin.tensor<-1x-1x64xf32>) -> builtin.tensor<-1x-1x64xf8e5m2>
    (%6) = "pd_op.cast" (%0) {dtype:(pd_op.DataType)complex64,stop_gradient:[true]} : (builtin.tensor<-1x-1x64xf32>) -> builtin.tensor<-1x-1x64xc64>
    (%7) = "pd_op.cast" (%0) {dtype:(pd_op.DataType)complex128,stop_gradient:[true]} : (builtin.tensor<-1x-1x64xf32>) -> builtin.tensor<-1x-1x64xc128>
    (%8) = "pd_op.isnan" (%0) {stop_gradient:[true]} : (builtin.tensor<-1x-1x64xf32>) -> builtin.tensor<-1x-1x64xb>
    (%9) = "pd_op.cast" (%8) {dtype:(pd_op.DataType)uint8,stop_gradient:[true]} : (builtin.tensor<-1x-1x64xb>) -> builtin.tensor<-1x-1x64xu8>
    (%10) = "pd_op.cast" (%0) {dtype:(pd_op.DataType)int8,stop_gradient:[true]} : (builtin.tensor<-1x-1x64xf32>) -> builtin.tensor<-1x-1x64xi8>
    (%11) = "pd_op.cast" (%0) {dtype:(pd_op.DataType)int16,stop_gradient:[true]} : (builtin.tensor<-1x-1x64xf32>) -> builtin.tensor<-1x-1x64xi16>
    (%12) = "pd_op.cast" (%0) {dtype:(pd_op.DataType)int32,stop_gradient:[true]} : (builtin.tensor<-1x-1x64xf32>) -> builtin.tensor<-1x-1x64xi32>
    (%13) = "pd_op.shape" (%0) {stop_gradient:[true]} : (builtin.tensor<-1x-1x64xf32>) -> builtin.tensor<3xi32>
    (%14) = "pd_op.numel" (%0) {stop_gradient:[true]} : (builtin.tensor<-1x-1x64xf32>) -> builtin.tensor<i64>
    (%15) = "pd_op.mean" (%0) {axis:(pd_op.IntArray)[],keepdim:false,stop_gradient:[true]} : (builtin.tensor<-1x-1x64xf32>) -> builtin.tensor<f32>
    (%16) = "pd_op.full" () {dtype:(pd_op.DataType)float32,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[],stop_gradient:[true],value:(Float)0} : () -> builtin.tensor<f32>
    (%17) = "pd_op.maximum" (%15, %16) {stop_gradient:[true]} : (builtin.tensor<f32>, builtin.tensor<f32>) -> builtin.tensor<f32>
    () = "builtin.shadow_output" (%17) {output_name:"m"} : (builtin.tensor<f32>) -> 
    () = "builtin.shadow_output" (%14) {output_name:"n"} : (builtin.tensor<i64>) -> 
}
