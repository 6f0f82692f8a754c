{
    (%0) = "builtin.parameter" () {parameter_name:"conv2d_0.w_0",persistable:[true],stop_gradient:[false]} : () -> builtin.tensor<64x8x7x7xf32>
    (%1) = "pd_op.feed" () {col:(Int32)0,name:"data",persistable:[false],stop_gradient:[true]} : () -> builtin.tensor<-1x8x224x224xf32>
    (%2) = "pd_op.conv2d" (%1, %0) {data_format:"NCHW",dilations:[(Int32)1,(Int32)1],groups:(Int32)1,padding_algorithm:"EXPLICIT",paddings:[(Int32)3,(Int32)3],persistable:[false],stop_gradient:[false],strides:[(Int32)2,(Int32)2]} : (builtin.tensor<-1x3x224x224xf32>, builtin.tensor<64x3x7x7xf32>) -> builtin.tensor<-1x64x112x112xf32>
    (%3) = "pd_op.relu" (%2) {persistable:[false],stop_gradient:[false]} : (builtin.tensor<-1x64x56x56xf32>) -> builtin.tensor<-1x64x112x112xf32>
}
