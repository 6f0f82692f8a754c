{
    (%0) = "pd_op.data" [id:16] () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[-1,8],stop_gradient:[true]} : () -> builtin.tensor<-1x8xf32>
    (%1) = "pd_op.full" [id:17] () {dtype:(pd_op.DataType)float32,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:[true],value:(Float)2} : () -> builtin.tensor<1xf32>
    (%2) = "pd_op.scale" [id:18] (%0, %1) {bias:(Float)0,bias_after_scale:true,stop_gradient:[true]} : (builtin.tensor<-1x8xf32>, builtin.tensor<1xf32>) -> builtin.tensor<-1x8xf32>
    (%3) = "pd_op.mean" [id:19] (%2) {axis:(pd_op.IntArray)[],keepdim:false,stop_gradient:[true]} : (builtin.tensor<-1x8xf32>) -> builtin.tensor<f32>
    (%4) = "pd_op.greater_than" [id:20] (%3, %1) {stop_gradient:[true]} : (builtin.tensor<f32>, builtin.tensor<1xf32>) -> builtin.tensor<1xb>
    (%5) = "pd_op.if" [id:21] (%4) {stop_gradient:[true]} -> builtin.tensor<-1x8xf32> {
        (%6) = "pd_op.relu" [id:24] (%2) {stop_gradient:[true]} : (builtin.tensor<-1x8xf32>) -> builtin.tensor<-1x8xf32>
        () = "cf.yield" [id:25] (%6) {} : (builtin.tensor<-1x8xf32>) -> 
    } else {
        (%7) = "pd_op.tanh" [id:26] (%2) {stop_gradient:[true]} : (builtin.tensor<-1x8xf32>) -> builtin.tensor<-1x8xf32>
        () = "cf.yield" [id:27] (%7) {} : (builtin.tensor<-1x8xf32>) -> 
    }
    (%8) = "pd_op.fetch" [id:28] (%5) {col:(Int32)0,name:"fetch_name_0",persistable:[true],stop_gradient:[true]} : (builtin.tensor<-1x8xf32>) -> builtin.tensor<-1x8xf32>
}
