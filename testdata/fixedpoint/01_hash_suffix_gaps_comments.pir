// program dumped with FLAGS_print_ir, values carry hash suffixes
{   // Operator Dialect
  (%5_8121790596710454734) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"A",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[-1,30],stop_gradient:[true]} : () -> builtin.tensor<-1x30xf32>   // the input
	(%2_129381) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"fc_0.w_0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> builtin.tensor<30x30xf32>
      (%0_77) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"fc_0.b_0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> builtin.tensor<30xf32>
      // x @ w + b
  (%9_5) = "pd_op.matmul" (%5_8121790596710454734, %2_129381) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (builtin.tensor<-1x30xf32>, builtin.tensor<30x30xf32>) -> builtin.tensor<-1x30xf32>
        (%12) = "pd_op.add" (%9_5, %0_77) {stop_gradient:[false]} : (builtin.tensor<-1x30xf32>, builtin.tensor<30xf32>) -> builtin.tensor<-1x30xf32>
  (%40) = "pd_op.print" (%12) {first_n:(Int32)-1,is_forward:true,message:"see http://paddle.dev // not a comment",print_phase:"FORWARD",print_tensor_layout:true,print_tensor_lod:true,print_tensor_name:true,print_tensor_shape:true,print_tensor_type:true,stop_gradient:[false],summarize:(Int32)20} : (builtin.tensor<-1x30xf32>) -> builtin.tensor<-1x30xf32>
  () = "builtin.shadow_output" (%40) {output_name:"out"} : (builtin.tensor<-1x30xf32>) -> 
}
