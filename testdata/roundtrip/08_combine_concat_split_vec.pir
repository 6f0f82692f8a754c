{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"a",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[2,3],stop_gradient:[false]} : () -> builtin.tensor<2x3xf32>
    (%1) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"b",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[2,5],stop_gradient:[false]} : () -> builtin.tensor<2x5xf32>
    (%2) = "pd_op.full" () {dtype:(pd_op.DataType)int32,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:[true],value:(Double)1} : () -> builtin.tensor<1xi32>
    (%3) = "builtin.combine" (%0, %1) {stop_gradient:[false]} : (builtin.tensor<2x3xf32>, builtin.tensor<2x5xf32>) -> vec[builtin.tensor<2x3xf32>,builtin.tensor<2x5xf32>]
    (%4) = "pd_op.concat" (%3, %2) {stop_gradient:[false]} : (vec[builtin.tensor<2x3xf32>,builtin.tensor<2x5xf32>], builtin.tensor<1xi32>) -> builtin.tensor<2x8xf32>
    (%5) = "pd_op.split_with_num" (%4, %2) {num:(Int32)2,stop_gradient:[false]} : (builtin.tensor<2x8xf32>, builtin.tensor<1xi32>) -> vec[builtin.tensor<2x4xf32>,builtin.tensor<2x4xf32>]
    (%6, %7) = "builtin.split" (%5) {stop_gradient:[false,false]} : (vec[builtin.tensor<2x4xf32>,builtin.tensor<2x4xf32>]) -> builtin.tensor<2x4xf32>, builtin.tensor<2x4xf32>
    (%8) = "pd_op.add" (%6, %7) {stop_gradient:[false]} : (builtin.tensor<2x4xf32>, builtin.tensor<2x4xf32>) -> builtin.tensor<2x4xf32>
    (%9) = "builtin.combine" (%8, %6, %7) {stop_gradient:[false]} : (builtin.tensor<2x4xf32>, builtin.tensor<2x4xf32>, builtin.tensor<2x4xf32>) -> vec[builtin.tensor<2x4xf32>,builtin.tensor<2x4xf32>,builtin.tensor<2x4xf32>]
    (%10) = "pd_op.stack" (%9) {axis:(Int32)0,stop_gradient:[false]} : (vec[builtin.tensor<2x4xf32>,builtin.tensor<2x4xf32>,builtin.tensor<2x4xf32>]) -> builtin.tensor<3x2x4xf32>
    () = "builtin.shadow_output" (%10) {output_name:"stacked"} : (builtin.tensor<3x2x4xf32>) -> 
}
