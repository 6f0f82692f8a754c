{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"image",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[-1,3,32,32],stop_gradient:[true]} : () -> pd_op.tensor<-1x3x32x32xf32>
    (%1) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"conv2d_0.w_0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> pd_op.tensor<8x3x3x3xf32>
    (%2) = "pd_op.conv2d" (%0, %1) {data_format:"NCHW",dilations:[(Int32)1,(Int32)1],groups:(Int32)1,padding_algorithm:"EXPLICIT",paddings:[(Int32)1,(Int32)1],stop_gradient:[false],strides:[(Int32)1,(Int32)1]} : (pd_op.tensor<-1x3x32x32xf32>, pd_op.tensor<8x3x3x3xf32>) -> pd_op.tensor<-1x8x32x32xf32>
    (%3) = "pd_op.relu" (%2) {stop_gradient:[false]} : (pd_op.tensor<-1x8x32x32xf32>) -> pd_op.tensor<-1x8x32x32xf32>
    (%4) = "pd_op.full_int_array" () {dtype:(pd_op.DataType)int64,place:(pd_op.Place)Place(cpu),stop_gradient:[true],value:[(Int64)2,(Int64)2]} : () -> pd_op.tensor<2xi64>
    (%5) = "pd_op.pool2d" (%3, %4) {adaptive:false,ceil_mode:false,data_format:"NCHW",exclusive:true,global_pooling:false,padding_algorithm:"EXPLICIT",paddings:[(Int32)0,(Int32)0],pooling_type:"max",stop_gradient:[false],strides:[(Int32)2,(Int32)2]} : (pd_op.tensor<-1x8x32x32xf32>, pd_op.tensor<2xi64>) -> pd_op.tensor<-1x8x16x16xf32>
    (%6) = "pd_op.flatten" (%5) {start_axis:(Int32)1,stop_axis:(Int32)3,stop_gradient:[false]} : (pd_op.tensor<-1x8x16x16xf32>) -> pd_op.tensor<-1x2048xf32>
    (%7) = "pd_op.fetch" (%6) {col:(Int32)0,name:"fetch_name_0",persistable:[true],stop_gradient:[false]} : (pd_op.tensor<-1x2048xf32>) -> pd_op.tensor<-1x2048xf32>
}
